// Coulomb friction at its threshold, at every solver's default settings (issue 20 class 1): a box
// (four corner contacts) and a particle (one contact) on slopes of 15°, 25° and 35°, masses 0.1,
// 1 and 10 kg, μ from tan θ − 0.05 to tan θ + 0.02. Below the threshold the body must slide the
// backward-Euler distance a Δt² N(N+1)/2 with a = g(sin θ − μ cos θ) within 2 %; above it, move
// less than 1 mm in 2 s (the bounds; 0.005 either side of tan θ is the closest case).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>
#include <sstream>
#include <string>

#include "engine/model/model.h"
#include "engine/step/pipeline.h"
#include "tests/support/model_builder.h"
#include "tests/support/solver_accuracy.h"
#include "tests/support/solver_cases.h"
#include "tests/support/start_simulation.h"

namespace sim {
namespace {

using test_support::AddBody;
using test_support::AddParticle;
using test_support::AddWorldShape;
using test_support::Box;
using test_support::MakeEmptyModel;
using test_support::Plane;
using test_support::SolversWith;

constexpr Real kPi = std::numbers::pi;
constexpr Real kGravity = 9.81;

struct ThresholdCase {
  Real theta_deg = 0;
  Real mass = 0;
  Real mu_offset = 0;  // μ − tan θ
  bool box = true;     // four corners, else a particle of radius 0.05 m
};

struct ThresholdOutcome {
  Real moved = 0;     // along the downslope direction after 2 s [m]
  Real expected = 0;  // backward-Euler distance, 0 when it must stick [m]
  bool ok = false;
};

ThresholdOutcome RunThresholdCase(const std::string& solver, const ThresholdCase& c) {
  const Real theta = c.theta_deg * kPi / 180;
  const Real mu = std::tan(theta) + c.mu_offset;
  Model model = MakeEmptyModel(mu);
  State state;
  const Quat tilt(Eigen::AngleAxisd(theta, Vec3::UnitX()));
  AddWorldShape(&model, Plane(), Pose{Vec3::Zero(), tilt});
  const Vec3 normal = tilt * Vec3::UnitZ();
  if (c.box) {
    AddBody(&model, &state, "box", Box(Vec3::Constant(0.1)), c.mass, Pose{0.1 * normal, tilt});
  } else {
    AddParticle(&model, &state, "particle", c.mass, 0.05, 0.05 * normal);
  }
  const Vec3 g = model.options.gravity;
  const Vec3 downslope = (g - g.dot(normal) * normal).normalized();
  const Real dt = model.options.solver.dt;
  auto sim = test_support::StartSimulation(std::move(model), state, solver);
  ThresholdOutcome outcome;
  if (!sim) return outcome;
  const auto position = [&] {
    return c.box ? sim->state().body_X_WB[0].p : sim->state().particle_x_W[0];
  };
  const Vec3 start = position();
  const int steps = static_cast<int>(std::lround(2.0 / dt));
  for (int s = 0; s < steps; ++s) sim->Step();
  outcome.moved = (position() - start).dot(downslope);
  const Real a = kGravity * (std::sin(theta) - mu * std::cos(theta));
  if (a > 0) {
    outcome.expected = a * dt * dt * steps * (steps + 1) / 2;
    outcome.ok = std::abs(outcome.moved - outcome.expected) <= 0.02 * outcome.expected;
  } else {
    outcome.ok = std::abs(outcome.moved) < 1e-3;
  }
  return outcome;
}

class FrictionThreshold : public ::testing::TestWithParam<std::string> {};

TEST_P(FrictionThreshold, SlidesOrSticksOnEitherSideOfTanTheta) {
  // a solver whose method cannot meet the bounds (tests/support/solver_accuracy.h) may not get
  // worse than its measured count; its cases are reported, not failed
  const int allowed = test_support::AccuracyOf(GetParam()).threshold_failures;
  int cases = 0, failures = 0;
  for (const bool box : {true, false}) {
    for (const Real theta : {15.0, 25.0, 35.0}) {
      for (const Real mass : {0.1, 1.0, 10.0}) {
        for (const Real offset : {-0.05, -0.02, -0.01, -0.005, 0.005, 0.01, 0.02}) {
          const ThresholdCase c{theta, mass, offset, box};
          const ThresholdOutcome o = RunThresholdCase(GetParam(), c);
          ++cases;
          if (o.ok) continue;
          ++failures;
          std::ostringstream text;
          text << (box ? "box" : "particle") << " θ = " << theta << "°, m = " << mass
               << " kg, μ = tan θ " << (offset > 0 ? "+ " : "− ") << std::abs(offset) << ": moved "
               << o.moved << " m, expected " << o.expected << " m";
          if (allowed == 0) {
            ADD_FAILURE() << text.str();
          } else {
            std::printf("%s\n", text.str().c_str());
          }
        }
      }
    }
  }
  std::printf("%s: %d of %d threshold cases wrong\n", GetParam().c_str(), failures, cases);
  EXPECT_LE(failures, allowed);
}

INSTANTIATE_TEST_SUITE_P(ContactSolvers, FrictionThreshold,
                         ::testing::ValuesIn(SolversWith(kFeatureContacts | kFeatureParticles)),
                         test_support::SolverParamName{});

}  // namespace
}  // namespace sim
