// The inspector as a user reaches it (contact-studio under Xvfb with lavapipe): a click on a
// contact point in the contacts view of fetch_tomato shows that contact's numbers, which must be
// the ones `contact-sim run --contacts` writes for the same step (the studio steps the same solver
// from the same state); a click on the incline's sliding box shows its mass, pose and velocity,
// equal to `run --trajectory`'s, and its net contact force, m·g·cos θ·√(1 + μ²) for a box sliding
// on a slope of angle θ with friction coefficient μ.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "render/png_io.h"
#include "tests/gui/studio_run.h"
#include "tests/support/run_command.h"

namespace sim {
namespace {

using namespace studio_test;  // NOLINT: the helpers of these tests

const std::string kSim = std::string(SIM_BINARY_DIR) + "/bin/contact-sim";
const std::string kTomato = std::string(SIM_SOURCE_DIR) + "/scenes/fetch_tomato.json";
const std::string kIncline = std::string(SIM_SOURCE_DIR) + "/scenes/validation/incline.json";

// fetch_tomato's step whose contacts are inspected: the fingers squeeze the tomato (they reach it
// at step 255 and press from 327 on; at 380 four finger contacts carry up to 4.4 N)
constexpr int kTomatoStep = 380;
// the incline's step whose box is inspected: 0.5 s into the slide
constexpr int kInclineStep = 60;

std::vector<std::string> SplitCsv(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream in(line);
  std::string field;
  while (std::getline(in, field, ',')) fields.push_back(field);
  return fields;
}

// the rows of a CSV file as header name → value maps, those whose `step` column is `step`
std::vector<std::map<std::string, std::string>> RowsAtStep(const fs::path& csv, int step) {
  std::ifstream in(csv);
  std::string line;
  std::vector<std::map<std::string, std::string>> rows;
  if (!std::getline(in, line)) return rows;
  const std::vector<std::string> header = SplitCsv(line);
  while (std::getline(in, line)) {
    const std::vector<std::string> fields = SplitCsv(line);
    if (fields.size() != header.size()) continue;
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < header.size(); ++i) row[header[i]] = fields[i];
    if (row.count("step") == 0 || std::stoi(row["step"]) == step) rows.push_back(row);
  }
  return rows;
}

double Number(const std::map<std::string, std::string>& row, const std::string& key) {
  const auto found = row.find(key);
  return found == row.end() ? std::numeric_limits<double>::quiet_NaN() : std::stod(found->second);
}

// the value of the summary line "inspector: SECTION: FIGURE = VALUE"
std::optional<std::string> Inspected(const std::string& out, const std::string& section,
                                     const std::string& figure) {
  const std::string key = "inspector: " + section + ": " + figure + " = ";
  const std::size_t at = out.find(key);
  if (at == std::string::npos) return std::nullopt;
  const std::size_t begin = at + key.size();
  return out.substr(begin, out.find('\n', begin) - begin);
}

// the numbers at the start of a value such as "0.1 0.2 0.3 m"
std::vector<double> Numbers(const std::optional<std::string>& value) {
  std::vector<double> numbers;
  if (!value) return numbers;
  std::stringstream in(*value);
  double x = 0;
  while (in >> x) numbers.push_back(x);
  return numbers;
}

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}


TEST(StudioInspectorTest, ClickingATomatoContactShowsTheRunsContactDump) {
  if (!HaveXvfb()) SIM_SKIP_OR_FAIL_IN_CI("Xvfb is not installed");
  const fs::path scratch = ScratchDir();
  // the CLI's contacts at the step: the tomato against a finger, the one farthest from the others
  // (so no other contact point lies under the click)
  const fs::path dump = scratch / "contacts.csv";
  const RunResult cli =
      RunCommand(Quote(kSim) + " run " + Quote(kTomato) + " --steps " +
                     std::to_string(kTomatoStep) + " --contacts " + Quote(dump.string()),
                 scratch);
  ASSERT_EQ(cli.exit_code, 0) << RunReport(cli);
  const auto rows = RowsAtStep(dump, kTomatoStep);
  ASSERT_FALSE(rows.empty()) << "no contacts at step " << kTomatoStep;
  const auto point = [](const std::map<std::string, std::string>& row) {
    return std::array<double, 3>{Number(row, "x"), Number(row, "y"), Number(row, "z")};
  };
  int chosen = -1;
  double chosen_spacing = 0;
  for (int i = 0; i < static_cast<int>(rows.size()); ++i) {
    const std::string pair = Lower(rows[i].at("a") + " " + rows[i].at("b"));
    if (pair.find("tomato") == std::string::npos || pair.find("finger") == std::string::npos ||
        !(Number(rows[i], "normal_force") > 0)) {
      continue;
    }
    double spacing = std::numeric_limits<double>::infinity();
    for (int j = 0; j < static_cast<int>(rows.size()); ++j) {
      if (j == i) continue;
      const auto p = point(rows[i]), q = point(rows[j]);
      spacing = std::min(spacing, std::hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]));
    }
    if (spacing > chosen_spacing) {
      chosen = i;
      chosen_spacing = spacing;
    }
  }
  ASSERT_GE(chosen, 0) << "no tomato-finger contact at step " << kTomatoStep << ":\n"
                       << ReadFile(dump).substr(0, 2000);
  const auto& row = rows[chosen];
  const auto p = point(row);
  std::cout << "inspecting " << row.at("a") << " - " << row.at("b") << " at " << p[0] << " " << p[1]
            << " " << p[2] << " (" << chosen_spacing * 1e3 << " mm from the next)" << std::endl;

  // the studio: the same steps, the contacts view, a click where that contact is drawn (the
  // inspector open from the start, so the click's pixel is where the ring is drawn)
  const fs::path shot = scratch / "inspector.png";
  std::ostringstream click;
  click.precision(10);
  click << p[0] << "," << p[1] << "," << p[2];
  const RunResult run =
      RunCommand(XvfbRun("", Quote(kTomato) + " --view contacts --steps " +
                                 std::to_string(kTomatoStep) + " --click-world " + click.str() +
                                 " --panels inspector --frames 40 --screenshot " +
                                 Quote(shot.string()) + " --exit"),
                 scratch);
  ASSERT_EQ(run.exit_code, 0) << RunReport(run);
  ASSERT_NE(run.out.find("inspector: contact: "), std::string::npos) << RunReport(run);
  EXPECT_EQ(Inspected(run.out, "contact", "step"), std::to_string(kTomatoStep)) << RunReport(run);
  EXPECT_EQ(Inspected(run.out, "contact", "A"), row.at("a")) << RunReport(run);
  EXPECT_EQ(Inspected(run.out, "contact", "B"), row.at("b")) << RunReport(run);
  // the panel prints 6 significant digits of single-precision values: 1e-5 relative, and the
  // friction's t and b components are projections of the float vector (1e-5 of |λ_n| absolute)
  const std::vector<double> shown_point = Numbers(Inspected(run.out, "contact", "point"));
  ASSERT_EQ(shown_point.size(), 3u) << RunReport(run);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(shown_point[i], p[i], 1e-5) << "point " << i;
  const double normal_force = Number(row, "normal_force");
  const std::vector<double> shown_normal = Numbers(Inspected(run.out, "contact", "normal force"));
  ASSERT_EQ(shown_normal.size(), 1u) << RunReport(run);
  EXPECT_NEAR(shown_normal[0], normal_force, 1e-5 * normal_force + 1e-9);
  const std::vector<double> shown_gap = Numbers(Inspected(run.out, "contact", "gap"));
  ASSERT_EQ(shown_gap.size(), 1u) << RunReport(run);
  EXPECT_NEAR(shown_gap[0], Number(row, "gap"), 1e-5 * std::abs(Number(row, "gap")) + 1e-9);
  const std::vector<double> shown_friction =
      Numbers(Inspected(run.out, "contact", "friction t, b"));
  ASSERT_EQ(shown_friction.size(), 2u) << RunReport(run);
  EXPECT_NEAR(shown_friction[0], Number(row, "friction_t"), 1e-5 * normal_force + 1e-9);
  EXPECT_NEAR(shown_friction[1], Number(row, "friction_b"), 1e-5 * normal_force + 1e-9);
  const std::vector<double> shown_mu = Numbers(Inspected(run.out, "contact", "mu t, b"));
  ASSERT_EQ(shown_mu.size(), 2u) << RunReport(run);
  EXPECT_NEAR(shown_mu[0], Number(row, "mu_t"), 1e-5);
  EXPECT_NEAR(shown_mu[1], Number(row, "mu_b"), 1e-5);
  // stick or slip as the cone says: |λ_f| at μ·λ_n within 2 % is slip (kSlidingTolerance)
  const double cone = std::hypot(Number(row, "friction_t") / Number(row, "mu_t"),
                                 Number(row, "friction_b") / Number(row, "mu_b"));
  EXPECT_EQ(Inspected(run.out, "contact", "state"), cone >= 0.98 * normal_force ? "slip" : "stick");

  // the screenshot: the inspector panel beside the viewport, the yellow ring at the click
  render::Image image;
  Viewport view;
  ASSERT_TRUE(ReadScreenshot(shot, &image, &view));
  EXPECT_LT(view.width, image.width - 150) << "the inspector panel takes no room";
  const std::optional<double> click_x = NumberAfter(run.out, "click at ");
  ASSERT_TRUE(click_x) << RunReport(run);
  const std::size_t at = run.out.find("click at ");
  std::stringstream click_line(run.out.substr(at + 9));
  int x = 0, y = 0;
  click_line >> x >> y;
  int ring = 0;
  for (int k = 0; k < 64; ++k) {
    const double angle = 2 * 3.14159265358979 * k / 64;
    const int px = view.x + x + static_cast<int>(std::lround(10 * std::cos(angle)));
    const int py = view.y + y + static_cast<int>(std::lround(10 * std::sin(angle)));
    if (px < 0 || py < 0 || px >= image.width || py >= image.height) continue;
    const std::uint8_t* c = &image.rgba[4 * (static_cast<std::size_t>(py) * image.width + px)];
    ring += c[0] > 200 && c[1] > 160 && c[2] < 90;
  }
  EXPECT_GE(ring, 24) << "the inspected contact's yellow ring is not drawn around (" << x << ", "
                      << y << ")";
  fs::remove_all(scratch);
}


TEST(StudioInspectorTest, ClickingTheSlidingBoxShowsItsMassPoseVelocityAndContactForce) {
  if (!HaveXvfb()) SIM_SKIP_OR_FAIL_IN_CI("Xvfb is not installed");
  const fs::path scratch = ScratchDir();
  const fs::path trajectory = scratch / "trajectory.csv";
  const RunResult cli =
      RunCommand(Quote(kSim) + " run " + Quote(kIncline) + " --steps " +
                     std::to_string(kInclineStep) + " --trajectory " + Quote(trajectory.string()),
                 scratch);
  ASSERT_EQ(cli.exit_code, 0) << RunReport(cli);
  // the trajectory's rows have no step column (RowsAtStep keeps them all): the box's last row
  // is the final state
  std::map<std::string, std::string> box;
  for (const auto& row : RowsAtStep(trajectory, kInclineStep)) {
    if (row.at("body") == "box") box = row;
  }
  ASSERT_FALSE(box.empty()) << ReadFile(trajectory).substr(0, 1000);

  std::ostringstream click;
  click.precision(10);
  click << Number(box, "x") << "," << Number(box, "y") << "," << Number(box, "z");
  const RunResult run = RunCommand(
      XvfbRun("", Quote(kIncline) + " --steps " + std::to_string(kInclineStep) + " --click-world " +
                      click.str() + " --panels inspector --frames 40 --exit"),
      scratch);
  ASSERT_EQ(run.exit_code, 0) << RunReport(run);
  EXPECT_EQ(Inspected(run.out, "body", "name"), "box") << RunReport(run);
  EXPECT_EQ(Inspected(run.out, "body", "mass"), "1 kg") << RunReport(run);
  // a 0.2 m cube of 1 kg: I = m a² / 6 about each axis
  const std::vector<double> inertia =
      Numbers(Inspected(run.out, "body", "inertia (principal, about COM)"));
  ASSERT_EQ(inertia.size(), 3u) << RunReport(run);
  for (double moment : inertia) EXPECT_NEAR(moment, 0.04 / 6, 1e-6);
  // pose and velocity: the CLI's state after the same steps (6 printed digits of floats)
  const std::vector<double> position = Numbers(Inspected(run.out, "body", "position (COM)"));
  const std::vector<double> velocity = Numbers(Inspected(run.out, "body", "velocity"));
  ASSERT_EQ(position.size(), 3u) << RunReport(run);
  ASSERT_EQ(velocity.size(), 3u) << RunReport(run);
  const char* axes[] = {"x", "y", "z"};
  const char* speeds[] = {"vx", "vy", "vz"};
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(position[i], Number(box, axes[i]), 1e-5) << axes[i];
    EXPECT_NEAR(velocity[i], Number(box, speeds[i]), 1e-5) << speeds[i];
  }
  // sliding at 0.5 s: the slope's normal force m g cos θ and the friction μ m g cos θ, so the net
  // contact force is m g cos θ √(1 + μ²) = 8.870 N (θ = 30°, μ = 0.3); 1 % for the solver's
  // residual at its default iterations
  const std::vector<double> net = Numbers(Inspected(run.out, "body", "net contact force"));
  ASSERT_EQ(net.size(), 3u) << RunReport(run);
  const double expected = 9.81 * std::cos(3.14159265358979 / 6) * std::sqrt(1 + 0.3 * 0.3);
  EXPECT_NEAR(std::hypot(net[0], net[1], net[2]), expected, 0.01 * expected) << RunReport(run);
  EXPECT_NE(Inspected(run.out, "body", "contacts")->find("sliding"), std::string::npos);
  fs::remove_all(scratch);
}

}  // namespace
}  // namespace sim
