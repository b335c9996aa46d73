// Speculative contacts from swept bounds (collision.h): a fast body meets a contact before it can
// pass through a thin one within one step.
#include <string>

#include <gtest/gtest.h>

#include "engine/model/model.h"
#include "engine/step/pipeline.h"
#include "tests/support/model_builder.h"

namespace sim {
namespace {

// issue 4: a small sphere thrown at 20 m/s at a thin box is stopped at dt = 1/120. It travels
// 0.167 m per step, 8× the 2 cm wall, so without the sweep it would pass through in one step.
TEST(SweptBounds, FastSphereDoesNotTunnelThroughAThinWall) {
  Model model = test_support::MakeEmptyModel(0.5);
  model.options.gravity = Vec3::Zero();
  State state;
  test_support::AddWorldShape(&model, test_support::Box(Vec3(0.01, 0.5, 0.5)),
                              Pose{Vec3(1, 0, 0), Quat::Identity()});
  ShapeGeometry ball;
  ball.type = ShapeType::kSphere;
  ball.radius = 0.02;
  test_support::AddBody(&model, &state, "ball", ball, 0.03, Pose{Vec3(0, 0, 0), Quat::Identity()},
                        Vec3(20, 0, 0));
  auto simulation =
      Simulation::Create(std::make_shared<const Model>(std::move(model)), state, "nsn");
  ASSERT_TRUE(simulation.ok());
  Simulation& sim = *simulation.value();
  const Real wall_face = 1 - 0.01;
  for (int s = 0; s < 60; ++s) {
    ASSERT_EQ(sim.Step().status & kStepNonFinite, 0u);
    // the sphere's front never passes the wall's near face by more than 1 mm
    EXPECT_LT(sim.state().body_X_WB[0].p.x() + 0.02, wall_face + 1e-3) << "step " << s;
  }
  // and it was stopped (an inelastic impact: no rebound faster than it came)
  EXPECT_LT(sim.state().body_v_W[0].x(), 1e-6);
}


// a speed no scene means (here a free sphere launched at 1.5 km/s, as a diverged solve leaves a
// body) is flagged kStepRunaway with a message; 20 m/s is not
TEST(StepStatus, BodiesFasterThanTheRunawaySpeedAreFlagged) {
  for (const Real speed : {20.0, 1.5 * kRunawaySpeed}) {
    Model model = test_support::MakeEmptyModel(0.5);
    model.options.gravity = Vec3::Zero();
    State state;
    ShapeGeometry ball;
    ball.type = ShapeType::kSphere;
    ball.radius = 0.02;
    test_support::AddBody(&model, &state, "ball", ball, 0.03, Pose{Vec3(0, 0, 1), Quat::Identity()},
                          Vec3(speed, 0, 0));
    auto simulation =
        Simulation::Create(std::make_shared<const Model>(std::move(model)), state, "nsn");
    ASSERT_TRUE(simulation.ok());
    const StepReport& report = simulation.value()->Step();
    EXPECT_EQ(report.status & kStepNonFinite, 0u);
    EXPECT_EQ((report.status & kStepRunaway) != 0, speed > kRunawaySpeed) << speed;
    if (speed > kRunawaySpeed) {
      EXPECT_NE(report.message.find("m/s: the solve diverged"), std::string::npos)
          << report.message;
      EXPECT_EQ(StepStatusString(report.status), "runaway");
    }
  }
}

}  // namespace
}  // namespace sim
