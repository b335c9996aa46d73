// Collision filtering by groups and masks (Model::shape_collision_group/mask), set per object in
// scene files with 'collision_group' and 'collides_with'.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engine/io/scene_file.h"
#include "engine/step/pipeline.h"

namespace sim {
namespace {

using ::testing::HasSubstr;

// a ground plane, a fixed shelf at 0.5 m (group 1) and a box dropped onto it with the given
// filter keys
std::string ShelfScene(const std::string& box_filter) {
  return R"({"objects": [
    {"name": "ground", "type": "plane"},
    {"name": "shelf", "type": "box", "fixed": true, "size": [1, 1, 0.1], "position": [0, 0, 0.45],
     "collision_group": 1},
    {"name": "box", "type": "box", "size": [0.2, 0.2, 0.2], "position": [0, 0, 0.8])" +
         box_filter + R"(}]})";
}

// height of the dropped box after 1.5 s (it falls 0.3 m onto the shelf, or 0.7 m to the ground
// in 0.38 s, and then settles)
Real RestingHeight(const std::string& box_filter) {
  Expected<io::Scene> scene = io::ParseScene(ShelfScene(box_filter), "shelf.json");
  EXPECT_TRUE(scene.ok()) << scene.diagnostics().Format();
  if (!scene.ok()) return -1;
  auto simulation = Simulation::Create(scene->model, scene->initial_state, "nsn");
  EXPECT_TRUE(simulation.ok());
  for (int s = 0; s < 180; ++s) simulation.value()->Step();
  return simulation.value()->state().body_X_WB[0].p.z();
}

TEST(CollisionFilterTest, MaskedOutShapesPassThroughEachOther) {
  // resting heights of the box centre: on the shelf top (0.5 + 0.1) or on the ground (0.1);
  // 1 cm covers the contact margin and the solver's settling penetration (< 1 mm)
  constexpr Real kTolerance = 0.01;
  // unfiltered: the box lands on the shelf
  EXPECT_NEAR(RestingHeight(""), 0.6, kTolerance);
  // group 2 colliding with group 0 only: it falls through the shelf (group 1) to the ground
  EXPECT_NEAR(RestingHeight(R"(, "collision_group": 2, "collides_with": [0])"), 0.1, kTolerance);
  // in the shelf's own group and colliding with it: it lands on the shelf
  EXPECT_NEAR(RestingHeight(R"(, "collision_group": 1, "collides_with": [0, 1])"), 0.6, kTolerance);
  // an empty list collides with nothing, not even the ground: it is still falling
  EXPECT_LT(RestingHeight(R"(, "collides_with": [])"), -1.0);
}

TEST(CollisionFilterTest, BadGroupsAreLocatedErrors) {
  Expected<io::Scene> scene = io::ParseScene(
      ShelfScene(R"(, "collision_group": 32, "collides_with": [0, "one"])"), "shelf.json");
  ASSERT_FALSE(scene.ok());
  const std::string errors = scene.diagnostics().Format();
  EXPECT_THAT(errors, HasSubstr("shelf.json:5: error: object 'box' 'collision_group' is 32, "
                                "expected a whole number in [0, 31]"));
  EXPECT_THAT(errors, HasSubstr("shelf.json:5: error: object 'box' 'collides_with' element 1 "
                                "must be a group index in [0, 31]"));
}

}  // namespace
}  // namespace sim
