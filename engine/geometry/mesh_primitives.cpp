#include "engine/geometry/mesh_primitives.h"

#include <cmath>
#include <map>
#include <numbers>
#include <utility>

namespace sim {
namespace {

constexpr Real kPi = std::numbers::pi;

}  // namespace


// signed volume by the divergence theorem (> 0 for outward, counter-clockwise triangles)
Real MeshSignedVolume(const TriangleMesh& mesh) {
  Real volume = 0;
  for (const auto& t : mesh.triangles) {
    volume += mesh.vertices[t[0]].dot(mesh.vertices[t[1]].cross(mesh.vertices[t[2]])) / 6;
  }
  return volume;
}


// flips every triangle when the mesh is inside out
void OrientOutward(TriangleMesh* mesh) {
  if (MeshSignedVolume(*mesh) < 0) {
    for (auto& t : mesh->triangles) std::swap(t[1], t[2]);
  }
}


// axis-aligned box [-h, h], 12 triangles
TriangleMesh BoxMesh(const Vec3& half, const std::string& name) {
  TriangleMesh mesh;
  mesh.name = name;
  for (int i = 0; i < 8; ++i) {
    mesh.vertices.push_back(Vec3((i & 1) ? half.x() : -half.x(), (i & 2) ? half.y() : -half.y(),
                                 (i & 4) ? half.z() : -half.z()));
  }
  // each face as a loop of corner indices, oriented so its normal points away from the centre
  const int quads[6][4] = {{0, 2, 6, 4}, {1, 5, 7, 3}, {0, 4, 5, 1},
                           {2, 3, 7, 6}, {0, 1, 3, 2}, {4, 6, 7, 5}};
  for (const auto& q : quads) {
    std::array<int, 3> t0 = {q[0], q[1], q[2]};
    std::array<int, 3> t1 = {q[0], q[2], q[3]};
    const Vec3& a = mesh.vertices[q[0]];
    const Vec3 n = (mesh.vertices[q[1]] - a).cross(mesh.vertices[q[2]] - a);
    const Vec3 c = (a + mesh.vertices[q[2]]) / 2;
    if (n.dot(c) < 0) {
      std::swap(t0[1], t0[2]);
      std::swap(t1[1], t1[2]);
    }
    mesh.triangles.push_back(t0);
    mesh.triangles.push_back(t1);
  }
  return mesh;
}


// icosphere of radius r: icosahedron with `levels` midpoint subdivisions (20·4^levels triangles)
TriangleMesh Icosphere(int levels, Real r, const std::string& name) {
  const Real g = (1 + std::sqrt(5.0)) / 2;
  TriangleMesh mesh;
  mesh.name = name;
  mesh.vertices = {{-1, g, 0},  {1, g, 0},  {-1, -g, 0}, {1, -g, 0}, {0, -1, g},  {0, 1, g},
                   {0, -1, -g}, {0, 1, -g}, {g, 0, -1},  {g, 0, 1},  {-g, 0, -1}, {-g, 0, 1}};
  mesh.triangles = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                    {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                    {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                    {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
  for (int level = 0; level < levels; ++level) {
    std::map<std::pair<int, int>, int> midpoints;
    auto midpoint = [&](int a, int b) {
      const auto key = std::make_pair(std::min(a, b), std::max(a, b));
      auto it = midpoints.find(key);
      if (it != midpoints.end()) return it->second;
      mesh.vertices.push_back((mesh.vertices[a] + mesh.vertices[b]) / 2);
      const int index = mesh.vertex_count() - 1;
      midpoints[key] = index;
      return index;
    };
    std::vector<std::array<int, 3>> refined;
    for (const auto& t : mesh.triangles) {
      const int ab = midpoint(t[0], t[1]);
      const int bc = midpoint(t[1], t[2]);
      const int ca = midpoint(t[2], t[0]);
      refined.push_back({t[0], ab, ca});
      refined.push_back({t[1], bc, ab});
      refined.push_back({t[2], ca, bc});
      refined.push_back({ab, bc, ca});
    }
    mesh.triangles = refined;
  }
  for (Vec3& v : mesh.vertices) v = r * v.normalized();
  OrientOutward(&mesh);
  return mesh;
}


// torus around z with major radius R, minor radius r, nu × nv quads split in two
TriangleMesh Torus(Real R, Real r, int nu, int nv, const std::string& name) {
  TriangleMesh mesh;
  mesh.name = name;
  for (int i = 0; i < nu; ++i) {
    for (int j = 0; j < nv; ++j) {
      const Real u = 2 * kPi * i / nu;
      const Real v = 2 * kPi * j / nv;
      mesh.vertices.push_back(Vec3((R + r * std::cos(v)) * std::cos(u),
                                   (R + r * std::cos(v)) * std::sin(u), r * std::sin(v)));
    }
  }
  auto id = [nu, nv](int i, int j) { return (i % nu) * nv + (j % nv); };
  for (int i = 0; i < nu; ++i) {
    for (int j = 0; j < nv; ++j) {
      mesh.triangles.push_back({id(i, j), id(i + 1, j), id(i + 1, j + 1)});
      mesh.triangles.push_back({id(i, j), id(i + 1, j + 1), id(i, j + 1)});
    }
  }
  OrientOutward(&mesh);
  return mesh;
}


TriangleMesh SubdividedBoxMesh(const Vec3& half, int n, const std::string& name) {
  // each face an n × n grid of quads split in two, with shared vertices along the face edges
  TriangleMesh mesh;
  mesh.name = name;
  std::map<std::array<long, 3>, int> index;
  const auto vertex = [&](const Vec3& p) {
    // integer lattice key: exact for grid points
    const std::array<long, 3> key = {std::lround(p.x() / half.x() * n),
                                     std::lround(p.y() / half.y() * n),
                                     std::lround(p.z() / half.z() * n)};
    const auto it = index.find(key);
    if (it != index.end()) return it->second;
    mesh.vertices.push_back(p);
    return index[key] = mesh.vertex_count() - 1;
  };
  for (int axis = 0; axis < 3; ++axis) {
    for (int sign : {-1, 1}) {
      const int u = (axis + 1) % 3, v = (axis + 2) % 3;
      for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
          int id[2][2];
          for (int di = 0; di < 2; ++di) {
            for (int dj = 0; dj < 2; ++dj) {
              Vec3 p;
              p(axis) = sign * half(axis);
              p(u) = half(u) * (-1 + 2.0 * (i + di) / n);
              p(v) = half(v) * (-1 + 2.0 * (j + dj) / n);
              id[di][dj] = vertex(p);
            }
          }
          // (u, v, axis) is right-handed, so u × v = +axis: counter-clockwise on the + face
          if (sign > 0) {
            mesh.triangles.push_back({id[0][0], id[1][0], id[1][1]});
            mesh.triangles.push_back({id[0][0], id[1][1], id[0][1]});
          } else {
            mesh.triangles.push_back({id[0][0], id[1][1], id[1][0]});
            mesh.triangles.push_back({id[0][0], id[0][1], id[1][1]});
          }
        }
      }
    }
  }
  return mesh;
}

}  // namespace sim
