// The render snapshot: world poses of shapes (body pose composed with the shape's pose), visuals
// and the collision shapes they hide, mesh instances, deformed soft-body surfaces (outward unit
// normals, strain), contacts with their force vectors and stick/slip, body and joint frames.
#include "engine/visual/visual_frame.h"

#include <cmath>
#include <memory>

#include <gtest/gtest.h>

#include "engine/fem/strain_measures.h"
#include "engine/geometry/visual_mesh.h"
#include "engine/state/contacts.h"
#include "engine/state/state.h"
#include "engine/visual/drive_ghosts.h"
#include "tests/support/model_builder.h"
#include "tests/support/tet_block.h"

namespace sim {
namespace {

ShapeGeometry Geometry(ShapeType type, Real radius = 0, const Vec3& half_extents = Vec3::Zero(),
                       Real half_length = 0) {
  ShapeGeometry geometry;
  geometry.type = type;
  geometry.radius = radius;
  geometry.half_extents = half_extents;
  geometry.half_length = half_length;
  return geometry;
}


TEST(VisualFrameTest, ComposesBodyAndShapePoses) {
  Model model;
  model.body_name = {"b"};
  model.body_mass = {1};
  model.body_inertia = {Mat3::Identity()};
  model.body_static = {0};
  model.shape_name = {"s"};
  model.shape_geometry = {Geometry(ShapeType::kBox, 0, Vec3(1, 2, 3))};
  model.shape_body = {0};
  model.shape_X_BS = {Pose{Vec3(1, 0, 0), Quat::Identity()}};
  model.shape_material = {0};
  model.shape_color = {{0.1f, 0.2f, 0.3f}};
  State state;
  // body at (0, 0, 2), rotated 90° about z: the shape offset +x becomes +y
  state.body_X_WB = {Pose{Vec3(0, 0, 2), Quat(Eigen::AngleAxisd(M_PI / 2, Vec3::UnitZ()))}};
  const VisualFrame frame = MakeVisualFrame(model, state);
  ASSERT_EQ(frame.shapes.size(), 1u);
  const VisualShape& s = frame.shapes[0];
  EXPECT_NEAR(s.X_WS[3], 0.0f, 1e-6f);
  EXPECT_NEAR(s.X_WS[7], 1.0f, 1e-6f);
  EXPECT_NEAR(s.X_WS[11], 2.0f, 1e-6f);
  EXPECT_FLOAT_EQ(s.size[2], 3.0f);
  EXPECT_FLOAT_EQ(s.color[1], 0.2f);
}


Eigen::Vector3f Translation(const std::array<float, 12>& X) { return {X[3], X[7], X[11]}; }


Eigen::Vector3f Vector(const std::array<float, 3>& v) { return {v[0], v[1], v[2]}; }


// a one-triangle mesh (the renderer does not care here)
std::shared_ptr<const VisualMesh> TriangleVisualMesh() {
  auto mesh = std::make_shared<VisualMesh>();
  mesh->positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  mesh->normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
  mesh->indices = {0, 1, 2};
  mesh->parts.resize(1);
  mesh->parts[0].index_count = 3;
  return mesh;
}


TEST(VisualFrameTest, VisualsHideTheirBodysShapesAndMeshesAreSharedOnce) {
  Model model = test_support::MakeEmptyModel();
  State state;
  test_support::AddWorldShape(&model, Geometry(ShapeType::kPlane), Pose{});
  const int plain =
      test_support::AddBody(&model, &state, "plain", Geometry(ShapeType::kSphere, 0.1), 1,
                            Pose{Vec3(0, 0, 1), Quat::Identity()});
  const int robot = test_support::AddBody(&model, &state, "robot",
                                          Geometry(ShapeType::kBox, 0, Vec3(0.1, 0.1, 0.1)), 1,
                                          Pose{Vec3(2, 0, 1), Quat::Identity()});
  // the robot body has two mesh visuals of the same file and a cylinder visual
  const auto mesh = TriangleVisualMesh();
  for (int v = 0; v < 3; ++v) {
    model.visual_name.push_back("v" + std::to_string(v));
    model.visual_body.push_back(robot);
    model.visual_X_BV.push_back(Pose{Vec3(0, 0, 0.5 * v), Quat::Identity()});
    model.visual_geometry.push_back(
        Geometry(v < 2 ? ShapeType::kMesh : ShapeType::kCylinder, 0.05, Vec3::Zero(), 0.2));
    model.visual_mesh.push_back(v < 2 ? mesh : nullptr);
    model.visual_color.push_back({0, 0, 0, 0});
  }
  const VisualFrame frame = MakeVisualFrame(model, state);

  // plane and sphere stay visible, the robot's box only as collision geometry, plus the cylinder
  ASSERT_EQ(frame.shapes.size(), 4u);
  EXPECT_FALSE(frame.shapes[0].collision_only);  // ground
  EXPECT_EQ(frame.shapes[1].body, plain);
  EXPECT_FALSE(frame.shapes[1].collision_only);
  EXPECT_EQ(frame.shapes[2].body, robot);
  EXPECT_TRUE(frame.shapes[2].collision_only);
  EXPECT_EQ(frame.shapes[3].type, ShapeType::kCylinder);
  EXPECT_FALSE(frame.shapes[3].collision_only);
  EXPECT_FLOAT_EQ(frame.shapes[3].size[1], 0.2f);
  EXPECT_FLOAT_EQ(frame.shapes[3].color[3], 1.0f) << "a primitive visual is opaque";
  EXPECT_TRUE(Translation(frame.shapes[3].X_WS).isApprox(Eigen::Vector3f(2, 0, 2)));

  // one mesh asset, two instances at the visuals' poses, keeping the file colours (alpha 0)
  ASSERT_EQ(frame.meshes.size(), 1u);
  EXPECT_EQ(frame.meshes[0], mesh);
  ASSERT_EQ(frame.mesh_instances.size(), 2u);
  for (int i = 0; i < 2; ++i) {
    const VisualMeshInstance& instance = frame.mesh_instances[i];
    EXPECT_EQ(instance.mesh, 0);
    EXPECT_EQ(instance.body, robot);
    EXPECT_EQ(instance.shape, -1);
    EXPECT_FLOAT_EQ(instance.color[3], 0.0f);
    EXPECT_TRUE(Translation(instance.X_WS).isApprox(Eigen::Vector3f(2, 0, 1 + 0.5f * i)));
  }
}


TEST(VisualFrameTest, NonPrimitiveShapesAreDrawnByTheirVisualMesh) {
  Model model = test_support::MakeEmptyModel();
  State state;
  const int body = test_support::AddBody(&model, &state, "hull", Geometry(ShapeType::kConvexHull),
                                         1, Pose{Vec3(0, 1, 0), Quat::Identity()});
  model.shape_color[0] = {0.2f, 0.4f, 0.6f};
  // without a visual mesh nothing can be drawn; with one, an instance of it
  EXPECT_TRUE(MakeVisualFrame(model, state).mesh_instances.empty());
  model.shape_visual_mesh = {TriangleVisualMesh()};
  const VisualFrame frame = MakeVisualFrame(model, state);
  EXPECT_TRUE(frame.shapes.empty());
  ASSERT_EQ(frame.mesh_instances.size(), 1u);
  EXPECT_EQ(frame.mesh_instances[0].shape, 0);
  EXPECT_EQ(frame.mesh_instances[0].body, body);
  EXPECT_FALSE(frame.mesh_instances[0].collision_only);
  EXPECT_FLOAT_EQ(frame.mesh_instances[0].color[2], 0.6f);
  EXPECT_FLOAT_EQ(frame.mesh_instances[0].color[3], 1.0f);
  EXPECT_TRUE(Translation(frame.mesh_instances[0].X_WS).isApprox(Eigen::Vector3f(0, 1, 0)));
}


// a 3 × 3 × 2 tet block squashed along z and sheared, for the soft-body tests
struct SquashedBlock {
  Model model = test_support::MakeEmptyModel();
  State state;
  SquashedBlock() {
    test_support::AddTetBlock(&model, &state, "block", Vec3(-0.15, -0.15, 0), Vec3(0.3, 0.3, 0.2),
                              {3, 3, 2});
    for (Vec3& x : state.particle_x_W) {
      x.x() += 0.2 * x.z();
      x.z() *= 0.7;
    }
  }
};


TEST(VisualFrameTest, SoftBodyNormalsAreUnitAndOutward) {
  SquashedBlock block;
  const VisualFrame frame = MakeVisualFrame(block.model, block.state);
  ASSERT_EQ(frame.soft_bodies.size(), 1u);
  const VisualSoftBody& soft = frame.soft_bodies[0];
  const SoftBody& body = block.model.soft_bodies[0];
  ASSERT_EQ(soft.positions.size(), static_cast<std::size_t>(body.particle_count));
  ASSERT_EQ(soft.normals.size(), soft.positions.size());
  ASSERT_EQ(soft.indices.size(), 3 * body.surface.size());
  // the deformed block's centroid: outward normals point away from it (the block is convex)
  Eigen::Vector3f centre = Eigen::Vector3f::Zero();
  for (const auto& p : soft.positions) centre += Vector(p);
  centre /= static_cast<float>(soft.positions.size());
  std::vector<char> on_surface(soft.positions.size(), 0);
  for (std::uint32_t i : soft.indices) on_surface[i] = 1;
  int surface_nodes = 0;
  for (std::size_t i = 0; i < soft.positions.size(); ++i) {
    const Eigen::Vector3f n = Vector(soft.normals[i]);
    if (!on_surface[i]) {
      EXPECT_EQ(n.norm(), 0.0f) << "interior node " << i;
      continue;
    }
    ++surface_nodes;
    EXPECT_NEAR(n.norm(), 1.0f, 1e-5f) << "node " << i;
    EXPECT_GT(n.dot(Vector(soft.positions[i]) - centre), 0.0f) << "node " << i;
  }
  // a 4 × 4 × 3 node grid has 2 × 2 × 1 interior nodes
  EXPECT_EQ(surface_nodes, static_cast<int>(soft.positions.size()) - 4);
  // indices are local node ids and wind counter-clockwise from outside
  for (std::size_t t = 0; t < soft.indices.size(); t += 3) {
    const Eigen::Vector3f a = Vector(soft.positions[soft.indices[t]]);
    const Eigen::Vector3f b = Vector(soft.positions[soft.indices[t + 1]]);
    const Eigen::Vector3f c = Vector(soft.positions[soft.indices[t + 2]]);
    EXPECT_GT((b - a).cross(c - a).dot((a + b + c) / 3 - centre), 0.0f) << "triangle " << t / 3;
  }
}


TEST(VisualFrameTest, SoftBodyStrainIsThePerNodeStrain) {
  SquashedBlock block;
  const VisualFrame frame = MakeVisualFrame(block.model, block.state);
  const VisualSoftBody& soft = frame.soft_bodies[0];
  std::vector<float> volumetric, von_mises;
  CalcSoftBodyNodeStrain(block.model, block.state, 0, &volumetric, &von_mises);
  EXPECT_EQ(soft.volumetric_strain, volumetric);
  EXPECT_EQ(soft.von_mises, von_mises);
  // squashed to 70 % with a shear that keeps volume: J − 1 = −0.3 at every node
  for (float e : soft.volumetric_strain) EXPECT_NEAR(e, -0.3f, 1e-5f);
  for (float s : soft.von_mises) EXPECT_GT(s, 0.0f);
}


TEST(VisualFrameTest, ContactsCarryPointForcesAndStickOrSlip) {
  Model model = test_support::MakeEmptyModel();
  State state;
  const int ball = test_support::AddBody(&model, &state, "ball", Geometry(ShapeType::kSphere, 0.5),
                                         1, Pose{Vec3(1, 2, 0.49), Quat::Identity()});
  Contacts contacts;
  // the ball (A, round: its core point is the centre) on the ground (B, static world)
  Contact contact;
  contact.a.body = ball;
  contact.a.shape = 0;
  contact.a.p_B = Vec3::Zero();
  contact.a.radius = 0.5;
  contact.b.body = kWorldBody;
  contact.b.p_B = Vec3(1, 2, 0);
  contact.normal_W = Vec3::UnitZ();
  contact.tangent_W = Vec3::UnitX();
  contact.bitangent_W = Vec3::UnitY();
  contact.friction_t = contact.friction_b = 0.5;
  contact.normal_force = 10;
  contact.friction_force[0] = 3;
  contact.friction_force[1] = -4;  // |λ_f| = 5 = μ λ_n: on the cone
  contacts.items.push_back(contact);
  contact.friction_force[0] = 1;  // well inside the cone
  contact.friction_force[1] = 0;
  contacts.items.push_back(contact);

  EXPECT_TRUE(MakeVisualFrame(model, state).contacts.empty());
  const VisualFrame frame = MakeVisualFrame(model, state, contacts);
  ASSERT_EQ(frame.contacts.size(), 2u);
  const VisualContact& sliding = frame.contacts[0];
  // surfaces at z = −0.01 (ball) and 0 (ground): midway
  EXPECT_TRUE(Vector(sliding.point).isApprox(Eigen::Vector3f(1, 2, -0.005f), 1e-6f));
  EXPECT_TRUE(Vector(sliding.normal).isApprox(Eigen::Vector3f::UnitZ()));
  EXPECT_FLOAT_EQ(sliding.normal_force, 10);
  EXPECT_TRUE(Vector(sliding.friction_force).isApprox(Eigen::Vector3f(3, -4, 0)));
  EXPECT_TRUE(sliding.sliding);
  EXPECT_EQ(sliding.body_a, ball);
  EXPECT_EQ(sliding.body_b, kWorldBody);
  EXPECT_FALSE(frame.contacts[1].sliding);
}


// a 2 kg link (a 0.2 × 0.2 × 1 m box) hanging from a revolute joint about y at z = 1.5, its COM
// at z = 1
struct HangingLink {
  HangingLink() {
    link = test_support::AddBody(&model, &state, "link",
                                 Geometry(ShapeType::kBox, 0, Vec3(0.1, 0.1, 0.5)), 2,
                                 Pose{Vec3(0, 0, 1), Quat::Identity()});
    test_support::AddJoint(&model, state, JointType::kRevolute, kWorldBody, link, Vec3(0, 0, 1.5),
                           Vec3::UnitY());
  }
  Model model = test_support::MakeEmptyModel();
  State state;
  int link = -1;
};


TEST(VisualFrameTest, BodyAndJointFramesFollowTheState) {
  HangingLink hanging;
  Model& model = hanging.model;
  State& state = hanging.state;
  const int link = hanging.link;
  // the link swings 90° about y around the joint at z = 1.5: its COM moves to (−0.5, 0, 1.5)
  const Quat q(Eigen::AngleAxisd(M_PI / 2, Vec3::UnitY()));  // body +z (to the joint) to +x
  state.body_X_WB[link] = Pose{Vec3(-0.5, 0, 1.5), q};
  const VisualFrame frame = MakeVisualFrame(model, state);
  ASSERT_EQ(frame.bodies.size(), 1u);
  EXPECT_TRUE(Translation(frame.bodies[0].X_WB).isApprox(Eigen::Vector3f(-0.5f, 0, 1.5f)));
  EXPECT_FLOAT_EQ(frame.bodies[0].mass, 2);
  ASSERT_EQ(frame.joints.size(), 1u);
  EXPECT_EQ(frame.joints[0].type, JointType::kRevolute);
  EXPECT_EQ(frame.joints[0].child, link);
  EXPECT_TRUE(Translation(frame.joints[0].X_WJ).isApprox(Eigen::Vector3f(0, 0, 1.5f), 1e-6f));
  EXPECT_TRUE(Vector(frame.joints[0].axis_W).isApprox(Eigen::Vector3f::UnitY(), 1e-6f));
}


// the drives' target pose as a ghost: a link hanging from a revolute joint about y at z = 1.5,
// its target 90° away, gets a copy of its shape where FK at that angle puts it (the COM 0.5 below
// the joint swung to (−0.5, 0, 1.5)); at its target, or without one, no ghost
TEST(VisualFrameTest, DriveTargetGhostsStandAtTheTargetPose) {
  HangingLink hanging;
  Model& model = hanging.model;
  State& state = hanging.state;
  VisualFrame frame = MakeVisualFrame(model, state);
  ASSERT_EQ(frame.shapes.size(), 1u);
  AppendDriveTargetGhosts(model, state, {M_PI / 2}, &frame);
  ASSERT_EQ(frame.shapes.size(), 2u);
  const VisualShape& ghost = frame.shapes[1];
  EXPECT_TRUE(ghost.drive_target);
  EXPECT_FALSE(frame.shapes[0].drive_target);
  EXPECT_TRUE(Translation(ghost.X_WS).isApprox(Eigen::Vector3f(-0.5f, 0, 1.5f), 1e-5f))
      << Translation(ghost.X_WS).transpose();
  // the body's +z (towards the joint) turned to +x, as the joint's rotation says
  EXPECT_NEAR(ghost.X_WS[2], 1.0f, 1e-5f);
  // at the target (q = 0 is the loaded pose), or NaN: nothing
  for (Real target : {Real(0), Real(NAN)}) {
    VisualFrame at_rest = MakeVisualFrame(model, state);
    AppendDriveTargetGhosts(model, state, {target}, &at_rest);
    EXPECT_EQ(at_rest.shapes.size(), 1u) << target;
  }
}


TEST(VisualFrameTest, FillReusesAFrameAndKeepsTheStudiosFields) {
  SquashedBlock block;
  VisualFrame frame;
  frame.selected_body = 3;
  frame.drag.active = true;
  FillVisualFrame(block.model, block.state, nullptr, &frame);
  FillVisualFrame(block.model, block.state, nullptr, &frame);
  EXPECT_EQ(frame.soft_bodies.size(), 1u);
  EXPECT_EQ(frame.selected_body, 3);
  EXPECT_TRUE(frame.drag.active);
}

}  // namespace
}  // namespace sim
