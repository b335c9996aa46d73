// Scene reader: one test per diagnostic path, asserting the exact line and message, and the model
// built from a good file.
#include "engine/io/scene_file.h"

#include <filesystem>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engine/io/scene_catalog.h"

namespace sim::io {
namespace {

using ::testing::HasSubstr;

std::string Errors(const std::string& text) {
  Expected<Scene> scene = ParseScene(text, "s.json");
  EXPECT_FALSE(scene.ok());
  return scene.diagnostics().Format();
}


TEST(SceneFileTest, BuildsBodiesAndWorldShapes) {
  Expected<Scene> scene = ParseScene(R"({
    "name": "t",
    "materials": {"wood": {"density": 500, "friction": 0.3}},
    "objects": [
      {"name": "ground", "type": "plane"},
      {"name": "b", "type": "box", "material": "wood", "size": [1, 2, 1], "position": [0, 0, 3]},
      {"name": "wall", "type": "box", "fixed": true, "size": [1, 1, 1]},
      {"name": "s", "type": "sphere", "radius": 0.5, "mass": 2, "rpy_deg": [0, 0, 90]}
    ]})",
                                     "s.json");
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  const Model& model = *scene->model;
  EXPECT_EQ(model.shape_count(), 4);
  EXPECT_EQ(model.body_count(), 2);  // plane and fixed box are world shapes
  EXPECT_EQ(model.shape_body[0], kWorldBody);
  EXPECT_EQ(model.shape_body[2], kWorldBody);
  // mass from density × volume: 500 kg/m³ × 2 m³
  EXPECT_DOUBLE_EQ(model.body_mass[0], 1000.0);
  EXPECT_DOUBLE_EQ(model.body_mass[1], 2.0);
  EXPECT_DOUBLE_EQ(model.materials[model.shape_material[1]].friction, 0.3);
  EXPECT_DOUBLE_EQ(scene->initial_state.body_X_WB[0].p.z(), 3.0);
  // rpy (0, 0, 90°): x axis maps to y
  EXPECT_TRUE((scene->initial_state.body_X_WB[1].q * Vec3::UnitX()).isApprox(Vec3::UnitY(), 1e-12));
}


TEST(SceneFileTest, MissingObjectsIsAnError) {
  EXPECT_EQ(Errors("{\"name\": \"x\"}"), "s.json:1: error: the scene needs an 'objects' array\n");
}


TEST(SceneFileTest, NegativeBoxSizeIsLocated) {
  const std::string errors = Errors(R"({"objects": [
    {"name": "a", "type": "box",
     "size": [1, -2, 1]}
  ]})");
  EXPECT_THAT(errors, HasSubstr("s.json:3: error: object 'a' 'size' element 1 is -2, expected a "
                                "value in [0.0001, 10000] (at /objects/0/size/1)"));
}


TEST(SceneFileTest, UnknownTypeListsTheKnownOnes) {
  const std::string errors = Errors(R"({"objects": [
    {"name": "a", "type": "cube"}]})");
  EXPECT_THAT(errors, HasSubstr("s.json:2: error: object 'a' has unknown type 'cube' (expected "
                                "plane, box, sphere, capsule or cylinder)"));
}


TEST(SceneFileTest, MissingParameterAndUnknownMaterial) {
  const std::string errors = Errors(R"({"objects": [
    {"name": "a", "type": "sphere"},
    {"name": "b", "type": "box", "size": [1, 1, 1],
     "material": "steel"}]})");
  EXPECT_THAT(errors, HasSubstr("s.json:2: error: object 'a' of type 'sphere' needs 'radius'"));
  EXPECT_THAT(errors, HasSubstr("s.json:4: error: object 'b' uses unknown material 'steel' "
                                "(defined: default)"));
}


TEST(SceneFileTest, DuplicateNamesAndWrongTypes) {
  const std::string errors = Errors(R"({"objects": [
    {"name": "a", "type": "sphere", "radius": 1},
    {"name": "a", "type": "sphere", "radius": "big"}]})");
  EXPECT_THAT(errors, HasSubstr("s.json:3: error: duplicate object name 'a'"));
  EXPECT_THAT(errors, HasSubstr("s.json:3: error: object 'a' 'radius' must be a number, not a "
                                "string"));
}


TEST(SceneFileTest, BadSolverAndCamera) {
  const std::string errors = Errors(R"({"solver": {"name": "magic", "dt": 0},
    "camera": {"fov_deg": 200},
    "objects": []})");
  EXPECT_THAT(errors, HasSubstr("s.json:1: error: unknown solver 'magic'"));
  EXPECT_THAT(errors, HasSubstr("s.json:1: error: solver 'dt' is 0, expected a value in"));
  EXPECT_THAT(errors, HasSubstr("s.json:2: error: camera 'fov_deg' is 200"));
}


TEST(SceneFileTest, UnknownKeyIsAWarningNotAnError) {
  Expected<Scene> scene = ParseScene(R"({"objects": [
    {"name": "a", "type": "sphere", "radius": 1, "colour": [1, 0, 0]}]})",
                                     "s.json");
  ASSERT_TRUE(scene.ok());
  EXPECT_THAT(scene.diagnostics().Format(),
              HasSubstr("s.json:2: warning: unknown key 'colour' in object 'a'"));
}


TEST(SceneFileTest, BothOrientationsAndBothMassesAreErrors) {
  const std::string errors = Errors(R"({"objects": [
    {"name": "a", "type": "sphere", "radius": 1, "rpy_deg": [0, 0, 0],
     "quaternion_wxyz": [1, 0, 0, 0], "mass": 1, "density": 2}]})");
  EXPECT_THAT(errors, HasSubstr("gives both 'quaternion_wxyz' and 'rpy_deg'"));
  EXPECT_THAT(errors, HasSubstr("gives both 'mass' and 'density'"));
}


TEST(SceneFileTest, FutureTypesSayTheyAreNotSupportedYet) {
  EXPECT_THAT(Errors(R"({"objects": [{"name": "r", "type": "urdf"}]})"),
              HasSubstr("has type 'urdf', which this version cannot load yet"));
}


TEST(SceneFileTest, MissingFileSaysSo) {
  Expected<Scene> scene = LoadScene("/nonexistent/x.json");
  ASSERT_FALSE(scene.ok());
  EXPECT_THAT(scene.diagnostics().Format(), HasSubstr("/nonexistent/x.json: error: cannot open"));
}


TEST(ShippedScenesTest, EveryShippedSceneLoadsWithoutWarnings) {
  const std::string dir = std::string(SIM_SOURCE_DIR) + "/scenes";
  Diagnostics diagnostics;
  const std::vector<SceneEntry> scenes = ListScenes(dir, &diagnostics);
  EXPECT_TRUE(diagnostics.empty()) << diagnostics.Format();
  ASSERT_FALSE(scenes.empty());
  bool has_default = false;
  for (const SceneEntry& entry : scenes) {
    Expected<Scene> scene = LoadScene(entry.path);
    ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
    EXPECT_TRUE(scene.diagnostics().empty()) << scene.diagnostics().Format();
    EXPECT_FALSE(entry.name.empty()) << entry.path << " has no name";
    has_default |= entry.id == "default";
  }
  EXPECT_TRUE(has_default);
}

}  // namespace
}  // namespace sim::io
