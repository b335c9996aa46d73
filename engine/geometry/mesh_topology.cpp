#include "engine/geometry/mesh_topology.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

namespace sim {
namespace {

// relative area threshold of a degenerate triangle (task spec: area ≤ 1e-12 (longest edge)²)
constexpr Real kDegenerateAreaRatio = 1e-12;

// one directed half-edge, sorted by its undirected key to find the unique edges
struct HalfEdge {
  std::uint64_t key;  // (min << 32) | max
  int triangle;
  int local;     // k: joins the triangle's vertices k and (k + 1) % 3
  bool forward;  // traversed from the smaller to the larger index
};


// interior angle of a triangle at vertex a (0 for a collapsed corner)
Real CornerAngle(const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 u = b - a;
  const Vec3 v = c - a;
  return std::atan2(u.cross(v).norm(), u.dot(v));
}


std::string MeshLabel(const TriangleMesh& mesh) { return "mesh '" + mesh.name + "'"; }

}  // namespace


MeshTopology BuildMeshTopology(const TriangleMesh& mesh) {
  MeshTopology topo;
  const int triangle_count = mesh.triangle_count();
  const int vertex_count = mesh.vertex_count();
  topo.triangles = mesh.triangles;
  topo.triangle_edges.assign(triangle_count, {-1, -1, -1});
  topo.face_normals.assign(triangle_count, Vec3::Zero());

  // face normals and degenerate triangles
  std::vector<char> degenerate(triangle_count, 0);
  for (int t = 0; t < triangle_count; ++t) {
    const auto& tri = mesh.triangles[t];
    const Vec3& a = mesh.vertices[tri[0]];
    const Vec3& b = mesh.vertices[tri[1]];
    const Vec3& c = mesh.vertices[tri[2]];
    const Vec3 n = (b - a).cross(c - a);
    const Real area = 0.5 * n.norm();
    const Real longest2 =
        std::max({(b - a).squaredNorm(), (c - b).squaredNorm(), (a - c).squaredNorm()});
    const bool repeated = tri[0] == tri[1] || tri[1] == tri[2] || tri[2] == tri[0];
    if (repeated || !(area > kDegenerateAreaRatio * longest2)) {
      degenerate[t] = 1;
      if (topo.degenerate_triangles++ == 0) topo.first_degenerate_triangle = t;
    } else {
      topo.face_normals[t] = n / (2 * area);
    }
  }

  // half-edges sorted by undirected key give the unique edges
  std::vector<HalfEdge> half_edges;
  half_edges.reserve(3 * mesh.triangles.size());
  for (int t = 0; t < triangle_count; ++t) {
    for (int k = 0; k < 3; ++k) {
      const int i = mesh.triangles[t][k];
      const int j = mesh.triangles[t][(k + 1) % 3];
      if (i == j) continue;  // collapsed edge of a degenerate triangle
      const auto lo = static_cast<std::uint64_t>(std::min(i, j));
      const auto hi = static_cast<std::uint64_t>(std::max(i, j));
      half_edges.push_back({(lo << 32) | hi, t, k, i < j});
    }
  }
  std::sort(half_edges.begin(), half_edges.end(), [](const HalfEdge& x, const HalfEdge& y) {
    return x.key != y.key ? x.key < y.key : x.triangle < y.triangle;
  });

  // group equal keys: one edge each, classify by the number and direction of its half-edges
  for (size_t begin = 0; begin < half_edges.size();) {
    size_t end = begin;
    while (end < half_edges.size() && half_edges[end].key == half_edges[begin].key) ++end;
    const int e = topo.edge_count();
    const std::uint64_t key = half_edges[begin].key;
    topo.edges.push_back({static_cast<int>(key >> 32), static_cast<int>(key & 0xffffffffu)});
    std::array<int, 2> adjacent = {half_edges[begin].triangle, -1};
    if (end - begin >= 2) adjacent[1] = half_edges[begin + 1].triangle;
    topo.edge_triangles.push_back(adjacent);
    for (size_t h = begin; h < end; ++h) {
      topo.triangle_edges[half_edges[h].triangle][half_edges[h].local] = e;
    }
    const size_t count = end - begin;
    if (count == 1) {
      if (topo.boundary_edges++ == 0) topo.first_boundary_edge = e;
    } else if (count > 2) {
      if (topo.nonmanifold_edges++ == 0) topo.first_nonmanifold_edge = e;
    } else if (half_edges[begin].forward == half_edges[begin + 1].forward) {
      if (topo.inconsistent_edges++ == 0) topo.first_inconsistent_edge = e;
    }
    begin = end;
  }
  topo.closed = !topo.edges.empty() && topo.boundary_edges == 0 && topo.nonmanifold_edges == 0 &&
                topo.inconsistent_edges == 0;

  // angle-weighted vertex pseudonormals (Bærentzen & Aanæs eq. 1)
  topo.vertex_normals.assign(vertex_count, Vec3::Zero());
  for (int t = 0; t < triangle_count; ++t) {
    if (degenerate[t]) continue;
    const auto& tri = mesh.triangles[t];
    for (int k = 0; k < 3; ++k) {
      const Vec3& a = mesh.vertices[tri[k]];
      const Vec3& b = mesh.vertices[tri[(k + 1) % 3]];
      const Vec3& c = mesh.vertices[tri[(k + 2) % 3]];
      topo.vertex_normals[tri[k]] += CornerAngle(a, b, c) * topo.face_normals[t];
    }
  }
  for (Vec3& n : topo.vertex_normals) {
    const Real norm = n.norm();
    n = norm > 0 ? Vec3(n / norm) : Vec3::Zero();
  }

  // edge pseudonormals: sum of the (up to two stored) adjacent face normals
  topo.edge_normals.assign(topo.edges.size(), Vec3::Zero());
  for (int e = 0; e < topo.edge_count(); ++e) {
    Vec3 n = Vec3::Zero();
    for (int t : topo.edge_triangles[e]) {
      if (t >= 0) n += topo.face_normals[t];
    }
    const Real norm = n.norm();
    topo.edge_normals[e] = norm > 0 ? Vec3(n / norm) : Vec3::Zero();
  }

  // representative triangles: greedy, non-degenerate triangles first so they own the features
  topo.vertex_owner.assign(vertex_count, -1);
  topo.edge_owner.assign(topo.edges.size(), -1);
  for (int pass = 0; pass < 2; ++pass) {
    for (int t = 0; t < triangle_count; ++t) {
      if ((degenerate[t] != 0) != (pass == 1)) continue;
      for (int k = 0; k < 3; ++k) {
        int& vertex_owner = topo.vertex_owner[mesh.triangles[t][k]];
        if (vertex_owner < 0) vertex_owner = t;
        const int e = topo.triangle_edges[t][k];
        if (e >= 0 && topo.edge_owner[e] < 0) topo.edge_owner[e] = t;
      }
    }
  }
  return topo;
}


bool OwnsFeature(const MeshTopology& topology, int triangle, const Vec3& barycentric,
                 Real tolerance) {
  // count the coordinates that vanish; the feature is spanned by the others
  int zeros = 0;
  int nonzero = -1;
  int zero = -1;
  for (int i = 0; i < 3; ++i) {
    if (barycentric[i] <= tolerance) {
      ++zeros;
      zero = i;
    } else {
      nonzero = i;
    }
  }
  const auto& tri = topology.triangles[triangle];
  if (zeros == 2) return topology.vertex_owner[tri[nonzero]] == triangle;
  if (zeros == 1) {
    // the edge opposite vertex `zero` joins vertices zero+1 and zero+2: local edge (zero + 1) % 3
    const int e = topology.triangle_edges[triangle][(zero + 1) % 3];
    return e < 0 || topology.edge_owner[e] == triangle;
  }
  return true;
}


bool ValidateMesh(const TriangleMesh& mesh, const std::string& source_file,
                  Diagnostics* diagnostics) {
  const std::string label = MeshLabel(mesh);
  bool ok = true;

  // errors: empty, non-finite vertices, indices out of range
  if (mesh.vertices.empty() || mesh.triangles.empty()) {
    diagnostics->Error(source_file, 0, "",
                       label + " is empty (" + std::to_string(mesh.vertex_count()) + " vertices, " +
                           std::to_string(mesh.triangle_count()) +
                           " triangles; expected at least 3 vertices and 1 triangle)");
    return false;
  }
  int non_finite = 0;
  int first_non_finite = -1;
  for (int v = 0; v < mesh.vertex_count(); ++v) {
    if (!mesh.vertices[v].allFinite() && non_finite++ == 0) first_non_finite = v;
  }
  if (non_finite > 0) {
    diagnostics->Error(source_file, 0, "",
                       label + ": " + std::to_string(non_finite) +
                           " non-finite vertices (first: vertex " +
                           std::to_string(first_non_finite) + ")");
    ok = false;
  }
  int out_of_range = 0;
  int first_out_of_range = -1;
  for (int t = 0; t < mesh.triangle_count(); ++t) {
    for (int index : mesh.triangles[t]) {
      if (index < 0 || index >= mesh.vertex_count()) {
        if (out_of_range++ == 0) first_out_of_range = t;
        break;
      }
    }
  }
  if (out_of_range > 0) {
    diagnostics->Error(source_file, 0, "",
                       label + ": " + std::to_string(out_of_range) +
                           " triangles with a vertex index out of range (first: triangle " +
                           std::to_string(first_out_of_range) + "; expected indices in [0, " +
                           std::to_string(mesh.vertex_count()) + "))");
    ok = false;
  }
  if (!ok) return false;

  // warnings from the topology
  const MeshTopology topo = BuildMeshTopology(mesh);
  if (topo.degenerate_triangles > 0) {
    diagnostics->Warning(source_file, 0, "",
                         label + ": " + std::to_string(topo.degenerate_triangles) +
                             " degenerate triangles (first: triangle " +
                             std::to_string(topo.first_degenerate_triangle) + ")");
  }
  auto edge_name = [&topo](int e) {
    return "edge " + std::to_string(topo.edges[e][0]) + "-" + std::to_string(topo.edges[e][1]);
  };
  if (topo.nonmanifold_edges > 0) {
    diagnostics->Warning(source_file, 0, "",
                         label + ": " + std::to_string(topo.nonmanifold_edges) +
                             " non-manifold edges with more than 2 triangles (first: " +
                             edge_name(topo.first_nonmanifold_edge) + ")");
  }
  if (topo.boundary_edges > 0) {
    diagnostics->Warning(source_file, 0, "",
                         label + " is open: " + std::to_string(topo.boundary_edges) +
                             " boundary edges (first: " + edge_name(topo.first_boundary_edge) +
                             ")");
  }
  if (topo.inconsistent_edges > 0) {
    diagnostics->Warning(
        source_file, 0, "",
        label + " has inconsistent orientation: " + std::to_string(topo.inconsistent_edges) +
            " edges traversed in the same direction by both triangles (first: " +
            edge_name(topo.first_inconsistent_edge) + ")");
  }
  return true;
}

}  // namespace sim
