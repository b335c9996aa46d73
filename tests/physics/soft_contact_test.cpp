// Contacts of deforming tet-mesh surfaces (issue: collision library): the tomato mesh of seed 002
// (shared data sphere1K.msh, 2474 boundary triangles) squashed onto a box and pressed against a
// sphere, and two tomatoes pressed together. Every contact point must lie on both surfaces.
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "engine/collision/collision.h"
#include "engine/geometry/closest_point.h"
#include "engine/io/scene_file.h"
#include "engine/model/model.h"
#include "engine/state/state.h"
#include "tests/support/run_command.h"
#include "tests/support/shared_data.h"

namespace sim {
namespace {

const std::string kTomato = test_support::SharedDataDir() + "/tetmesh/sphere1K.msh";
constexpr Real kScale = 0.08;  // an 8 cm tomato (the mesh has radius 0.5)

// world point of a contact side (a weighted particle point, or a body/world point)
Vec3 SidePoint(const State& state, const ContactSide& side) {
  if (side.is_particle()) {
    Vec3 x = Vec3::Zero();
    for (int k = 0; k < 3; ++k) {
      if (side.particles[k] >= 0) x += side.weights(k) * state.particle_x_W[side.particles[k]];
    }
    return x;
  }
  return side.body == kWorldBody ? side.p_B : Vec3(state.body_X_WB[side.body] * side.p_B);
}

// distance from x to the deformed boundary surface of soft body `s` (brute force over triangles)
Real DistanceToSurface(const Model& model, const State& state, int s, const Vec3& x) {
  Real best = std::numeric_limits<Real>::infinity();
  for (const auto& t : model.soft_bodies[s].surface) {
    const Vec3 c = ClosestPointOnTriangle(x, state.particle_x_W[t[0]], state.particle_x_W[t[1]],
                                          state.particle_x_W[t[2]]);
    best = std::min(best, (x - c).norm());
  }
  return best;
}

// squashes soft body `s` by `factor` along z about its centre, then lowers it so its lowest node
// sits at `bottom` [m]
void Squash(const Model& model, State* state, int s, Real factor, Real bottom) {
  const SoftBody& body = model.soft_bodies[s];
  Vec3 centre = Vec3::Zero();
  for (int k = 0; k < body.particle_count; ++k)
    centre += state->particle_x_W[body.first_particle + k];
  centre /= body.particle_count;
  Real lowest = std::numeric_limits<Real>::infinity();
  for (int k = 0; k < body.particle_count; ++k) {
    Vec3& x = state->particle_x_W[body.first_particle + k];
    x.z() = centre.z() + factor * (x.z() - centre.z());
    lowest = std::min(lowest, x.z());
  }
  for (int k = 0; k < body.particle_count; ++k) {
    state->particle_x_W[body.first_particle + k].z() += bottom - lowest;
  }
}

std::string TomatoObject(const std::string& name, const Vec3& p) {
  return R"({"name": ")" + name + R"(", "type": "tetmesh", "file": ")" + kTomato +
         R"(", "scale": 0.08, "contact_radius": 0.0005, "position": [)" + std::to_string(p.x()) +
         ", " + std::to_string(p.y()) + ", " + std::to_string(p.z()) + "]}";
}

TEST(SoftContactTest, SquashedTomatoOnABoxAndAgainstASphere) {
  if (!std::filesystem::exists(kTomato)) SIM_SKIP_OR_FAIL_IN_CI("tet mesh not found: " + kTomato);
  // box top at z = 0; a 3 cm sphere whose surface reaches 1 mm into the tomato's side
  const Real r_sphere = 0.03;
  Expected<io::Scene> scene = io::ParseScene(
      R"({"objects": [)" + TomatoObject("tomato", Vec3(0, 0, 0.04)) +
          R"(, {"name": "box", "type": "box", "size": [0.3, 0.3, 0.1], "position": [0, 0, -0.05],
              "fixed": true},
             {"name": "ball", "type": "sphere", "radius": 0.03, "fixed": true,
              "position": [0.069, 0, 0.034]}]})",
      "s.json", io::SceneOptions{.file_roots = test_support::TestFileRoots()});
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  const Model& model = *scene->model;
  State state = scene->initial_state;
  // deform: 15 % squash, lowest node 1 mm into the box
  Squash(model, &state, 0, 0.85, -0.001);

  Contacts contacts;
  CollisionStats stats;
  DetectContacts(model, state, 0.002, &contacts, &stats);
  int on_box = 0, on_ball = 0, surface_sides = 0;
  const Vec3 ball(0.069, 0, 0.034);
  for (const Contact& c : contacts.items) {
    ASSERT_TRUE(c.a.is_particle());  // the tomato is side A (particles or surface points)
    const Vec3 a = SidePoint(state, c.a);
    const Vec3 b = SidePoint(state, c.b);
    // A's point is on the deformed tomato surface: a node (the particle's centre is on the
    // surface; its contact radius is the thickness) or a weighted triangle point (exactly on the
    // triangle); 1e-9 m is round-off of the barycentric combination
    EXPECT_LT(DistanceToSurface(model, state, 0, a), 1e-9);
    if (c.a.particles[1] >= 0) ++surface_sides;
    // B's point is on the box top or the ball surface; the gap equals nᵀ(a − b) − d
    // (a round side's point is its core: the sphere's centre, its radius in the thickness)
    const Vec3 b_surface = b + c.b.radius * c.normal_W;
    if (c.b.shape == 0) {
      ++on_box;
      EXPECT_NEAR(b_surface.z(), 0, 1e-9);  // exact box field
    } else {
      ++on_ball;
      EXPECT_NEAR((b_surface - ball).norm(), r_sphere, 1e-9);  // exact sphere field
    }
    EXPECT_NEAR(c.gap0, c.normal_W.dot(a - b) - c.thickness, 1e-12);
    EXPECT_LT(c.gap0, 0.002);
  }
  EXPECT_GT(on_box, 10);  // the flattened bottom rests on many nodes and triangles
  EXPECT_GT(on_ball, 0);
  EXPECT_GT(surface_sides, 0);  // face optimization adds triangle contacts between nodes
}

TEST(SoftContactTest, TwoTomatoesPressedTogether) {
  if (!std::filesystem::exists(kTomato)) SIM_SKIP_OR_FAIL_IN_CI("tet mesh not found: " + kTomato);
  // centres 7.8 cm apart: the 8 cm tomatoes overlap by about 2 mm
  Expected<io::Scene> scene =
      io::ParseScene(R"({"objects": [)" + TomatoObject("left", Vec3(0, 0, 0.1)) + ", " +
                         TomatoObject("right", Vec3(0.078, 0, 0.1)) + "]}",
                     "s.json", io::SceneOptions{.file_roots = test_support::TestFileRoots()});
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  const Model& model = *scene->model;
  const State& state = scene->initial_state;
  Contacts contacts;
  CollisionStats stats;
  DetectContacts(model, state, 0.001, &contacts, &stats);
  int left_to_right = 0, right_to_left = 0;
  for (const Contact& c : contacts.items) {
    ASSERT_GE(c.a.soft_body, 0);
    ASSERT_GE(c.b.soft_body, 0);
    ASSERT_NE(c.a.soft_body, c.b.soft_body);
    // A is a node of one tomato, B a point of the other's surface triangle: both on surfaces
    EXPECT_LT(DistanceToSurface(model, state, c.a.soft_body, SidePoint(state, c.a)), 1e-9);
    EXPECT_LT(DistanceToSurface(model, state, c.b.soft_body, SidePoint(state, c.b)), 1e-9);
    // the normal pushes A away from B: along +x for a left node, −x for a right one
    if (c.a.soft_body == 0) {
      ++left_to_right;
      EXPECT_LT(c.normal_W.x(), -0.5);
    } else {
      ++right_to_left;
      EXPECT_GT(c.normal_W.x(), 0.5);
    }
  }
  EXPECT_GT(left_to_right, 0);
  EXPECT_GT(right_to_left, 0);
}

}  // namespace
}  // namespace sim
