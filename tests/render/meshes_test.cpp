// Unit meshes of the primitive shapes: closed, outward-facing (counter-clockwise seen from outside,
// which the renderer's back-face culling relies on), unit normals, the documented extents, and the
// per-instance scale that turns them into shapes of a given size.
#include <cmath>
#include <string>

#include <gtest/gtest.h>
#include <Eigen/Core>
#include <Eigen/Geometry>

#include "render/meshes.h"

namespace sim::render {
namespace {

Eigen::Vector3f Vec(const std::array<float, 3>& a) { return {a[0], a[1], a[2]}; }


// position of `v` after MeshScale: scale.xyz · p + cap_sign · scale.w · e_z
Eigen::Vector3f Scaled(const MeshVertex& v, const std::array<float, 4>& scale) {
  return Vec(v.position).cwiseProduct(Eigen::Vector3f(scale[0], scale[1], scale[2])) +
         Eigen::Vector3f(0, 0, v.cap_sign * scale[3]);
}


// every triangle's winding normal agrees with its vertex normals, normals are unit vectors, the
// indices are in range and no triangle is degenerate
void ExpectWellFormed(const MeshData& mesh, const std::array<float, 4>& scale,
                      const std::string& name) {
  ASSERT_FALSE(mesh.indices.empty()) << name;
  ASSERT_EQ(mesh.indices.size() % 3, 0u) << name;
  for (const std::uint32_t i : mesh.indices) ASSERT_LT(i, mesh.vertices.size()) << name;
  for (const MeshVertex& v : mesh.vertices) {
    EXPECT_NEAR(Vec(v.normal).norm(), 1.0f, 1e-5f) << name;
  }
  for (std::size_t t = 0; t < mesh.indices.size(); t += 3) {
    const MeshVertex& a = mesh.vertices[mesh.indices[t]];
    const MeshVertex& b = mesh.vertices[mesh.indices[t + 1]];
    const MeshVertex& c = mesh.vertices[mesh.indices[t + 2]];
    const Eigen::Vector3f winding =
        (Scaled(b, scale) - Scaled(a, scale)).cross(Scaled(c, scale) - Scaled(a, scale));
    ASSERT_GT(winding.norm(), 1e-7f) << name << " triangle " << t / 3 << " is degenerate";
    const Eigen::Vector3f normal = Vec(a.normal) + Vec(b.normal) + Vec(c.normal);
    EXPECT_GT(winding.dot(normal), 0.0f) << name << " triangle " << t / 3 << " faces inwards";
  }
}


// the bounding box of the scaled mesh
Eigen::AlignedBox3f Bounds(const MeshData& mesh, const std::array<float, 4>& scale) {
  Eigen::AlignedBox3f box;
  for (const MeshVertex& v : mesh.vertices) box.extend(Scaled(v, scale));
  return box;
}


TEST(Meshes, BoxIsTheUnitCubeWithFlatFaces) {
  const MeshData box = MakeBoxMesh();
  EXPECT_EQ(box.vertices.size(), 24u);
  EXPECT_EQ(box.indices.size(), 36u);
  ExpectWellFormed(box, {1, 1, 1, 0}, "box");
  const std::array<float, 4> scale = MeshScale(ShapeType::kBox, {0.1f, 0.2f, 0.3f});
  ExpectWellFormed(box, scale, "scaled box");
  const Eigen::AlignedBox3f bounds = Bounds(box, scale);
  EXPECT_TRUE(bounds.max().isApprox(Eigen::Vector3f(0.1f, 0.2f, 0.3f)));
  EXPECT_TRUE(bounds.min().isApprox(Eigen::Vector3f(-0.1f, -0.2f, -0.3f)));
}


TEST(Meshes, SphereHasRadiusOne) {
  const MeshData sphere = MakeSphereMesh(16, 8);
  ExpectWellFormed(sphere, {1, 1, 1, 0}, "sphere");
  for (const MeshVertex& v : sphere.vertices) {
    EXPECT_NEAR(Vec(v.position).norm(), 1.0f, 1e-5f);
    EXPECT_EQ(v.cap_sign, 0.0f);
  }
  EXPECT_EQ(MeshScale(ShapeType::kSphere, {0.4f, 0, 0}),
            (std::array<float, 4>{0.4f, 0.4f, 0.4f, 0}));
}


TEST(Meshes, CapsuleStretchesToHalfLengthPlusRadius) {
  const MeshData capsule = MakeCapsuleMesh(16, 4);
  // the unit capsule is a sphere; scaled, its hemispheres sit at ±h
  const std::array<float, 4> scale = MeshScale(ShapeType::kCapsule, {0.2f, 0.5f, 0});
  EXPECT_EQ(scale, (std::array<float, 4>{0.2f, 0.2f, 0.2f, 0.5f}));
  ExpectWellFormed(capsule, scale, "capsule");
  const Eigen::AlignedBox3f bounds = Bounds(capsule, scale);
  EXPECT_NEAR(bounds.max().z(), 0.7f, 1e-5f);
  EXPECT_NEAR(bounds.min().z(), -0.7f, 1e-5f);
  EXPECT_NEAR(bounds.max().x(), 0.2f, 1e-5f);
  // each vertex's hemisphere matches the sign of its height
  for (const MeshVertex& v : capsule.vertices) {
    ASSERT_NE(v.cap_sign, 0.0f);
    EXPECT_GE(v.cap_sign * v.position[2], -1e-6f);
  }
}


TEST(Meshes, CylinderRunsAlongZWithFlatCaps) {
  const MeshData cylinder = MakeCylinderMesh(16);
  const std::array<float, 4> scale = MeshScale(ShapeType::kCylinder, {0.3f, 0.6f, 0});
  EXPECT_EQ(scale, (std::array<float, 4>{0.3f, 0.3f, 0.6f, 0}));
  ExpectWellFormed(cylinder, scale, "cylinder");
  const Eigen::AlignedBox3f bounds = Bounds(cylinder, scale);
  EXPECT_NEAR(bounds.max().z(), 0.6f, 1e-5f);
  EXPECT_NEAR(bounds.min().z(), -0.6f, 1e-5f);
  EXPECT_NEAR(bounds.max().y(), 0.3f, 1e-5f);
}


TEST(Meshes, PlaneScaleCarriesHalfSizeAndGridCell) {
  EXPECT_EQ(MeshScale(ShapeType::kPlane, {50, 0.5f, 0}), (std::array<float, 4>{50, 0, 0, 0.5f}));
  EXPECT_EQ(MeshScale(ShapeType::kNone, {1, 1, 1}), (std::array<float, 4>{0, 0, 0, 0}));
}

TEST(Meshes, ArrowStretchesItsShaftAndKeepsItsHead) {
  const MeshData arrow = MakeArrowMesh(16);
  // shaft radius 0.01, shaft 0.3 long: the head adds kArrowHeadLength radii
  const std::array<float, 4> scale = {0.01f, 0.01f, 0.01f, 0.3f};
  ExpectWellFormed(arrow, scale, "arrow");
  const Eigen::AlignedBox3f box = Bounds(arrow, scale);
  EXPECT_NEAR(box.min().z(), 0.0f, 1e-6f);
  EXPECT_NEAR(box.max().z(), 0.3f + kArrowHeadLength * 0.01f, 1e-6f);
  EXPECT_NEAR(box.max().x(), kArrowHeadRadius * 0.01f, 1e-6f);
}

}  // namespace
}  // namespace sim::render
