// The teleop mapping file (ui/devices/action_mapping.cpp, docs/teleop.md): the shipped default
// loads clean, its keyboard layout keeps off the studio's own keys, its gamepad input names are
// SDL's, and each class of mistake is an error at its line.
#include <SDL.h>

#include <filesystem>
#include <set>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "ui/devices/action_mapping.h"
#include "ui/devices/keyboard_layout.h"

namespace sim::devices {
namespace {

using ::testing::HasSubstr;

TEST(ActionMappingTest, DefaultMappingLoadsWithoutWarnings) {
  Expected<ActionMapping> mapping = LoadActionMapping(DefaultActionMappingPath());
  ASSERT_TRUE(mapping.ok()) << mapping.diagnostics().Format();
  EXPECT_TRUE(mapping.diagnostics().empty()) << mapping.diagnostics().Format();
  const DeviceMapping& gamepad = mapping->device(DeviceKind::kGamepad);
  EXPECT_EQ(gamepad.speeds.linear_speed, 0.15);
  // the issue's gamepad: a stick moves the gripper, the right trigger closes it
  bool stick_moves = false, trigger_grips = false;
  for (const Binding& binding : gamepad.bindings) {
    stick_moves |= binding.input == "lefty" && binding.intent == Intent::kMoveX;
    trigger_grips |= binding.input == "righttrigger" && binding.intent == Intent::kGripper;
  }
  EXPECT_TRUE(stick_moves);
  EXPECT_TRUE(trigger_grips);
  // every intent has a key on the keyboard, and no key is the studio's
  std::set<Intent> keyboard_intents;
  for (const Binding& binding : mapping->device(DeviceKind::kKeyboard).bindings) {
    keyboard_intents.insert(binding.intent);
    EXPECT_EQ(StudioKeyUse(binding.input), nullptr) << binding.input;
  }
  EXPECT_EQ(keyboard_intents.size(), kIntentCount - 1u);  // all but the absolute gripper axis
  EXPECT_FALSE(keyboard_intents.contains(Intent::kGripper));
  EXPECT_FALSE(mapping->device(DeviceKind::kSpaceMouse).bindings.empty());
}


TEST(ActionMappingTest, GamepadInputNamesAreSdlsNames) {
  // SDL's parser knows every name the mapping accepts, and the mapping every name SDL has
  std::set<std::string> sdl_names;
  for (int axis = 0; axis < SDL_CONTROLLER_AXIS_MAX; ++axis) {
    const char* name =
        SDL_GameControllerGetStringForAxis(static_cast<SDL_GameControllerAxis>(axis));
    ASSERT_NE(name, nullptr);
    sdl_names.insert(name);
  }
  for (int button = 0; button < SDL_CONTROLLER_BUTTON_MAX; ++button) {
    const char* name =
        SDL_GameControllerGetStringForButton(static_cast<SDL_GameControllerButton>(button));
    ASSERT_NE(name, nullptr);
    sdl_names.insert(name);
  }
  const std::vector<std::string> ours = DeviceInputNames(DeviceKind::kGamepad);
  EXPECT_EQ(std::set<std::string>(ours.begin(), ours.end()), sdl_names);
}


TEST(ActionMappingTest, BindingIsReadWithItsFields) {
  Expected<ActionMapping> mapping = ParseActionMapping(R"({"spacemouse": {"linear_speed": 0.2,
    "bindings": [{"input": "tz", "intent": "move_x", "scale": 0.5, "dead_zone": 0.1,
                  "invert": true}]}})",
                                                       "m.json");
  ASSERT_TRUE(mapping.ok()) << mapping.diagnostics().Format();
  const DeviceMapping& spacemouse = mapping->device(DeviceKind::kSpaceMouse);
  EXPECT_EQ(spacemouse.speeds.linear_speed, 0.2);
  ASSERT_EQ(spacemouse.bindings.size(), 1u);
  const Binding& binding = spacemouse.bindings[0];
  EXPECT_EQ(binding.input, "tz");
  EXPECT_EQ(binding.intent, Intent::kMoveX);
  EXPECT_EQ(binding.scale, 0.5);
  EXPECT_EQ(binding.dead_zone, 0.1);
  EXPECT_TRUE(binding.invert);
  EXPECT_EQ(binding.line, 2);  // where the binding starts
  EXPECT_TRUE(mapping->device(DeviceKind::kGamepad).bindings.empty());
}


TEST(ActionMappingTest, MistakesAreLocatedErrors) {
  // one mistake per line, from line 2 on
  Expected<ActionMapping> mapping = ParseActionMapping(R"({"gamepad": {"bindings": [
    {"input": "lefty", "intent": "fly_x"},
    {"input": "leftstickx", "intent": "move_x"},
    {"input": "leftx", "intent": "move_y", "dead_zone": 1},
    {"input": "leftx", "intent": "move_y", "dead_zone": -0.1}]},
  "keyboard": {"linear_speed": -1, "bindings": [
    {"input": "Shift", "intent": "move_z"},
    {"input": "space", "intent": "reset"}]}})",
                                                       "mapping.json");
  ASSERT_FALSE(mapping.ok());
  const std::string errors = mapping.diagnostics().Format();
  EXPECT_THAT(errors, HasSubstr("mapping.json:2: error: 'gamepad' binding 0 intent 'fly_x' is "
                                "unknown (expected one of: move_x, move_y"));
  EXPECT_THAT(errors, HasSubstr("mapping.json:3: error: 'gamepad' binding 1 input 'leftstickx' is "
                                "not a gamepad input (expected one of: leftx, lefty"));
  EXPECT_THAT(errors, HasSubstr("mapping.json:4: error: 'gamepad' binding 2 'dead_zone' is 1, "
                                "expected a share of the input's range in [0, 1)"));
  EXPECT_THAT(errors, HasSubstr("mapping.json:5: error: 'gamepad' binding 3 'dead_zone' is -0.1"));
  EXPECT_THAT(errors, HasSubstr("mapping.json:6: error: 'keyboard' 'linear_speed' is -1"));
  EXPECT_THAT(errors, HasSubstr("mapping.json:7: error: 'keyboard' binding 0 input 'Shift' is not "
                                "a keyboard input"));
  // a studio shortcut is a warning: the binding is legal but never reaches teleop
  EXPECT_THAT(errors, HasSubstr("mapping.json:8: warning: 'keyboard' binding 1 key 'space' is the "
                                "studio's Play/Pause shortcut"));
}


TEST(ActionMappingTest, SyntaxErrorsAndMissingFilesAreReported) {
  Expected<ActionMapping> broken = ParseActionMapping("{\n\"gamepad\": {,}}", "broken.json");
  ASSERT_FALSE(broken.ok());
  EXPECT_THAT(broken.diagnostics().Format(), HasSubstr("broken.json:2: error:"));
  Expected<ActionMapping> missing = LoadActionMapping("/nonexistent/teleop_mapping.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.diagnostics().Format(),
              HasSubstr("/nonexistent/teleop_mapping.json: error: cannot open"));
}


TEST(ActionMappingTest, UserCopyIsPreferredOverTheDefault) {
  const std::string config = ::testing::TempDir() + "/action_mapping_test_config";
  std::filesystem::create_directories(config + "/contact-studio");
  setenv("XDG_CONFIG_HOME", config.c_str(), 1);
  std::filesystem::remove(config + "/contact-studio/teleop_mapping.json");
  EXPECT_EQ(ActionMappingPath(), DefaultActionMappingPath());
  std::filesystem::copy_file(DefaultActionMappingPath(),
                             config + "/contact-studio/teleop_mapping.json");
  EXPECT_EQ(ActionMappingPath(), config + "/contact-studio/teleop_mapping.json");
  unsetenv("XDG_CONFIG_HOME");
}

}  // namespace
}  // namespace sim::devices
