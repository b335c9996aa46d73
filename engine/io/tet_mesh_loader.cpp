// Tet mesh loading: LoadTetMesh picks the reader by extension (Gmsh, TetGen or legacy VTK, each
// in its own tet_mesh_*.cpp), caps the listed parse errors, scales the nodes and validates the
// mesh; plus the helpers the readers share (tet_mesh_reader_util.h).
#include "engine/io/tet_mesh_loader.h"

#include <cctype>
#include <climits>
#include <cmath>
#include <filesystem>

#include "engine/io/tet_mesh_reader_util.h"
#include "engine/io/text_file.h"
#include "engine/io/text_util.h"

namespace sim::io {

namespace tet_mesh_internal {

std::string Quoted(std::string_view s) {
  // long garbage tokens are cut so a binary blob cannot flood the message
  constexpr std::size_t kMaxShown = 40;
  std::string out(s.substr(0, kMaxShown));
  for (char& c : out) {
    if (!std::isprint(static_cast<unsigned char>(c))) c = '?';
  }
  return "'" + out + (s.size() > kMaxShown ? "...'" : "'");
}


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

}  // namespace tet_mesh_internal

using tet_mesh_internal::kMaxParseErrors;
using tet_mesh_internal::ReadContext;


Expected<TetMesh> LoadTetMesh(const std::string& path, Real scale, const LoadProgress& progress) {
  Diagnostics diagnostics;
  ReadContext ctx;
  ctx.path = path;
  ctx.diagnostics = &diagnostics;
  ctx.progress = progress.Part(0, 0.9);
  progress.Stage("reading tet mesh " + std::filesystem::path(path).filename().string());
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
    tet_mesh_internal::ReadGmsh(text.value(), &ctx);
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
    ctx.progress = progress.Part(0, 0.4);
    const int base = tet_mesh_internal::ReadTetGenNodes(node_text.value(), &ctx);
    if (base >= 0 && !diagnostics.has_errors()) {
      ctx.path = ele_path;
      ctx.text_size = ele_text->size();
      ctx.progress = progress.Part(0.4, 0.9);
      tet_mesh_internal::ReadTetGenElements(ele_text.value(), base, &ctx);
    }
    ctx.lines.node_source = node_path;
    ctx.lines.tet_source = ele_path;
  } else if (ext == ".vtk") {
    Expected<std::string> text = ReadTextFile(path, "VTK");
    if (!text.ok()) return text.diagnostics();
    ctx.text_size = text->size();
    tet_mesh_internal::ReadVtk(text.value(), &ctx);
  } else {
    diagnostics.Error(path, 0, "",
                      "unknown tet mesh format '" + ext +
                          "' (expected .msh (Gmsh), .node/.ele (TetGen) or .vtk (legacy VTK))");
    return diagnostics;
  }
  // the readers stop early when cancelled; what they reported about the cut text is moot
  if (progress.cancelled()) return CancelledLoad(path);
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
  progress.Report(1);
  return Expected<TetMesh>(std::move(ctx.mesh), std::move(diagnostics));
}

}  // namespace sim::io
