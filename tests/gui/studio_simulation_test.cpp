// The studio simulates what it shows (contact-studio under Xvfb with lavapipe): 120 frames of the
// default scene advance the simulated time at the scene's step and the screenshot shows every
// object where the simulation put it; Space, Backspace and → pause, reset and step; a ctrl+drag
// played with QTest mouse events drags the crate along under the cursor while everything else stays
// put; opening a broken scene (a bad value, JSON nested 20 000 deep, /dev/zero) lists its located
// diagnostic and the old scene keeps running;
// `--compare` draws two lanes side by side; fetch_tomato runs and is drawn; V switches a squeezed
// soft ball to the strain colours.
#include <cmath>
#include <map>
#include <optional>
#include <regex>
#include <string>

#include <gtest/gtest.h>

#include "engine/io/scene_file.h"
#include "engine/visual/camera.h"
#include "engine/visual/visual_frame.h"
#include "render/png_io.h"
#include "tests/gui/studio_run.h"
#include "tests/support/run_command.h"
#include "ui/frame_compose.h"

namespace sim {
namespace {

using namespace studio_test;  // NOLINT: the helpers of these tests

// "KIND NAME x y z" lines of the summary: shape positions (KIND "shape") and soft bodies' centres,
// the mean of their nodes (KIND "soft")
std::map<std::string, Vec3> SummaryPositions(const std::string& out, const std::string& kind) {
  std::map<std::string, Vec3> positions;
  const std::regex line(kind + R"( (\S+) (\S+) (\S+) (\S+))");
  for (std::sregex_iterator it(out.begin(), out.end(), line), end; it != end; ++it) {
    positions[(*it)[1]] = Vec3(std::stod((*it)[2]), std::stod((*it)[3]), std::stod((*it)[4]));
  }
  return positions;
}
std::map<std::string, Vec3> ShapePositions(const std::string& out) {
  return SummaryPositions(out, "shape");
}
std::map<std::string, Vec3> SoftBodyCentres(const std::string& out) {
  return SummaryPositions(out, "soft");
}

io::Scene DefaultScene() {
  Expected<io::Scene> scene = io::LoadScene(kDefaultScene);
  EXPECT_TRUE(scene.ok()) << scene.diagnostics().Format();
  return scene.value();
}

OrbitCamera SceneCamera(const io::Scene& scene) {
  return OrbitCamera(scene.model->camera, scene.model->options.up);
}


TEST(StudioSimulationTest, TimeAdvancesAndTheScreenshotShowsTheSimulatedScene) {
  if (!HaveXvfb()) SIM_SKIP_OR_FAIL_IN_CI("Xvfb is not installed");
  const fs::path scratch = ScratchDir();
  const fs::path png = scratch / "studio.png";
  const RunResult run =
      RunCommand(XvfbRun("", Quote(kDefaultScene) + " --frames 120 --screenshot " +
                                 Quote(png.string()) + " --exit"),
                 scratch);
  ASSERT_EQ(run.exit_code, 0) << RunReport(run);
  std::cout << run.out;

  // time advanced, by whole steps of the scene's dt (real-time pacing: about the wall time of
  // 120 frames, at least a few steps however fast the frames come)
  const io::Scene scene = DefaultScene();
  const double dt = scene.model->options.solver.dt;
  const std::optional<double> time = NumberAfter(run.out, "sim: time ");
  const std::optional<double> steps = NumberAfter(run.out, " s, steps ");
  ASSERT_TRUE(time && steps) << RunReport(run);
  EXPECT_GT(*time, 10 * dt) << RunReport(run);
  EXPECT_NEAR(*steps * dt, *time, 1e-9 * *steps);
  EXPECT_NE(run.out.find("running"), std::string::npos);
  // the studio reports its frame and step times
  const std::optional<double> frame_ms = NumberAfter(run.out, "frame time: median ");
  const std::optional<double> step_ms = NumberAfter(run.out, "step time: median ");
  ASSERT_TRUE(frame_ms && step_ms) << RunReport(run);
  EXPECT_GT(*frame_ms, 0);
  EXPECT_GT(*step_ms, 0);

  // every object is drawn where the simulation has it (the default scene rests: near the start)
  const std::map<std::string, Vec3> positions = ShapePositions(run.out);
  ASSERT_EQ(positions.size(), static_cast<std::size_t>(scene.model->shape_count()));
  render::Image image;
  Viewport view;
  ASSERT_TRUE(ReadScreenshot(png, &image, &view));
  const Rgb sky = MeanColor(image, view.x + view.width * 3 / 4, view.y + 12, 3);
  const OrbitCamera camera = SceneCamera(scene);
  for (int s = 0; s < scene.model->shape_count(); ++s) {
    const std::string& name = scene.model->shape_name[s];
    if (scene.model->shape_geometry[s].type == ShapeType::kPlane) continue;
    const Vec3 start = scene.model->shape_body[s] >= 0
                           ? scene.initial_state.body_X_WB[scene.model->shape_body[s]].p
                           : scene.model->shape_X_BS[s].p;
    EXPECT_LT((positions.at(name) - start).norm(), 0.01) << name << " moved in a scene at rest";
    const auto pixel = camera.ProjectToPixel(positions.at(name), view.width, view.height);
    ASSERT_TRUE(pixel.has_value());
    const Rgb color = MeanColor(image, view.x + static_cast<int>(pixel->x()),
                                view.y + static_cast<int>(pixel->y()), 1);
    EXPECT_GT(ColorDifference(color, sky), kClearDifference)
        << name << " is " << ToString(color) << ", sky " << ToString(sky);
  }
  fs::remove_all(scratch);
}


TEST(StudioSimulationTest, CtrlDragPullsTheCrateUnderTheCursor) {
  if (!HaveXvfb()) SIM_SKIP_OR_FAIL_IN_CI("Xvfb is not installed");
  const fs::path scratch = ScratchDir();
  // the viewport's size decides where the crate is drawn: read it from a short run
  const fs::path png = scratch / "size.png";
  const RunResult probe =
      RunCommand(XvfbRun("", Quote(kDefaultScene) + " --frames 2 --screenshot " +
                                 Quote(png.string()) + " --exit"),
                 scratch);
  ASSERT_EQ(probe.exit_code, 0) << RunReport(probe);
  render::Image image;
  Viewport view;
  ASSERT_TRUE(ReadScreenshot(png, &image, &view));

  // grab the crate's centre and pull it 150 px to the left on the screen: along the camera's
  // horizontal right axis at the grabbed point's height (the drag plane faces the camera), over
  // free ground (the can, left of the crate on the screen, is 1 m behind it)
  const io::Scene scene = DefaultScene();
  const Model& model = *scene.model;
  const OrbitCamera camera = SceneCamera(scene);
  const int crate = model.FindBody("crate");
  ASSERT_GE(crate, 0);
  const Vec3 start = scene.initial_state.body_X_WB[crate].p;
  const auto from = camera.ProjectToPixel(start, view.width, view.height);
  ASSERT_TRUE(from.has_value());
  const Eigen::Vector2f to = *from + Eigen::Vector2f(-150, 0);
  std::ostringstream drag;
  drag << from->x() << "," << from->y() << "," << to.x() << "," << to.y();
  const RunResult run = RunCommand(
      XvfbRun("", Quote(kDefaultScene) + " --frames 60 --drag " + drag.str() + " --exit"), scratch);
  ASSERT_EQ(run.exit_code, 0) << RunReport(run);
  const std::map<std::string, Vec3> positions = ShapePositions(run.out);
  ASSERT_EQ(positions.count("crate"), 1u) << RunReport(run);

  // the crate followed the cursor: it was drawn moving the cursor's way, most of the cursor's
  // travel. What follows the cursor exactly is the grabbed point on the crate's front face; the
  // crate turns to trail it by up to its half diagonal (0.35 m, ≈ 55 px at this depth) and the
  // spring lags sliding friction by μ g / k ≤ 0.8 · 9.81 / 100 ≈ 0.08 m (≈ 12 px)
  const Vec3 end = positions.at("crate");
  const auto drawn = camera.ProjectToPixel(end, view.width, view.height);
  ASSERT_TRUE(drawn.has_value());
  std::cout << "crate from " << start.transpose() << " to " << end.transpose() << ", drawn at "
            << drawn->transpose() << ", cursor at " << to.transpose() << std::endl;
  const Eigen::Vector2f moved = *drawn - *from;
  const Eigen::Vector2f cursor = to - *from;
  EXPECT_LT((*drawn - to).norm(), 75.0f) << RunReport(run);
  EXPECT_GT(moved.norm(), 0.5f * cursor.norm());
  EXPECT_GT(moved.normalized().dot(cursor.normalized()), std::cos(25.0f * M_PI / 180));
  EXPECT_GT((end - start).norm(), 0.3);
  EXPECT_NEAR(end.z(), start.z(), 0.02) << "the crate slid on the ground";
  // nothing else was touched
  for (const std::string name : {"ball", "pill", "can", "stack_top"}) {
    const Vec3 initial = scene.initial_state.body_X_WB[model.FindBody(name)].p;
    EXPECT_LT((positions.at(name) - initial).norm(), 0.01) << name;
  }
  fs::remove_all(scratch);
}


TEST(StudioSimulationTest, KeysPauseResetAndStepAsInMuJoCo) {
  if (!HaveXvfb()) SIM_SKIP_OR_FAIL_IN_CI("Xvfb is not installed");
  const fs::path scratch = ScratchDir();
  // typed into the 3D view while the scene runs: Space pauses, Backspace goes back to the
  // initial state, → takes one step each
  const RunResult run = RunCommand(
      XvfbRun("", Quote(kDefaultScene) + " --frames 20 --keys Space,Backspace,Right,Right --exit"),
      scratch);
  ASSERT_EQ(run.exit_code, 0) << RunReport(run);
  EXPECT_NE(run.out.find("steps 2, paused"), std::string::npos) << RunReport(run);
  const std::optional<double> time = NumberAfter(run.out, "sim: time ");
  ASSERT_TRUE(time.has_value());
  EXPECT_NEAR(*time, 2 * DefaultScene().model->options.solver.dt, 1e-9);
  fs::remove_all(scratch);
}


TEST(StudioSimulationTest, BrokenSceneIsListedAndTheOldSceneRunsOn) {
  if (!HaveXvfb()) SIM_SKIP_OR_FAIL_IN_CI("Xvfb is not installed");
  const fs::path scratch = ScratchDir();
  // a box with a negative size on line 3; a file nested 20 000 levels deep (it used to end the
  // studio with a stack overflow); a device that never ends (it used to hang the load)
  const fs::path negative = scratch / "broken.json";
  std::ofstream(negative) << "{\n  \"objects\": [\n"
                             "    {\"name\": \"crate\", \"type\": \"box\", \"size\": [-1, 1, 1]}\n"
                             "  ]\n}\n";
  const fs::path deep = scratch / "deep.json";
  std::ofstream(deep) << "{\n\"unknown\":\n"
                      << std::string(20000, '[') << std::string(20000, ']') << "\n}\n";
  for (const fs::path& broken : {negative, deep, fs::path("/dev/zero")}) {
    SCOPED_TRACE(broken.string());
    const Expected<io::Scene> expected = io::LoadScene(broken.string());
    ASSERT_FALSE(expected.ok());
    const std::string diagnostic = expected.diagnostics().items().front().Format();

    const fs::path png = scratch / "broken.png";
    const RunResult run = RunCommand(
        XvfbRun("", Quote(kDefaultScene) + " --frames 60 --open-after " + Quote(broken.string()) +
                        " --screenshot " + Quote(png.string()) + " --exit"),
        scratch);
    // the first scene loaded: a clean exit
    ASSERT_EQ(run.exit_code, 0) << RunReport(run);
    EXPECT_NE(run.err.find(diagnostic), std::string::npos) << RunReport(run);
    EXPECT_NE(run.out.find("diagnostics: 1 errors"), std::string::npos) << RunReport(run);
    // the default scene is still the one simulated, and its time went on after the failed open
    EXPECT_NE(run.out.find("scene: Boxes on a ground plane"), std::string::npos) << RunReport(run);
    const std::optional<double> opened = NumberAfter(run.out, " at sim time ");
    const std::optional<double> final_time = NumberAfter(run.out, "sim: time ");
    ASSERT_TRUE(opened && final_time) << RunReport(run);
    EXPECT_GT(*final_time, *opened) << RunReport(run);
  }
  fs::remove_all(scratch);
}


TEST(StudioSimulationTest, CompareDrawsBothLanesSideBySide) {
  if (!HaveXvfb()) SIM_SKIP_OR_FAIL_IN_CI("Xvfb is not installed");
  const fs::path scratch = ScratchDir();
  const fs::path png = scratch / "compare.png";
  const RunResult run = RunCommand(
      XvfbRun("", Quote(kDefaultScene) + " --compare 'nsn,pgs' --frames 20 --screenshot " +
                      Quote(png.string()) + " --exit"),
      scratch);
  ASSERT_EQ(run.exit_code, 0) << RunReport(run);
  // two solvers side by side: NSN and projected Gauss-Seidel on the same scene
  EXPECT_NE(run.out.find("lanes: nsn | pgs"), std::string::npos) << RunReport(run);
  render::Image image;
  Viewport view;
  ASSERT_TRUE(ReadScreenshot(png, &image, &view));
  // lane 1's stack top stands one lane offset to the right (as the studio computes it, with the
  // camera backed off to see both lanes) and both stack tops are drawn, not sky
  const io::Scene scene = DefaultScene();
  const OrbitCamera home = SceneCamera(scene);
  const Vec3 back = (home.Eye() - home.target).cast<double>();
  const Vec3 right = scene.model->options.up.cross(back).normalized();
  const Vec3 offset = ui::LaneOffset(*scene.model, scene.initial_state, right);
  const OrbitCamera camera = ui::CompareCamera(home, offset, 2);
  const Vec3 top = scene.initial_state.body_X_WB[scene.model->FindBody("stack_top")].p;
  const Rgb sky = MeanColor(image, view.x + view.width / 2, view.y + 12, 3);
  for (const Vec3& p : {top, Vec3(top + offset)}) {
    const auto pixel = camera.ProjectToPixel(p, view.width, view.height);
    ASSERT_TRUE(pixel.has_value());
    ASSERT_GT(pixel->x(), 0);
    ASSERT_LT(pixel->x(), view.width) << "lane offset " << offset.transpose();
    const Rgb color = MeanColor(image, view.x + static_cast<int>(pixel->x()),
                                view.y + static_cast<int>(pixel->y()), 1);
    EXPECT_GT(ColorDifference(color, sky), kClearDifference)
        << "stack top at " << p.transpose() << " is " << ToString(color);
  }
  fs::remove_all(scratch);
}


// the richest shipped scene: the Fetch (24 textured meshes), the soft tomato and the spring scale
TEST(StudioSimulationTest, FetchTomatoRunsAndItsScreenshotShowsRobotTomatoAndScale) {
  if (!HaveXvfb()) SIM_SKIP_OR_FAIL_IN_CI("Xvfb is not installed");
  const fs::path scratch = ScratchDir();
  const fs::path png = scratch / "fetch_tomato.png";
  const std::string path = std::string(SIM_SOURCE_DIR) + "/scenes/fetch_tomato.json";
  const RunResult run =
      RunCommand(XvfbRun("", Quote(path) + " --size 1280x720 --frames 120 --screenshot " +
                                 Quote(png.string()) + " --exit"),
                 scratch);
  ASSERT_EQ(run.exit_code, 0) << RunReport(run);
  // the frame and step times at the issue's 1280 × 720 (reported, not asserted: the machine is
  // shared; `contact-studio --size 1280x720 --frames 240 --exit` is the measurement)
  std::cout << run.out.substr(0, run.out.find("\nshape ")) << std::endl;
  EXPECT_NE(run.out.find("diagnostics: 0 errors"), std::string::npos) << RunReport(run);

  // the simulated time advanced by whole steps (at least ten: the Fetch steps in ~10 ms here)
  Expected<io::Scene> scene = io::LoadScene(path);
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  const double dt = scene->model->options.solver.dt;
  const std::optional<double> time = NumberAfter(run.out, "sim: time ");
  const std::optional<double> steps = NumberAfter(run.out, " s, steps ");
  ASSERT_TRUE(time && steps) << RunReport(run);
  EXPECT_GT(*time, 10 * dt) << RunReport(run);
  EXPECT_NEAR(*steps * dt, *time, 1e-9 * *steps);

  // what the simulation has is drawn where it has it: the tomato red (its material, linear
  // (0.8, 0.1, 0.05): red clearly above green in sRGB), the table top, the scale's housing and the
  // robot's torso, shoulder and gripper differ clearly from the ground far behind them at the top
  // of the view
  render::Image image;
  Viewport view;
  ASSERT_TRUE(ReadScreenshot(png, &image, &view));
  EXPECT_EQ(image.width, 1280);  // the whole window, at --size
  EXPECT_EQ(image.height, 720);
  const OrbitCamera camera = SceneCamera(scene.value());
  const auto pixel_color = [&](const Vec3& p) -> std::optional<Rgb> {
    const auto pixel = camera.ProjectToPixel(p, view.width, view.height);
    if (!pixel || pixel->x() < 0 || pixel->y() < 0 || pixel->x() >= view.width ||
        pixel->y() >= view.height) {
      return std::nullopt;
    }
    return MeanColor(image, view.x + static_cast<int>(pixel->x()),
                     view.y + static_cast<int>(pixel->y()), 1);
  };
  const std::map<std::string, Vec3> softs = SoftBodyCentres(run.out);
  ASSERT_EQ(softs.count("tomato"), 1u) << RunReport(run);
  // the tomato's centre may be behind a gripper finger while it is held: red pixels in a 25 px
  // square around its projected centre (the 35 mm tomato is about 10 px in radius here and covers
  // 40 % of the square; an eighth is asked, so a finger may hide half of it)
  const Vec3 tomato = softs.at("tomato");
  const auto centre = camera.ProjectToPixel(tomato, view.width, view.height);
  ASSERT_TRUE(centre.has_value()) << "tomato behind the camera at " << tomato.transpose();
  int red = 0, samples = 0;
  for (int dy = -12; dy <= 12; dy += 3) {
    for (int dx = -12; dx <= 12; dx += 3) {
      const Rgb c = MeanColor(image, view.x + static_cast<int>(centre->x()) + dx,
                              view.y + static_cast<int>(centre->y()) + dy, 0);
      red += c[0] > c[1] + 60;
      ++samples;
    }
  }
  std::cout << red << " of " << samples << " samples red around the tomato" << std::endl;
  EXPECT_GE(red, samples / 8) << red << " of " << samples << " samples red around the tomato at "
                              << centre->transpose();
  const std::map<std::string, Vec3> positions = ShapePositions(run.out);
  const Rgb far_ground = MeanColor(image, view.x + view.width / 2, view.y + 12, 3);
  for (const std::string name : {"table/0", "scale_housing", "fetch/torso_lift_link",
                                 "fetch/shoulder_pan_link", "fetch/gripper_link"}) {
    ASSERT_EQ(positions.count(name), 1u) << name << "\n" << RunReport(run);
    const std::optional<Rgb> color = pixel_color(positions.at(name));
    ASSERT_TRUE(color.has_value()) << name << " off screen";
    EXPECT_GT(ColorDifference(*color, far_ground), kClearDifference)
        << name << " is " << ToString(*color) << ", far ground " << ToString(far_ground);
  }
  fs::remove_all(scratch);
}


// V cycles the view shaded → strain: the squeezed soft ball turns from its red rubber to the
// strain colour map (white at J = 1, blue where compressed) while the lid keeps it squeezed
TEST(StudioSimulationTest, StrainViewRecoloursTheSqueezedSoftBody) {
  if (!HaveXvfb()) SIM_SKIP_OR_FAIL_IN_CI("Xvfb is not installed");
  const fs::path scratch = ScratchDir();
  const std::string path = std::string(SIM_SOURCE_DIR) + "/tests/data/gui/soft_squeeze.json";
  Expected<io::Scene> scene = io::LoadScene(path);
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  const OrbitCamera camera = SceneCamera(scene.value());
  std::map<std::string, Rgb> ball_color;
  for (const std::string keys : {"", "V"}) {
    const std::string view_name = keys.empty() ? "shaded" : "strain";
    const fs::path png = scratch / (view_name + ".png");
    const RunResult run = RunCommand(
        XvfbRun("", Quote(path) + " --frames 40 " + (keys.empty() ? "" : "--keys " + keys) +
                        " --screenshot " + Quote(png.string()) + " --exit"),
        scratch);
    ASSERT_EQ(run.exit_code, 0) << RunReport(run);
    EXPECT_NE(run.out.find("view: " + view_name), std::string::npos) << RunReport(run);
    // the ball is squeezed: the lid (0.04 m thick, resting at 0.221 m on the 0.2 m ball at the
    // start) came down on it
    const std::map<std::string, Vec3> positions = ShapePositions(run.out);
    const std::map<std::string, Vec3> softs = SoftBodyCentres(run.out);
    ASSERT_TRUE(positions.count("lid") && softs.count("ball")) << RunReport(run);
    EXPECT_LT(positions.at("lid").z(), 0.221 - 0.002) << RunReport(run);
    render::Image image;
    Viewport view;
    ASSERT_TRUE(ReadScreenshot(png, &image, &view));
    // the front of the ball below its centre, under the lid's shadow-free side
    const Vec3 front = softs.at("ball") - Vec3(0, 0, 0.02);
    const auto pixel = camera.ProjectToPixel(front, view.width, view.height);
    ASSERT_TRUE(pixel.has_value());
    ball_color[view_name] = MeanColor(image, view.x + static_cast<int>(pixel->x()),
                                      view.y + static_cast<int>(pixel->y()), 2);
  }
  std::cout << "ball shaded " << ToString(ball_color["shaded"]) << ", strain "
            << ToString(ball_color["strain"]) << std::endl;
  // shaded: the rubber's red; strain: the map's near-white/blue, no longer red-dominated
  const Rgb& shaded = ball_color["shaded"];
  const Rgb& strain = ball_color["strain"];
  EXPECT_GT(shaded[0], shaded[1] + 60) << ToString(shaded);
  EXPECT_LT(strain[0], strain[1] + 30) << ToString(strain);
  EXPECT_GT(ColorDifference(shaded, strain), kClearDifference);
  fs::remove_all(scratch);
}


// File > Open of a lone URDF (our Allegro hand) builds the default scene around it and runs it
// in place of the previous scene
TEST(StudioSimulationTest, OpeningALoneUrdfShowsItInADefaultScene) {
  if (!HaveXvfb()) SIM_SKIP_OR_FAIL_IN_CI("Xvfb is not installed");
  const fs::path scratch = ScratchDir();
  const std::string urdf =
      std::string(SIM_SOURCE_DIR) + "/resources/robots/allegro/allegro_right.urdf";
  const fs::path png = scratch / "urdf.png";
  const RunResult run =
      RunCommand(XvfbRun("", Quote(kDefaultScene) + " --frames 60 --open-after " + Quote(urdf) +
                                 " --screenshot " + Quote(png.string()) + " --exit"),
                 scratch);
  ASSERT_EQ(run.exit_code, 0) << RunReport(run);
  EXPECT_NE(run.out.find("diagnostics: 0 errors"), std::string::npos) << RunReport(run);
  EXPECT_NE(run.out.find("scene: allegro_right.urdf"), std::string::npos) << RunReport(run);
  // the hand's links are the shapes now (16 finger links and the palm carry geometry), the
  // default scene's crate is gone
  const std::map<std::string, Vec3> positions = ShapePositions(run.out);
  EXPECT_EQ(positions.count("crate"), 0u);
  int hand_shapes = 0;
  for (const auto& [name, position] : positions)
    hand_shapes += name.rfind("allegro_right/", 0) == 0;
  EXPECT_GE(hand_shapes, 17) << RunReport(run);
  fs::remove_all(scratch);
}

}  // namespace
}  // namespace sim
