// Offscreen rendering of hand-built VisualFrames on whatever Vulkan device is present (lavapipe on
// CI): the picture must show the objects where the camera math puts them, the empty frame must be
// plain sky (so the checks of the first test can fail), and the hardware and shader sRGB paths,
// sample counts and repeated renders must agree. Skips when no Vulkan driver is installed.
#include <cmath>
#include <cstdlib>
#include <memory>
#include <numbers>
#include <optional>
#include <stdexcept>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engine/visual/camera.h"
#include "engine/visual/visual_frame.h"
#include "render/offscreen_renderer.h"
#include "render/vk/vk_check.h"
#include "tests/render/image_checks.h"
#include "tests/render/render_test_util.h"
#include "tests/support/run_command.h"

namespace sim::render {
namespace {

using image_checks::ColorDistance;
using image_checks::IsReddish;
using image_checks::PixelAt;
using image_checks::PixelStdDev;
using image_checks::Rgb;
using image_checks::RowSpread;
using render_test::ImageDifference;
using render_test::MakeRenderer;
using render_test::MakeShape;
using ::testing::HasSubstr;

constexpr int kWidth = 320;
constexpr int kHeight = 240;

// an object's pixel must differ from the sky by at least this much (max channel, 0..255): the
// red box differs by > 150 in practice, the ground by ~50; 8-bit noise and MSAA stay below 5
constexpr int kClearlyDifferent = 40;
constexpr int kGroundDifferent = 20;
// plain sky varies by at most a few levels along a row (sRGB rounding)
constexpr int kUniformRow = 3;
// a picture with objects spreads its pixel values well beyond this; plain sky stays near 0
constexpr double kMinStdDev = 8.0;

VisualShape Ground() {
  return MakeShape(ShapeType::kPlane, {kPlaneDrawHalfSize, kPlaneGridCell, 0},
                   Eigen::Vector3f::Zero(), {0.42f, 0.45f, 0.48f, 1});
}

const Eigen::Vector3f kBoxCenter(0.9f, -0.5f, 0.3f);
const Eigen::Vector3f kSphereCenter(-0.8f, 0.7f, 0.35f);

// ground plane, a red box at +x and a blue sphere at -x
VisualFrame GroundBoxAndSphere() {
  VisualFrame frame;
  frame.shapes.push_back(Ground());
  frame.shapes.push_back(
      MakeShape(ShapeType::kBox, {0.3f, 0.3f, 0.3f}, kBoxCenter, {0.8f, 0.06f, 0.05f, 1}));
  frame.shapes.push_back(
      MakeShape(ShapeType::kSphere, {0.35f, 0, 0}, kSphereCenter, {0.15f, 0.35f, 0.85f, 1}));
  return frame;
}


Eigen::Vector2f Project(const OrbitCamera& camera, const Eigen::Vector3f& p_W, int width = kWidth,
                        int height = kHeight) {
  return render_test::Project(camera, p_W, width, height);
}


TEST(OffscreenRender, ShowsGroundBoxAndSphereWhereTheCameraProjectsThem) {
  std::string skip;
  auto renderer = MakeRenderer(kWidth, kHeight, 4, false, &skip);
  if (!renderer) SIM_SKIP_OR_FAIL_IN_CI(skip);
  EXPECT_FALSE(renderer->device_name().empty());
  const OrbitCamera camera;
  const Image image = renderer->Render(GroundBoxAndSphere(), camera);
  ASSERT_EQ(image.width, kWidth);
  ASSERT_EQ(image.height, kHeight);
  ASSERT_EQ(image.rgba.size(), static_cast<std::size_t>(kWidth * kHeight * 4));

  EXPECT_GT(PixelStdDev(image), kMinStdDev);
  const Rgb sky = PixelAt(image, kWidth / 2, 2);
  const Rgb box = PixelAt(image, Project(camera, kBoxCenter));
  EXPECT_GT(ColorDistance(box, sky), kClearlyDifferent);
  EXPECT_TRUE(IsReddish(box)) << box[0] << " " << box[1] << " " << box[2];
  const Rgb sphere = PixelAt(image, Project(camera, kSphereCenter));
  EXPECT_GT(ColorDistance(sphere, sky), kClearlyDifferent);
  EXPECT_GT(sphere[2], sphere[0] + 40) << "the sphere is blue";
  // open ground between the camera and the objects
  const Rgb ground = PixelAt(image, Project(camera, Eigen::Vector3f(2.0f, 1.2f, 0.0f)));
  EXPECT_GT(ColorDistance(ground, sky), kGroundDifferent);
  EXPECT_FALSE(IsReddish(ground));
  // z is up on screen: a point above the box's top face shows no box
  const Rgb above_box = PixelAt(image, Project(camera, kBoxCenter + Eigen::Vector3f(0, 0, 0.55f)));
  EXPECT_FALSE(IsReddish(above_box));
}


TEST(OffscreenRender, EmptyFrameIsOnlySky) {
  std::string skip;
  auto renderer = MakeRenderer(kWidth, kHeight, 4, false, &skip);
  if (!renderer) SIM_SKIP_OR_FAIL_IN_CI(skip);
  const OrbitCamera camera;
  const Image image = renderer->Render(VisualFrame{}, camera);

  // the checks of the test above fail on this picture
  EXPECT_LE(RowSpread(image, 0), kUniformRow);
  EXPECT_LT(PixelStdDev(image), kMinStdDev);
  const Rgb sky = PixelAt(image, kWidth / 2, 2);
  const Rgb where_the_box_was = PixelAt(image, Project(camera, kBoxCenter));
  EXPECT_LT(ColorDistance(where_the_box_was, sky), kGroundDifferent);
  EXPECT_FALSE(IsReddish(where_the_box_was));
}


TEST(OffscreenRender, SkyBrightensTowardsTheHorizon) {
  std::string skip;
  auto renderer = MakeRenderer(kWidth, kHeight, 1, false, &skip);
  if (!renderer) SIM_SKIP_OR_FAIL_IN_CI(skip);
  // looking up at 30 degrees: zenith side at the top of the picture, horizon at the bottom
  OrbitCamera camera;
  camera.pitch_deg = -30;
  const Image image = renderer->Render(VisualFrame{}, camera);
  const Rgb top = PixelAt(image, kWidth / 2, 0);
  const Rgb bottom = PixelAt(image, kWidth / 2, kHeight - 1);
  EXPECT_LT(top[0] + top[1] + top[2], bottom[0] + bottom[1] + bottom[2] - 30);
  EXPECT_LE(RowSpread(image, kHeight / 2), 6) << "the gradient follows the up axis only";
}


TEST(OffscreenRender, HardwareAndShaderSrgbEncodingAgree) {
  std::string skip;
  auto hardware = MakeRenderer(kWidth, kHeight, 1, false, &skip);
  if (!hardware) SIM_SKIP_OR_FAIL_IN_CI(skip);
  auto shader = MakeRenderer(kWidth, kHeight, 1, true, &skip);
  ASSERT_NE(shader, nullptr);
  const OrbitCamera camera;
  const auto [mean, max] = ImageDifference(hardware->Render(GroundBoxAndSphere(), camera),
                                           shader->Render(GroundBoxAndSphere(), camera));
  // the two encoders differ by rounding only
  EXPECT_LT(mean, 0.5);
  EXPECT_LE(max, 3);
}


TEST(OffscreenRender, MultisamplingChangesEdgesOnly) {
  std::string skip;
  auto single = MakeRenderer(kWidth, kHeight, 1, false, &skip);
  if (!single) SIM_SKIP_OR_FAIL_IN_CI(skip);
  auto multi = MakeRenderer(kWidth, kHeight, 8, false, &skip);
  ASSERT_NE(multi, nullptr);
  const OrbitCamera camera;
  const auto [mean, max] = ImageDifference(single->Render(GroundBoxAndSphere(), camera),
                                           multi->Render(GroundBoxAndSphere(), camera));
  EXPECT_LT(mean, 2.0);
}


TEST(OffscreenRender, CapsuleAndCylinderFollowTheirLocalZAxis) {
  std::string skip;
  auto renderer = MakeRenderer(kWidth, kHeight, 4, false, &skip);
  if (!renderer) SIM_SKIP_OR_FAIL_IN_CI(skip);
  const std::array<float, 4> red = {0.8f, 0.06f, 0.05f, 1};
  // a vertical capsule (r 0.15, half length 0.5) and a cylinder lying along world x
  const Eigen::Vector3f capsule_at(0.6f, -0.8f, 0.65f);
  const Eigen::Vector3f cylinder_at(-0.3f, 0.9f, 0.2f);
  const Eigen::Matrix3f z_to_x =
      Eigen::AngleAxisf(0.5f * std::numbers::pi_v<float>, Eigen::Vector3f::UnitY()).matrix();
  VisualFrame frame;
  frame.shapes.push_back(MakeShape(ShapeType::kCapsule, {0.15f, 0.5f, 0}, capsule_at, red));
  frame.shapes.push_back(
      MakeShape(ShapeType::kCylinder, {0.2f, 0.6f, 0}, cylinder_at, red, z_to_x));
  const OrbitCamera camera;
  const Image image = renderer->Render(frame, camera);
  const auto red_at = [&](const Eigen::Vector3f& p) {
    return IsReddish(PixelAt(image, Project(camera, p)));
  };
  // capsule: covered up to half length + radius along z, nothing beyond
  EXPECT_TRUE(red_at(capsule_at + Eigen::Vector3f(0, 0, 0.6f)));
  EXPECT_TRUE(red_at(capsule_at - Eigen::Vector3f(0, 0, 0.6f)));
  EXPECT_FALSE(red_at(capsule_at + Eigen::Vector3f(0, 0, 0.8f)));
  // cylinder: long along x, only its radius along z
  EXPECT_TRUE(red_at(cylinder_at + Eigen::Vector3f(0.5f, 0, 0)));
  EXPECT_TRUE(red_at(cylinder_at - Eigen::Vector3f(0.5f, 0, 0)));
  EXPECT_FALSE(red_at(cylinder_at + Eigen::Vector3f(0, 0, 0.4f)));
}


TEST(OffscreenRender, RepeatedRendersGrowTheInstanceBufferAndStayDeterministic) {
  std::string skip;
  auto renderer = MakeRenderer(kWidth, kHeight, 4, false, &skip);
  if (!renderer) SIM_SKIP_OR_FAIL_IN_CI(skip);
  const OrbitCamera camera;
  const Image first = renderer->Render(GroundBoxAndSphere(), camera);

  // 20 x 20 small boxes: far beyond the initial capacity of the instance buffer
  VisualFrame crowd;
  crowd.shapes.push_back(Ground());
  for (int i = 0; i < 20; ++i) {
    for (int j = 0; j < 20; ++j) {
      crowd.shapes.push_back(MakeShape(ShapeType::kBox, {0.05f, 0.05f, 0.05f},
                                       Eigen::Vector3f(-2.0f + 0.2f * i, -2.0f + 0.2f * j, 0.05f),
                                       {0.8f, 0.06f, 0.05f, 1}));
    }
  }
  const Image crowded = renderer->Render(crowd, camera);
  EXPECT_TRUE(IsReddish(PixelAt(crowded, Project(camera, Eigen::Vector3f(0.0f, 0.0f, 0.05f)))));

  const Image again = renderer->Render(GroundBoxAndSphere(), camera);
  EXPECT_EQ(first.rgba, again.rgba);
}


TEST(OffscreenRender, SupportsYUpWorlds) {
  std::string skip;
  auto renderer = MakeRenderer(kWidth, kHeight, 4, false, &skip);
  if (!renderer) SIM_SKIP_OR_FAIL_IN_CI(skip);
  // the z-up scene turned so that world y is up: plane normal +y, box resting on it
  const Eigen::Matrix3f z_to_y =
      Eigen::AngleAxisf(-0.5f * std::numbers::pi_v<float>, Eigen::Vector3f::UnitX()).matrix();
  const Eigen::Vector3f box_at(0.9f, 0.3f, 0.5f);
  VisualFrame frame;
  frame.up = {0, 1, 0};
  frame.shapes.push_back(Ground());
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) frame.shapes.back().X_WS[r * 4 + c] = z_to_y(r, c);
  }
  frame.shapes.push_back(
      MakeShape(ShapeType::kBox, {0.3f, 0.3f, 0.3f}, box_at, {0.8f, 0.06f, 0.05f, 1}));
  OrbitCamera camera;
  camera.up = Eigen::Vector3f::UnitY();
  camera.target = Eigen::Vector3f(0, 0.5f, 0);
  const Image image = renderer->Render(frame, camera);

  const Rgb sky = PixelAt(image, kWidth / 2, 2);
  EXPECT_TRUE(IsReddish(PixelAt(image, Project(camera, box_at))));
  const Rgb ground = PixelAt(image, Project(camera, Eigen::Vector3f(-1.0f, 0.0f, 1.5f)));
  EXPECT_GT(ColorDistance(ground, sky), kGroundDifferent);
  EXPECT_FALSE(IsReddish(PixelAt(image, Project(camera, box_at + Eigen::Vector3f(0, 0.55f, 0)))));
}


TEST(OffscreenRender, SkipsShapesWithNonFiniteData) {
  std::string skip;
  auto renderer = MakeRenderer(kWidth, kHeight, 1, false, &skip);
  if (!renderer) SIM_SKIP_OR_FAIL_IN_CI(skip);
  VisualFrame frame;
  frame.shapes.push_back(
      MakeShape(ShapeType::kBox, {0.3f, 0.3f, 0.3f}, kBoxCenter, {0.8f, 0.06f, 0.05f, 1}));
  frame.shapes.back().X_WS[3] = std::nanf("");
  const OrbitCamera camera;
  EXPECT_EQ(renderer->Render(frame, camera).rgba, renderer->Render(VisualFrame{}, camera).rgba);
}


TEST(OffscreenRender, RejectsEmptyImageSize) {
  EXPECT_THROW(OffscreenRenderer(0, 10), std::invalid_argument);
  EXPECT_THROW(OffscreenRenderer(10, -1), std::invalid_argument);
}


// the loader finds no driver when every ICD manifest path is wrong
TEST(OffscreenRender, NamesTheMissingDriver) {
  const char* kVariables[] = {"VK_ICD_FILENAMES", "VK_DRIVER_FILES"};
  std::array<std::optional<std::string>, 2> saved;
  for (int i = 0; i < 2; ++i) {
    if (const char* value = std::getenv(kVariables[i])) saved[i] = value;
    setenv(kVariables[i], "/nonexistent/contact_studio_icd.json", 1);
  }
  try {
    OffscreenRenderer renderer(16, 16);
    ADD_FAILURE() << "a renderer was created without any Vulkan driver";
  } catch (const DeviceError& e) {
    EXPECT_THAT(e.what(), HasSubstr("no Vulkan driver found: install mesa-vulkan-drivers"));
  }
  for (int i = 0; i < 2; ++i) {
    if (saved[i]) {
      setenv(kVariables[i], saved[i]->c_str(), 1);
    } else {
      unsetenv(kVariables[i]);
    }
  }
}

}  // namespace
}  // namespace sim::render
