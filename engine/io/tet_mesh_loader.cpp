// Tet mesh readers: Gmsh MSH 2.2/4.1 ASCII, TetGen .node/.ele and legacy VTK ASCII. Each reader
// walks the text once, line by line (token by token for VTK, whose numbers may wrap lines),
// keeps the line of every node and tet, and reports problems at their line. Counts from the
// file only bound loops (which stop at the end of the text); reservations are capped by the text
// size, so a corrupt count cannot allocate more than the file could hold.
#include "engine/io/tet_mesh_loader.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <climits>
#include <cmath>
#include <filesystem>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/io/text_file.h"

namespace sim::io {

namespace {

// a node or tet record needs at least this many bytes of text ("0 0 0 0\n" is 8), so no count
// can be larger than text size / kMinRecordBytes; used to cap reservations
constexpr std::size_t kMinRecordBytes = 8;

// parse errors listed per file before they are only counted
constexpr int kMaxParseErrors = 50;

// VTK_TETRA in VTK's cell type enumeration (vtkCellType.h)
constexpr long long kVtkTetra = 10;

// Gmsh element type of the 4-node tetrahedron (MSH format documentation, "elm-type")
constexpr long long kGmshTet4 = 4;

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }


bool ParseInt(std::string_view s, long long* out) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && end == s.data() + s.size();
}


bool ParseReal(std::string_view s, Real* out) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && end == s.data() + s.size();
}


std::string Quoted(std::string_view s) {
  // long garbage tokens are cut so a binary blob cannot flood the message
  constexpr std::size_t kMaxShown = 40;
  std::string out(s.substr(0, kMaxShown));
  for (char& c : out) {
    if (!std::isprint(static_cast<unsigned char>(c))) c = '?';
  }
  return "'" + out + (s.size() > kMaxShown ? "...'" : "'");
}


// The lines of a text with their 1-based numbers, split into whitespace-separated tokens.
// Blank lines (and, when asked, '#' comments) are skipped.
class LineCursor {
 public:
  LineCursor(std::string_view text, bool hash_comments)
      : text_(text), hash_comments_(hash_comments) {}

  /// Advances to the next line with a token; false at the end of the text.
  bool Next() {
    while (pos_ < text_.size()) {
      const std::size_t end = std::min(text_.find('\n', pos_), text_.size());
      std::string_view line = text_.substr(pos_, end - pos_);
      pos_ = end + 1;
      ++number_;
      if (hash_comments_) line = line.substr(0, std::min(line.find('#'), line.size()));
      Split(line);
      if (!tokens_.empty()) return true;
    }
    return false;
  }

  const std::vector<std::string_view>& tokens() const { return tokens_; }
  std::string_view token(std::size_t i) const { return tokens_[i]; }
  std::size_t size() const { return tokens_.size(); }
  /// 1-based number of the current line (after the end: of the last line of the text).
  int line() const { return number_; }
  bool starts_section() const { return !tokens_.empty() && tokens_[0].front() == '$'; }

 private:
  void Split(std::string_view line) {
    tokens_.clear();
    std::size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && IsSpace(line[i])) ++i;
      const std::size_t start = i;
      while (i < line.size() && !IsSpace(line[i])) ++i;
      if (i > start) tokens_.push_back(line.substr(start, i - start));
    }
  }

  std::string_view text_;
  bool hash_comments_;
  std::size_t pos_ = 0;
  int number_ = 0;
  std::vector<std::string_view> tokens_;
};


// The whitespace-separated tokens of a text, each with its line (for VTK, where a record may
// span lines).
class TokenStream {
 public:
  TokenStream(std::string_view text, std::size_t pos, int line)
      : text_(text), pos_(pos), line_(line) {}

  /// The next token and its line; false at the end of the text.
  bool Next(std::string_view* token, int* line) {
    while (pos_ < text_.size() && (IsSpace(text_[pos_]) || text_[pos_] == '\n')) {
      if (text_[pos_] == '\n') ++line_;
      ++pos_;
    }
    if (pos_ >= text_.size()) return false;
    const std::size_t start = pos_;
    while (pos_ < text_.size() && !IsSpace(text_[pos_]) && text_[pos_] != '\n') ++pos_;
    *token = text_.substr(start, pos_ - start);
    *line = line_;
    return true;
  }

  /// The line the stream is at (the last line once the text is exhausted).
  int line() const { return line_; }

 private:
  std::string_view text_;
  std::size_t pos_;
  int line_;
};


// What every reader fills: the mesh, the line of each node and tet, and the diagnostics.
struct ReadContext {
  std::string path;
  std::size_t text_size = 0;
  Diagnostics* diagnostics = nullptr;
  TetMesh mesh;
  TetSourceLines lines;
  int error_count = 0;

  // a garbage file would give one error per line: the first kMaxParseErrors are listed, the
  // rest counted (LoadTetMesh adds the count)
  void Error(int line, const std::string& message) {
    if (++error_count <= kMaxParseErrors) diagnostics->Error(path, line, "", message);
  }
  void Warning(int line, const std::string& message) const {
    diagnostics->Warning(path, line, "", message);
  }
  /// `count` capped by what the text could hold, for reserve().
  std::size_t Capped(long long count) const {
    return static_cast<std::size_t>(
        std::clamp<long long>(count, 0, static_cast<long long>(text_size / kMinRecordBytes)));
  }
  void AddNode(const Vec3& p, int line) {
    mesh.nodes.push_back(p);
    lines.node_line.push_back(line);
  }
  void AddTet(const std::array<int, 4>& tet, int line) {
    mesh.tets.push_back(tet);
    lines.tet_line.push_back(line);
  }
};


// A non-negative count token, or an error naming `what`.
bool ReadCount(ReadContext& ctx, std::string_view token, int line, const std::string& what,
               long long* count) {
  if (ParseInt(token, count) && *count >= 0 && *count <= INT_MAX) return true;
  ctx.Error(line, "invalid " + what + " " + Quoted(token) + " (expected a count >= 0)");
  return false;
}


// x y z from tokens[first..first+2]; false (with an error) when a value is not a number
bool ReadPoint(ReadContext& ctx, const LineCursor& cursor, std::size_t first,
               const std::string& what, Vec3* p) {
  for (int k = 0; k < 3; ++k) {
    if (!ParseReal(cursor.token(first + k), &(*p)[k])) {
      ctx.Error(cursor.line(), "invalid coordinate " + Quoted(cursor.token(first + k)) + " of " +
                                   what + " (expected a number)");
      return false;
    }
  }
  return true;
}


// ---------------------------------------------------------------------------------------------
// Gmsh MSH 2.2 / 4.1 ASCII

enum class MshVersion { kUnknown, k22, k41 };

// a tet as written: node tags, resolved to indices once all nodes are known
struct PendingTet {
  std::array<long long, 4> tags;
  long long element_tag;
  int line;
};

class GmshReader {
 public:
  GmshReader(std::string_view text, ReadContext* ctx) : cursor_(text, false), ctx_(*ctx) {}

  void Read() {
    int elements_line = 0;
    while (reprocess_ || cursor_.Next()) {
      reprocess_ = false;
      if (!cursor_.starts_section()) {
        // report once, then resynchronise on the next section header
        ctx_.Error(cursor_.line(),
                   "expected a section header such as $Nodes, found " + Quoted(cursor_.token(0)));
        while (cursor_.Next() && !cursor_.starts_section()) {
        }
        if (!cursor_.starts_section()) break;
      }
      const std::string name(cursor_.token(0).substr(1));
      const int line = cursor_.line();
      bool go_on = true;
      if (name == "MeshFormat") {
        go_on = ReadFormat();
      } else if (name == "Nodes" || name == "Elements") {
        if (version_ == MshVersion::kUnknown) {
          ctx_.Error(line, "$" + name + " before $MeshFormat (expected $MeshFormat first)");
          return;
        }
        if (name == "Nodes") {
          if (have_nodes_) ctx_.Error(line, "a second $Nodes section (expected one)");
          have_nodes_ = true;
          go_on = version_ == MshVersion::k22 ? ReadNodes22() : ReadNodes41();
        } else {
          if (have_elements_) ctx_.Error(line, "a second $Elements section (expected one)");
          have_elements_ = true;
          elements_line = line;
          go_on = version_ == MshVersion::k22 ? ReadElements22() : ReadElements41();
        }
      } else if (name.rfind("End", 0) == 0) {
        ctx_.Error(line, "$" + name + " without a matching $" + name.substr(3));
      } else {
        go_on = SkipSection(name, line);
      }
      if (!go_on) return;
    }
    if (version_ == MshVersion::kUnknown) {
      ctx_.Error(cursor_.line(), "no $MeshFormat section (is this a Gmsh .msh file?)");
      return;
    }
    if (!have_nodes_) ctx_.Error(cursor_.line(), "no $Nodes section");
    if (!have_elements_) ctx_.Error(cursor_.line(), "no $Elements section");
    ResolveTets(elements_line);
  }

 private:
  // the next line of the current section; false (with an error) at the end of the text or at
  // the next section header, which the caller then treats as the end of the section
  bool NextRecord(const std::string& section, const std::string& expected) {
    if (!cursor_.Next()) {
      ctx_.Error(cursor_.line(),
                 "unexpected end of file in $" + section + " (expected " + expected + ")");
      truncated_ = true;
      return false;
    }
    if (cursor_.starts_section()) {
      ctx_.Error(cursor_.line(), "$" + section + " ends early at " + Quoted(cursor_.token(0)) +
                                     " (expected " + expected + ")");
      return false;
    }
    return true;
  }

  // after the records of `section`: its $End line, or an error and a skip to it
  bool ExpectEnd(const std::string& section, bool at_header) {
    const std::string end = "$End" + section;
    if (!at_header && !cursor_.Next()) {
      ctx_.Error(cursor_.line(), "unexpected end of file (expected " + end + ")");
      return false;
    }
    if (cursor_.token(0) == end) return true;
    ctx_.Error(cursor_.line(), "expected " + end + ", found " + Quoted(cursor_.token(0)));
    // surplus records are skipped up to the end line; another section header is read next
    while (!cursor_.starts_section()) {
      if (!cursor_.Next()) return false;
    }
    reprocess_ = cursor_.token(0) != end;
    return true;
  }

  // the records of a section stopped early: at a header (go on from there) or at the end
  bool EndAfterShortSection(const std::string& section) {
    if (truncated_) return false;
    return ExpectEnd(section, true);
  }

  bool ReadFormat() {
    if (!NextRecord("MeshFormat", "'version file-type data-size'")) {
      return !truncated_ && ExpectEnd("MeshFormat", true);
    }
    const std::string_view version = cursor_.token(0);
    long long file_type = 0;
    if (cursor_.size() < 3 || !ParseInt(cursor_.token(1), &file_type)) {
      ctx_.Error(cursor_.line(),
                 "invalid $MeshFormat line (expected 'version file-type "
                 "data-size', such as '4.1 0 8')");
      return false;
    }
    if (file_type != 0) {
      ctx_.Error(cursor_.line(), "binary .msh files are not supported (file-type " +
                                     std::to_string(file_type) +
                                     " in $MeshFormat); save the mesh as ASCII MSH 4.1 or 2.2");
      return false;
    }
    if (version == "2.2" || version == "2.1" || version == "2" || version == "2.0") {
      version_ = MshVersion::k22;
    } else if (version == "4.1") {
      version_ = MshVersion::k41;
    } else {
      ctx_.Error(cursor_.line(),
                 "unsupported MSH version " + Quoted(version) + " (expected 2.2 or 4.1, ASCII)");
      return false;
    }
    return ExpectEnd("MeshFormat", false);
  }

  bool SkipSection(const std::string& name, int line) {
    // Gmsh's own optional sections, and IPC's $Surface (boundary triangles, which we recompute),
    // are skipped silently; anything else is worth a warning, as Gmsh skips it too
    static const char* const kKnown[] = {"PhysicalNames",
                                         "Entities",
                                         "PartitionedEntities",
                                         "Periodic",
                                         "GhostElements",
                                         "Parametrizations",
                                         "NodeData",
                                         "ElementData",
                                         "ElementNodeData",
                                         "InterpolationScheme",
                                         "Comments",
                                         "Surface"};
    const bool known =
        std::any_of(std::begin(kKnown), std::end(kKnown), [&](const char* k) { return name == k; });
    if (!known) ctx_.Warning(line, "skipping unknown section $" + name);
    const std::string end = "$End" + name;
    while (cursor_.Next()) {
      if (cursor_.token(0) == end) return true;
    }
    ctx_.Error(line, "section $" + name + " is not closed (expected " + end + ")");
    return false;
  }

  bool AddNodeTag(long long tag, const Vec3& p, int line) {
    const auto [it, inserted] = node_index_.emplace(tag, ctx_.mesh.node_count());
    if (!inserted) {
      ctx_.Error(line, "node tag " + std::to_string(tag) + " is defined twice (first at line " +
                           std::to_string(ctx_.lines.node_line[it->second]) + ")");
      return false;
    }
    ctx_.AddNode(p, line);
    return true;
  }

  bool ReadNodes22() {
    long long count = 0;
    if (!NextRecord("Nodes", "the number of nodes")) return EndAfterShortSection("Nodes");
    if (!ReadCount(ctx_, cursor_.token(0), cursor_.line(), "node count", &count)) return false;
    ctx_.mesh.nodes.reserve(ctx_.Capped(count));
    node_index_.reserve(ctx_.Capped(count));
    for (long long i = 0; i < count; ++i) {
      const std::string expected = std::to_string(count) + " nodes, read " + std::to_string(i);
      if (!NextRecord("Nodes", expected)) return EndAfterShortSection("Nodes");
      long long tag = 0;
      Vec3 p;
      if (cursor_.size() < 4) {
        ctx_.Error(cursor_.line(), "node line has " + std::to_string(cursor_.size()) +
                                       " value(s) (expected 'tag x y z')");
        continue;
      }
      if (!ParseInt(cursor_.token(0), &tag)) {
        ctx_.Error(cursor_.line(), "invalid node tag " + Quoted(cursor_.token(0)));
        continue;
      }
      if (!ReadPoint(ctx_, cursor_, 1, "node " + std::to_string(tag), &p)) continue;
      AddNodeTag(tag, p, cursor_.line());
    }
    return ExpectEnd("Nodes", false);
  }

  bool ReadNodes41() {
    if (!NextRecord("Nodes", "'numEntityBlocks numNodes minNodeTag maxNodeTag'")) {
      return EndAfterShortSection("Nodes");
    }
    long long blocks = 0, total = 0;
    if (cursor_.size() < 4 ||
        !ReadCount(ctx_, cursor_.token(0), cursor_.line(), "entity block count", &blocks) ||
        !ReadCount(ctx_, cursor_.token(1), cursor_.line(), "node count", &total)) {
      if (cursor_.size() < 4) {
        ctx_.Error(cursor_.line(),
                   "invalid $Nodes header (expected 'numEntityBlocks numNodes "
                   "minNodeTag maxNodeTag')");
      }
      return false;
    }
    const int header_line = cursor_.line();
    ctx_.mesh.nodes.reserve(ctx_.Capped(total));
    node_index_.reserve(ctx_.Capped(total));
    long long read = 0;
    std::vector<long long> tags;
    for (long long b = 0; b < blocks; ++b) {
      if (!NextRecord("Nodes",
                      "entity block " + std::to_string(b + 1) + " of " + std::to_string(blocks))) {
        return EndAfterShortSection("Nodes");
      }
      long long parametric = 0, in_block = 0;
      if (cursor_.size() < 4 || !ParseInt(cursor_.token(2), &parametric) ||
          !ReadCount(ctx_, cursor_.token(3), cursor_.line(), "block node count", &in_block)) {
        ctx_.Error(cursor_.line(),
                   "invalid node block header (expected 'entityDim entityTag "
                   "parametric numNodesInBlock')");
        return false;
      }
      // tags first, then as many coordinate lines
      tags.clear();
      tags.reserve(ctx_.Capped(in_block));
      for (long long i = 0; i < in_block; ++i) {
        if (!NextRecord("Nodes", std::to_string(in_block) + " node tags in block " +
                                     std::to_string(b + 1) + ", read " + std::to_string(i))) {
          return EndAfterShortSection("Nodes");
        }
        long long tag = 0;
        if (!ParseInt(cursor_.token(0), &tag)) {
          ctx_.Error(cursor_.line(), "invalid node tag " + Quoted(cursor_.token(0)));
        }
        tags.push_back(tag);
      }
      for (long long i = 0; i < in_block; ++i) {
        if (!NextRecord("Nodes", std::to_string(in_block) + " node coordinates in block " +
                                     std::to_string(b + 1) + ", read " + std::to_string(i))) {
          return EndAfterShortSection("Nodes");
        }
        Vec3 p;
        if (cursor_.size() < 3) {
          ctx_.Error(cursor_.line(), "node line has " + std::to_string(cursor_.size()) +
                                         " value(s) (expected 'x y z')");
          continue;
        }
        if (!ReadPoint(ctx_, cursor_, 0, "node " + std::to_string(tags[i]), &p)) continue;
        AddNodeTag(tags[i], p, cursor_.line());
      }
      read += in_block;
    }
    if (read != total) {
      ctx_.Error(header_line, "$Nodes declares " + std::to_string(total) +
                                  " nodes but its blocks "
                                  "hold " +
                                  std::to_string(read));
    }
    return ExpectEnd("Nodes", false);
  }

  // one element line; tets (type 4) are kept with their node tags
  void AddElement(long long type, long long tag, std::size_t first_node) {
    if (type != kGmshTet4) return;
    if (cursor_.size() < first_node + 4) {
      ctx_.Error(cursor_.line(),
                 "tetrahedron " + std::to_string(tag) + " has " +
                     std::to_string(cursor_.size() - std::min(cursor_.size(), first_node)) +
                     " node(s) (expected 4)");
      return;
    }
    PendingTet tet{{}, tag, cursor_.line()};
    for (int k = 0; k < 4; ++k) {
      if (!ParseInt(cursor_.token(first_node + k), &tet.tags[k])) {
        ctx_.Error(cursor_.line(), "invalid node tag " + Quoted(cursor_.token(first_node + k)) +
                                       " in tetrahedron " + std::to_string(tag));
        return;
      }
    }
    tets_.push_back(tet);
  }

  bool ReadElements22() {
    long long count = 0;
    if (!NextRecord("Elements", "the number of elements")) return EndAfterShortSection("Elements");
    if (!ReadCount(ctx_, cursor_.token(0), cursor_.line(), "element count", &count)) return false;
    tets_.reserve(ctx_.Capped(count));
    for (long long i = 0; i < count; ++i) {
      const std::string expected = std::to_string(count) + " elements, read " + std::to_string(i);
      if (!NextRecord("Elements", expected)) return EndAfterShortSection("Elements");
      long long tag = 0, type = 0, tag_count = 0;
      if (cursor_.size() < 3 || !ParseInt(cursor_.token(0), &tag) ||
          !ParseInt(cursor_.token(1), &type) || !ParseInt(cursor_.token(2), &tag_count) ||
          tag_count < 0 || tag_count > static_cast<long long>(cursor_.size())) {
        ctx_.Error(cursor_.line(),
                   "invalid element line (expected 'tag type numTags tags... "
                   "nodes...')");
        continue;
      }
      AddElement(type, tag, 3 + static_cast<std::size_t>(tag_count));
    }
    return ExpectEnd("Elements", false);
  }

  bool ReadElements41() {
    if (!NextRecord("Elements", "'numEntityBlocks numElements minElementTag maxElementTag'")) {
      return EndAfterShortSection("Elements");
    }
    long long blocks = 0, total = 0;
    if (cursor_.size() < 4 ||
        !ReadCount(ctx_, cursor_.token(0), cursor_.line(), "entity block count", &blocks) ||
        !ReadCount(ctx_, cursor_.token(1), cursor_.line(), "element count", &total)) {
      if (cursor_.size() < 4) {
        ctx_.Error(cursor_.line(),
                   "invalid $Elements header (expected 'numEntityBlocks "
                   "numElements minElementTag maxElementTag')");
      }
      return false;
    }
    const int header_line = cursor_.line();
    tets_.reserve(ctx_.Capped(total));
    long long read = 0;
    for (long long b = 0; b < blocks; ++b) {
      if (!NextRecord("Elements",
                      "entity block " + std::to_string(b + 1) + " of " + std::to_string(blocks))) {
        return EndAfterShortSection("Elements");
      }
      long long type = 0, in_block = 0;
      if (cursor_.size() < 4 || !ParseInt(cursor_.token(2), &type) ||
          !ReadCount(ctx_, cursor_.token(3), cursor_.line(), "block element count", &in_block)) {
        ctx_.Error(cursor_.line(),
                   "invalid element block header (expected 'entityDim entityTag "
                   "elementType numElementsInBlock')");
        return false;
      }
      for (long long i = 0; i < in_block; ++i) {
        if (!NextRecord("Elements", std::to_string(in_block) + " elements in block " +
                                        std::to_string(b + 1) + ", read " + std::to_string(i))) {
          return EndAfterShortSection("Elements");
        }
        long long tag = 0;
        if (!ParseInt(cursor_.token(0), &tag)) {
          ctx_.Error(cursor_.line(), "invalid element tag " + Quoted(cursor_.token(0)));
          continue;
        }
        AddElement(type, tag, 1);
      }
      read += in_block;
    }
    if (read != total) {
      ctx_.Error(header_line, "$Elements declares " + std::to_string(total) +
                                  " elements but its blocks hold " + std::to_string(read));
    }
    return ExpectEnd("Elements", false);
  }

  // node tags -> indices, now that every node is known
  void ResolveTets(int elements_line) {
    for (const PendingTet& pending : tets_) {
      std::array<int, 4> tet;
      bool ok = true;
      for (int k = 0; k < 4; ++k) {
        const auto it = node_index_.find(pending.tags[k]);
        if (it == node_index_.end()) {
          ctx_.Error(pending.line, "tetrahedron " + std::to_string(pending.element_tag) +
                                       " references node " + std::to_string(pending.tags[k]) +
                                       ", which $Nodes does not define");
          ok = false;
          break;
        }
        tet[k] = it->second;
      }
      if (ok) ctx_.AddTet(tet, pending.line);
    }
    if (have_elements_ && tets_.empty() && !truncated_) {
      ctx_.Error(elements_line, "no tetrahedra (element type 4) in $Elements");
    }
  }

  LineCursor cursor_;
  ReadContext& ctx_;
  MshVersion version_ = MshVersion::kUnknown;
  bool have_nodes_ = false;
  bool have_elements_ = false;
  bool truncated_ = false;
  bool reprocess_ = false;  // the current line is a section header still to be read
  std::unordered_map<long long, int> node_index_;
  std::vector<PendingTet> tets_;
};


// ---------------------------------------------------------------------------------------------
// TetGen .node / .ele

// reads the .node file into ctx; returns the index base (0 or 1), or -1 when it is unknown
int ReadTetGenNodes(std::string_view text, ReadContext* ctx) {
  LineCursor cursor(text, true);
  if (!cursor.Next()) {
    ctx->Error(cursor.line(),
               "empty .node file (expected '<#points> 3 <#attributes> "
               "<#boundary markers>')");
    return -1;
  }
  long long count = 0, dim = 3;
  if (!ReadCount(*ctx, cursor.token(0), cursor.line(), "point count", &count)) return -1;
  if (cursor.size() > 1 && (!ParseInt(cursor.token(1), &dim) || dim != 3)) {
    ctx->Error(cursor.line(),
               "dimension " + Quoted(cursor.token(1)) + " is not supported (expected 3)");
    return -1;
  }
  ctx->mesh.nodes.reserve(ctx->Capped(count));
  int base = -1;
  bool out_of_sequence = false;
  for (long long i = 0; i < count; ++i) {
    if (!cursor.Next()) {
      ctx->Error(cursor.line(), "unexpected end of file (expected " + std::to_string(count) +
                                    " points, read " + std::to_string(i) + ")");
      return base;
    }
    long long index = 0;
    Vec3 p;
    if (cursor.size() < 4 || !ParseInt(cursor.token(0), &index)) {
      ctx->Error(cursor.line(),
                 "invalid point line (expected 'index x y z [attributes] "
                 "[boundary marker]')");
      ctx->AddNode(Vec3::Zero(), cursor.line());
      continue;
    }
    if (base < 0) {
      if (index != 0 && index != 1) {
        ctx->Error(cursor.line(),
                   "first point index is " + std::to_string(index) + " (expected 0 or 1)");
        return -1;
      }
      base = static_cast<int>(index);
    }
    // one report: after a missing or extra line every later index is off by the same amount
    if (index != base + i && !out_of_sequence) {
      out_of_sequence = true;
      ctx->Error(cursor.line(), "point index " + std::to_string(index) +
                                    " is out of sequence (expected " + std::to_string(base + i) +
                                    ")");
    }
    if (!ReadPoint(*ctx, cursor, 1, "point " + std::to_string(index), &p)) p = Vec3::Zero();
    ctx->AddNode(p, cursor.line());
  }
  return base;
}


void ReadTetGenElements(std::string_view text, int base, ReadContext* ctx) {
  LineCursor cursor(text, true);
  if (!cursor.Next()) {
    ctx->Error(cursor.line(),
               "empty .ele file (expected '<#tetrahedra> <nodes per tet> "
               "<#attributes>')");
    return;
  }
  long long count = 0, per_tet = 4;
  if (!ReadCount(*ctx, cursor.token(0), cursor.line(), "tetrahedron count", &count)) return;
  if (cursor.size() > 1 &&
      (!ParseInt(cursor.token(1), &per_tet) || (per_tet != 4 && per_tet != 10))) {
    ctx->Error(cursor.line(), "nodes per tetrahedron " + Quoted(cursor.token(1)) +
                                  " is not supported (expected 4 or 10)");
    return;
  }
  ctx->mesh.tets.reserve(ctx->Capped(count));
  const long long node_count = ctx->mesh.node_count();
  for (long long i = 0; i < count; ++i) {
    if (!cursor.Next()) {
      ctx->Error(cursor.line(), "unexpected end of file (expected " + std::to_string(count) +
                                    " tetrahedra, read " + std::to_string(i) + ")");
      return;
    }
    if (cursor.size() < static_cast<std::size_t>(1 + per_tet)) {
      ctx->Error(cursor.line(), "tetrahedron line has " + std::to_string(cursor.size()) +
                                    " value(s) (expected 'index' and " + std::to_string(per_tet) +
                                    " node indices)");
      continue;
    }
    // the corners are the first four nodes, also of 10-node tets
    std::array<int, 4> tet;
    bool ok = true;
    for (int k = 0; k < 4 && ok; ++k) {
      long long node = 0;
      if (!ParseInt(cursor.token(1 + k), &node)) {
        ctx->Error(cursor.line(), "invalid node index " + Quoted(cursor.token(1 + k)));
        ok = false;
      } else if (node - base < 0 || node - base >= node_count) {
        ctx->Error(cursor.line(),
                   "tetrahedron " + std::string(cursor.token(0)) + " references point " +
                       std::to_string(node) + ", but the .node file defines points " +
                       std::to_string(base) + ".." + std::to_string(node_count - 1 + base));
        ok = false;
      } else {
        tet[k] = static_cast<int>(node - base);
      }
    }
    if (ok) ctx->AddTet(tet, cursor.line());
  }
}


// ---------------------------------------------------------------------------------------------
// legacy VTK ASCII, UNSTRUCTURED_GRID

void ReadVtk(std::string_view text, ReadContext* ctx) {
  // the four header lines are line-based: version, title (may be blank), ASCII, DATASET
  std::size_t pos = 0;
  int line = 0;
  auto next_line = [&](std::string_view* out) {
    if (pos >= text.size()) return false;
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    *out = text.substr(pos, end - pos);
    while (!out->empty() && IsSpace(out->back())) out->remove_suffix(1);
    pos = end + 1;
    ++line;
    return true;
  };
  std::string_view header;
  if (!next_line(&header) || header.rfind("# vtk DataFile Version", 0) != 0) {
    ctx->Error(1, "not a legacy VTK file (expected '# vtk DataFile Version x.x' on line 1)");
    return;
  }
  std::string_view title, format, dataset;
  if (!next_line(&title) || !next_line(&format)) {
    ctx->Error(line, "unexpected end of file (expected the title and 'ASCII' lines)");
    return;
  }
  if (format != "ASCII") {
    ctx->Error(line, "VTK data format " + Quoted(format) +
                         " is not supported (expected ASCII; binary VTK is not read)");
    return;
  }
  do {
    if (!next_line(&dataset)) {
      ctx->Error(line, "unexpected end of file (expected 'DATASET UNSTRUCTURED_GRID')");
      return;
    }
  } while (dataset.find_first_not_of(" \t\r") == std::string_view::npos);
  if (dataset.find("UNSTRUCTURED_GRID") == std::string_view::npos ||
      dataset.rfind("DATASET", 0) != 0) {
    ctx->Error(line, "unsupported VTK dataset " + Quoted(dataset) +
                         " (expected 'DATASET UNSTRUCTURED_GRID')");
    return;
  }

  TokenStream tokens(text, std::min(pos, text.size()), line + 1);
  std::string_view token;
  int token_line = 0;
  // the next token as a number of the given kind, or an error naming what was expected
  auto next_int = [&](const std::string& what, long long* value) {
    if (!tokens.Next(&token, &token_line)) {
      ctx->Error(tokens.line(), "unexpected end of file (expected " + what + ")");
      return false;
    }
    if (!ParseInt(token, value)) {
      ctx->Error(token_line, "invalid " + what + " " + Quoted(token) + " (expected an integer)");
      return false;
    }
    return true;
  };

  bool have_points = false;
  long long cell_count = -1;
  int cells_line = 0;
  std::vector<long long> cell_start;  // per cell: offset into cell_nodes
  std::vector<int> cell_size, cell_line;
  std::vector<long long> cell_nodes;
  std::vector<long long> cell_types;
  while (tokens.Next(&token, &token_line)) {
    const int keyword_line = token_line;
    const std::string keyword(token);
    if (keyword == "POINTS") {
      long long count = 0;
      if (!next_int("point count", &count) || count < 0) return;
      tokens.Next(&token, &token_line);  // data type (float, double): values are read as double
      ctx->mesh.nodes.reserve(ctx->Capped(count));
      for (long long i = 0; i < count; ++i) {
        Vec3 p;
        int point_line = 0;
        for (int k = 0; k < 3; ++k) {
          if (!tokens.Next(&token, &token_line)) {
            ctx->Error(tokens.line(), "unexpected end of file in POINTS (expected " +
                                          std::to_string(count) + " points, read " +
                                          std::to_string(i) + ")");
            return;
          }
          if (k == 0) point_line = token_line;
          if (!ParseReal(token, &p[k])) {
            ctx->Error(token_line, "invalid coordinate " + Quoted(token) + " of point " +
                                       std::to_string(i) + " (expected a number)");
            return;
          }
        }
        ctx->AddNode(p, point_line);
      }
      have_points = true;
    } else if (keyword == "CELLS") {
      long long size = 0;
      cells_line = keyword_line;
      if (!next_int("cell count", &cell_count) || cell_count < 0 ||
          !tokens.Next(&token, &token_line)) {
        if (cell_count < 0) ctx->Error(keyword_line, "invalid CELLS header");
        return;
      }
      if (token == "OFFSETS" || !ParseInt(token, &size)) {
        ctx->Error(keyword_line,
                   "CELLS with OFFSETS/CONNECTIVITY arrays (VTK 5.1 layout) is "
                   "not supported (expected 'CELLS n size' with one cell per row)");
        return;
      }
      cell_start.reserve(ctx->Capped(cell_count));
      for (long long c = 0; c < cell_count; ++c) {
        long long n = 0;
        if (!next_int("node count of cell " + std::to_string(c), &n)) return;
        if (n < 0 || n > size) {
          ctx->Error(token_line, "cell " + std::to_string(c) + " has " + std::to_string(n) +
                                     " nodes (expected 0.." + std::to_string(size) + ")");
          return;
        }
        cell_start.push_back(static_cast<long long>(cell_nodes.size()));
        cell_size.push_back(static_cast<int>(n));
        cell_line.push_back(token_line);
        for (long long k = 0; k < n; ++k) {
          long long node = 0;
          if (!next_int("node " + std::to_string(k) + " of cell " + std::to_string(c), &node)) {
            return;
          }
          cell_nodes.push_back(node);
        }
      }
    } else if (keyword == "CELL_TYPES") {
      long long count = 0;
      if (!next_int("cell type count", &count)) return;
      if (count != cell_count) {
        ctx->Error(keyword_line, "CELL_TYPES has " + std::to_string(count) +
                                     " entries but CELLS has " + std::to_string(cell_count) +
                                     " cells (expected equal counts)");
        return;
      }
      cell_types.reserve(ctx->Capped(count));
      for (long long c = 0; c < count; ++c) {
        long long type = 0;
        if (!next_int("type of cell " + std::to_string(c), &type)) return;
        cell_types.push_back(type);
      }
    } else if (keyword == "POINT_DATA" || keyword == "CELL_DATA" || keyword == "FIELD" ||
               keyword == "METADATA") {
      break;  // attributes: not part of the geometry
    } else {
      ctx->Error(keyword_line, "unknown VTK keyword " + Quoted(keyword) +
                                   " (expected POINTS, CELLS, CELL_TYPES, POINT_DATA or "
                                   "CELL_DATA)");
      return;
    }
  }

  if (!have_points) ctx->Error(tokens.line(), "no POINTS section");
  if (cell_count < 0) {
    ctx->Error(tokens.line(), "no CELLS section");
    return;
  }
  if (cell_types.size() != static_cast<std::size_t>(cell_count)) {
    ctx->Error(cells_line,
               "CELLS has no CELL_TYPES section after it (needed to find the "
               "tetrahedra, VTK cell type 10)");
    return;
  }
  const long long node_count = ctx->mesh.node_count();
  for (std::size_t c = 0; c < cell_types.size(); ++c) {
    if (cell_types[c] != kVtkTetra) continue;
    if (cell_size[c] != 4) {
      ctx->Error(cell_line[c], "cell " + std::to_string(c) + " of type 10 (tetrahedron) has " +
                                   std::to_string(cell_size[c]) + " nodes (expected 4)");
      continue;
    }
    std::array<int, 4> tet;
    bool ok = true;
    for (int k = 0; k < 4 && ok; ++k) {
      const long long node = cell_nodes[cell_start[c] + k];
      if (node < 0 || node >= node_count) {
        ctx->Error(cell_line[c], "cell " + std::to_string(c) + " references point " +
                                     std::to_string(node) + ", but POINTS defines points 0.." +
                                     std::to_string(node_count - 1));
        ok = false;
      }
      tet[k] = static_cast<int>(node);
    }
    if (ok) ctx->AddTet(tet, cell_line[c]);
  }
  if (ctx->mesh.tets.empty() && !ctx->diagnostics->has_errors()) {
    ctx->Error(cells_line, "no tetrahedra (VTK cell type 10) among the " +
                               std::to_string(cell_count) + " cells");
  }
}


std::string LowerExtension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

}  // namespace


Expected<TetMesh> LoadTetMesh(const std::string& path, Real scale) {
  Diagnostics diagnostics;
  ReadContext ctx;
  ctx.path = path;
  ctx.diagnostics = &diagnostics;
  ctx.mesh.name = std::filesystem::path(path).stem().string();
  if (!(std::isfinite(scale) && scale > 0)) {
    diagnostics.Error(path, 0, "",
                      "invalid scale " + std::to_string(scale) + " (expected a finite value > 0)");
    return diagnostics;
  }

  const std::string ext = LowerExtension(path);
  if (ext == ".msh") {
    Expected<std::string> text = ReadTextFile(path, "Gmsh");
    if (!text.ok()) return text.diagnostics();
    ctx.text_size = text->size();
    GmshReader(text.value(), &ctx).Read();
  } else if (ext == ".node" || ext == ".ele") {
    // either file names the pair; diagnostics name the file they are about
    const std::string stem = path.substr(0, path.size() - ext.size());
    const std::string node_path = stem + ".node", ele_path = stem + ".ele";
    Expected<std::string> node_text = ReadTextFile(node_path, "TetGen .node");
    Expected<std::string> ele_text = ReadTextFile(ele_path, "TetGen .ele");
    if (!node_text.ok() || !ele_text.ok()) {
      diagnostics.Append(node_text.diagnostics());
      diagnostics.Append(ele_text.diagnostics());
      return diagnostics;
    }
    ctx.path = node_path;
    ctx.text_size = node_text->size();
    const int base = ReadTetGenNodes(node_text.value(), &ctx);
    if (base >= 0 && !diagnostics.has_errors()) {
      ctx.path = ele_path;
      ctx.text_size = ele_text->size();
      ReadTetGenElements(ele_text.value(), base, &ctx);
    }
    ctx.lines.node_source = node_path;
    ctx.lines.tet_source = ele_path;
  } else if (ext == ".vtk") {
    Expected<std::string> text = ReadTextFile(path, "VTK");
    if (!text.ok()) return text.diagnostics();
    ctx.text_size = text->size();
    ReadVtk(text.value(), &ctx);
  } else {
    diagnostics.Error(path, 0, "",
                      "unknown tet mesh format '" + ext +
                          "' (expected .msh (Gmsh), .node/.ele (TetGen) or .vtk (legacy VTK))");
    return diagnostics;
  }
  if (ctx.error_count > kMaxParseErrors) {
    diagnostics.Error(ctx.path, 0, "",
                      std::to_string(ctx.error_count - kMaxParseErrors) +
                          " more error(s) not listed (" + std::to_string(ctx.error_count) +
                          " in all)");
  }
  if (diagnostics.has_errors()) return diagnostics;

  for (Vec3& p : ctx.mesh.nodes) p *= scale;
  // geometry checks only on a file that parsed, so they do not echo its syntax errors
  if (!ValidateTetMesh(ctx.mesh, path, &diagnostics, &ctx.lines)) return diagnostics;
  return Expected<TetMesh>(std::move(ctx.mesh), std::move(diagnostics));
}

}  // namespace sim::io
