// `contact-sim render` as a user runs it, without a display: renders scenes/default.json to a PNG,
// then checks the picture against the scene's own camera math: every shape's centre shows that
// shape's colour and not the sky, and the open ground differs from the sky; with --steps, renders
// the simulated state; --view contacts draws markers at the contacts the same simulation finds;
// --view structure draws the structure fields' dashes; what holds things is drawn where it acts (a
// free particle, the cantilever's attachment struts, the pendulum's anchor and its mount). Skips
// without a Vulkan driver.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "engine/io/scene_file.h"
#include "engine/step/pipeline.h"
#include "engine/visual/camera.h"
#include "engine/visual/visual_frame.h"
#include "render/png_io.h"
#include "render/scene_markers.h"
#include "tests/render/image_checks.h"
#include "tests/support/run_command.h"
#include "tests/support/shared_data.h"

namespace sim::render {
namespace {

using image_checks::ColorDistance;
using image_checks::PixelAt;
using image_checks::PixelStdDev;
using image_checks::Rgb;
using sim::test_support::CommandResult;
using sim::test_support::RunCommand;

constexpr int kWidth = 640;
constexpr int kHeight = 400;
// as in offscreen_render_test.cpp: objects differ from the sky by > 40 levels, the ground by > 20
constexpr int kClearlyDifferent = 40;
constexpr int kGroundDifferent = 20;
constexpr double kMinStdDev = 8.0;

// radius of a sphere around the shape's centre that contains the shape [m]
double BoundingRadius(const VisualShape& shape) {
  const Eigen::Vector3d size =
      Eigen::Vector3f(shape.size[0], shape.size[1], shape.size[2]).cast<double>();
  switch (shape.type) {
    case ShapeType::kBox:
      return size.norm();
    case ShapeType::kSphere:
      return size.x();
    case ShapeType::kCapsule:
      return size.x() + size.y();
    case ShapeType::kCylinder:
      return std::hypot(size.x(), size.y());
    default:
      return 0;
  }
}


Vec3 Centre(const VisualShape& shape) { return Vec3(shape.X_WS[3], shape.X_WS[7], shape.X_WS[11]); }


// true when the segment from `eye` to shape `s`'s centre passes through another shape's bounding
// sphere first (conservative: such a shape may or may not hide it)
bool MayBeHidden(const VisualFrame& frame, std::size_t s, const Vec3& eye) {
  const Vec3 target = Centre(frame.shapes[s]);
  const Vec3 dir = (target - eye).normalized();
  const double target_distance = (target - eye).norm();
  for (std::size_t o = 0; o < frame.shapes.size(); ++o) {
    if (o == s || frame.shapes[o].type == ShapeType::kPlane) continue;
    const Vec3 to_centre = Centre(frame.shapes[o]) - eye;
    const double along = to_centre.dot(dir);
    const double miss = (to_centre - along * dir).norm();
    if (along > 0 && along < target_distance && miss < BoundingRadius(frame.shapes[o])) {
      return true;
    }
  }
  return false;
}


// `contact-sim render SCENE ARGUMENTS` into a temporary PNG, run without a display as a user
// would; `skip` is set when the machine has no Vulkan driver
struct CliRender {
  CommandResult result;
  Image image;
  std::string skip;
};
CliRender RenderWithCli(const std::string& scene, const std::string& arguments,
                        const std::string& name) {
  CliRender render;
  const std::string out = ::testing::TempDir() + "/" + name + ".png";
  std::remove(out.c_str());
  // headless, and the test scenes may read the shared test data
  render.result =
      RunCommand("env -u DISPLAY -u WAYLAND_DISPLAY CONTACT_STUDIO_FILE_ROOTS=" +
                     test_support::SharedDataDir() + " " + std::string(SIM_BINARY_DIR) +
                     "/bin/contact-sim render " + scene + " " + arguments + " --out " + out,
                 out + ".log");
  if (render.result.exit_code != 0 &&
      render.result.output.find("no Vulkan driver found") != std::string::npos) {
    render.skip = render.result.output;
    return render;
  }
  std::string error;
  if (render.result.exit_code == 0 && !ReadPng(out, &render.image, &error)) {
    ADD_FAILURE() << out << ": " << error;
  }
  std::remove(out.c_str());
  return render;
}


// index of the largest of three values
template <typename T>
int DominantChannel(const T& c) {
  return static_cast<int>(std::max_element(c.begin(), c.begin() + 3) - c.begin());
}


TEST(RenderCli, DefaultSceneShowsEveryShapeWhereTheCameraProjectsIt) {
  const std::string scene_path = std::string(SIM_SOURCE_DIR) + "/scenes/default.json";
  const CliRender render = RenderWithCli(
      scene_path, "--width " + std::to_string(kWidth) + " --height " + std::to_string(kHeight),
      "render_cli_default");
  if (!render.skip.empty()) GTEST_SKIP() << render.skip;
  ASSERT_EQ(render.result.exit_code, 0) << render.result.output;
  const Image& image = render.image;
  ASSERT_EQ(image.width, kWidth);
  ASSERT_EQ(image.height, kHeight);
  EXPECT_GT(PixelStdDev(image), kMinStdDev);

  // the same scene and camera the CLI used
  Expected<io::Scene> scene = io::LoadScene(scene_path);
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  const Model& model = *scene->model;
  const VisualFrame frame = MakeVisualFrame(model, scene->initial_state);
  const OrbitCamera camera(model.camera, model.options.up);
  const Rgb sky = PixelAt(image, kWidth / 2, 2);

  // every closed shape: its centre's pixel is not sky (it shows the shape or whatever hides it),
  // and an unhidden shape shows its own dominant hue
  const Vec3 eye = camera.Eye().cast<double>();
  int shapes_seen = 0;
  for (std::size_t s = 0; s < frame.shapes.size(); ++s) {
    const VisualShape& shape = frame.shapes[s];
    if (shape.type == ShapeType::kPlane) continue;
    const auto pixel = camera.ProjectToPixel(Centre(shape), kWidth, kHeight);
    ASSERT_TRUE(pixel.has_value()) << model.shape_name[s] << " is behind the camera";
    const Rgb color = PixelAt(image, *pixel);
    SCOPED_TRACE(model.shape_name[s] + " at pixel (" + std::to_string((*pixel).x()) + ", " +
                 std::to_string((*pixel).y()) + "): " + std::to_string(color[0]) + " " +
                 std::to_string(color[1]) + " " + std::to_string(color[2]));
    EXPECT_GT(ColorDistance(color, sky), kClearlyDifferent);
    if (MayBeHidden(frame, s, eye)) continue;
    EXPECT_EQ(DominantChannel(color), DominantChannel(shape.color));
    ++shapes_seen;
  }
  EXPECT_GE(shapes_seen, 5) << "the default scene shows most of its shapes";

  // open ground in front of the objects, towards the camera
  const Vec3 ground_point(2.4, 1.0, 0.0);
  const auto ground_pixel = camera.ProjectToPixel(ground_point, kWidth, kHeight);
  ASSERT_TRUE(ground_pixel.has_value());
  EXPECT_GT(ColorDistance(PixelAt(image, *ground_pixel), sky), kGroundDifferent);
}


TEST(RenderCli, StepsSimulateBeforeRendering) {
  // 10 steps of the scene's dt: the render shows the state at t = 10 dt, not the initial one
  const std::string scene_path = std::string(SIM_SOURCE_DIR) + "/scenes/default.json";
  const CliRender render =
      RenderWithCli(scene_path, "--steps 10 --width 320 --height 200", "render_cli_steps");
  if (!render.skip.empty()) GTEST_SKIP() << render.skip;
  ASSERT_EQ(render.result.exit_code, 0) << render.result.output;
  const CommandResult& result = render.result;
  Expected<io::Scene> scene = io::LoadScene(scene_path);
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  char time[64];
  std::snprintf(time, sizeof(time), "t = %.6g s", 10 * scene->model->options.solver.dt);
  EXPECT_NE(result.output.find(time), std::string::npos) << result.output;

  EXPECT_EQ(render.image.width, 320);
  EXPECT_EQ(render.image.height, 200);
  EXPECT_GT(PixelStdDev(render.image), kMinStdDev);
}


TEST(RenderCli, ContactsViewDrawsMarkersAtTheSimulatedContacts) {
  // the CLI steps the scene's own solver 30 times; the same steps here give the same contacts
  constexpr int kSteps = 30;
  const std::string scene_path = std::string(SIM_SOURCE_DIR) + "/scenes/default.json";
  const CliRender render =
      RenderWithCli(scene_path,
                    "--steps " + std::to_string(kSteps) + " --view contacts --width " +
                        std::to_string(kWidth) + " --height " + std::to_string(kHeight),
                    "render_cli_contacts");
  if (!render.skip.empty()) GTEST_SKIP() << render.skip;
  ASSERT_EQ(render.result.exit_code, 0) << render.result.output;
  const Image& image = render.image;

  Expected<io::Scene> scene = io::LoadScene(scene_path);
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  auto simulation =
      Simulation::Create(scene->model, scene->initial_state, scene->model->options.solver.name);
  ASSERT_TRUE(simulation.ok());
  for (int i = 0; i < kSteps; ++i) simulation.value()->Step();
  const VisualFrame frame =
      MakeVisualFrame(*scene->model, simulation.value()->state(), simulation.value()->contacts());
  const OrbitCamera camera(scene->model->camera, scene->model->options.up);
  // a marker colour (normal arrow blue, stick green, slip orange) within 2 px of every loaded
  // contact point: its point marker, seen through the see-through bodies
  const auto is_marker = [](const Rgb& c) {
    const bool blue = c[2] > c[0] + 30 && c[2] > c[1] + 10;
    const bool green = c[1] > c[0] + 30 && c[1] > c[2] + 30;
    const bool orange = c[0] > c[1] + 30 && c[0] > c[2] + 30;
    return blue || green || orange;
  };
  int loaded = 0, marked = 0;
  for (const VisualContact& contact : frame.contacts) {
    if (contact.normal_force <= 0) continue;
    ++loaded;
    const auto pixel = camera.ProjectToPixel(
        Vec3(contact.point[0], contact.point[1], contact.point[2]), kWidth, kHeight);
    ASSERT_TRUE(pixel.has_value());
    bool found = false;
    for (int dy = -2; dy <= 2 && !found; ++dy) {
      for (int dx = -2; dx <= 2 && !found; ++dx) {
        found = is_marker(
            PixelAt(image, static_cast<int>(pixel->x()) + dx, static_cast<int>(pixel->y()) + dy));
      }
    }
    marked += found;
  }
  EXPECT_GE(loaded, 10) << "the default scene rests on many contacts";
  EXPECT_EQ(marked, loaded);
}


TEST(RenderCli, StrainViewDrawsTheSoftBodyAndItsColourBar) {
  // the soft ball under its lid after a few steps, in the strain view and the shaded one; the scene
  // names ../shared/data/tetmesh/sphere1K.msh relative to itself
  SIM_REQUIRE_SHARED_DATA(test_support::SharedDataDir() + "/tetmesh/sphere1K.msh");
  const std::string scene_path = std::string(SIM_SOURCE_DIR) + "/tests/data/render/soft_press.json";
  const std::string size = " --steps 2 --width 480 --height 270";
  const CliRender strain = RenderWithCli(scene_path, "--view strain" + size, "render_cli_strain");
  if (!strain.skip.empty()) GTEST_SKIP() << strain.skip;
  ASSERT_EQ(strain.result.exit_code, 0) << strain.result.output;
  EXPECT_NE(strain.result.output.find("strain view"), std::string::npos);
  EXPECT_NE(strain.result.output.find("1 soft bodies"), std::string::npos);
  const CliRender shaded = RenderWithCli(scene_path, "--view shaded" + size, "render_cli_shaded");
  ASSERT_EQ(shaded.result.exit_code, 0) << shaded.result.output;
  // the colour bar's corner differs between the two pictures; the sky above does not
  int changed = 0;
  for (int y = 270 / 2; y < 270; ++y) {
    for (int x = 480 * 3 / 4; x < 480; ++x) {
      changed += ColorDistance(PixelAt(strain.image, x, y), PixelAt(shaded.image, x, y)) > 40;
    }
  }
  EXPECT_GT(changed, 500);
  EXPECT_LT(ColorDistance(PixelAt(strain.image, 240, 2), PixelAt(shaded.image, 240, 2)), 4);
}


// the structure view of the sliding-boxes pads: at the projected centre of every dash on a pad's
// top face (full grain: orange, r > g + 30 and r > b + 30 lit) a dash-coloured pixel lies within
// 2 px; the shaded view has almost none there (the red x axis line crosses the pads)
TEST(RenderCli, StructureViewDrawsTheFieldsDashes) {
  const std::string scene_path = std::string(SIM_SOURCE_DIR) + "/scenes/sliding_boxes.json";
  const std::string size =
      " --width " + std::to_string(kWidth) + " --height " + std::to_string(kHeight);
  const CliRender structure =
      RenderWithCli(scene_path, "--view structure" + size, "render_cli_structure");
  if (!structure.skip.empty()) GTEST_SKIP() << structure.skip;
  ASSERT_EQ(structure.result.exit_code, 0) << structure.result.output;
  EXPECT_NE(structure.result.output.find("structure view"), std::string::npos);
  const CliRender shaded = RenderWithCli(scene_path, "--view shaded" + size, "render_cli_plain");
  ASSERT_EQ(shaded.result.exit_code, 0) << shaded.result.output;

  Expected<io::Scene> scene = io::LoadScene(scene_path);
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  const VisualFrame frame = MakeVisualFrame(*scene->model, scene->initial_state);
  const OrbitCamera camera(scene->model->camera, scene->model->options.up);
  const auto is_dash = [](const Rgb& c) { return c[0] > c[1] + 30 && c[0] > c[2] + 30; };
  const auto near_dash = [&](const Image& image, const Eigen::Vector2f& pixel) {
    for (int dy = -2; dy <= 2; ++dy) {
      for (int dx = -2; dx <= 2; ++dx) {
        const int x = static_cast<int>(pixel.x()) + dx, y = static_cast<int>(pixel.y()) + dy;
        if (x >= 0 && y >= 0 && x < kWidth && y < kHeight && is_dash(PixelAt(image, x, y))) {
          return true;
        }
      }
    }
    return false;
  };
  int top = 0, drawn = 0, in_shaded = 0;
  for (const VisualStructureGlyph& glyph : frame.structure_glyphs) {
    // the pads' top faces (z = 0.02 m in the scene) and full grain
    if (glyph.normal[2] < 0.99f || glyph.strength < 0.99f) continue;
    const auto pixel = camera.ProjectToPixel(
        Vec3(glyph.center[0], glyph.center[1], glyph.center[2]), kWidth, kHeight);
    if (!pixel || pixel->x() < 3 || pixel->y() < 3 || pixel->x() > kWidth - 3 ||
        pixel->y() > kHeight - 3) {
      continue;
    }
    ++top;
    drawn += near_dash(structure.image, *pixel);
    in_shaded += near_dash(shaded.image, *pixel);
  }
  EXPECT_GT(top, 100);
  // a few dashes hide behind the boxes that rest on the pads
  EXPECT_GE(drawn, 0.95 * top);
  EXPECT_LE(in_shaded, 0.02 * top);
}


// `contact-sim render` of a shipped validation scene at its first frame, with its camera
struct SceneRender {
  CliRender render;
  OrbitCamera camera;
  Model model;
  State state;
};
constexpr int kHeldWidth = 960;
constexpr int kHeldHeight = 600;
SceneRender RenderValidationScene(const std::string& name) {
  SceneRender out;
  const std::string path = std::string(SIM_SOURCE_DIR) + "/scenes/validation/" + name + ".json";
  out.render = RenderWithCli(
      path, "--width " + std::to_string(kHeldWidth) + " --height " + std::to_string(kHeldHeight),
      "render_cli_" + name);
  Expected<io::Scene> scene = io::LoadScene(path);
  EXPECT_TRUE(scene.ok()) << scene.diagnostics().Format();
  if (!scene.ok()) return out;
  out.model = *scene->model;
  out.state = scene->initial_state;
  out.camera = OrbitCamera(out.model.camera, out.model.options.up);
  return out;
}


// the colour at world point `p` (mean of a 3×3 block) with its description for failures
Rgb ColorAt(const SceneRender& scene, const Vec3& p, std::string* trace) {
  const auto pixel = scene.camera.ProjectToPixel(p, kHeldWidth, kHeldHeight);
  EXPECT_TRUE(pixel.has_value());
  Rgb sum = {0, 0, 0};
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) {
      const Rgb c = PixelAt(scene.render.image, static_cast<int>(pixel->x()) + dx,
                            static_cast<int>(pixel->y()) + dy);
      for (int k = 0; k < 3; ++k) sum[k] += c[k];
    }
  }
  for (int& c : sum) c /= 9;
  *trace = "pixel (" + std::to_string(pixel->x()) + ", " + std::to_string(pixel->y()) +
           "): " + std::to_string(sum[0]) + " " + std::to_string(sum[1]) + " " +
           std::to_string(sum[2]);
  return sum;
}


TEST(RenderCli, ParticleAttachmentsAndAnchorsAreDrawnWhereTheyAct) {
  std::string trace;
  // sliding_particle: the particle (material colour 0.85, 0.25, 0.20) at its centre, on grey
  // ground where nothing was drawn before
  const SceneRender particle = RenderValidationScene("sliding_particle");
  if (!particle.render.skip.empty()) GTEST_SKIP() << particle.render.skip;
  ASSERT_EQ(particle.render.result.exit_code, 0) << particle.render.result.output;
  const Rgb red = ColorAt(particle, particle.state.particle_x_W[0], &trace);
  EXPECT_TRUE(image_checks::IsReddish(red)) << "particle " << trace;

  // pendulum_chain: the cyan anchor at the shoulder (0, 0, 2.5), the black mount right above it
  const SceneRender pendulum = RenderValidationScene("pendulum_chain");
  ASSERT_EQ(pendulum.render.result.exit_code, 0) << pendulum.render.result.output;
  const Vec3 anchor(0, 0, 2.5);
  const Rgb cyan = ColorAt(pendulum, anchor, &trace);
  EXPECT_TRUE(cyan[1] > cyan[0] + 60 && cyan[2] > cyan[0] + 60) << "anchor " << trace;
  const float view_height = ViewHeightAtTarget(pendulum.camera);
  const double mount_centre =
      (kJointAnchorRadiusPerView + 0.25 * kMountHalfWidthPerView) * view_height;
  const Rgb black = ColorAt(pendulum, anchor + Vec3(0, 0, mount_centre), &trace);
  EXPECT_LT(*std::max_element(black.begin(), black.end()), 70) << "mount " << trace;
  // the links' elbows: cyan spheres too
  const Rgb elbow = ColorAt(pendulum, Vec3(-0.043577871373829, 0, 2.001902650954127), &trace);
  EXPECT_TRUE(elbow[1] > elbow[0] + 60 && elbow[2] > elbow[0] + 60) << "elbow " << trace;

  // cantilever: the violet struts from the tip weight's centre to the beam's tip nodes cross
  // the 5 cm gap between the weight (top at z = 0.40) and the beam (bottom at z = 0.45)
  const SceneRender cantilever = RenderValidationScene("cantilever");
  ASSERT_EQ(cantilever.render.result.exit_code, 0) << cantilever.render.result.output;
  ASSERT_EQ(cantilever.model.attachment_count(), 9);
  const Rgb violet = ColorAt(cantilever, Vec3(1.0, 0, 0.425), &trace);
  EXPECT_TRUE(violet[2] > violet[1] + 50 && violet[0] > violet[1] + 20) << "strut " << trace;
}

}  // namespace
}  // namespace sim::render
