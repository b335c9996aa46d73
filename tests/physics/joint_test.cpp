// Articulated bodies with the NSN solver: revolute chains against the small-angle normal modes of
// a compound pendulum chain, joint drift, energy, and the residual Jacobians of every joint and
// contact row against central differences.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "engine/dynamics/constraint_rows.h"
#include "engine/model/model.h"
#include "engine/solvers/nsn/newton_system.h"
#include "engine/solvers/nsn/nsn_settings.h"
#include "engine/solvers/nsn/nsn_solver.h"
#include "engine/state/contacts.h"
#include "engine/state/control.h"
#include "engine/state/state.h"
#include "engine/step/pipeline.h"
#include "tests/support/jacobian_check.h"
#include "tests/support/model_builder.h"

namespace sim {
namespace {

constexpr Real kPi = std::numbers::pi;
constexpr Real kGravity = 9.81;

struct Chain {
  Model model;
  State state;
  Real link_length = 0.5;
  Real link_mass = 1;
  Real omega = 0;  // lowest small-angle angular frequency [rad/s]
};


// A planar chain of `links` slender boxes hanging from the world at z = 2.5 m by revolute joints
// about y, started in its lowest normal mode with a first-link amplitude of `amplitude` rad.
//
// Reference: linearized Lagrange equations M φ̈ + K φ = 0 for absolute link angles φ_i:
//   M_jk = Σ_i m a_ij a_ik + I_c δ_jk,  a_ij = ℓ (j < i), ℓ/2 (j = i), 0 (j > i)
//   K_jj = m g (ℓ/2 + ℓ·(number of links below j)),   ω² = eigenvalues of K v = ω² M v.
Chain MakeChain(int links, Real amplitude, LinearSolverKind solver) {
  Chain chain;
  Model& model = chain.model;
  model = test_support::MakeEmptyModel();
  model.options.gravity = Vec3(0, 0, -kGravity);
  model.options.solver.Set("linear_solver", solver);
  const Real l = chain.link_length;
  const Real m = chain.link_mass;
  const Vec3 half(0.02, 0.02, l / 2);
  const Real inertia_c = ShapeUnitInertia(test_support::Box(half), m)(1, 1);

  // normal modes of the linearized chain
  Eigen::MatrixXd a = Eigen::MatrixXd::Zero(links, links);
  for (int i = 0; i < links; ++i) {
    for (int j = 0; j < i; ++j) a(i, j) = l;
    a(i, i) = l / 2;
  }
  const Eigen::MatrixXd M =
      m * a.transpose() * a + inertia_c * Eigen::MatrixXd::Identity(links, links);
  Eigen::MatrixXd K = Eigen::MatrixXd::Zero(links, links);
  for (int j = 0; j < links; ++j) K(j, j) = m * kGravity * (l / 2 + l * (links - 1 - j));
  Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> modes(K, M);
  chain.omega = std::sqrt(modes.eigenvalues()(0));
  Eigen::VectorXd shape = modes.eigenvectors().col(0);
  shape *= amplitude / shape(0);

  // joints defined with the chain hanging straight down (joint coordinate 0 at rest) ...
  std::vector<Vec3> anchors;
  for (int i = 0; i < links; ++i) {
    anchors.push_back(Vec3(0, 0, 2.5 - i * l));
    test_support::AddBody(&model, &chain.state, "link" + std::to_string(i), test_support::Box(half),
                          m, Pose{anchors[i] - Vec3(0, 0, l / 2), Quat::Identity()});
  }
  for (int i = 0; i < links; ++i) {
    test_support::AddJoint(&model, chain.state, JointType::kRevolute, i == 0 ? kWorldBody : i - 1,
                           i, anchors[i], Vec3::UnitY());
  }
  // ... then the links posed along the mode shape
  Vec3 joint(0, 0, 2.5);
  for (int i = 0; i < links; ++i) {
    const Quat q(Eigen::AngleAxisd(shape(i), Vec3::UnitY()));
    const Vec3 down = q * Vec3(0, 0, -1);
    chain.state.body_X_WB[i] = Pose{joint + down * (l / 2), q};
    joint += down * l;
  }
  return chain;
}


// Period from the zero crossings of a sampled signal (linear interpolation between samples).
Real MeasurePeriod(const std::vector<Real>& signal, Real dt) {
  std::vector<Real> crossings;
  for (std::size_t k = 1; k < signal.size(); ++k) {
    if ((signal[k - 1] < 0) != (signal[k] < 0)) {
      const Real t = (k - 1 + signal[k - 1] / (signal[k - 1] - signal[k])) * dt;
      crossings.push_back(t);
    }
  }
  if (crossings.size() < 3) return 0;
  return 2 * (crossings.back() - crossings.front()) / (crossings.size() - 1);
}


class PendulumChain : public ::testing::TestWithParam<LinearSolverKind> {};

// Small-angle period within 1 % of the analytic lowest mode; joint error < 1e-4 m; the energy
// never rises above its initial value (backward Euler and the damped Newton only dissipate).
TEST_P(PendulumChain, PeriodJointErrorAndEnergy) {
  for (int links : {1, 4}) {
    SCOPED_TRACE("links = " + std::to_string(links));
    // 3° keeps the finite-amplitude period correction θ²/16 below 0.02 %
    Chain chain = MakeChain(links, 3 * kPi / 180, GetParam());
    auto model = std::make_shared<const Model>(chain.model);
    auto simulation = Simulation::Create(model, chain.state, "nsn");
    ASSERT_TRUE(simulation.ok()) << simulation.diagnostics().Format();
    Simulation& sim = *simulation.value();
    const Real dt = model->options.solver.dt;
    const Real period = 2 * kPi / chain.omega;
    const int steps = static_cast<int>(3.2 * period / dt);
    const Real energy0 = MechanicalEnergy(*model, sim.state());
    std::vector<Real> angle;
    Real max_joint_error = 0;
    Real max_energy_gain = 0;
    for (int s = 0; s < steps; ++s) {
      const StepReport& report = sim.Step();
      ASSERT_EQ(report.status & kStepNonFinite, 0u) << report.message;
      max_joint_error = std::max(max_joint_error, report.max_joint_error);
      max_energy_gain = std::max(max_energy_gain, MechanicalEnergy(*model, sim.state()) - energy0);
      angle.push_back(JointCoordinate(*model, 0, Pose{}, sim.state().body_X_WB[0]));
    }
    const Real measured = MeasurePeriod(angle, dt);
    // 1 %: the bound; backward Euler's phase error (ωΔt)²/3 is ~0.1 % here
    EXPECT_NEAR(measured, period, 0.01 * period) << "analytic " << period << " s";
    EXPECT_LT(max_joint_error, 1e-4);
    // 1e-9 J: round-off of the energy sum; any real gain is orders of magnitude larger
    EXPECT_LT(max_energy_gain, 1e-9);
  }
}

INSTANTIATE_TEST_SUITE_P(InnerSolvers, PendulumChain,
                         ::testing::Values(LinearSolverKind::kPcr, LinearSolverKind::kPcg,
                                           LinearSolverKind::kGaussSeidel,
                                           LinearSolverKind::kDirect),
                         test_support::LinearSolverParamName());


// The joints' own tolerance decides iterations past the regular budget (newton_iterations up to
// newton_max_iterations): none while the joint error is under it, extras that lower the error
// when it is tighter than what the regular budget reaches.
TEST(PendulumChainBudget, JointToleranceDecidesExtraIterations) {
  struct Run {
    int most_outer = 0;
    int steps_past_budget = 0;
    Real max_joint_error = 0;
  };
  const auto run = [](Real joint_tolerance) {
    // 30°: a swing fast enough that 6 Newton iterations leave a joint error of ~1e-6 m
    Chain chain = MakeChain(4, 30 * kPi / 180, LinearSolverKind::kPcr);
    SettingValues& nsn = *chain.model.options.solver.Find("nsn");
    nsn.Set("newton_tolerance", 1e6);  // no extras for the contacts (there are none)
    nsn.Set("newton_joint_tolerance", joint_tolerance);
    auto model = std::make_shared<const Model>(chain.model);
    auto simulation = Simulation::Create(model, chain.state, "nsn");
    EXPECT_TRUE(simulation.ok()) << simulation.diagnostics().Format();
    Run result;
    for (int s = 0; s < 120; ++s) {
      const StepReport& report = simulation.value()->Step();
      result.most_outer = std::max(result.most_outer, report.outer_iterations);
      result.steps_past_budget += report.outer_iterations > 6;
      result.max_joint_error = std::max(result.max_joint_error, report.max_joint_error);
    }
    return result;
  };
  const Run loose = run(1e6);
  const Run tight = run(1e-12);
  EXPECT_LE(loose.most_outer, 6);  // the regular budget, newton_iterations
  EXPECT_GT(loose.max_joint_error, 1e-9) << "the regular budget already meets the tight tolerance";
  EXPECT_GT(tight.steps_past_budget, 0);
  EXPECT_LE(tight.most_outer, 8);  // newton_max_iterations
  EXPECT_LT(tight.max_joint_error, loose.max_joint_error);
}


// Every joint type, limits, a drive and a contact: the assembled rows J must be the derivative
// of the residual h with respect to u, and C·Δt its derivative with respect to λ (eq. (77)).
TEST(NewtonResidual, JacobiansMatchCentralDifferences) {
  Model model = test_support::MakeEmptyModel();
  State state;
  const auto box = test_support::Box(Vec3(0.1, 0.15, 0.2));
  const Quat tilt(Eigen::AngleAxisd(0.3, Vec3(1, 2, 3).normalized()));
  for (int b = 0; b < 6; ++b) {
    test_support::AddBody(&model, &state, "b" + std::to_string(b), box, 1 + b,
                          Pose{Vec3(0.5 * b, 0.1 * b, 1.0), tilt});
  }
  test_support::AddParticle(&model, &state, "p", 0.5, 0.05, Vec3(3, 0, 0.05));
  const Vec3 axis = Vec3(0.2, 1, 0.1).normalized();
  int j = test_support::AddJoint(&model, state, JointType::kRevolute, kWorldBody, 0,
                                 Vec3(0, 0, 1.2), axis);
  model.joint_limited[j] = 1;
  model.joint_lower[j] = -0.01;
  model.joint_upper[j] = 0.02;
  model.joint_drive[j] = {50, 2, 0.01, 0.1};
  j = test_support::AddJoint(&model, state, JointType::kPrismatic, 0, 1, Vec3(0.3, 0, 1), axis);
  model.joint_limited[j] = 1;
  model.joint_lower[j] = -0.05;
  model.joint_upper[j] = 0.05;
  model.joint_drive[j] = {100, 5, 0.02, 0};
  test_support::AddJoint(&model, state, JointType::kFixed, 1, 2, Vec3(0.8, 0.2, 1));
  test_support::AddJoint(&model, state, JointType::kBall, 2, 3, Vec3(1.2, 0.2, 1));
  j = test_support::AddJoint(&model, state, JointType::kContinuous, 3, 4, Vec3(1.8, 0.4, 1), axis);
  model.joint_compliance[j] = 1e-4;

  // a contact between body 5 and the particle, and one against the world
  Contacts contacts;
  Contact c;
  c.a.body = 5;
  c.a.p_B = Vec3(0.1, -0.05, -0.2);
  c.b.particles[0] = 0;
  c.normal_W = Vec3(0.1, 0.2, 1).normalized();
  c.thickness = 0.05;
  contacts.items.push_back(c);
  c.b = ContactSide{};
  c.b.p_B = Vec3(2.6, 0.5, 0.7);
  contacts.items.push_back(c);

  const int checked = test_support::CheckResidualJacobians(model, state, contacts);
  EXPECT_GE(checked, 30);
}

}  // namespace
}  // namespace sim
