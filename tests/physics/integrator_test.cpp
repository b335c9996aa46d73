// The second-order step (solver.integrator = bdf2, engine/step/integrator.h) for every solver
// that claims it: it keeps a free arm's energy where backward Euler damps it, converges with the
// square of Δt, stays plastic at impacts and at rest, and restarts with backward Euler when the
// state was edited. A solver that does not claim it refuses such a scene.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "engine/io/scene_file.h"
#include "engine/model/model.h"
#include "engine/solvers/solver_registry.h"
#include "engine/step/integrator.h"
#include "engine/step/pipeline.h"
#include "tests/support/model_builder.h"
#include "tests/support/solver_cases.h"
#include "tests/support/start_simulation.h"

namespace sim {
namespace {

using test_support::AddBody;
using test_support::AddWorldShape;
using test_support::Box;
using test_support::MakeEmptyModel;
using test_support::Plane;
using test_support::SolverParamName;
using test_support::SolversWith;
constexpr auto Start = test_support::StartSimulation;


// a validation scene with its integrator and time step replaced
std::unique_ptr<Simulation> StartScene(const std::string& name, const std::string& solver,
                                       Integrator integrator, Real dt) {
  Expected<io::Scene> scene =
      io::LoadScene(std::string(SIM_SOURCE_DIR) + "/scenes/validation/" + name);
  EXPECT_TRUE(scene.ok()) << scene.diagnostics().Format();
  if (!scene.ok()) return nullptr;
  Model model = *scene->model;
  model.options.solver.integrator = integrator;
  model.options.solver.dt = dt;
  // every Newton iteration runs: the early exit's 1e-6 m/s per step would otherwise stand above
  // the integrator's error at the finer steps of the convergence study
  if (SettingValues* nsn = model.options.solver.Find("nsn"))
    nsn->Set("newton_min_iterations", 1000);
  return Start(std::move(model), scene->initial_state, solver);
}


class JointedSolver : public ::testing::TestWithParam<std::string> {};
class ContactSolver : public ::testing::TestWithParam<std::string> {};


// scenes/validation/double_pendulum.json: nothing dissipates, so the energy is constant. The
// issue's bound: BDF2 within 1 % over 5 s at Δt = 1/240 s (its dissipation per step is
// O((ωΔt)⁴), backward Euler's O((ωΔt)²))
TEST_P(JointedSolver, BdfTwoKeepsAFreeArmsEnergyWithinOnePercentOverFiveSeconds) {
  auto sim = StartScene("double_pendulum.json", GetParam(), Integrator::kBdf2, 1.0 / 240);
  ASSERT_TRUE(sim);
  const Real energy0 = MechanicalEnergy(sim->model(), sim->state());
  ASSERT_NEAR(energy0, 2 * 9.81 * 2, 1e-9);  // the scene header's 39.24 J
  Real worst = 0, max_joint_error = 0;
  int second_order = 0;
  for (int s = 0; s < 1200; ++s) {
    const StepReport& report = sim->Step();
    ASSERT_EQ(ProblemBits(report.status), 0u) << report.message;
    second_order += report.integrator_order == 2;
    max_joint_error = std::max(max_joint_error, report.max_joint_error);
    worst = std::max(worst, std::abs(MechanicalEnergy(sim->model(), sim->state()) - energy0));
  }
  // only the first step has no history
  EXPECT_EQ(second_order, 1199);
  EXPECT_LT(worst, 0.01 * energy0);
  // the joints hold as with backward Euler (the pendulum chain's bound)
  EXPECT_LT(max_joint_error, 1e-4);
}


// the dissipation the option exists for: the fully implicit backward-Euler step loses over 10 %
// of the arm's energy in 5 s at Δt = 1/240 s (measured with nsn: 14.2 %; BDF2 0.18 %)
TEST_P(JointedSolver, BackwardEulerDampsTheSameArm) {
  auto sim = StartScene("double_pendulum.json", GetParam(), Integrator::kBdf1, 1.0 / 240);
  ASSERT_TRUE(sim);
  const Real energy0 = MechanicalEnergy(sim->model(), sim->state());
  for (int s = 0; s < 1200; ++s) EXPECT_EQ(sim->Step().integrator_order, 1);
  EXPECT_LT(MechanicalEnergy(sim->model(), sim->state()), 0.9 * energy0);
}


// the lowest link's position after 1 s of the 4-link chain (scenes/validation/pendulum_chain.json)
Vec3 ChainEnd(const std::string& solver, Integrator integrator, int steps_per_second) {
  auto sim = StartScene("pendulum_chain.json", solver, integrator, 1.0 / steps_per_second);
  if (!sim) return Vec3::Zero();
  for (int s = 0; s < steps_per_second; ++s) sim->Step();
  return sim->state().body_X_WB[3].p;
}


// halving Δt divides BDF2's global error by about 4 and backward Euler's by about 2 (reference:
// the same integrator at Δt = 1/3840 s, whose own error is below a tenth of the smallest one
// compared). The ratios are measured at 1/120 → 1/240 → 1/480 s; bounds 3.0 and 2.6 leave room
// for the first step's local error and the solver's tolerance
TEST_P(JointedSolver, BdfTwoConvergesWithTheSquareOfTheStep) {
  for (const Integrator integrator : {Integrator::kBdf2, Integrator::kBdf1}) {
    const Vec3 reference = ChainEnd(GetParam(), integrator, 3840);
    Real error[3];
    for (int k = 0; k < 3; ++k)
      error[k] = (ChainEnd(GetParam(), integrator, 120 << k) - reference).norm();
    const Real ratio1 = error[0] / error[1], ratio2 = error[1] / error[2];
    if (integrator == Integrator::kBdf2) {
      EXPECT_GT(ratio1, 3.0) << error[0] << " " << error[1];
      EXPECT_GT(ratio2, 3.0) << error[1] << " " << error[2];
    } else {
      EXPECT_LT(ratio1, 2.6) << error[0] << " " << error[1];
      EXPECT_LT(ratio2, 2.6) << error[1] << " " << error[2];
    }
  }
}


// A ball dropped with BDF2 lands plastically (e = 0) and rests: the impact steps are backward
// Euler, so no rebound above 1 mm (the ringing a position-level contact would cause is up to the
// approach speed, 3.1 m/s here), and the resting ball stays within 0.1 mm and returns to BDF2.
TEST_P(ContactSolver, BdfTwoLandsPlasticallyAndRests) {
  Model model = MakeEmptyModel();
  model.options.solver.integrator = Integrator::kBdf2;
  State state;
  AddWorldShape(&model, Plane(), Pose{});
  AddBody(&model, &state, "ball", test_support::Sphere(0.1), 1,
          Pose{Vec3(0, 0, 0.6), Quat::Identity()});
  auto sim = Start(std::move(model), state, GetParam());
  ASSERT_TRUE(sim);
  bool landed = false;
  Real highest_after_landing = 0;
  int first_order = 0, second_order_at_rest = 0;
  for (int s = 0; s < 360; ++s) {
    const StepReport& report = sim->Step();
    ASSERT_EQ(ProblemBits(report.status), 0u) << report.message;
    const Real z = sim->state().body_X_WB[0].p.z() - 0.1;
    landed |= z < 1e-3;
    if (landed) highest_after_landing = std::max(highest_after_landing, z);
    first_order += report.integrator_order == 1;
    if (s >= 240) second_order_at_rest += report.integrator_order == 2;
  }
  EXPECT_TRUE(landed);
  EXPECT_LT(highest_after_landing, 1e-3);
  EXPECT_NEAR(sim->state().body_X_WB[0].p.z(), 0.1, 1e-4);
  EXPECT_LT(sim->state().body_v_W[0].norm(), 1e-3);
  // the first step, the impact step and the one after it
  EXPECT_LE(first_order, 4);
  EXPECT_EQ(second_order_at_rest, 120);
}


// a box set down at rest on a 20° slope it sticks to (μ = 0.6 > tan 20° = 0.36) stays put under
// BDF2 as under backward Euler: < 1 mm over 2 s (the stick bound)
TEST_P(ContactSolver, BdfTwoKeepsABoxAtRestOnASlope) {
  Model model = MakeEmptyModel(0.6);
  model.options.solver.integrator = Integrator::kBdf2;
  State state;
  const Quat tilt(Eigen::AngleAxis<Real>(20 * M_PI / 180, Vec3::UnitY()));
  AddWorldShape(&model, Plane(), Pose{Vec3::Zero(), tilt});
  const Vec3 start = tilt * Vec3(0, 0, 0.1);
  AddBody(&model, &state, "box", Box(Vec3(0.1, 0.1, 0.1)), 1, Pose{start, tilt});
  auto sim = Start(std::move(model), state, GetParam());
  ASSERT_TRUE(sim);
  for (int s = 0; s < 240; ++s) sim->Step();
  EXPECT_LT((sim->state().body_X_WB[0].p - start).norm(), 1e-3);
}


// the history belongs to the state it was written for: an edited state (a drag, a reset) and a
// changed Δt restart with backward Euler; a copied state resumes bit for bit
TEST(Bdf2History, RestartsAfterAnEditAndResumesFromACopy) {
  auto sim = StartScene("double_pendulum.json", "nsn", Integrator::kBdf2, 1.0 / 240);
  ASSERT_TRUE(sim);
  EXPECT_EQ(sim->Step().integrator_order, 1);
  EXPECT_EQ(sim->Step().integrator_order, 2);
  // a copy continues exactly as the original
  auto copy = StartScene("double_pendulum.json", "nsn", Integrator::kBdf2, 1.0 / 240);
  copy->set_state(sim->state());
  for (int s = 0; s < 10; ++s) {
    EXPECT_EQ(copy->Step().integrator_order, 2);
    sim->Step();
  }
  EXPECT_EQ(StateHash(copy->state()), StateHash(sim->state()));
  // an edit: the forearm nudged by 1 mm
  State edited = sim->state();
  edited.body_X_WB[1].p.x() += 1e-3;
  sim->set_state(edited);
  EXPECT_EQ(sim->Step().integrator_order, 1);
  EXPECT_EQ(sim->Step().integrator_order, 2);
  // a reset
  sim->Reset();
  EXPECT_EQ(sim->Step().integrator_order, 1);
}


// a solver without the claim refuses a bdf2 scene, with the setting named
TEST(Bdf2Claim, SolversWithoutItRefuseTheScene) {
  for (const SolverInfo* info : SolverRegistry()) {
    if (info->features & kFeatureSecondOrder) continue;
    Expected<io::Scene> scene =
        io::LoadScene(std::string(SIM_SOURCE_DIR) + "/scenes/validation/double_pendulum.json");
    ASSERT_TRUE(scene.ok());
    auto simulation =
        Simulation::Create(scene->model, scene->initial_state, std::string(info->name));
    ASSERT_FALSE(simulation.ok()) << info->name;
    EXPECT_NE(simulation.diagnostics().Format().find("solver.integrator = bdf2"),
              std::string::npos);
  }
}


INSTANTIATE_TEST_SUITE_P(Solvers, JointedSolver,
                         ::testing::ValuesIn(SolversWith(kFeatureRigidBodies | kFeatureJoints |
                                                         kFeatureSecondOrder)),
                         SolverParamName());
INSTANTIATE_TEST_SUITE_P(Solvers, ContactSolver,
                         ::testing::ValuesIn(SolversWith(kFeatureRigidBodies | kFeatureContacts |
                                                         kFeatureSecondOrder)),
                         SolverParamName());

}  // namespace
}  // namespace sim
