// Rigid triangle meshes through their fields (seed 000 chapter 6, digest pd-sdf-robotics.md §2):
// a finely tessellated cube resting on a plane reduces to a stable support polygon, the edge of a
// coarse mesh box crossing a box edge is found (vertex sampling misses it, Fig. 38), stacked meshes
// touch through each other's grid SDF, and a dropped mesh cube comes to rest on the ground and on
// another mesh under the NSN solver.
#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>

#include <gtest/gtest.h>

#include "engine/collision/collision.h"
#include "engine/geometry/collision_mesh.h"
#include "engine/geometry/mesh_primitives.h"
#include "engine/step/pipeline.h"
#include "tests/support/model_builder.h"

namespace sim {
namespace {

using test_support::AddBody;
using test_support::AddWorldShape;
using test_support::Box;
using test_support::MakeEmptyModel;
using test_support::Plane;

ShapeGeometry MeshShape(const TriangleMesh& mesh, int resolution = 48) {
  return test_support::MeshShape(mesh, {.sdf_resolution = resolution});
}

// world point of a rigid contact side
Vec3 WorldPoint(const State& state, const ContactSide& side) {
  return side.body == kWorldBody ? side.p_B : Vec3(state.body_X_WB[side.body] * side.p_B);
}

TEST(MeshContactTest, ContactsCarryTheSurfaceUvOfTheMesh) {
  // a 20 cm cube with planar texture coordinates u = x/0.2 + 0.5, v = y/0.2 + 0.5, 1 mm into the
  // ground: each contact's UV on the mesh side is that of its point (structure fields are looked
  // up there); the UV is interpolated linearly over a triangle, so it is exact up to round-off
  Model model = MakeEmptyModel();
  State state;
  AddWorldShape(&model, Plane(), Pose{});
  TriangleMesh mesh = SubdividedBoxMesh(Vec3::Constant(0.1), 4);
  for (const Vec3& v : mesh.vertices)
    mesh.uvs.push_back(Vec2(v.x() / 0.2 + 0.5, v.y() / 0.2 + 0.5));
  AddBody(&model, &state, "cube", MeshShape(mesh), 8, {Vec3(0, 0, 0.099), Quat::Identity()});
  Contacts contacts;
  CollisionStats stats;
  DetectContacts(model, state, 0.005, &contacts, &stats);
  ASSERT_GT(contacts.count(), 0);
  for (const Contact& c : contacts.items) {
    const ContactSide& side = c.a.shape == 1 ? c.a : c.b;
    ASSERT_EQ(side.shape, 1);
    ASSERT_TRUE(side.has_uv);
    const Vec3 p = WorldPoint(state, side);  // body at the origin in x, y: body = world there
    EXPECT_NEAR(side.uv.x(), p.x() / 0.2 + 0.5, 1e-9);
    EXPECT_NEAR(side.uv.y(), p.y() / 0.2 + 0.5, 1e-9);
    // the plane has no texture coordinates
    EXPECT_FALSE((c.a.shape == 1 ? c.b : c.a).has_uv);
  }
}


TEST(MeshContactTest, RedundantNonManifoldMeshIsReducedAndRests) {
  // a scanned-object-like surface: a 20 cm cube of 20 × 20 quads per face (4800 triangles) with
  // every triangle listed twice (non-manifold: no inside, no grid SDF), dropped 2 cm onto the
  // ground. Its 441 bottom vertices, each in two copies, all touch; contact reduction must leave
  // a small well-posed set so the NSN solve settles it
  Model model = MakeEmptyModel();
  State state;
  AddWorldShape(&model, Plane(), Pose{});
  TriangleMesh mesh = SubdividedBoxMesh(Vec3::Constant(0.1), 20);
  const auto triangles = mesh.triangles;
  mesh.triangles.insert(mesh.triangles.end(), triangles.begin(), triangles.end());
  Diagnostics diagnostics;
  ShapeGeometry shape;
  shape.type = ShapeType::kMesh;
  shape.mesh = BuildCollisionMesh(mesh, {}, "doubled cube", &diagnostics);
  ASSERT_TRUE(shape.mesh != nullptr) << diagnostics.Format();
  EXPECT_FALSE(shape.mesh->closed);
  EXPECT_EQ(shape.mesh->sdf, nullptr);
  const Real mass = 8;
  AddBody(&model, &state, "scan", shape, mass, {Vec3(0, 0, 0.12), Quat::Identity()});
  // the solid cube's inertia (the surface has no volume to integrate)
  model.body_inertia[0] = Mat3::Identity() * (mass * 0.2 * 0.2 / 6);
  auto simulation =
      Simulation::Create(std::make_shared<const Model>(std::move(model)), state, "nsn");
  ASSERT_TRUE(simulation.ok());
  Simulation& sim = *simulation.value();
  int most_contacts = 0;
  for (int s = 0; s < 180; ++s) {
    const StepReport& report = sim.Step();
    ASSERT_EQ(report.status & kStepNonFinite, 0u) << "step " << s;
    most_contacts = std::max(most_contacts, report.contact_count);
  }
  // at most four per group of similar normals (the flat bottom is one group)
  EXPECT_LE(most_contacts, 8);
  // at rest on its face: centre 0.1 m up within the settling penetration (< 1 mm), still
  EXPECT_NEAR(sim.state().body_X_WB[0].p.z(), 0.1, 1e-3);
  EXPECT_LT(sim.state().body_v_W[0].norm(), 1e-2);
  EXPECT_LT(sim.state().body_w_W[0].norm(), 1e-1);
}


TEST(MeshContactTest, CoarseLightMeshBoxDroppedTiltedComesToRest) {
  // a 60 × 20 × 25 mm, 15 g box of 12 triangles (SDF-backed mesh) dropped tilted onto the
  // ground. A flat face's optimum is one arbitrary corner of each triangle, so without the
  // vertices of the faces (§2.9) the box stood on two or three changing points and rocked with
  // growing energy (still turning at 3.5 rad/s after 5 s); the primitive box rests within 1 s
  Model model = MakeEmptyModel();
  State state;
  AddWorldShape(&model, Plane(), Pose{});
  const Vec3 half(0.03, 0.01, 0.0125);
  const Quat tilt = Quat(Eigen::AngleAxisd(0.17, Vec3::UnitZ())) *
                    Quat(Eigen::AngleAxisd(0.52, Vec3::UnitY())) *
                    Quat(Eigen::AngleAxisd(0.35, Vec3::UnitX()));
  AddBody(&model, &state, "box", MeshShape(BoxMesh(half), 32), 0.015, {Vec3(0, 0, 0.05), tilt});
  auto simulation =
      Simulation::Create(std::make_shared<const Model>(std::move(model)), state, "nsn");
  ASSERT_TRUE(simulation.ok());
  Simulation& sim = *simulation.value();
  for (int s = 0; s < 360; ++s) ASSERT_EQ(sim.Step().status & kStepNonFinite, 0u) << s;
  // at rest on a face after 3 s: the contact set holds the face's four corners
  EXPECT_EQ(sim.report().contact_count, 4);
  EXPECT_LT(sim.state().body_w_W[0].norm(), 1e-6);
  EXPECT_LT(sim.state().body_v_W[0].norm(), 1e-6);
  const Real height = sim.state().body_X_WB[0].p.z();
  // resting on one of its faces: the centre at one of the half sizes (within 0.1 mm)
  EXPECT_TRUE(std::abs(height - half.x()) < 1e-4 || std::abs(height - half.y()) < 1e-4 ||
              std::abs(height - half.z()) < 1e-4)
      << height;
}


TEST(MeshContactTest, FineCubeOnAPlaneKeepsFourSpreadContacts) {
  // 20 cm cube, every face 10 × 10 quads (1200 triangles), 1 mm into the ground
  Model model = MakeEmptyModel();
  State state;
  AddWorldShape(&model, Plane(), Pose{});
  const ShapeGeometry cube = MeshShape(SubdividedBoxMesh(Vec3::Constant(0.1), 10));
  AddBody(&model, &state, "cube", cube, 8, {Vec3(0, 0, 0.099), Quat::Identity()});
  Contacts contacts;
  CollisionStats stats;
  DetectContacts(model, state, 0.005, &contacts, &stats);
  // the 121 bottom vertices all touch; reduction keeps at most 4 per normal direction
  ASSERT_EQ(contacts.count(), 4);
  Vec3 lower = Vec3::Constant(1), upper = Vec3::Constant(-1);
  for (const Contact& c : contacts.items) {
    EXPECT_NEAR(c.gap0, -0.001, 1e-9);  // exact: mesh faces against the plane's half-space
    EXPECT_TRUE(c.normal_W.isApprox(Vec3::UnitZ(), 1e-12));
    const Vec3 a = WorldPoint(state, c.a);
    lower = lower.cwiseMin(a);
    upper = upper.cwiseMax(a);
  }
  // the four span the bottom face (20 cm; the kept points are centroids of its corner triangles,
  // 1/3 of a 2 cm cell inside the edges): a stable support polygon
  EXPECT_GT(upper.x() - lower.x(), 0.18);
  EXPECT_GT(upper.y() - lower.y(), 0.18);
}

TEST(MeshContactTest, CoarseMeshBoxEdgeCrossingABoxEdge) {
  // Fig. 38 right: a 12-triangle mesh box turned 45° about x rests its lower edge across the upper
  // edge of a box turned 45° about y; the edges cross at 90° with 2 mm of vertical overlap. No
  // vertex of either box is within centimetres of the other, so vertex sampling finds nothing.
  const Real h = 0.1;
  const Real s2 = std::sqrt(2.0);
  const Real overlap = 0.002;
  Model model = MakeEmptyModel();
  State state;
  const Quat about_x(Eigen::AngleAxisd(std::numbers::pi / 4, Vec3::UnitX()));
  const Quat about_y(Eigen::AngleAxisd(std::numbers::pi / 4, Vec3::UnitY()));
  // lower box's ridge at z = h√2; the upper mesh box's lower edge at z = h√2 − overlap
  AddWorldShape(&model, Box(Vec3::Constant(h)), {Vec3::Zero(), about_y});
  const TriangleMesh box_mesh = BoxMesh(Vec3::Constant(h));
  const Pose X_W_upper{Vec3(0, 0, 2 * h * s2 - overlap), about_x};
  AddBody(&model, &state, "upper", MeshShape(box_mesh), 8, X_W_upper);
  // sampling only: every mesh vertex is far outside the lower box (distance to its wedge)
  for (const Vec3& v : box_mesh.vertices) {
    const Vec3 x = about_y.conjugate() * (X_W_upper * v);
    EXPECT_GT((x.cwiseAbs() - Vec3::Constant(h)).maxCoeff(), 0.01);
  }
  Contacts contacts;
  CollisionStats stats;
  DetectContacts(model, state, 0.005, &contacts, &stats);
  ASSERT_GE(contacts.count(), 1);
  // the crossing point (0, 0, h√2 − overlap) lies overlap·cos 45° inside the lower box's faces:
  // the SDF's local answer (§2.13: no minimum translation distance) is that depth along a face
  // normal. Mesh faces against the exact box field give it to PGD precision; the box's edges
  // against the mesh grid within the grid's error
  const Real bound = model.shape_geometry[1].mesh->sdf->error_bound();
  const Contact* deepest = &contacts.items[0];
  for (const Contact& c : contacts.items) {
    if (c.gap0 < deepest->gap0) deepest = &c;
  }
  EXPECT_NEAR(deepest->gap0, -overlap / s2, bound);
  EXPECT_NEAR(std::abs(deepest->normal_W.z()), 1 / s2, 1e-3);
  const Vec3 a = WorldPoint(state, deepest->a);
  EXPECT_NEAR(a.x(), 0, 2 * overlap);
  EXPECT_NEAR(a.y(), 0, 2 * overlap);
}


TEST(MeshContactTest, StackedMeshesTouchThroughTheirGrids) {
  // two 20 cm mesh cubes, the upper 1 mm into the lower: both directions meet the other's grid
  Model model = MakeEmptyModel();
  State state;
  const ShapeGeometry cube = MeshShape(SubdividedBoxMesh(Vec3::Constant(0.1), 4), 64);
  AddWorldShape(&model, cube, {Vec3(0, 0, 0.1), Quat::Identity()});
  AddBody(&model, &state, "top", cube, 8, {Vec3(0.03, 0.02, 0.299), Quat::Identity()});
  Contacts contacts;
  CollisionStats stats;
  DetectContacts(model, state, 0.005, &contacts, &stats);
  ASSERT_GE(contacts.count(), 3);
  ASSERT_LE(contacts.count(), 8);  // 4 per normal group, at most the two opposite groups
  const Real bound = cube.mesh->sdf->error_bound();
  for (const Contact& c : contacts.items) {
    // within the grid's proven error (the field is exact only on its nodes)
    EXPECT_NEAR(c.gap0, -0.001, bound);
    EXPECT_GT(std::abs(c.normal_W.z()), 0.9);
  }
}

// steps a model with the scene's default NSN settings; returns the max penetration of the last
// second and the final speed of body 0
void Settle(const Model& model, State* state, Real seconds, Real* max_penetration, Real* speed) {
  Expected<std::unique_ptr<Solver>> made = MakeSolver(model.options.solver.name, model);
  ASSERT_TRUE(made.ok());
  Solver& solver = *made.value();
  StepWorkspace workspace;
  Control control;
  const int steps = static_cast<int>(seconds / model.options.solver.dt);
  *max_penetration = 0;
  for (int i = 0; i < steps; ++i) {
    const StepReport& report = StepOnce(model, solver, control, state, &workspace);
    ASSERT_EQ(report.status & kStepNonFinite, 0u);
    if (i > steps - 120) *max_penetration = std::max(*max_penetration, report.max_penetration);
  }
  *speed = state->body_v_W[0].norm();
}

TEST(MeshContactTest, DroppedMeshCubeRestsOnTheGroundAndOnAMesh) {
  for (const bool on_mesh : {false, true}) {
    SCOPED_TRACE(on_mesh ? "on a mesh" : "on the ground");
    Model model = MakeEmptyModel(0.6);
    State state;
    const ShapeGeometry cube = MeshShape(SubdividedBoxMesh(Vec3::Constant(0.1), 6), 48);
    if (on_mesh) {
      AddWorldShape(&model, MeshShape(SubdividedBoxMesh(Vec3(0.5, 0.5, 0.1), 6), 64),
                    {Vec3(0, 0, -0.1), Quat::Identity()});
    } else {
      AddWorldShape(&model, Plane(), Pose{});
    }
    // dropped from 5 cm, turned 10° about z
    AddBody(&model, &state, "cube", cube, 8,
            {Vec3(0, 0, 0.15), Quat(Eigen::AngleAxisd(0.17, Vec3::UnitZ()))});
    Real penetration = 0, speed = 0;
    Settle(model, &state, 2.0, &penetration, &speed);
    // rests: < 1 mm penetration (the sphere-pile criterion of the issue), < 1 cm/s, upright at
    // z ≈ 0.1 (the mesh ground's grid is exact on its flat top: trilinear interpolation of a
    // linear field)
    const Real tolerance = 1e-3;
    EXPECT_LT(penetration, tolerance);
    EXPECT_LT(speed, 0.01);
    EXPECT_NEAR(state.body_X_WB[0].p.z(), 0.1, tolerance);
  }
}

}  // namespace
}  // namespace sim
