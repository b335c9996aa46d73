// Render-only surfaces: crease-angle normals of loaded meshes, flat hull faces, vertex welding, and
// the surface-net isosurface of analytic fields (on the surface, closed, outward, with the solid's
// volume).
#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "engine/core/diagnostics.h"
#include "engine/geometry/convex_hull.h"
#include "engine/geometry/isosurface.h"
#include "engine/geometry/mesh_primitives.h"
#include "engine/geometry/mesh_topology.h"
#include "engine/geometry/visual_mesh_builder.h"

namespace sim {
namespace {

constexpr Real kPi = std::numbers::pi;

Vec3 ToVec(const std::array<float, 3>& v) { return Vec3(v[0], v[1], v[2]); }

// every index in range, every normal unit, one part covering the indices
void ExpectWellFormed(const VisualMesh& mesh) {
  ASSERT_EQ(mesh.normals.size(), mesh.positions.size());
  ASSERT_EQ(mesh.indices.size() % 3, 0u);
  for (std::uint32_t i : mesh.indices) ASSERT_LT(i, mesh.positions.size());
  for (const auto& n : mesh.normals) EXPECT_NEAR(ToVec(n).norm(), 1, 1e-6);
  std::uint32_t covered = 0;
  for (const VisualMesh::Part& part : mesh.parts) covered += part.index_count;
  EXPECT_EQ(covered, mesh.indices.size());
}

// signed volume of the drawn triangles (divergence theorem): positive when wound outward
Real SignedVolume(const VisualMesh& mesh) {
  Real volume = 0;
  for (std::size_t t = 0; t < mesh.indices.size(); t += 3) {
    const Vec3 a = ToVec(mesh.positions[mesh.indices[t]]);
    const Vec3 b = ToVec(mesh.positions[mesh.indices[t + 1]]);
    const Vec3 c = ToVec(mesh.positions[mesh.indices[t + 2]]);
    volume += a.dot(b.cross(c)) / 6;
  }
  return volume;
}


TEST(VisualMeshTest, SphereShadesSmoothlyAndBoxKeepsItsEdges) {
  // icosphere: no crease above 40°, so one vertex per position and radial normals
  const TriangleMesh sphere = Icosphere(3, 0.5);
  const auto smooth = BuildVisualMesh(sphere);
  ExpectWellFormed(*smooth);
  EXPECT_EQ(smooth->vertex_count(), sphere.vertex_count());
  EXPECT_EQ(smooth->triangle_count(), sphere.triangle_count());
  for (int v = 0; v < smooth->vertex_count(); ++v) {
    // area-weighted face normals of a level-3 icosphere stay within ~2° of the radial direction
    EXPECT_GT(ToVec(smooth->normals[v]).dot(ToVec(smooth->positions[v]).normalized()), 0.999);
  }
  // box: 90° edges split, 4 corners per face, each with the face's outward axis normal
  const auto box = BuildVisualMesh(BoxMesh(Vec3(1, 2, 3)));
  ExpectWellFormed(*box);
  EXPECT_EQ(box->vertex_count(), 24);
  EXPECT_EQ(box->triangle_count(), 12);
  for (int v = 0; v < box->vertex_count(); ++v) {
    const Vec3 n = ToVec(box->normals[v]);
    const Vec3 p = ToVec(box->positions[v]);
    EXPECT_NEAR(n.cwiseAbs().maxCoeff(), 1, 1e-6);
    EXPECT_GT(n.dot(p), 0);  // outward
  }
  EXPECT_NEAR(SignedVolume(*box), 48, 1e-5);
}


TEST(VisualMeshTest, HullFacesAreFlatAndOutward) {
  Diagnostics diagnostics;
  const auto hull = BuildConvexHull(BoxMesh(Vec3(0.1, 0.2, 0.3)).vertices, "box", &diagnostics);
  ASSERT_TRUE(hull) << diagnostics.Format();
  const auto visual = BuildHullVisualMesh(*hull);
  ExpectWellFormed(*visual);
  EXPECT_EQ(visual->vertex_count(), 24);  // 6 quads, own vertices each
  EXPECT_EQ(visual->triangle_count(), 12);
  for (std::size_t t = 0; t < visual->indices.size(); t += 3) {
    const Vec3 a = ToVec(visual->positions[visual->indices[t]]);
    const Vec3 b = ToVec(visual->positions[visual->indices[t + 1]]);
    const Vec3 c = ToVec(visual->positions[visual->indices[t + 2]]);
    // the winding's normal is the stored flat normal
    EXPECT_NEAR((b - a).cross(c - a).normalized().dot(ToVec(visual->normals[visual->indices[t]])),
                1, 1e-6);
  }
  EXPECT_NEAR(SignedVolume(*visual), 0.048, 1e-8);
}


TEST(VisualMeshTest, WeldingClosesAFileWithPerCornerVertices) {
  // a box stored as files store it: three own vertices per triangle
  const TriangleMesh box = BoxMesh(Vec3(1, 1, 1));
  TriangleMesh split;
  for (const auto& t : box.triangles) {
    const int base = split.vertex_count();
    for (int v : t) split.vertices.push_back(box.vertices[v] + Vec3::Constant(1e-9));
    split.triangles.push_back({base, base + 1, base + 2});
  }
  EXPECT_FALSE(BuildMeshTopology(split).closed);
  const TriangleMesh welded = WeldVertices(split, DefaultWeldTolerance(3.5));
  EXPECT_EQ(welded.vertex_count(), 8);
  EXPECT_EQ(welded.triangle_count(), 12);
  EXPECT_TRUE(BuildMeshTopology(welded).closed);
  EXPECT_NEAR(MeshSignedVolume(welded), 8, 1e-6);
}


TEST(IsosurfaceTest, SphereFieldGivesAClosedOutwardSurfaceOnTheSphere) {
  AnalyticSdf field;
  field.AddSphere(0.5, Pose{Vec3(1, -2, 0.3), Quat::Identity()});
  ASSERT_TRUE(field.Validate().empty());
  const auto visual = BuildSdfVisualMesh(field, 48);
  ExpectWellFormed(*visual);
  ASSERT_GT(visual->triangle_count(), 1000);
  const Vec3 centre(1, -2, 0.3);
  for (int v = 0; v < visual->vertex_count(); ++v) {
    const Vec3 p = ToVec(visual->positions[v]);
    // the Newton projection lands on the exact sphere (float storage: ~1e-7 m)
    EXPECT_NEAR((p - centre).norm(), 0.5, 1e-6);
    EXPECT_GT(ToVec(visual->normals[v]).dot((p - centre).normalized()), 0.9999);
  }
  // closed and outward: the enclosed volume is the sphere's up to the chords of a ~1/48 grid
  // (the inscribed polyhedron loses O(h²/r²) ≈ 0.5 % of the volume)
  const Real exact = 4.0 / 3.0 * kPi * 0.125;
  EXPECT_NEAR(SignedVolume(*visual), exact, 0.01 * exact);
  TriangleMesh mesh;
  for (const auto& p : visual->positions) mesh.vertices.push_back(ToVec(p));
  for (std::size_t t = 0; t < visual->indices.size(); t += 3) {
    mesh.triangles.push_back({static_cast<int>(visual->indices[t]),
                              static_cast<int>(visual->indices[t + 1]),
                              static_cast<int>(visual->indices[t + 2])});
  }
  const MeshTopology topology = BuildMeshTopology(mesh);
  EXPECT_TRUE(topology.closed) << topology.boundary_edges << " boundary, "
                               << topology.inconsistent_edges << " inconsistent edges";
}


TEST(IsosurfaceTest, CombinedFieldVolumeAndBounds) {
  // a rotated box minus a sphere at one corner: bounds of the box, volume of the difference
  AnalyticSdf field;
  const Quat turn(Eigen::AngleAxisd(kPi / 4, Vec3::UnitZ()));
  const int box = field.AddBox(Vec3(0.2, 0.2, 0.1), Pose{Vec3::Zero(), turn});
  const int hole = field.AddSphere(0.05, Pose{Vec3(0, 0, 0.1), Quat::Identity()});
  field.Difference(box, hole);
  ASSERT_TRUE(field.Validate().empty());
  Vec3 lower, upper;
  ASSERT_TRUE(AnalyticSdfBounds(field, &lower, &upper));
  // a square of half side 0.2 turned 45° reaches 0.2·√2 along x and y
  EXPECT_NEAR(upper.x(), 0.2 * std::sqrt(2.0), 1e-12);
  EXPECT_NEAR(lower.y(), -0.2 * std::sqrt(2.0), 1e-12);
  EXPECT_NEAR(upper.z(), 0.1, 1e-12);
  const auto visual = BuildSdfVisualMesh(field, 64);
  ExpectWellFormed(*visual);
  // box 0.4·0.4·0.2 minus the half ball that cuts into its top face; surface nets round the box
  // edges within about a cell (0.57/68 m), which costs ~2 % of this flat box's volume
  const Real exact = 0.4 * 0.4 * 0.2 - 2.0 / 3.0 * kPi * 0.05 * 0.05 * 0.05;
  EXPECT_NEAR(SignedVolume(*visual), exact, 0.03 * exact);
}


TEST(IsosurfaceTest, HalfSpaceIsDrawnAsAClippedPatch) {
  AnalyticSdf field;
  field.AddHalfSpace();
  Vec3 lower, upper;
  EXPECT_FALSE(AnalyticSdfBounds(field, &lower, &upper));
  const auto visual = BuildSdfVisualMesh(field, 16);
  ExpectWellFormed(*visual);
  ASSERT_GT(visual->triangle_count(), 0);
  for (int v = 0; v < visual->vertex_count(); ++v) {
    EXPECT_NEAR(visual->positions[v][2], 0, 1e-6);
    EXPECT_NEAR(visual->normals[v][2], 1, 1e-6);  // the outward normal is +z
    EXPECT_LE(std::abs(visual->positions[v][0]), 0.5 * kUnboundedDrawExtent + 0.2);
  }
  // the half-space cut by a sphere is bounded by the sphere
  AnalyticSdf cut;
  cut.Intersection(cut.AddSphere(1), cut.AddHalfSpace());
  ASSERT_TRUE(AnalyticSdfBounds(cut, &lower, &upper));
  EXPECT_NEAR(upper.z(), 1, 1e-12);
}

}  // namespace
}  // namespace sim
