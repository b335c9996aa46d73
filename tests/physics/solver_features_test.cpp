// Every registered solver against the physics of the features it claims (TEST_P over the solver
// registry, tests/support/solver_cases.h): free fall, resting and Coulomb sliding/sticking
// contact, a pendulum's joint, the validation scenes that apply. Then what tells solvers apart:
// relaxation (PGS) does not hold the 4096:1 heavy stack at its default budget, NSN does (seed
// 002 §1, Fig. 5), and a solver refuses a scene with features it does not claim.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>

#include "engine/io/scene_file.h"
#include "engine/model/model.h"
#include "engine/solvers/nsn/nsn_settings.h"
#include "engine/solvers/solver_registry.h"
#include "engine/step/pipeline.h"
#include "tests/support/model_builder.h"
#include "tests/support/solver_accuracy.h"
#include "tests/support/solver_cases.h"
#include "tests/support/start_simulation.h"

namespace sim {
namespace {

using test_support::AccuracyOf;
using test_support::AddBody;
using test_support::AddJoint;
using test_support::AddWorldShape;
using test_support::Box;
using test_support::MakeEmptyModel;
using test_support::Plane;
using test_support::SolversWith;
constexpr auto Start = test_support::StartSimulation;

constexpr Real kPi = std::numbers::pi;
constexpr Real kDt = 1.0 / 120;


// a 0.2 m, 1 kg box resting on the ground plane z = 0
std::pair<Model, State> BoxOnTheGround() {
  Model model = MakeEmptyModel();
  State state;
  AddWorldShape(&model, Plane(), Pose{});
  AddBody(&model, &state, "box", Box(Vec3::Constant(0.1)), 1,
          Pose{Vec3(0, 0, 0.1), Quat::Identity()});
  return {std::move(model), std::move(state)};
}


// a 0.2 m, 1 kg box on a plane through the origin tilted by `theta` about x
struct Incline {
  Model model;
  State state;
  Vec3 downslope;
};

Incline MakeIncline(Real theta, Real mu) {
  Incline incline{MakeEmptyModel(mu), State{}, Vec3::Zero()};
  const auto [tilt, normal] = test_support::AddSlope(&incline.model, theta, Vec3::UnitX());
  AddBody(&incline.model, &incline.state, "box", Box(Vec3::Constant(0.1)), 1,
          Pose{0.1 * normal, tilt});
  const Vec3 g = incline.model.options.gravity;
  incline.downslope = (g - g.dot(normal) * normal).normalized();
  return incline;
}


class EverySolver : public ::testing::TestWithParam<std::string> {};
/// the solvers whose contact friction is Coulomb's law
class CoulombSolver : public ::testing::TestWithParam<std::string> {};
/// the solvers whose impacts bounce with the materials' restitution
class BouncingSolver : public ::testing::TestWithParam<std::string> {};


TEST_P(EverySolver, FreeFallIsSymplecticEuler) {
  // no rows: every solver takes the same step v⁺ = v + Δt g, x⁺ = x + Δt v⁺, so after N steps
  // z = z0 − g Δt² N(N+1)/2 to round-off
  Model model = MakeEmptyModel();
  State state;
  AddBody(&model, &state, "box", Box(Vec3::Constant(0.1)), 2,
          Pose{Vec3(0, 0, 10), Quat::Identity()});
  auto sim = Start(std::move(model), state, GetParam());
  ASSERT_TRUE(sim);
  const int steps = 120;
  for (int s = 0; s < steps; ++s) sim->Step();
  // NSN's constant step α = 0.75 leaves (1 − α)⁶ = 2.4e-4 of each step's velocity change
  // unconverged, so its drop is short by that fraction; PGS has no rows to solve (exact)
  const Real drop = 9.81 * kDt * kDt * steps * (steps + 1) / 2;
  // pbti's Levenberg-Marquardt loop stops at |g| below 1e-8 of the weight, 1e-8 of each step's
  // velocity change
  const Real unconverged = GetParam() == "nsn"    ? std::pow(0.25, 6)
                           : GetParam() == "pbti" ? 1e-8
                                                  : 1e-12;
  EXPECT_NEAR(sim->state().body_X_WB[0].p.z(), 10 - drop, 1.01 * unconverged * drop + 1e-12);
}


TEST_P(EverySolver, BoxRestsOnTheGround) {
  // static equilibrium: the box stays within 1 mm of where it was put, no penetration beyond
  // 1 mm (PGS leaves its 0.5 mm slop), and the contact forces carry its weight (within 1 %, or
  // the solver's stated accuracy, tests/support/solver_accuracy.h)
  const auto [model, state] = BoxOnTheGround();
  auto sim = Start(model, state, GetParam());
  ASSERT_TRUE(sim);
  Real penetration = 0;
  for (int s = 0; s < 240; ++s) penetration = std::max(penetration, sim->Step().max_penetration);
  EXPECT_LT((sim->state().body_X_WB[0].p - Vec3(0, 0, 0.1)).norm(), 1e-3);
  EXPECT_LT(penetration, 1e-3);
  Real support = 0;
  for (const Contact& c : sim->contacts().items) support += c.normal_force * c.normal_W.z();
  EXPECT_NEAR(support, 9.81, AccuracyOf(GetParam()).support_force * 9.81);
}


TEST_P(CoulombSolver, SlidesWithCoulombAccelerationOnAnIncline) {
  // 30° slope, μ = 0.3: a = g(sin θ − μ cos θ) = 2.36 m/s²; backward Euler's exact discrete
  // distance a Δt² N(N+1)/2 after N steps, within 2 % (the four corner contacts share the
  // friction; a solver's fixed budget leaves that much)
  const Real theta = 30 * kPi / 180;
  const Real mu = 0.3;
  Incline incline = MakeIncline(theta, mu);
  const Vec3 downslope = incline.downslope;
  auto sim = Start(std::move(incline.model), incline.state, GetParam());
  ASSERT_TRUE(sim);
  const Vec3 start = sim->state().body_X_WB[0].p;
  const int steps = 120;
  for (int s = 0; s < steps; ++s) sim->Step();
  const Real a = 9.81 * (std::sin(theta) - mu * std::cos(theta));
  const Real expected = a * kDt * kDt * steps * (steps + 1) / 2;
  EXPECT_NEAR((sim->state().body_X_WB[0].p - start).dot(downslope), expected,
              AccuracyOf(GetParam()).slide_distance * expected);
}


TEST_P(CoulombSolver, SticksOnAnInclineAboveTheThreshold) {
  // tan 30° = 0.577 < μ = 0.7: static friction holds the box (< 1 mm over 2 s)
  Incline incline = MakeIncline(30 * kPi / 180, 0.7);
  const Vec3 downslope = incline.downslope;
  auto sim = Start(std::move(incline.model), incline.state, GetParam());
  ASSERT_TRUE(sim);
  const Vec3 start = sim->state().body_X_WB[0].p;
  for (int s = 0; s < 240; ++s) sim->Step();
  EXPECT_LT(std::abs((sim->state().body_X_WB[0].p - start).dot(downslope)),
            AccuracyOf(GetParam()).stick_creep);
}


INSTANTIATE_TEST_SUITE_P(Solvers, EverySolver,
                         ::testing::ValuesIn(SolversWith(kFeatureRigidBodies | kFeatureContacts)),
                         test_support::SolverParamName());
INSTANTIATE_TEST_SUITE_P(Solvers, CoulombSolver,
                         ::testing::ValuesIn(SolversWith(kFeatureRigidBodies | kFeatureContacts |
                                                         kFeatureCoulombFriction)),
                         test_support::SolverParamName());
INSTANTIATE_TEST_SUITE_P(Solvers, BouncingSolver,
                         ::testing::ValuesIn(SolversWith(kFeatureRigidBodies | kFeatureContacts |
                                                         kFeatureRestitution)),
                         test_support::SolverParamName());


class EveryJointSolver : public ::testing::TestWithParam<std::string> {};


TEST_P(EveryJointSolver, PendulumKeepsItsJointAndSwingsThroughTheBottom) {
  // a 1 kg, 0.1 m box on a 1 m massless arm (revolute joint at the origin, axis y), released
  // horizontally: the box passes below the pivot at the arm's length (a free fall would take it
  // 19.6 m down). NSN solves the joint rows at the position level: < 1 mm. A velocity-level
  // solver drifts by the centripetal term ½ω²LΔt² per step (ω² = 2g/L at the bottom: 0.7 mm)
  // and removes β = 0.2 of it per step: about 3.4 mm; 1 cm is allowed for PGS.
  const Real allowed = AccuracyOf(GetParam()).pendulum_joint_error;
  Model model = MakeEmptyModel();
  State state;
  const int bob = AddBody(&model, &state, "bob", Box(Vec3::Constant(0.05)), 1,
                          Pose{Vec3(1, 0, 0), Quat::Identity()});
  AddJoint(&model, state, JointType::kRevolute, kWorldBody, bob, Vec3::Zero(), Vec3::UnitY());
  auto sim = Start(std::move(model), state, GetParam());
  ASSERT_TRUE(sim);
  Real joint_error = 0;
  Real lowest = 0;
  for (int s = 0; s < 240; ++s) {
    joint_error = std::max(joint_error, sim->Step().max_joint_error);
    lowest = std::min(lowest, sim->state().body_X_WB[bob].p.z());
  }
  EXPECT_LT(joint_error, allowed);
  EXPECT_NEAR(lowest, -1, allowed);
  EXPECT_NEAR(sim->state().body_X_WB[bob].p.norm(), 1, allowed);
}


TEST_P(EveryJointSolver, ADriveAtItsForceLimitPushesWithTheLimit) {
  // a 1 kg slider on a vertical prismatic joint, its stiff drive commanding 1 m up: the drive
  // asks ~1e5 N and is held at its limit f_max, so the slider moves as under the constant force
  // f_max − m g: 15 N rises at 5.19 m/s², 5 N (below the weight) sinks at 4.81 m/s². The
  // backward-Euler distance after N steps is a Δt² N(N+1)/2 (0.101 / −0.093 m after 0.5 s);
  // 3 % allows the position-level solvers' one-step lag of the velocity (Δt/t = 1.7 %)
  for (const Real limit : {15.0, 5.0}) {
    Model model = MakeEmptyModel();
    State state;
    const int slider = AddBody(&model, &state, "slider", Box(Vec3::Constant(0.05)), 1,
                               Pose{Vec3(0, 0, 1), Quat::Identity()});
    AddJoint(&model, state, JointType::kPrismatic, kWorldBody, slider, Vec3(0, 0, 1),
             Vec3::UnitZ());
    model.joint_drive[0] =
        JointDrive{.stiffness = 1e5, .damping = 1e3, .target_position = 1, .max_force = limit};
    auto sim = Start(std::move(model), state, GetParam());
    ASSERT_TRUE(sim);
    const int steps = 60;
    for (int s = 0; s < steps; ++s) ASSERT_EQ(sim->Step().status & kStepNonFinite, 0u);
    const Real a = limit - 9.81;
    const Real expected = a * kDt * kDt * steps * (steps + 1) / 2;
    EXPECT_NEAR(sim->state().body_X_WB[slider].p.z() - 1, expected, 0.03 * std::abs(expected))
        << "f_max = " << limit << " N";
  }
}


INSTANTIATE_TEST_SUITE_P(Solvers, EveryJointSolver,
                         ::testing::ValuesIn(SolversWith(kFeatureRigidBodies | kFeatureJoints)),
                         test_support::SolverParamName());


// The heavy stack (scenes/validation/heavy_stack.json, 4096:1): NSN holds it (< 1 mm), PGS at
// its default 20 sweeps does not (seed 002 §1: relaxation stagnates at high mass ratios; the
// stack sinks by centimetres), and more sweeps (120, NSN's 6 × 20 inner budget) do not rescue it.
struct HeavyStackRun {
  Real penetration = 0;      ///< max over 2 s [m]
  int unconverged = 0;       ///< steps flagged kStepUnconverged
  std::string last_message;  ///< the last flagged step's message
};

HeavyStackRun RunHeavyStack(const std::string& solver, int pgs_sweeps) {
  Expected<io::Scene> scene =
      io::LoadScene(std::string(SIM_SOURCE_DIR) + "/scenes/validation/heavy_stack.json");
  EXPECT_TRUE(scene.ok()) << scene.diagnostics().Format();
  Model model = *scene->model;
  if (pgs_sweeps > 0) model.options.solver.Find("pgs")->Set("iterations", pgs_sweeps);
  auto sim = Start(std::move(model), scene->initial_state, solver);
  HeavyStackRun run;
  if (!sim) return run;
  for (int s = 0; s < 240; ++s) {
    const StepReport& report = sim->Step();
    run.penetration = std::max(run.penetration, report.max_penetration);
    if (report.status & kStepUnconverged) {
      ++run.unconverged;
      run.last_message = report.message;
    }
  }
  return run;
}

TEST(SolverComparison, RelaxationDoesNotHoldTheHeavyStackNewtonDoes) {
  const HeavyStackRun nsn = RunHeavyStack("nsn", 0);
  const HeavyStackRun pgs = RunHeavyStack("pgs", 0);
  const HeavyStackRun pgs_long = RunHeavyStack("pgs", 120);
  std::printf(
      "heavy stack, max penetration over 2 s (unconverged steps): nsn %.3g m (%d), pgs 20 "
      "sweeps %.3g m (%d), pgs 120 sweeps %.3g m (%d)\n",
      nsn.penetration, nsn.unconverged, pgs.penetration, pgs.unconverged, pgs_long.penetration,
      pgs_long.unconverged);
  EXPECT_LT(nsn.penetration, 1e-3);
  EXPECT_GT(pgs.penetration, 1e-2);
  EXPECT_GT(pgs_long.penetration, 1e-2);
  // and the reports say so: the stack PGS lets sink is flagged unconverged with the residual
  // that gave it away (pgs.unconverged_velocity, 0.1 m/s), the one NSN holds is not
  EXPECT_EQ(nsn.unconverged, 0) << nsn.last_message;
  EXPECT_GT(pgs.unconverged, 0);
  EXPECT_NE(pgs.last_message.find("pgs.unconverged_velocity"), std::string::npos)
      << pgs.last_message;
}


// a 0.1 m, 1 kg ball dropped from `height` [m] (its lowest point) onto the ground, both of a
// material with restitution e; the apex of its first rebound [m]
Real FirstReboundApex(const std::string& solver, Real height, Real e) {
  Model model = MakeEmptyModel();
  model.materials[0].restitution = e;
  State state;
  AddWorldShape(&model, Plane(), Pose{});
  AddBody(&model, &state, "ball", test_support::Sphere(0.1), 1,
          Pose{Vec3(0, 0, 0.1 + height), Quat::Identity()});
  auto sim = Start(std::move(model), state, solver);
  if (!sim) return 0;
  Real apex = 0, previous_vz = 0;
  bool rising = false;
  for (int s = 0; s < 600; ++s) {
    sim->Step();
    const Real z = sim->state().body_X_WB[0].p.z() - 0.1;
    const Real vz = sim->state().body_v_W[0].z();
    rising |= previous_vz < 0 && vz > 0;
    if (rising) apex = std::max(apex, z);
    if (rising && vz <= 0) break;
    previous_vz = vz;
  }
  return apex;
}


TEST_P(BouncingSolver, ADroppedBallReboundsToESquaredTimesItsHeight) {
  // restitution e: the rebound reaches e² h. Tolerance 5 % (the issue's): the first-order step
  // itself loses ½ g² Δt² of energy per step of free flight, Δt·sqrt(g/2h)·(1 + 1/e) of the
  // apex (1.3 % × 3 at e = 0.5, h = 2 m); the bounce step's target keeps the rest within 1.5 %
  // (measured: 0.952-0.974 of e² h over the three)
  constexpr Real kHeight = 2;
  for (const Real e : {0.5, 0.8, 1.0}) {
    const Real apex = FirstReboundApex(GetParam(), kHeight, e);
    EXPECT_NEAR(apex, e * e * kHeight, 0.05 * e * e * kHeight) << "e = " << e;
  }
  // e = 0 (every material's default) keeps impacts plastic: no rebound above 1 mm
  EXPECT_LT(FirstReboundApex(GetParam(), kHeight, 0), 1e-3);
}


TEST_P(BouncingSolver, NewtonsCradleWithGapsPassesTheStrikersSpeedDown) {
  // five 0.1 m, 0.2 kg balls in a row without gravity, 2 cm apart, e = 1; the first strikes at
  // 1 m/s. Each impact of equal masses at e = 1 swaps their velocities, so after the chain the
  // last ball leaves at 1 m/s and the others rest (within 5 %, the bound). The gaps
  // exceed the travel of one step (1 m/s · Δt = 8.3 mm), so the impacts come one per step:
  // touching balls are one simultaneous impact, which spreads the momentum instead (0.4 m/s
  // each, measured; README)
  Model model = MakeEmptyModel(0);
  model.materials[0].restitution = 1;
  model.options.gravity = Vec3::Zero();
  State state;
  for (int k = 0; k < 5; ++k) {
    AddBody(&model, &state, "ball" + std::to_string(k), test_support::Sphere(0.05), 0.2,
            Pose{Vec3(0.12 * k, 0, 1), Quat::Identity()}, k == 0 ? Vec3(1, 0, 0) : Vec3::Zero());
  }
  auto sim = Start(std::move(model), state, GetParam());
  ASSERT_TRUE(sim);
  for (int s = 0; s < 120; ++s) sim->Step();
  const std::vector<Vec3>& v = sim->state().body_v_W;
  EXPECT_NEAR(v[4].x(), 1.0, 0.05);
  for (int k = 0; k < 4; ++k) EXPECT_LT(v[k].norm(), 0.05) << "ball " << k;
}


TEST(NsnHonesty, ABoxHeldOutsideItsFrictionConeIsFlagged) {
  // 25° slope, μ = tan θ − 0.02: the box must slide a Δt² N(N+1)/2 (a = g(sin θ − μ cos θ)).
  // With the paper's friction compliance (solver.friction = compliance) NSN holds it with two
  // corners' friction outside their cone (docs/notes/friction-threshold.md); the steps must say
  // so. The claim: either the slide is right within 2 %, or at least 90 % of the steps after
  // the first 10 are flagged unconverged
  const Real theta = 25 * kPi / 180;
  const Real mu = std::tan(theta) - 0.02;
  Incline incline = MakeIncline(theta, mu);
  incline.model.options.solver.Find("nsn")->Set("friction", FrictionLinearization::kCompliance);
  const Vec3 downslope = incline.downslope;
  auto sim = Start(std::move(incline.model), incline.state, "nsn");
  ASSERT_TRUE(sim);
  const Vec3 start = sim->state().body_X_WB[0].p;
  const int steps = 240;
  int flagged = 0;
  for (int s = 0; s < steps; ++s) {
    if ((sim->Step().status & kStepUnconverged) && s >= 10) ++flagged;
  }
  const Real a = 9.81 * (std::sin(theta) - mu * std::cos(theta));
  const Real expected = a * kDt * kDt * steps * (steps + 1) / 2;
  const Real moved = (sim->state().body_X_WB[0].p - start).dot(downslope);
  std::printf("box at the threshold: moved %.4f m of %.4f, %d of %d steps flagged\n", moved,
              expected, flagged, steps - 10);
  if (std::abs(moved - expected) > 0.02 * expected) EXPECT_GE(flagged, 0.9 * (steps - 10));
}


TEST_P(EverySolver, FlagsAStarvedStepUnconvergedAndAConvergedOneNot) {
  // the box at rest converges within every solver's default budget: no step is flagged. The
  // same box dropped 1 m onto the ground with the budget cut to one iteration cannot converge
  // at the impact (the whole 4.4 m/s must go in one relaxation or Newton step): flagged, with
  // the measure named in the message
  {
    const auto [model, state] = BoxOnTheGround();
    auto sim = Start(model, state, GetParam());
    ASSERT_TRUE(sim);
    for (int s = 0; s < 120; ++s) {
      const StepReport& report = sim->Step();
      ASSERT_EQ(report.status & kStepUnconverged, 0u) << "step " << s << ": " << report.message;
    }
  }
  auto [model, state] = BoxOnTheGround();
  state.body_X_WB[0].p.z() = 1.1;
  SettingValues& settings = *model.options.solver.Find(GetParam());
  for (const char* budget : {"newton_iterations", "newton_max_iterations", "linear_iterations",
                             "iterations", "max_iterations"}) {
    if (settings.Find(budget) >= 0) settings.Set(budget, 1);
  }
  auto sim = Start(model, state, GetParam());
  ASSERT_TRUE(sim);
  int flagged = 0;
  std::string message;
  for (int s = 0; s < 120; ++s) {
    const StepReport& report = sim->Step();
    if (report.status & kStepUnconverged) {
      ++flagged;
      message = report.message;
    }
  }
  EXPECT_GT(flagged, 0);
  EXPECT_NE(message.find("unconverged"), std::string::npos) << message;
}


TEST(SolverComparison, PgsHoldsAStackOfEqualMasses) {
  // the control of the heavy stack: five 0.5 m, 8 kg cubes (1:1) stand under PGS too, so its
  // failure above is the mass ratio's (< 1 mm penetration, it leaves its 0.5 mm slop; < 5 mm
  // drift of the top cube over 2 s)
  Model model = MakeEmptyModel();
  State state;
  AddWorldShape(&model, Plane(), Pose{});
  for (int k = 0; k < 5; ++k) {
    AddBody(&model, &state, "cube" + std::to_string(k), Box(Vec3::Constant(0.25)), 8,
            Pose{Vec3(0, 0, 0.25 + 0.5 * k), Quat::Identity()});
  }
  auto sim = Start(std::move(model), state, "pgs");
  ASSERT_TRUE(sim);
  Real penetration = 0;
  for (int s = 0; s < 240; ++s) penetration = std::max(penetration, sim->Step().max_penetration);
  EXPECT_LT(penetration, 1e-3);
  EXPECT_LT((sim->state().body_X_WB[4].p - state.body_X_WB[4].p).norm(), 5e-3);
}


TEST(SolverComparison, PgsRefusesSoftBodiesWithAReason) {
  Model model = MakeEmptyModel();
  model.soft_bodies.emplace_back();
  model.soft_bodies.back().tets.push_back({0, 1, 2, 3});
  Expected<std::unique_ptr<Solver>> solver = MakeSolver("pgs", model);
  ASSERT_FALSE(solver.ok());
  EXPECT_NE(solver.diagnostics().Format().find("does not support soft bodies"), std::string::npos)
      << solver.diagnostics().Format();
}


TEST(SolverComparison, EachSolverWarmStartsFromItsOwnRecord) {
  // a box resting on the ground, stepped by NSN and then by PGS from NSN's state: each solver
  // writes and reads only its own record, so the state carries both, and NSN's record is left as
  // NSN wrote it by PGS's steps
  const auto [model, state] = BoxOnTheGround();
  auto nsn = Start(model, state, "nsn");
  ASSERT_TRUE(nsn);
  for (int s = 0; s < 10; ++s) nsn->Step();
  const WarmStartRecord* nsn_record = FindWarmStart(nsn->state(), "nsn");
  ASSERT_NE(nsn_record, nullptr);
  EXPECT_EQ(FindWarmStart(nsn->state(), "pgs"), nullptr);
  const WarmStartRecord kept = *nsn_record;

  auto pgs = Start(model, nsn->state(), "pgs");
  ASSERT_TRUE(pgs);
  pgs->Step();
  ASSERT_NE(FindWarmStart(pgs->state(), "nsn"), nullptr);  // carried from the first step on
  for (int s = 0; s < 9; ++s) pgs->Step();
  const WarmStartRecord* pgs_record = FindWarmStart(pgs->state(), "pgs");
  ASSERT_NE(pgs_record, nullptr);
  EXPECT_EQ(pgs_record->contacts.size(), 4u);  // the four resting corners
  const WarmStartRecord* nsn_after = FindWarmStart(pgs->state(), "nsn");
  ASSERT_NE(nsn_after, nullptr);
  ASSERT_EQ(nsn_after->contacts.size(), kept.contacts.size());
  for (std::size_t k = 0; k < kept.contacts.size(); ++k) {
    EXPECT_EQ(nsn_after->contacts[k].normal, kept.contacts[k].normal);
  }
  EXPECT_LT((pgs->state().body_X_WB[0].p - Vec3(0, 0, 0.1)).norm(), 1e-3);
}

}  // namespace
}  // namespace sim
