// The seeds' own oracles for the NSN solver (digest docs/seeds/nsn-and-friction.md §20) and the
// friction compliance closed forms (§4.4.b), on problems small enough to know the answer exactly.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/model/model.h"
#include "engine/solvers/nsn/ncp.h"
#include "engine/solvers/nsn/nsn_settings.h"
#include "engine/solvers/nsn/nsn_solver.h"
#include "engine/state/contacts.h"
#include "engine/state/control.h"
#include "engine/state/state.h"
#include "tests/support/model_builder.h"

namespace sim {
namespace {

using nsn::EvalNcp;
using nsn::FrictionCompliance;
using nsn::NcpValue;

// one semismooth Newton step on φ(c(λ), λ) = 0 for the scalar constraint c(λ) = λ/4 − 1/8
Real NewtonStepScalar(NcpFunction ncp, Real lambda, Real r) {
  const Real gap = lambda / 4 - 0.125;
  const NcpValue v = EvalNcp(ncp, gap, lambda, r);
  const Real derivative = v.dphi_dgap * 0.25 + v.dphi_dlambda;
  return lambda - v.phi / derivative;
}


// §20.1 ([T Fig 13]): with r = 1/4 (the effective-mass scale of this row) the min-map residual
// is the straight line λ/4 − 1/8, so one Newton step from any start lands on λ = 1/2.
TEST(NsnOracle, ScalarProblemSolvedInOneStepWithEffectiveMassScaling) {
  for (Real start : {-3.0, -0.2, 0.0, 0.3, 0.5, 2.0, 40.0}) {
    EXPECT_NEAR(NewtonStepScalar(NcpFunction::kMinMap, start, 0.25), 0.5, 1e-14)
        << "start λ0 = " << start;
  }
}


// ... and with r = 1 the kink at λ = −1/6 costs extra steps from the left of it.
TEST(NsnOracle, ScalarProblemNeedsMoreStepsWithoutScaling) {
  const Real one_step = NewtonStepScalar(NcpFunction::kMinMap, -3.0, 1.0);
  EXPECT_GT(std::abs(one_step - 0.5), 0.1);
  // FB is smooth away from the origin and converges, but not in one step either
  Real lambda = -3.0;
  int steps = 0;
  while (std::abs(lambda - 0.5) > 1e-10 && steps < 50) {
    lambda = NewtonStepScalar(NcpFunction::kFischerBurmeister, lambda, 1.0);
    ++steps;
  }
  EXPECT_NEAR(lambda, 0.5, 1e-10);
  EXPECT_GT(steps, 1);
}


// FB derivatives against central differences, away from the non-smooth origin.
TEST(NsnOracle, FischerBurmeisterDerivativesMatchCentralDifferences) {
  const Real r = 0.3;
  const Real h = 1e-6;
  for (const auto& [gap, lambda] : {std::pair{0.2, 0.5}, {-0.1, 2.0}, {0.01, 0.0}, {-1.0, -1.0}}) {
    const NcpValue v = EvalNcp(NcpFunction::kFischerBurmeister, gap, lambda, r);
    const Real d_gap = (EvalNcp(NcpFunction::kFischerBurmeister, gap + h, lambda, r).phi -
                        EvalNcp(NcpFunction::kFischerBurmeister, gap - h, lambda, r).phi) /
                       (2 * h);
    const Real d_lambda = (EvalNcp(NcpFunction::kFischerBurmeister, gap, lambda + h, r).phi -
                           EvalNcp(NcpFunction::kFischerBurmeister, gap, lambda - h, r).phi) /
                          (2 * h);
    EXPECT_NEAR(v.dphi_dgap, d_gap, 1e-8);
    EXPECT_NEAR(v.dphi_dlambda, d_lambda, 1e-8);
  }
}


// §4.4.b closed forms: on the cone boundary while sliding W = |Dᵀu|/(μλ_n) for both NCP
// functions; at rest inside the cone W = 0 (a hard tangential row); past the cone limit W
// grows sharply ([T Fig 12]: "W acts to strongly penalize the Lagrange multiplier").
TEST(NsnOracle, FrictionComplianceClosedForms) {
  const Real mu_normal = 5;  // μλ_n = 0.5 · 10 N
  const Real slip = 0.5;     // m/s
  const Real r = 0.01;
  for (NcpFunction ncp : {NcpFunction::kFischerBurmeister, NcpFunction::kMinMap}) {
    EXPECT_NEAR(FrictionCompliance(ncp, slip, mu_normal, mu_normal, r), slip / mu_normal, 1e-12);
    EXPECT_EQ(FrictionCompliance(ncp, 0.0, 2.0, mu_normal, r), 0.0);
    Real previous = FrictionCompliance(ncp, slip, mu_normal, mu_normal, r);
    for (Real force : {5.5, 6.0, 8.0}) {
      const Real w = FrictionCompliance(ncp, slip, force, mu_normal, r);
      EXPECT_GT(w, previous) << "W must increase past the cone limit, |λ_f| = " << force;
      previous = w;
    }
  }
}


// §20.2 ([T Fig 12]): a particle sliding on a plane with u0 = 0.5 m/s, λ_n = 10 N, μ = 0.5
// converges to the cone limit λ_f = 5 N opposing the slip, for both NCP functions.
class SlidingParticle : public ::testing::TestWithParam<NcpFunction> {
 protected:
  static constexpr Real kGravity = 9.81;

  // a particle of weight 10 N on the plane z = 0, sliding with `velocity`, and its contact with
  // cone axes μ_t along x, μ_b along y; `iterations` Newton iterations (a converged solve)
  void SetUp(const Vec3& velocity, Real mu_t, Real mu_b, int iterations) {
    model_ = test_support::MakeEmptyModel(0.5);
    model_.options.gravity = Vec3(0, 0, -kGravity);
    model_.options.solver.Set("ncp", GetParam());
    model_.options.solver.Set("newton_iterations", iterations);
    // every iteration runs: the fixed point to 1e-6 N, past the early exit's 1e-6 m/s
    model_.options.solver.Set("newton_min_iterations", iterations);
    model_.options.solver.Set("linear_iterations", 10);
    test_support::AddParticle(&model_, &state_, "p", 10 / kGravity, 0.05, Vec3(0, 0, 0.05),
                              velocity);
    Contact contact;
    contact.a.particles[0] = 0;
    contact.normal_W = Vec3::UnitZ();
    contact.thickness = 0.05;
    contact.friction_t = mu_t;
    contact.friction_b = mu_b;
    contact.tangent_W = Vec3::UnitX();
    contact.bitangent_W = Vec3::UnitY();
    contacts_.items.push_back(contact);
  }

  StepReport StepOnce() {
    SolverNsn solver(model_);
    return solver.Step(model_, state_, MakeControl(model_), contacts_, 1.0 / 120, &out_);
  }

  Model model_;
  State state_, out_;
  Contacts contacts_;
};

TEST_P(SlidingParticle, FrictionSaturatesAtConeLimit) {
  // 60 iterations: the oracle is about the fixed point, not the interactive budget
  SetUp(Vec3(0.5, 0, 0), 0.5, 0.5, 60);
  const Real dt = 1.0 / 120;
  const StepReport report = StepOnce();
  ASSERT_EQ(report.status, kStepOk) << report.message;
  // tolerances: 60 damped iterations leave 0.25⁶⁰ of the initial error; 1e-6 N is float noise
  EXPECT_NEAR(contacts_.items[0].normal_force, 10.0, 1e-6);
  EXPECT_NEAR(contacts_.items[0].friction_force[0], -5.0, 1e-6);
  EXPECT_NEAR(contacts_.items[0].friction_force[1], 0.0, 1e-9);
  // the velocity loses exactly μ g Δt (Coulomb sliding, backward Euler)
  EXPECT_NEAR(out_.particle_v_W[0].x(), 0.5 - 0.5 * kGravity * dt, 1e-8);
  EXPECT_NEAR(out_.particle_v_W[0].z(), 0.0, 1e-8);
}

// §20.4 (digest §2.12, derived): on the Matchstick ellipse A = diag(1/μ_t², 1/μ_b²) maximal
// dissipation gives λ_f = −λ_n A⁻¹v / sqrt(vᵀA⁻¹v), not anti-parallel to v. The solver's 2×2
// friction block (§4.4.c) must reproduce it for the end-of-step slip v⁺ (the scheme is implicit).
TEST_P(SlidingParticle, AnisotropicConeGivesMaximalDissipationDirection) {
  const Real speed = 0.5;
  SetUp(Vec3(speed, speed, 0) / std::sqrt(2.0), 0.8, 0.2, 80);  // major axis along x
  const StepReport report = StepOnce();
  ASSERT_EQ(report.status, kStepOk) << report.message;
  const Eigen::Vector2d v(out_.particle_v_W[0].x(), out_.particle_v_W[0].y());
  const Eigen::Vector2d a_inv_v(0.8 * 0.8 * v.x(), 0.2 * 0.2 * v.y());
  const Real normal = contacts_.items[0].normal_force;
  const Eigen::Vector2d expected = -normal * a_inv_v / std::sqrt(v.dot(a_inv_v));
  const Eigen::Vector2d force(contacts_.items[0].friction_force[0],
                              contacts_.items[0].friction_force[1]);
  EXPECT_NEAR(normal, 10.0, 1e-6);
  // 1e-5 N: 80 damped iterations converge far below this; the direction error it allows is 1e-6
  EXPECT_NEAR(force.x(), expected.x(), 1e-5);
  EXPECT_NEAR(force.y(), expected.y(), 1e-5);
  // and the force is visibly not anti-parallel to the slip
  EXPECT_GT(std::abs(force.normalized().dot(v.normalized()) + 1), 0.05);
}

INSTANTIATE_TEST_SUITE_P(Ncp, SlidingParticle,
                         ::testing::Values(NcpFunction::kFischerBurmeister, NcpFunction::kMinMap),
                         [](const auto& info) { return std::string(NcpFunctionName(info.param)); });

}  // namespace
}  // namespace sim
