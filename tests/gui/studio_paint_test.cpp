// Painting a structure field in the studio as a person would (contact-studio under Xvfb with
// lavapipe, the real window): a scripted left drag in paint mode (--paint) with the "set angle"
// brush along a box's path on a ground whose grain lies at 45°, then File > Save Painted Fields
// (--save-paint). The saved PNG, read back through the scene the studio rewrote, holds the new
// axis where the stroke went and the old one elsewhere; the structure view's picture changed
// along the stroke and not away from it; and the box, launched along the path, runs straighter on
// the painted ground than on the same ground unpainted (contact-sim run of both scene files).
#include <cmath>
#include <fstream>
#include <numbers>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "engine/io/scene_file.h"
#include "engine/model/structure_field.h"
#include "engine/visual/camera.h"
#include "render/png_io.h"
#include "tests/gui/studio_run.h"
#include "tests/support/run_command.h"

namespace sim {
namespace {

using namespace studio_test;  // NOLINT: the helpers of these tests

constexpr Real kPi = std::numbers::pi;

// a 45° grain on the ground (μ 0.3 with no grain, 0.6 along, 0.05 across); a 0.2 m box at x = −1.5
// launched along +x at 3 m/s; the camera looks down on the strip x ∈ [−2, 2]
constexpr const char* kScene = R"({
 "name": "paint test",
 "solver": {"name": "nsn", "dt": 0.0083},
 "camera": {"target": [0, 0, 0], "distance": 5, "yaw_deg": -90, "pitch_deg": 70, "fov_deg": 45},
 "materials": {"grain": {"friction": 0.3, "friction_major": 0.6, "friction_minor": 0.05}},
 "objects": [
  {"name": "ground", "type": "plane", "material": "grain",
   "structure_field": {"procedural": "uniform", "angle_deg": 45}},
  {"name": "box", "type": "box", "size": [0.2, 0.2, 0.2], "material": "grain", "density": 500,
   "position": [-1.5, 0, 0.1], "velocity": [3, 0, 0]}
 ]
})";

// the box's final y [m] after `seconds` of `contact-sim run` on `scene`
double FinalBoxY(const fs::path& scene, double seconds, const fs::path& scratch) {
  const fs::path csv = scratch / (scene.stem().string() + "_trajectory.csv");
  const RunResult run = RunCommand(
      std::string(SIM_BINARY_DIR) + "/bin/contact-sim run " + Quote(scene.string()) +
          " --duration " + std::to_string(seconds) + " --trajectory " + Quote(csv.string()),
      scratch);
  EXPECT_EQ(run.exit_code, 0) << RunReport(run);
  std::ifstream in(csv);
  std::string line, last;
  while (std::getline(in, line)) {
    if (line.find(",box,") != std::string::npos) last = line;
  }
  std::stringstream fields(last);
  std::string field;
  for (int k = 0; k < 4 && std::getline(fields, field, ','); ++k) {
  }
  return std::stod(field);  // column 4: y
}

// the mean absolute difference of two screenshots over a (2r+1)² square at viewport pixel p
double RegionDifference(const render::Image& a, const render::Image& b, const Viewport& view,
                        const Eigen::Vector2f& p, int r) {
  double sum = 0;
  int count = 0;
  for (int dy = -r; dy <= r; ++dy) {
    for (int dx = -r; dx <= r; ++dx) {
      const int x = view.x + static_cast<int>(p.x()) + dx,
                y = view.y + static_cast<int>(p.y()) + dy;
      if (x < 0 || y < 0 || x >= a.width || y >= a.height) continue;
      sum += ColorDifference(MeanColor(a, x, y, 0), MeanColor(b, x, y, 0));
      ++count;
    }
  }
  return count > 0 ? sum / count : 0;
}

TEST(StudioPaintTest, ScriptedStrokeChangesTheFieldItsPictureAndTheBoxsCourse) {
  if (!HaveXvfb()) SIM_SKIP_OR_FAIL_IN_CI("Xvfb is not installed");
  const fs::path scratch = ScratchDir();
  const fs::path scene_path = scratch / "paint.json";
  const fs::path unpainted_path = scratch / "unpainted.json";
  std::ofstream(scene_path) << kScene;
  std::ofstream(unpainted_path) << kScene;
  Expected<io::Scene> scene = io::LoadScene(scene_path.string());
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  const OrbitCamera camera(scene->model->camera, scene->model->options.up);

  // before: the structure view, paused after the first frame
  const std::string common = " --view structure --pause-after 1 --size 800x600";
  const fs::path before_png = scratch / "before.png";
  const RunResult before =
      RunCommand(XvfbRun("", Quote(scene_path.string()) + common + " --frames 20 --screenshot " +
                                 Quote(before_png.string()) + " --exit"),
                 scratch);
  ASSERT_EQ(before.exit_code, 0) << RunReport(before);
  render::Image before_image;
  Viewport view;
  ASSERT_TRUE(ReadScreenshot(before_png, &before_image, &view));

  // the stroke: from (−1.4, 0.35) to (1.8, 0) on the ground, "set angle" 0° (the grain along
  // x), radius 0.6 m: the strip covers the box's start and path, and y = ±1 stays clear. It
  // passes beside the box, whose own surface has no field: paused after the first frame
  // (0.2–0.25 s) the box has slid to x ≈ −0.9, where a stroke starting on its path hit the box
  // in about half of the runs and never began
  const auto from = camera.ProjectToPixel(Vec3(-1.4, 0.35, 0), view.width, view.height);
  const auto to = camera.ProjectToPixel(Vec3(1.8, 0, 0), view.width, view.height);
  ASSERT_TRUE(from && to);
  std::ostringstream stroke;
  stroke << from->x() << "," << from->y() << "," << to->x() << "," << to->y();
  const fs::path after_png = scratch / "after.png";
  const RunResult painted = RunCommand(
      XvfbRun("", Quote(scene_path.string()) + common + " --frames 40 --paint " + stroke.str() +
                      " --paint-tool 'set angle' --paint-angle 0 --paint-radius 0.6 --save-paint"
                      " --screenshot " +
                      Quote(after_png.string()) + " --exit"),
      scratch);
  ASSERT_EQ(painted.exit_code, 0) << RunReport(painted);

  // the scene now names the saved PNG; loading it gives the painted axis on the stroke (0°,
  // within the 8-bit bound of 0.16° and the bake's bilinear error, 1° allowed) and 45° where the
  // brush never reached (0.6 m radius: y = ±1 m is clear of it)
  const std::string text = ReadFile(scene_path);
  ASSERT_NE(text.find("\"image\""), std::string::npos) << text << RunReport(painted);
  Expected<io::Scene> saved = io::LoadScene(scene_path.string());
  ASSERT_TRUE(saved.ok()) << saved.diagnostics().Format();
  const StructureField* field = ShapeStructureField(*saved->model, 0);
  ASSERT_NE(field, nullptr);
  EXPECT_EQ(field->kind, StructureFieldKind::kImage);
  const auto axis_deg = [&](Real x, Real y) {
    const StructureSample s = field->Sample(Vec2(x, y));
    return std::atan2(s.direction.y(), s.direction.x()) * 180 / kPi;
  };
  for (const Real x : {-0.5, 0.0, 0.5}) {
    EXPECT_NEAR(std::remainder(axis_deg(x, 0), 180.0), 0, 1.0) << "painted at x = " << x;
  }
  for (const Real y : {-1.0, 1.0}) {
    EXPECT_NEAR(axis_deg(0, y), 45, 1.0) << "unpainted at y = " << y;
  }

  // the picture: the dashes along the stroke turned (the view differs there, by more than the
  // rendering noise far from it, where nothing changed)
  render::Image after_image;
  Viewport after_view;
  ASSERT_TRUE(ReadScreenshot(after_png, &after_image, &after_view));
  const auto middle = camera.ProjectToPixel(Vec3(0.2, 0, 0), view.width, view.height);
  // (below the stroke on the screen: the overlay's changing numbers sit above it)
  const auto aside = camera.ProjectToPixel(Vec3(0.2, -1.4, 0), view.width, view.height);
  ASSERT_TRUE(middle && aside);
  const double changed = RegionDifference(before_image, after_image, view, *middle, 20);
  const double unchanged = RegionDifference(before_image, after_image, view, *aside, 20);
  std::cout << "structure view difference: on the stroke " << changed << ", beside it " << unchanged
            << std::endl;
  EXPECT_GT(changed, 4 * unchanged + 2) << RunReport(painted);

  // the course: on the 45° grain friction pushes the box sideways (the oracle's force
  // −λ_n A⁻¹v/√(vᵀA⁻¹v) leans toward −t = −(1, 1)/√2 for μ_t > μ_b, so y falls); on the painted
  // strip the grain lies along the motion, no sideways force, so it drifts far less
  const double y_unpainted = FinalBoxY(unpainted_path, 1.5, scratch);
  const double y_painted = FinalBoxY(scene_path, 1.5, scratch);
  std::cout << "box final y: unpainted " << y_unpainted << " m, painted " << y_painted << " m"
            << std::endl;
  EXPECT_LT(y_unpainted, -0.05);
  EXPECT_LT(std::abs(y_painted), 0.5 * std::abs(y_unpainted));
  if (!HasFailure()) fs::remove_all(scratch);
}

}  // namespace
}  // namespace sim
