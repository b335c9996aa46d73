// Geometry library: mesh topology and representative triangles, BVH closest points against brute
// force, grid SDFs against brute-force signed distances within their proven error bound, and qhull
// convex hulls against closed forms (box volume and inertia) and containment.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <random>
#include <set>

#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include "engine/geometry/bvh.h"
#include "engine/geometry/closest_point.h"
#include "engine/geometry/convex_hull.h"
#include "engine/geometry/mesh_primitives.h"
#include "engine/geometry/mesh_topology.h"
#include "engine/geometry/sdf_grid.h"

namespace sim {
namespace {

constexpr Real kPi = 3.14159265358979323846;

// ---- test meshes ------------------------------------------------------------------------------

// ---- brute-force references -------------------------------------------------------------------

// unsigned distance to the closest triangle, over all triangles
Real BruteForceDistance(const TriangleMesh& mesh, const Vec3& x) {
  Real best = std::numeric_limits<Real>::infinity();
  for (const auto& t : mesh.triangles) {
    const Vec3 p =
        ClosestPointOnTriangle(x, mesh.vertices[t[0]], mesh.vertices[t[1]], mesh.vertices[t[2]]);
    best = std::min(best, (x - p).squaredNorm());
  }
  return std::sqrt(best);
}


// generalized winding number (Van Oosterom & Strackee 1983 solid angles / 4π): 1 inside a closed
// outward mesh, 0 outside; independent of the pseudonormals the SDF builder uses
Real WindingNumber(const TriangleMesh& mesh, const Vec3& x) {
  Real total = 0;
  for (const auto& t : mesh.triangles) {
    const Vec3 a = mesh.vertices[t[0]] - x;
    const Vec3 b = mesh.vertices[t[1]] - x;
    const Vec3 c = mesh.vertices[t[2]] - x;
    const Real la = a.norm();
    const Real lb = b.norm();
    const Real lc = c.norm();
    const Real numerator = a.dot(b.cross(c));
    const Real denominator = la * lb * lc + a.dot(b) * lc + b.dot(c) * la + c.dot(a) * lb;
    total += 2 * std::atan2(numerator, denominator);
  }
  return total / (4 * kPi);
}


Real BruteForceSignedDistance(const TriangleMesh& mesh, const Vec3& x) {
  const Real d = BruteForceDistance(mesh, x);
  return WindingNumber(mesh, x) > 0.5 ? -d : d;
}


Vec3 RandomInBox(std::mt19937& rng, const Vec3& lower, const Vec3& upper) {
  std::uniform_real_distribution<Real> u(0, 1);
  return lower + Vec3(u(rng), u(rng), u(rng)).cwiseProduct(upper - lower);
}


bool Contains(const Diagnostics& diagnostics, const std::string& text) {
  return diagnostics.Format().find(text) != std::string::npos;
}


// every vertex and every edge is owned by exactly one incident triangle, as OwnsFeature reports it
void ExpectEachFeatureOwnedOnce(const MeshTopology& topo, int vertex_count) {
  std::vector<int> vertex_owners(vertex_count, 0);
  std::vector<int> edge_owners(topo.edges.size(), 0);
  for (int t = 0; t < static_cast<int>(topo.triangles.size()); ++t) {
    for (int k = 0; k < 3; ++k) {
      Vec3 corner = Vec3::Zero();
      corner[k] = 1;
      if (OwnsFeature(topo, t, corner, 1e-9)) ++vertex_owners[topo.triangles[t][k]];
      // midpoint of edge k (vertices k, k+1): the coordinate of vertex k+2 is zero
      Vec3 mid = Vec3::Constant(0.5);
      mid[(k + 2) % 3] = 0;
      if (OwnsFeature(topo, t, mid, 1e-9)) ++edge_owners[topo.triangle_edges[t][k]];
    }
    EXPECT_TRUE(OwnsFeature(topo, t, Vec3::Constant(1.0 / 3), 1e-9)) << "faces own themselves";
  }
  for (int v = 0; v < vertex_count; ++v) EXPECT_EQ(vertex_owners[v], 1) << "vertex " << v;
  for (size_t e = 0; e < edge_owners.size(); ++e) EXPECT_EQ(edge_owners[e], 1) << "edge " << e;
}

// ---- closest point on a triangle --------------------------------------------------------------

TEST(ClosestPointTest, MatchesDenseBarycentricSampling) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<Real> u(-1, 1);
  constexpr int kSteps = 200;
  for (int trial = 0; trial < 50; ++trial) {
    const Vec3 a(u(rng), u(rng), u(rng));
    const Vec3 b(u(rng), u(rng), u(rng));
    const Vec3 c(u(rng), u(rng), u(rng));
    const Vec3 p = 2 * Vec3(u(rng), u(rng), u(rng));
    Vec3 bary;
    const Vec3 q = ClosestPointOnTriangle(p, a, b, c, &bary);
    // the barycentrics reproduce the point and lie in the simplex (rounding of O(1) numbers)
    EXPECT_LT((bary[0] * a + bary[1] * b + bary[2] * c - q).norm(), 1e-12);
    EXPECT_NEAR(bary.sum(), 1, 1e-12);
    EXPECT_GE(bary.minCoeff(), -1e-12);
    // the exact minimum is ≤ every sample and ≥ the best sample minus the sampling spacing
    // (samples are within one step · longest edge of any triangle point)
    Real sampled = std::numeric_limits<Real>::infinity();
    for (int i = 0; i <= kSteps; ++i) {
      for (int j = 0; i + j <= kSteps; ++j) {
        const Real s = Real(i) / kSteps;
        const Real t = Real(j) / kSteps;
        sampled = std::min(sampled, (p - (a + s * (b - a) + t * (c - a))).norm());
      }
    }
    const Real longest = std::max({(b - a).norm(), (c - b).norm(), (a - c).norm()});
    const Real d = (p - q).norm();
    EXPECT_LE(d, sampled + 1e-12);
    EXPECT_GE(d, sampled - 2 * longest / kSteps);
  }
}

// ---- topology ---------------------------------------------------------------------------------

TEST(MeshTopologyTest, CubeIsClosedWithEulerCharacteristicTwo) {
  const TriangleMesh mesh = BoxMesh(Vec3(0.5, 0.3, 0.2), "cube");
  const MeshTopology topo = BuildMeshTopology(mesh);
  EXPECT_TRUE(topo.closed);
  EXPECT_EQ(topo.edge_count(), 18);  // 12 box edges + 6 face diagonals
  EXPECT_EQ(mesh.vertex_count() - topo.edge_count() + mesh.triangle_count(), 2);  // sphere
  EXPECT_EQ(topo.boundary_edges, 0);
  EXPECT_EQ(topo.nonmanifold_edges, 0);
  EXPECT_EQ(topo.inconsistent_edges, 0);
  EXPECT_EQ(topo.degenerate_triangles, 0);
  ExpectEachFeatureOwnedOnce(topo, mesh.vertex_count());
  // edge k of triangle t joins its vertices k and k+1
  for (int t = 0; t < mesh.triangle_count(); ++t) {
    for (int k = 0; k < 3; ++k) {
      const auto& e = topo.edges[topo.triangle_edges[t][k]];
      const int a = mesh.triangles[t][k];
      const int b = mesh.triangles[t][(k + 1) % 3];
      EXPECT_EQ(e[0], std::min(a, b));
      EXPECT_EQ(e[1], std::max(a, b));
    }
  }
  // corner pseudonormal of a box is the normalized diagonal (three right angles, equal weights);
  // double rounding of O(1) numbers
  for (int v = 0; v < 8; ++v) {
    const Vec3 expected = mesh.vertices[v].cwiseSign().normalized();
    EXPECT_LT((topo.vertex_normals[v] - expected).norm(), 1e-12);
  }
  Diagnostics diagnostics;
  EXPECT_TRUE(ValidateMesh(mesh, "cube.obj", &diagnostics));
  EXPECT_TRUE(diagnostics.empty()) << diagnostics.Format();
}


TEST(MeshTopologyTest, IcosphereIsClosedAndEveryFeatureOwnedOnce) {
  const TriangleMesh mesh = Icosphere(2, 1.0);
  const MeshTopology topo = BuildMeshTopology(mesh);
  EXPECT_TRUE(topo.closed);
  EXPECT_EQ(mesh.triangle_count(), 320);
  EXPECT_EQ(mesh.vertex_count() - topo.edge_count() + mesh.triangle_count(), 2);
  ExpectEachFeatureOwnedOnce(topo, mesh.vertex_count());
  // pseudonormals of a sphere approximation are within a facet's angular size of the radius
  // (level-2 edges subtend ≈ 0.3 rad; cos 0.3 ≈ 0.955)
  for (int v = 0; v < mesh.vertex_count(); ++v) {
    EXPECT_NEAR(topo.vertex_normals[v].norm(), 1, 1e-12);  // normalized: rounding only
    EXPECT_GT(topo.vertex_normals[v].dot(mesh.vertices[v]), 0.95);
  }
  for (int e = 0; e < topo.edge_count(); ++e) {
    const Vec3 mid = (mesh.vertices[topo.edges[e][0]] + mesh.vertices[topo.edges[e][1]]) / 2;
    EXPECT_GT(topo.edge_normals[e].dot(mid.normalized()), 0.95);
    EXPECT_GE(topo.edge_owner[e], 0);
  }
}


TEST(MeshTopologyTest, MeshWithHoleIsOpenAndWarned) {
  TriangleMesh mesh = Icosphere(1, 1.0, "holey");
  mesh.triangles.pop_back();
  const MeshTopology topo = BuildMeshTopology(mesh);
  EXPECT_FALSE(topo.closed);
  EXPECT_EQ(topo.boundary_edges, 3);
  Diagnostics diagnostics;
  EXPECT_TRUE(ValidateMesh(mesh, "holey.stl", &diagnostics));  // a warning, not an error
  EXPECT_FALSE(diagnostics.has_errors());
  EXPECT_TRUE(Contains(diagnostics, "holey.stl: warning: mesh 'holey' is open: 3 boundary edges"))
      << diagnostics.Format();
}


TEST(MeshTopologyTest, NonManifoldFanIsDetected) {
  // three triangles hinged on edge 0-1
  TriangleMesh mesh;
  mesh.name = "fan";
  mesh.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}};
  mesh.triangles = {{0, 1, 2}, {1, 0, 3}, {0, 1, 4}};
  const MeshTopology topo = BuildMeshTopology(mesh);
  EXPECT_EQ(topo.nonmanifold_edges, 1);
  EXPECT_FALSE(topo.closed);
  Diagnostics diagnostics;
  EXPECT_TRUE(ValidateMesh(mesh, "fan.obj", &diagnostics));
  EXPECT_TRUE(Contains(diagnostics, "mesh 'fan': 1 non-manifold edges")) << diagnostics.Format();
}


TEST(MeshTopologyTest, FlippedTriangleIsInconsistent) {
  TriangleMesh mesh = BoxMesh(Vec3::Ones(), "flipped");
  std::swap(mesh.triangles[3][1], mesh.triangles[3][2]);
  const MeshTopology topo = BuildMeshTopology(mesh);
  EXPECT_EQ(topo.inconsistent_edges, 3);
  EXPECT_FALSE(topo.closed);
  Diagnostics diagnostics;
  ValidateMesh(mesh, "flipped.obj", &diagnostics);
  EXPECT_TRUE(Contains(diagnostics, "mesh 'flipped' has inconsistent orientation"))
      << diagnostics.Format();
}


TEST(MeshTopologyTest, DegenerateTrianglesWarningNamesTheMesh) {
  TriangleMesh mesh;
  mesh.name = "sliver";
  mesh.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {2, 0, 0}};
  // triangle 1 is collinear (zero area), triangle 2 repeats an index
  mesh.triangles = {{0, 1, 2}, {0, 1, 3}, {0, 2, 2}};
  const MeshTopology topo = BuildMeshTopology(mesh);
  EXPECT_EQ(topo.degenerate_triangles, 2);
  EXPECT_EQ(topo.first_degenerate_triangle, 1);
  EXPECT_EQ(topo.triangle_edges[2][1], -1);  // the collapsed edge 2-2
  Diagnostics diagnostics;
  EXPECT_TRUE(ValidateMesh(mesh, "sliver.obj", &diagnostics));
  EXPECT_TRUE(Contains(diagnostics,
                       "sliver.obj: warning: mesh 'sliver': 2 degenerate triangles (first: "
                       "triangle 1)"))
      << diagnostics.Format();
}


TEST(MeshTopologyTest, InvalidMeshesAreErrors) {
  TriangleMesh empty;
  empty.name = "nothing";
  Diagnostics d1;
  EXPECT_FALSE(ValidateMesh(empty, "nothing.obj", &d1));
  EXPECT_TRUE(Contains(d1, "error: mesh 'nothing' is empty")) << d1.Format();

  TriangleMesh bad_index = BoxMesh(Vec3::Ones(), "crate");
  bad_index.triangles[5][2] = 8;
  Diagnostics d2;
  EXPECT_FALSE(ValidateMesh(bad_index, "crate.obj", &d2));
  EXPECT_TRUE(Contains(d2,
                       "mesh 'crate': 1 triangles with a vertex index out of range (first: "
                       "triangle 5"))
      << d2.Format();

  TriangleMesh nan_vertex = BoxMesh(Vec3::Ones(), "ghost");
  nan_vertex.vertices[3].y() = std::numeric_limits<Real>::quiet_NaN();
  Diagnostics d3;
  EXPECT_FALSE(ValidateMesh(nan_vertex, "ghost.obj", &d3));
  EXPECT_TRUE(Contains(d3, "mesh 'ghost': 1 non-finite vertices (first: vertex 3)")) << d3.Format();
}

// ---- BVH --------------------------------------------------------------------------------------

TEST(TriangleBvhTest, ClosestMatchesBruteForceBeforeAndAfterRefit) {
  TriangleMesh mesh = Torus(1.0, 0.3, 48, 16);
  TriangleBvh bvh;
  bvh.Build(mesh.vertices, mesh.triangles);
  for (const auto& node : bvh.nodes()) EXPECT_LE(node.count, TriangleBvh::kLeafSize);
  std::mt19937 rng(11);
  for (int pass = 0; pass < 2; ++pass) {
    for (int i = 0; i < 1000; ++i) {
      const Vec3 x = RandomInBox(rng, Vec3(-2, -2, -1), Vec3(2, 2, 1));
      const TriangleBvh::Hit hit = bvh.Closest(x, std::numeric_limits<Real>::infinity());
      ASSERT_GE(hit.triangle, 0);
      // same primitive on the same triangle set: the minima agree to rounding
      const Real expected = BruteForceDistance(mesh, x);
      EXPECT_NEAR(std::sqrt(hit.distance_squared), expected, 1e-12);
      const auto& t = mesh.triangles[hit.triangle];
      const Vec3 from_bary = hit.barycentric[0] * mesh.vertices[t[0]] +
                             hit.barycentric[1] * mesh.vertices[t[1]] +
                             hit.barycentric[2] * mesh.vertices[t[2]];
      EXPECT_LT((from_bary - hit.point).norm(), 1e-12);
      // a search radius below the distance finds nothing
      if (expected > 1e-3) {
        EXPECT_EQ(bvh.Closest(x, 0.99 * expected).triangle, -1);
      }
    }
    // deform (anisotropic scale and shift) and refit for the second pass
    for (Vec3& v : mesh.vertices) v = Vec3(1.3 * v.x(), 0.7 * v.y(), v.z() + 0.2 * v.x());
    bvh.Refit(mesh.vertices);
  }
}


TEST(TriangleBvhTest, BoxQueryFindsExactlyTheOverlappingTriangles) {
  const TriangleMesh mesh = Icosphere(3, 1.0);
  TriangleBvh bvh;
  bvh.Build(mesh.vertices, mesh.triangles);
  std::mt19937 rng(5);
  for (int i = 0; i < 100; ++i) {
    const Vec3 c = RandomInBox(rng, Vec3::Constant(-1.2), Vec3::Constant(1.2));
    const Vec3 lo = c - Vec3::Constant(0.15);
    const Vec3 hi = c + Vec3::Constant(0.15);
    std::set<int> found;
    bvh.Query(lo, hi, [&found](int t) { EXPECT_TRUE(found.insert(t).second) << "reported twice"; });
    std::set<int> expected;
    for (int t = 0; t < mesh.triangle_count(); ++t) {
      const auto& tri = mesh.triangles[t];
      const Vec3 a = mesh.vertices[tri[0]];
      const Vec3 t_lo = a.cwiseMin(mesh.vertices[tri[1]]).cwiseMin(mesh.vertices[tri[2]]);
      const Vec3 t_hi = a.cwiseMax(mesh.vertices[tri[1]]).cwiseMax(mesh.vertices[tri[2]]);
      if ((t_lo.array() <= hi.array()).all() && (t_hi.array() >= lo.array()).all()) {
        expected.insert(t);
      }
    }
    EXPECT_EQ(found, expected);
  }
}

// ---- grid SDF ---------------------------------------------------------------------------------

// |Sample − brute force| ≤ error_bound() at random points inside the grid; the sign is then right
// wherever |φ| exceeds the bound
void ExpectSdfWithinBound(const TriangleMesh& mesh, const SdfGrid& grid, int samples) {
  std::mt19937 rng(3);
  const Real bound = grid.error_bound();
  int checked_sign = 0;
  for (int i = 0; i < samples; ++i) {
    const Vec3 x = RandomInBox(rng, grid.lower(), grid.upper());
    const Real expected = BruteForceSignedDistance(mesh, x);
    const Real actual = grid.Sample(x).distance;
    EXPECT_LE(std::abs(actual - expected), bound) << "at " << x.transpose();
    if (std::abs(expected) > bound) {
      EXPECT_EQ(actual < 0, expected < 0) << "at " << x.transpose();
      ++checked_sign;
    }
  }
  EXPECT_GT(checked_sign, samples / 2);
}


TEST(SdfGridTest, IcosphereWithinErrorBoundWithUnitRadialGradient) {
  const TriangleMesh mesh = Icosphere(3, 1.0);
  Diagnostics diagnostics;
  const auto start = std::chrono::steady_clock::now();
  const auto grid = SdfGrid::FromMesh(mesh, {}, &diagnostics);
  const Real seconds =
      std::chrono::duration<Real>(std::chrono::steady_clock::now() - start).count();
  std::printf("icosphere (1280 triangles) SDF at 64 cells: %.3f s\n", seconds);
  ASSERT_NE(grid, nullptr) << diagnostics.Format();
  EXPECT_EQ(grid->dims().maxCoeff(), 65);
  // default padding: 5 % of the diagonal 2√3 (larger than 3 cells here)
  EXPECT_NEAR(grid->upper().x(), 1 + 0.05 * 2 * std::sqrt(3.0), grid->cell_size().x());
  ExpectSdfWithinBound(mesh, *grid, 2000);

  // gradient: unit and radial away from the centre (the only medial point of the sphere). The
  // facets deviate from the radial direction by ≤ their angular radius (≈ 0.09 rad at level 3)
  // and the interpolated gradient mixes the normals of one cell (≈ 0.04 rad across at r ≥ 0.5):
  // 0.95 (18°) and ±0.1 in norm leave margin for both
  std::mt19937 rng(9);
  for (int i = 0; i < 2000; ++i) {
    const Vec3 x = RandomInBox(rng, grid->lower(), grid->upper());
    if (x.norm() < 0.5) continue;
    const SdfSample s = grid->Sample(x);
    EXPECT_NEAR(s.gradient.norm(), 1, 0.1) << "at " << x.transpose();
    EXPECT_GT(s.gradient.normalized().dot(x.normalized()), 0.95) << "at " << x.transpose();
  }
}


TEST(SdfGridTest, BoxAndTorusWithinErrorBound) {
  const TriangleMesh box = BoxMesh(Vec3(0.5, 0.3, 0.2));
  const TriangleMesh torus = Torus(1.0, 0.35, 64, 24);
  for (const TriangleMesh* mesh : {&box, &torus}) {
    Diagnostics diagnostics;
    const auto grid = SdfGrid::FromMesh(*mesh, {}, &diagnostics);
    ASSERT_NE(grid, nullptr) << diagnostics.Format();
    SCOPED_TRACE(mesh->name);
    ExpectSdfWithinBound(*mesh, *grid, 2000);
  }
}


TEST(SdfGridTest, NodeValuesAreExactNearTheSurfaceAndUpperBoundsElsewhere) {
  // nodes within 3 cells are computed exactly (to float rounding of values ≤ 2 m: 2⁻²⁴ · 2 ≈
  // 1.2e-7); farther nodes come from sweeping: distances to actual triangles, so never below the
  // exact distance, and at most a few % of a cell above it (measured 4.6 %, asserted 10 %)
  const TriangleMesh mesh = Torus(1.0, 0.35, 64, 24);
  Diagnostics diagnostics;
  const auto grid = SdfGrid::FromMesh(mesh, {}, &diagnostics);
  ASSERT_NE(grid, nullptr);
  const Real h = grid->cell_size().x();
  TriangleBvh bvh;
  bvh.Build(mesh.vertices, mesh.triangles);
  Real max_far_error = 0;
  int near_count = 0;
  for (int k = 0; k < grid->dims().z(); ++k) {
    for (int j = 0; j < grid->dims().y(); ++j) {
      for (int i = 0; i < grid->dims().x(); ++i) {
        const Vec3 x = grid->lower() + Vec3(i, j, k).cwiseProduct(grid->cell_size());
        const Real exact =
            std::sqrt(bvh.Closest(x, std::numeric_limits<Real>::infinity()).distance_squared);
        const Real value = std::abs(grid->value(i, j, k));
        if (exact <= 3 * h) {
          ++near_count;
          ASSERT_NEAR(value, exact, 2e-7) << "node " << i << " " << j << " " << k;
        } else {
          ASSERT_GE(value, exact - 2e-7) << "node " << i << " " << j << " " << k;
          max_far_error = std::max(max_far_error, value - exact);
        }
      }
    }
  }
  std::printf("%d exact nodes near the surface; far nodes high by at most %.3g cells\n", near_count,
              max_far_error / h);
  EXPECT_GT(near_count, 1000);
  EXPECT_LT(max_far_error, 0.1 * h);
}


TEST(SdfGridTest, ValuesDoNotDependOnTheThreadCount) {
  // style §3.1 principle 8: bitwise identical grids on 1 thread and on all of them
  const TriangleMesh mesh = Torus(1.0, 0.35, 64, 24);
  Diagnostics diagnostics;
  std::shared_ptr<const SdfGrid> serial;
  tbb::task_arena(1).execute([&] { serial = SdfGrid::FromMesh(mesh, {}, &diagnostics); });
  const auto parallel = SdfGrid::FromMesh(mesh, {}, &diagnostics);
  ASSERT_NE(serial, nullptr);
  ASSERT_NE(parallel, nullptr);
  EXPECT_TRUE(serial->values() == parallel->values());
}


TEST(SdfGridTest, OutsideTheGridIsConservative) {
  const TriangleMesh mesh = Icosphere(2, 1.0);
  Diagnostics diagnostics;
  const auto grid = SdfGrid::FromMesh(mesh, {}, &diagnostics);
  ASSERT_NE(grid, nullptr);
  std::mt19937 rng(4);
  for (int i = 0; i < 500; ++i) {
    const Vec3 x =
        RandomInBox(rng, grid->lower() - Vec3::Constant(3), grid->upper() + Vec3::Constant(3));
    const Vec3 clamped = x.cwiseMax(grid->lower()).cwiseMin(grid->upper());
    const Real to_box = (x - clamped).norm();
    if (to_box == 0) continue;
    const SdfSample s = grid->Sample(x);
    // the mesh lies in the box, so the true distance is ≥ the distance to the box; the sample
    // over-estimates φ(x) ≤ φ(clamped) + |x − clamped| only by the interpolation error
    EXPECT_GE(s.distance, to_box);
    EXPECT_GE(s.distance, BruteForceDistance(mesh, x) - grid->error_bound());
    EXPECT_NEAR(s.gradient.norm(), 1, 1e-12);  // outside: a normalized direction
    EXPECT_GT(s.gradient.dot(x - clamped), 0);
  }
}


TEST(SdfGridTest, FromFunctionInterpolatesAPlaneExactly) {
  // trilinear interpolation reproduces linear functions: exact to float rounding of the nodes
  const Vec3 n = Vec3(1, 2, 2) / 3;
  const auto grid = SdfGrid::FromFunction(Vec3(-1, -1, -1), Vec3(1, 2, 1), {9, 13, 5},
                                          [&n](const Vec3& x) { return n.dot(x) - 0.1; });
  std::mt19937 rng(2);
  for (int i = 0; i < 200; ++i) {
    const Vec3 x = RandomInBox(rng, grid->lower(), grid->upper());
    const SdfSample s = grid->Sample(x);
    EXPECT_NEAR(s.distance, n.dot(x) - 0.1, 1e-6);  // float nodes of values ≤ 3: ~2e-7
    EXPECT_LT((s.gradient - n).norm(), 1e-6);
  }
}


TEST(SdfGridTest, OpenMeshIsAnErrorNamingTheMesh) {
  TriangleMesh mesh = Icosphere(1, 1.0, "cracked_cup");
  mesh.triangles.erase(mesh.triangles.begin() + 7);
  Diagnostics diagnostics;
  EXPECT_EQ(SdfGrid::FromMesh(mesh, {}, &diagnostics), nullptr);
  EXPECT_TRUE(diagnostics.has_errors());
  EXPECT_TRUE(Contains(diagnostics, "mesh 'cracked_cup' is not closed (3 boundary edges"))
      << diagnostics.Format();
}


// builds `mesh` at 256 cells and prints the time (not asserted: shared machines); spot-checks
// the result against brute force within the error bound
void BuildAt256(const TriangleMesh& mesh, int expected_triangles) {
  ASSERT_EQ(mesh.triangle_count(), expected_triangles);
  SdfGridOptions options;
  options.resolution = 256;
  Diagnostics diagnostics;
  const auto start = std::chrono::steady_clock::now();
  const auto grid = SdfGrid::FromMesh(mesh, options, &diagnostics);
  const Real seconds =
      std::chrono::duration<Real>(std::chrono::steady_clock::now() - start).count();
  ASSERT_NE(grid, nullptr) << diagnostics.Format();
  std::printf("%s (%d triangles) SDF at 256 cells (%d x %d x %d nodes): %.2f s\n",
              mesh.name.c_str(), mesh.triangle_count(), grid->dims().x(), grid->dims().y(),
              grid->dims().z(), seconds);
  EXPECT_EQ(grid->dims().maxCoeff(), 257);
  ExpectSdfWithinBound(mesh, *grid, 200);
}


TEST(SdfGridTest, InsideOutMeshIsAnErrorNamingTheMesh) {
  TriangleMesh mesh = Icosphere(1, 1.0, "inverted_ball");
  for (auto& t : mesh.triangles) std::swap(t[1], t[2]);  // closed and consistent, but clockwise
  Diagnostics diagnostics;
  EXPECT_EQ(SdfGrid::FromMesh(mesh, {}, &diagnostics), nullptr);
  EXPECT_TRUE(Contains(diagnostics, "mesh 'inverted_ball' is inside out")) << diagnostics.Format();
}


TEST(SdfGridTest, LargeTorusAt256Cells) {
  BuildAt256(Torus(1.0, 0.3, 200, 50, "torus20k"), 20000);  // 200 × 50 quads
}


TEST(SdfGridTest, LargeIcosphereAt256Cells) {
  // 20 · 4⁵ = 20480 triangles on a 257³-node grid (the cubic worst case)
  BuildAt256(Icosphere(5, 1.0, "icosphere20k"), 20480);
}


// ---- convex hull ------------------------------------------------------------------------------

TEST(ConvexHullTest, BoxCornersAndInteriorPointsGiveSixQuads) {
  const Vec3 half(0.5, 0.3, 0.2);
  std::vector<Vec3> points;
  std::mt19937 rng(1);
  for (int i = 0; i < 100; ++i) points.push_back(RandomInBox(rng, -0.99 * half, 0.99 * half));
  for (int i = 0; i < 8; ++i) {
    points.push_back(Vec3((i & 1) ? half.x() : -half.x(), (i & 2) ? half.y() : -half.y(),
                          (i & 4) ? half.z() : -half.z()));
  }
  Diagnostics diagnostics;
  const auto hull = BuildConvexHull(points, "crate", &diagnostics);
  ASSERT_NE(hull, nullptr) << diagnostics.Format();
  EXPECT_EQ(hull->vertices.size(), 8u);
  ASSERT_EQ(hull->faces.size(), 6u);
  EXPECT_EQ(hull->edges.size(), 12u);
  // corners are exact doubles, so plane data agree to rounding of O(1) numbers (1e-12)
  for (const auto& face : hull->faces) {
    EXPECT_EQ(face.count, 4);
    // axis-aligned outward normal, offset the half extent, loop counter-clockwise from outside
    EXPECT_NEAR(face.normal.cwiseAbs().maxCoeff(), 1, 1e-12);
    EXPECT_NEAR(face.offset, face.normal.cwiseAbs().dot(half), 1e-12);
    Vec3 newell = Vec3::Zero();
    for (int i = 0; i < face.count; ++i) {
      const Vec3& a = hull->vertices[hull->face_vertices[face.first + i]];
      const Vec3& b = hull->vertices[hull->face_vertices[face.first + (i + 1) % face.count]];
      EXPECT_NEAR(face.normal.dot(a), face.offset, 1e-12);
      newell += a.cross(b);
    }
    EXPECT_GT(newell.dot(face.normal), 0);
  }
  for (const auto& neighbors : hull->vertex_neighbors) EXPECT_EQ(neighbors.size(), 3u);
  // closed forms: V = 8 hx hy hz, centroid 0, I = V/3 diag(hy² + hz², …) (box of full sides 2h);
  // sums of 12 tetrahedra of size ~0.1: rounding ~1e-16, 1e-14 leaves margin
  EXPECT_NEAR(hull->volume, 8 * half.prod(), 1e-14);
  EXPECT_LT(hull->centroid.norm(), 1e-14);
  const Real v = 8 * half.prod();
  const Vec3 h2 = half.cwiseProduct(half);
  const Mat3 expected =
      (v / 3 * Vec3(h2.y() + h2.z(), h2.x() + h2.z(), h2.x() + h2.y())).asDiagonal();
  EXPECT_LT((hull->unit_inertia - expected).norm(), 1e-14);
  // support: a corner with maximal dot product
  for (int i = 0; i < 100; ++i) {
    const Vec3 d = RandomInBox(rng, -Vec3::Ones(), Vec3::Ones());
    EXPECT_NEAR(hull->vertices[hull->Support(d)].dot(d), d.cwiseAbs().dot(half), 1e-12);
  }
  // its triangulation is a closed mesh of the same volume
  const TriangleMesh mesh = hull->AsTriangleMesh();
  EXPECT_EQ(mesh.name, "crate");
  EXPECT_EQ(mesh.triangle_count(), 12);
  EXPECT_TRUE(BuildMeshTopology(mesh).closed);
  EXPECT_NEAR(MeshSignedVolume(mesh), v, 1e-14);
}


TEST(ConvexHullTest, SpherePointsAreAllInsideAndSupportClimbsToTheMaximum) {
  std::mt19937 rng(8);
  std::normal_distribution<Real> normal(0, 1);
  std::vector<Vec3> points;
  for (int i = 0; i < 500; ++i) {
    points.push_back(Vec3(normal(rng), normal(rng), normal(rng)).normalized());
  }
  Diagnostics diagnostics;
  const auto hull = BuildConvexHull(points, "ball", &diagnostics);
  ASSERT_NE(hull, nullptr) << diagnostics.Format();
  ASSERT_GE(hull->vertices.size(), 32u);  // the hill-climbing path of Support
  // containment up to qhull's roundoff (coordinates O(1): 1e-9 is ~1e7 ulps)
  for (const Vec3& p : points) {
    for (const auto& face : hull->faces) EXPECT_LE(face.normal.dot(p), face.offset + 1e-9);
  }
  // Euler: V − E + F = 2 for a convex polytope
  EXPECT_EQ(static_cast<int>(hull->vertices.size()) - static_cast<int>(hull->edges.size()) +
                static_cast<int>(hull->faces.size()),
            2);
  // inscribed in the unit ball, and almost all of it for 500 points
  EXPECT_LT(hull->volume, 4 * kPi / 3);
  EXPECT_GT(hull->volume, 0.9 * 4 * kPi / 3);
  for (int i = 0; i < 1000; ++i) {
    const Vec3 d(normal(rng), normal(rng), normal(rng));
    Real best = -std::numeric_limits<Real>::infinity();
    for (const Vec3& v : hull->vertices) best = std::max(best, v.dot(d));
    EXPECT_EQ(hull->vertices[hull->Support(d)].dot(d), best);
  }
}


TEST(ConvexHullTest, DegenerateInputsAreErrorsNamingTheHull) {
  Diagnostics coplanar;
  std::vector<Vec3> flat = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0.5, 0.2, 0}};
  EXPECT_EQ(BuildConvexHull(flat, "tabletop", &coplanar), nullptr);
  EXPECT_TRUE(Contains(coplanar, "'tabletop'")) << coplanar.Format();
  EXPECT_TRUE(Contains(coplanar, "zero volume")) << coplanar.Format();

  Diagnostics collinear;
  std::vector<Vec3> line = {{0, 0, 0}, {1, 1, 1}, {2, 2, 2}, {3, 3, 3}};
  EXPECT_EQ(BuildConvexHull(line, "rod", &collinear), nullptr);
  EXPECT_TRUE(Contains(collinear, "'rod' has zero volume")) << collinear.Format();

  Diagnostics too_few;
  EXPECT_EQ(BuildConvexHull({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, "tri", &too_few), nullptr);
  EXPECT_TRUE(Contains(too_few, "'tri' has 3 points")) << too_few.Format();

  Diagnostics nan;
  std::vector<Vec3> with_nan = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  with_nan[2].x() = std::numeric_limits<Real>::quiet_NaN();
  EXPECT_EQ(BuildConvexHull(with_nan, "ghost", &nan), nullptr);
  EXPECT_TRUE(Contains(nan, "convex hull 'ghost': point 2 is not finite")) << nan.Format();
}

}  // namespace
}  // namespace sim
