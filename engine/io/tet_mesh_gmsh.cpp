// Gmsh MSH 2.2 and 4.1 ASCII reader of LoadTetMesh: walks the sections line by line, keeps
// 4-node tetrahedra (element type 4) by node tag, and resolves the tags to node indices once every
// node is known. Problems are reported at their line; a bad section is skipped to the next one.
#include <algorithm>
#include <iterator>
#include <unordered_map>

#include "engine/io/tet_mesh_reader_util.h"
#include "engine/io/text_util.h"

namespace sim::io::tet_mesh_internal {

namespace {

// Gmsh element type of the 4-node tetrahedron (MSH format documentation, "elm-type")
constexpr long long kGmshTet4 = 4;

enum class MshVersion { kUnknown, k22, k41 };

// a tet as written: node tags, resolved to indices once all nodes are known
struct PendingTet {
  std::array<long long, 4> tags;
  long long element_tag;
  int line;
};

class GmshReader {
 public:
  GmshReader(std::string_view text, ReadContext* ctx)
      : cursor_(text, false, ctx->progress), ctx_(*ctx) {}

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

}  // namespace


void ReadGmsh(std::string_view text, ReadContext* ctx) { GmshReader(text, ctx).Read(); }

}  // namespace sim::io::tet_mesh_internal
