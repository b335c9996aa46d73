// Legacy VTK ASCII reader of LoadTetMesh: four header lines, then DATASET UNSTRUCTURED_GRID read
// token by token (a record may wrap lines): POINTS, CELLS and CELL_TYPES; cells of type 10
// (VTK_TETRA) become tets, POINT_DATA and what follows is not read.
#include "engine/io/tet_mesh_reader_util.h"
#include "engine/io/text_util.h"

namespace sim::io::tet_mesh_internal {

namespace {

// VTK_TETRA in VTK's cell type enumeration (vtkCellType.h)
constexpr long long kVtkTetra = 10;

}  // namespace


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

  TokenStream tokens(text, std::min(pos, text.size()), line + 1, ctx->progress);
  std::string_view token;
  int token_line = 0;
  // the next token, or an error naming what was expected
  auto next_token = [&](const std::string& what) {
    if (tokens.Next(&token, &token_line)) return true;
    ctx->Error(tokens.line(), "unexpected end of file (expected " + what + ")");
    return false;
  };
  auto next_int = [&](const std::string& what, long long* value) {
    if (!next_token(what)) return false;
    if (!ParseInt(token, value)) {
      ctx->Error(token_line, "invalid " + what + " " + Quoted(token) + " (expected an integer)");
      return false;
    }
    return true;
  };
  // a count is >= 0: a negative one would read as an empty section
  auto next_count = [&](const std::string& what, long long* value) {
    return next_token(what) && ReadCount(*ctx, token, token_line, what, value);
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
      if (!next_count("point count", &count)) return;
      // the data type (float, double): values are read as double
      if (!next_token("the POINTS data type")) return;
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
      if (!next_count("cell count", &cell_count) || !next_token("the CELLS list size")) return;
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
      if (!next_count("cell type count", &count)) return;
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

}  // namespace sim::io::tet_mesh_internal
