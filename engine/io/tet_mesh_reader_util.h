// Internal to the tet mesh loader (tet_mesh_loader.cpp and the per-format readers
// tet_mesh_gmsh.cpp, tet_mesh_tetgen.cpp, tet_mesh_vtk.cpp): the line and token cursors the
// readers walk the text with, the ReadContext they all fill (mesh, source lines, capped
// diagnostics), and each reader's entry point. Counts from a file only bound loops (which stop at
// the end of the text); reservations are capped by the text size (ReadContext::Capped), so a
// corrupt count cannot allocate more than the file could hold.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/diagnostics.h"
#include "engine/core/load_monitor.h"
#include "engine/core/math.h"
#include "engine/geometry/tet_mesh.h"

namespace sim::io::tet_mesh_internal {

// a node or tet record needs at least this many bytes of text ("0 0 0 0\n" is 8), so no count
// can be larger than text size / kMinRecordBytes; used to cap reservations
constexpr std::size_t kMinRecordBytes = 8;

// parse errors listed per file before they are only counted
constexpr int kMaxParseErrors = 50;

// blanks within a line ('\n' separates lines and is handled by the cursors)
inline bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// `s` in quotes for a message, cut and with unprintable characters replaced
std::string Quoted(std::string_view s);


// How far a cursor is through its text, reported to a load's progress every kStepsPerCheck lines
// or tokens, where a cancelled load also ends the text early (the reader then sees a truncated
// file; LoadTetMesh returns the cancel instead of its errors).
class TextProgress {
 public:
  TextProgress(const LoadProgress& progress, std::size_t text_size)
      : progress_(progress), text_size_(std::max<std::size_t>(text_size, 1)) {}

  /// True once the load is cancelled (checked every kStepsPerCheck calls).
  bool Stopped(std::size_t position) {
    if (stopped_ || ++steps_ % kStepsPerCheck != 0) return stopped_;
    progress_.Report(static_cast<double>(position) / static_cast<double>(text_size_));
    stopped_ = progress_.cancelled();
    return stopped_;
  }

 private:
  static constexpr int kStepsPerCheck = 4096;
  LoadProgress progress_;
  std::size_t text_size_;
  int steps_ = 0;
  bool stopped_ = false;
};


// The lines of a text with their 1-based numbers, split into whitespace-separated tokens.
// Blank lines (and, when asked, '#' comments) are skipped.
class LineCursor {
 public:
  LineCursor(std::string_view text, bool hash_comments, const LoadProgress& progress = {})
      : text_(text), hash_comments_(hash_comments), progress_(progress, text.size()) {}

  /// Advances to the next line with a token; false at the end of the text (or of a cancelled
  /// load).
  bool Next() {
    if (progress_.Stopped(pos_)) return false;
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
  TextProgress progress_;
  std::size_t pos_ = 0;
  int number_ = 0;
  std::vector<std::string_view> tokens_;
};


// The whitespace-separated tokens of a text, each with its line (for VTK, where a record may
// span lines).
class TokenStream {
 public:
  TokenStream(std::string_view text, std::size_t pos, int line, const LoadProgress& progress = {})
      : text_(text), pos_(pos), line_(line), progress_(progress, text.size()) {}

  /// The next token and its line; false at the end of the text (or of a cancelled load).
  bool Next(std::string_view* token, int* line) {
    if (progress_.Stopped(pos_)) return false;
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
  TextProgress progress_;
};


// What every reader fills: the mesh, the line of each node and tet, and the diagnostics.
struct ReadContext {
  std::string path;
  std::size_t text_size = 0;
  Diagnostics* diagnostics = nullptr;
  LoadProgress progress;  ///< of the file being read (cursors report to it)
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
               long long* count);

// x y z from tokens[first..first+2]; false (with an error) when a value is not a number
bool ReadPoint(ReadContext& ctx, const LineCursor& cursor, std::size_t first,
               const std::string& what, Vec3* p);


// Gmsh MSH 2.2 / 4.1 ASCII (tet_mesh_gmsh.cpp): nodes and 4-node tets into ctx
void ReadGmsh(std::string_view text, ReadContext* ctx);

// TetGen (tet_mesh_tetgen.cpp): the .node file into ctx; returns the index base (0 or 1), or -1
// when it is unknown
int ReadTetGenNodes(std::string_view text, ReadContext* ctx);
// the .ele file into ctx, node indices counted from `base`
void ReadTetGenElements(std::string_view text, int base, ReadContext* ctx);

// legacy VTK ASCII, DATASET UNSTRUCTURED_GRID (tet_mesh_vtk.cpp): points and VTK_TETRA cells
void ReadVtk(std::string_view text, ReadContext* ctx);

}  // namespace sim::io::tet_mesh_internal
