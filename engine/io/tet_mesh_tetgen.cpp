// TetGen .node/.ele reader of LoadTetMesh: the .node file gives the points (0- or 1-based, from
// the first index), the .ele file the tetrahedra (4 or 10 nodes, the first four are the corners).
// '#' comments, attributes and boundary markers are skipped; problems are reported at their line.
#include "engine/io/tet_mesh_reader_util.h"
#include "engine/io/text_util.h"

namespace sim::io::tet_mesh_internal {

// reads the .node file into ctx; returns the index base (0 or 1), or -1 when it is unknown
int ReadTetGenNodes(std::string_view text, ReadContext* ctx) {
  LineCursor cursor(text, true, ctx->progress);
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
  LineCursor cursor(text, true, ctx->progress);
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
      } else if (node < base || node - base >= node_count) {  // node >= base: no overflow
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

}  // namespace sim::io::tet_mesh_internal
