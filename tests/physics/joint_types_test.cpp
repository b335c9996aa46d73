// The joint rows added for URDF: planar joints, mimic couplings and joint friction, with viscous
// joint damping. Their residual Jacobians against central differences, and closed-form motions
// of the backward-Euler step (seed 002 eq. (82): v⁺ = v + Δt·a, x⁺ = x + Δt·v⁺), which the
// converged Newton solve reproduces to solver tolerance.
#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "engine/dynamics/constraint_rows.h"
#include "engine/model/model.h"
#include "engine/solvers/nsn/nsn_settings.h"
#include "engine/state/state.h"
#include "engine/step/pipeline.h"
#include "tests/support/jacobian_check.h"
#include "tests/support/model_builder.h"

namespace sim {
namespace {

constexpr Real kDt = 1.0 / 120;

// a model whose Newton solve converges to round-off in a step: frictional and coupled rows are
// compared with closed forms, not with the interactive 6-iteration budget
Model ConvergedModel(const Vec3& gravity) {
  Model model = test_support::MakeEmptyModel();
  model.options.gravity = gravity;
  model.options.solver.Set("newton_iterations", 30);
  model.options.solver.Set("linear_iterations", 100);
  model.options.solver.Set("linear_solver", LinearSolverKind::kDirect);
  model.options.solver.Set("damping", 1);
  model.options.solver.Set("regularization", 0);
  return model;
}

std::unique_ptr<Simulation> Simulate(const Model& model, const State& state) {
  auto simulation = Simulation::Create(std::make_shared<const Model>(model), state, "nsn");
  EXPECT_TRUE(simulation.ok()) << simulation.diagnostics().Format();
  return simulation.ok() ? std::move(simulation.value()) : nullptr;
}

Real Coordinate(const Model& model, const State& state, int j) {
  const Pose X_WP =
      model.joint_parent[j] == kWorldBody ? Pose{} : state.body_X_WB[model.joint_parent[j]];
  return JointCoordinate(model, j, X_WP, state.body_X_WB[model.joint_child[j]]);
}


// Planar, mimic (shared parent, revolute-revolute and prismatic-revolute) and friction rows: the
// assembled J is ∂h/∂u and C·Δt is ∂h/∂λ (eq. (77)); friction rows are skipped like contact
// friction (their W is a lagged fixed point).
TEST(JointTypesTest, PlanarAndCouplingRowsMatchCentralDifferences) {
  Model model = test_support::MakeEmptyModel();
  State state;
  const auto box = test_support::Box(Vec3(0.1, 0.15, 0.2));
  const Quat tilt(Eigen::AngleAxisd(0.3, Vec3(1, 2, 3).normalized()));
  for (int b = 0; b < 5; ++b) {
    test_support::AddBody(&model, &state, "b" + std::to_string(b), box, 1 + b,
                          Pose{Vec3(0.5 * b, 0.1 * b, 1.0), tilt});
  }
  const Vec3 axis = Vec3(0.2, 1, 0.1).normalized();
  test_support::AddJoint(&model, state, JointType::kPlanar, kWorldBody, 0, Vec3(0, 0, 1.1), axis);
  const int a = test_support::AddJoint(&model, state, JointType::kRevolute, 0, 1, Vec3(0.3, 0, 1),
                                       Vec3(0, 0, 1));
  const int b =
      test_support::AddJoint(&model, state, JointType::kRevolute, 0, 2, Vec3(0.8, 0.2, 1), axis);
  const int c = test_support::AddJoint(&model, state, JointType::kPrismatic, 2, 3,
                                       Vec3(1.2, 0.2, 1), Vec3(1, 0, 0));
  test_support::AddJoint(&model, state, JointType::kPlanar, 3, 4, Vec3(1.8, 0.4, 1), axis);
  model.joint_couplings.push_back({.follower = b, .leader = a, .multiplier = -0.7, .offset = 0.1});
  model.joint_couplings.push_back({.follower = c, .leader = b, .multiplier = 0.05, .offset = 0});
  model.joint_friction.assign(model.joint_count(), 0);
  model.joint_friction[a] = 0.3;
  const int checked = test_support::CheckResidualJacobians(model, state, Contacts{});
  // 3 + 5 + 5 + 5 + 3 locked rows and 2 couplings (the friction row is skipped)
  EXPECT_EQ(checked, 23);
}


// A puck on a planar joint (normal z) under gravity tilted into the plane, pushed across it and
// spun about the normal, and kicked out of it: the joint removes the motion along and about the
// other axes at the first step; in the plane the body moves as a free one, x_n = x_0 + Δt Σ v_k
// with v_k = v_0 + k Δt a (backward Euler), and it turns at its initial rate about z.
TEST(JointTypesTest, PlanarJointLeavesInPlaneMotionFree) {
  const Vec3 gravity(1.0, 0, -9.81);
  Model model = ConvergedModel(gravity);
  State state;
  const Vec3 start(0.2, 0.1, 0.5);
  test_support::AddBody(&model, &state, "puck", test_support::Box(Vec3(0.1, 0.1, 0.02)), 2,
                        Pose{start, Quat::Identity()}, Vec3(0.3, -0.2, 0.4), Vec3(0.5, -0.3, 2));
  test_support::AddJoint(&model, state, JointType::kPlanar, kWorldBody, 0, start, Vec3::UnitZ());
  auto simulation = Simulate(model, state);
  ASSERT_TRUE(simulation);
  const int steps = 120;
  for (int n = 0; n < steps; ++n) ASSERT_EQ(simulation->Step().status & kStepNonFinite, 0u);
  const State& s = simulation->state();
  const Real t = steps * kDt;
  // Σ_{k=1..n} v_k = n v_0 + a Δt n(n+1)/2
  const Real sum_steps = steps * (steps + 1) / 2.0;
  const Vec3 expected(start.x() + 0.3 * t + gravity.x() * kDt * kDt * sum_steps,
                      start.y() - 0.2 * t, start.z());
  // 1e-9 m: the locked rows are solved to round-off by the direct solver in 30 iterations
  EXPECT_LT((s.body_X_WB[0].p - expected).norm(), 1e-9) << s.body_X_WB[0].p.transpose();
  EXPECT_NEAR(s.body_w_W[0].z(), 2, 1e-9);
  EXPECT_LT(s.body_w_W[0].head<2>().norm(), 1e-9);
  // the normal stays vertical; the yaw is the integrated rate: each step's quaternion update
  // q + (Δt/2) ω q, renormalized, turns by 2 atan(ω Δt/2) (2 rad/s for 1 s, short of 2π)
  EXPECT_LT((s.body_X_WB[0].q * Vec3::UnitZ() - Vec3::UnitZ()).norm(), 1e-9);
  const Vec3 x_axis = s.body_X_WB[0].q * Vec3::UnitX();
  EXPECT_NEAR(std::atan2(x_axis.y(), x_axis.x()), steps * 2 * std::atan(2 * kDt / 2), 1e-9);
}


// A leader hinge driven to 0.6 rad and a follower hinge on the same base coupled by
// θ_f = −0.5 θ_l + 0.1: the follower tracks at every step (the coupling row is rigid).
TEST(JointTypesTest, MimicFollowerTracksItsLeader) {
  Model model = ConvergedModel(Vec3(0, 0, -9.81));
  State state;
  const auto link = test_support::Box(Vec3(0.02, 0.02, 0.1));
  test_support::AddBody(&model, &state, "leader", link, 0.2,
                        Pose{Vec3(0, 0, 0.9), Quat::Identity()});
  test_support::AddBody(&model, &state, "follower", link, 0.1,
                        Pose{Vec3(0.3, 0, 0.9), Quat::Identity()});
  const int leader = test_support::AddJoint(&model, state, JointType::kRevolute, kWorldBody, 0,
                                            Vec3(0, 0, 1), Vec3::UnitY());
  const int follower = test_support::AddJoint(&model, state, JointType::kRevolute, kWorldBody, 1,
                                              Vec3(0.3, 0, 1), Vec3::UnitY());
  model.joint_drive[leader] = {50, 2, 0.6, 0};
  model.joint_couplings.push_back(
      {.follower = follower, .leader = leader, .multiplier = -0.5, .offset = 0.1});
  // the follower starts consistent with the coupling (θ_l = 0 → θ_f = 0.1)
  const Quat turn(Eigen::AngleAxisd(0.1, Vec3::UnitY()));
  state.body_X_WB[1] = Pose{Vec3(0.3, 0, 1) + turn * Vec3(0, 0, -0.1), turn};
  auto simulation = Simulate(model, state);
  ASSERT_TRUE(simulation);
  Real worst = 0;
  for (int n = 0; n < 240; ++n) {
    ASSERT_EQ(simulation->Step().status & kStepNonFinite, 0u);
    const State& s = simulation->state();
    worst = std::max(worst, std::abs(Coordinate(model, s, follower) -
                                     (-0.5 * Coordinate(model, s, leader) + 0.1)));
  }
  // 1e-8 rad: a rigid row solved to round-off (the drive pulls the leader ~0.6 rad meanwhile)
  EXPECT_LT(worst, 1e-8);
  EXPECT_GT(Coordinate(model, simulation->state(), leader), 0.3);
}


// Coulomb joint friction F on a horizontal slider started at v0 = 1 m/s: it decelerates at F/m
// and stops; backward Euler gives v_k = v0 − k Δt F/m until 0, so it stops after
// N = v0 m/(F Δt) = 60 steps (F = 4 N, m = 2 kg) having travelled Δt Σ_{k=1..N} v_k
// = Δt (N v0 − (F/m) Δt N(N+1)/2) = 0.2458333 m, and then sticks.
TEST(JointTypesTest, JointFrictionStopsASliderAtTheCoulombDistance) {
  Model model = ConvergedModel(Vec3(0, 0, -9.81));
  State state;
  test_support::AddBody(&model, &state, "slider", test_support::Box(Vec3(0.05, 0.05, 0.05)), 2,
                        Pose{Vec3(0, 0, 1), Quat::Identity()}, Vec3(1, 0, 0));
  const int j = test_support::AddJoint(&model, state, JointType::kPrismatic, kWorldBody, 0,
                                       Vec3(0, 0, 1), Vec3::UnitX());
  model.joint_friction.assign(1, 4.0);
  auto simulation = Simulate(model, state);
  ASSERT_TRUE(simulation);
  for (int n = 0; n < 120; ++n) ASSERT_EQ(simulation->Step().status & kStepNonFinite, 0u);
  const Real expected = kDt * (60 * 1.0 - 2.0 * kDt * 60 * 61 / 2);
  // 1e-9 m: the friction fixed point converges to round-off with the direct solver
  EXPECT_NEAR(Coordinate(model, simulation->state(), j), expected, 1e-9);
  EXPECT_NEAR(simulation->state().body_v_W[0].x(), 0, 1e-9);
}


// A vertical slider of 1 kg under gravity: friction above its weight (12 N > 9.81 N) holds it;
// below (5 N) it slides down at a = g − F/m, x_n = −a Δt² n(n+1)/2.
TEST(JointTypesTest, JointFrictionHoldsOrSlipsUnderGravity) {
  for (const Real limit : {12.0, 5.0}) {
    Model model = ConvergedModel(Vec3(0, 0, -9.81));
    State state;
    test_support::AddBody(&model, &state, "slider", test_support::Box(Vec3(0.05, 0.05, 0.05)), 1,
                          Pose{Vec3(0, 0, 1), Quat::Identity()});
    const int j = test_support::AddJoint(&model, state, JointType::kPrismatic, kWorldBody, 0,
                                         Vec3(0, 0, 1), Vec3::UnitZ());
    model.joint_friction.assign(1, limit);
    auto simulation = Simulate(model, state);
    ASSERT_TRUE(simulation);
    const int steps = 60;
    for (int n = 0; n < steps; ++n) ASSERT_EQ(simulation->Step().status & kStepNonFinite, 0u);
    const Real a = std::max<Real>(0, 9.81 - limit);
    const Real expected = -a * kDt * kDt * steps * (steps + 1) / 2;
    EXPECT_NEAR(Coordinate(model, simulation->state(), j), expected, 1e-9) << "F = " << limit;
  }
}


// Viscous joint damping without stiffness (URDF <dynamics damping> on a joint without a hold
// drive): a free spinner about a continuous joint decays as I ω̇ = −d ω, which backward Euler
// makes ω_n = ω_0 / (1 + d Δt / I)^n.
TEST(JointTypesTest, DampingOnlyDriveDecaysTheRate) {
  Model model = ConvergedModel(Vec3::Zero());
  State state;
  const auto disk = test_support::Box(Vec3(0.1, 0.1, 0.01));
  test_support::AddBody(&model, &state, "spinner", disk, 1, Pose{Vec3(0, 0, 1), Quat::Identity()},
                        Vec3::Zero(), Vec3(0, 0, 3));
  const int j = test_support::AddJoint(&model, state, JointType::kContinuous, kWorldBody, 0,
                                       Vec3(0, 0, 1), Vec3::UnitZ());
  model.joint_drive[j].damping = 0.005;  // N·m·s/rad
  const Real inertia = model.body_inertia[0](2, 2);
  auto simulation = Simulate(model, state);
  ASSERT_TRUE(simulation);
  const int steps = 120;
  for (int n = 0; n < steps; ++n) ASSERT_EQ(simulation->Step().status & kStepNonFinite, 0u);
  const Real expected = 3 / std::pow(1 + 0.005 * kDt / inertia, steps);
  EXPECT_NEAR(simulation->state().body_w_W[0].z(), expected, 1e-9 * 3);
  EXPECT_LT(expected, 2.0);  // the decay is substantial, not a rounding effect
}

}  // namespace
}  // namespace sim
