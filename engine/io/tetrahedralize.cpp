#include "engine/io/tetrahedralize.h"

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <tetgen.h>

#include "engine/geometry/mesh_topology.h"

namespace sim::io {

namespace {

// TetGen's exit codes (tetgen.h, terminatetetgen) as sentences
std::string TetGenFailure(int code) {
  switch (code) {
    case 1:
      return "TetGen ran out of memory (code 1)";
    case 2:
      return "TetGen hit an internal error (code 2)";
    case 3:
      return "the surface intersects itself (TetGen code 3)";
    case 4:
      return "the surface has a feature smaller than TetGen's tolerance (code 4)";
    case 5:
      return "two facets of the surface are too close to each other (TetGen code 5)";
    case 10:
      return "TetGen rejected the input surface (code 10)";
    default:
      return "TetGen failed with code " + std::to_string(code);
  }
}

}  // namespace


Real TetVolumeForEdgeLength(Real edge_length) {
  return std::sqrt(2.0) * edge_length * edge_length * edge_length / 12;
}


Expected<TetMesh> TetrahedralizeSurface(const TriangleMesh& surface,
                                        const TetrahedralizeOptions& options,
                                        const std::string& source, const LoadProgress& progress) {
  Diagnostics diagnostics;
  const std::string what = "surface '" + surface.name + "'";
  progress.Stage("tetrahedralizing " + what);
  if (progress.cancelled()) return CancelledLoad(source);
  // only a closed, consistently oriented 2-manifold bounds a volume
  if (!ValidateMesh(surface, source, &diagnostics)) return diagnostics;
  const MeshTopology topology = BuildMeshTopology(surface);
  if (!topology.closed || topology.degenerate_triangles > 0) {
    diagnostics.Error(source, 0, "",
                      what +
                          " cannot be tetrahedralized: it is not a closed, consistently "
                          "oriented surface (" +
                          std::to_string(topology.boundary_edges) + " open edges, " +
                          std::to_string(topology.nonmanifold_edges) + " non-manifold edges, " +
                          std::to_string(topology.inconsistent_edges) + " flipped edges, " +
                          std::to_string(topology.degenerate_triangles) + " degenerate triangles)");
    return diagnostics;
  }
  if (!(options.quality >= 1.1) || !(options.max_volume >= 0)) {
    diagnostics.Error(source, 0, "", what + ": invalid tetrahedralization options");
    return diagnostics;
  }

  // the surface as a PLC: points and one triangle polygon per facet (tetgenio frees them)
  tetgenio in, out;
  in.firstnumber = 0;
  in.numberofpoints = surface.vertex_count();
  in.pointlist = new REAL[3 * in.numberofpoints];
  for (int v = 0; v < surface.vertex_count(); ++v) {
    for (int k = 0; k < 3; ++k) in.pointlist[3 * v + k] = surface.vertices[v](k);
  }
  in.numberoffacets = surface.triangle_count();
  in.facetlist = new tetgenio::facet[in.numberoffacets];
  for (int t = 0; t < surface.triangle_count(); ++t) {
    tetgenio::facet& facet = in.facetlist[t];
    tetgenio::init(&facet);
    facet.numberofpolygons = 1;
    facet.polygonlist = new tetgenio::polygon[1];
    tetgenio::init(&facet.polygonlist[0]);
    facet.polygonlist[0].numberofvertices = 3;
    facet.polygonlist[0].vertexlist = new int[3];
    for (int k = 0; k < 3; ++k) facet.polygonlist[0].vertexlist[k] = surface.triangles[t][k];
  }

  // p: PLC, q: radius-edge bound, a: volume bound, z: 0-based, Q: quiet
  char switches[128];
  if (options.max_volume > 0) {
    std::snprintf(switches, sizeof(switches), "pq%.6ga%.9gzQ", options.quality, options.max_volume);
  } else {
    std::snprintf(switches, sizeof(switches), "pq%.6gzQ", options.quality);
  }
  try {
    // self-intersections first, with TetGen's own detector (-d): it reports the intersecting
    // facets and returns, whereas meshing such a surface aborts, and TetGen 1.5.0 frees its memory
    // twice on that path (a crash, not an exception)
    tetgenio check;
    char diagnose[] = "pdzQ";
    tetrahedralize(diagnose, &in, &check);
    if (progress.cancelled()) return CancelledLoad(source);
    progress.Report(0.1);
    if (check.numberoftrifaces > 0) {
      diagnostics.Error(source, 0, "",
                        what + " cannot be tetrahedralized: the surface intersects itself (" +
                            std::to_string(check.numberoftrifaces) +
                            " intersecting triangles, found by TetGen -d)");
      return diagnostics;
    }
    tetrahedralize(switches, &in, &out);
    if (progress.cancelled()) return CancelledLoad(source);
  } catch (int code) {
    diagnostics.Error(source, 0, "", what + " cannot be tetrahedralized: " + TetGenFailure(code));
    return diagnostics;
  }
  if (out.numberoftetrahedra <= 0 || out.numberofcorners < 4) {
    diagnostics.Error(source, 0, "", what + " cannot be tetrahedralized: TetGen made no tets");
    return diagnostics;
  }

  // nodes used by a tet (duplicate input vertices stay unused), in TetGen's order, and the tets,
  // each oriented positively (TetGen's own orientation is not relied on)
  TetMesh mesh;
  mesh.name = surface.name;
  std::vector<int> node_of(out.numberofpoints, -1);
  mesh.tets.resize(out.numberoftetrahedra);
  for (int t = 0; t < out.numberoftetrahedra; ++t) {
    for (int k = 0; k < 4; ++k) node_of[out.tetrahedronlist[out.numberofcorners * t + k]] = 0;
  }
  for (int v = 0; v < out.numberofpoints; ++v) {
    if (node_of[v] < 0) continue;
    node_of[v] = mesh.node_count();
    mesh.nodes.emplace_back(out.pointlist[3 * v], out.pointlist[3 * v + 1],
                            out.pointlist[3 * v + 2]);
  }
  for (int t = 0; t < out.numberoftetrahedra; ++t) {
    const int* corners = out.tetrahedronlist + out.numberofcorners * t;
    std::array<int, 4>& tet = mesh.tets[t];
    for (int k = 0; k < 4; ++k) tet[k] = node_of[corners[k]];
    if (TetSignedVolume(mesh, t) < 0) std::swap(tet[2], tet[3]);
  }
  if (!ValidateTetMesh(mesh, source, &diagnostics)) return diagnostics;
  progress.Report(1);
  return Expected<TetMesh>(std::move(mesh), std::move(diagnostics));
}

}  // namespace sim::io
