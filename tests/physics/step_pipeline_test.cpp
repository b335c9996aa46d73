// The step pipeline's guarantees: non-finite input or a diverging iterate sets kStepNonFinite and
// keeps the last good state (never NaNs in the caller's state), and a step allocates no heap
// memory once the first step has sized the buffers.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <new>

#include "engine/model/model.h"
#include "engine/solvers/nsn/nsn_settings.h"
#include "engine/step/pipeline.h"
#include "tests/support/model_builder.h"

// counts every global allocation of the test binary, to assert that steady-state steps do none
namespace {
std::atomic<long> g_allocations{0};
}  // namespace

void* operator new(std::size_t size) {
  ++g_allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace sim {
namespace {

constexpr Real kNaN = std::numeric_limits<Real>::quiet_NaN();

// a three-link revolute chain with a limit and a drive, plus a free particle
std::unique_ptr<Simulation> MakeChainSimulation(LinearSolverKind solver) {
  Model model = test_support::MakeEmptyModel();
  model.options.solver.Set("linear_solver", solver);
  State state;
  const auto link = test_support::Box(Vec3(0.02, 0.02, 0.25));
  for (int i = 0; i < 3; ++i) {
    test_support::AddBody(&model, &state, "link" + std::to_string(i), link, 1,
                          Pose{Vec3(0, 0, 2.25 - 0.5 * i), Quat::Identity()}, Vec3::Zero(),
                          Vec3(0, 0.5, 0));
    test_support::AddJoint(&model, state, JointType::kRevolute, i == 0 ? kWorldBody : i - 1, i,
                           Vec3(0, 0, 2.5 - 0.5 * i), Vec3::UnitY());
  }
  model.joint_limited[1] = 1;
  model.joint_lower[1] = -0.2;
  model.joint_upper[1] = 0.2;
  model.joint_drive[2] = {20, 1, 0.1, 0};
  // a particle resting on a ground plane, so the collision stage has contacts to produce
  test_support::AddWorldShape(&model, test_support::Plane(), Pose{});
  test_support::AddParticle(&model, &state, "dust", 0.01, 0.01, Vec3(1, 0, 0.0105));
  auto simulation =
      Simulation::Create(std::make_shared<const Model>(std::move(model)), state, "nsn");
  EXPECT_TRUE(simulation.ok()) << simulation.diagnostics().Format();
  return std::move(simulation.value());
}


TEST(StepPipeline, NonFiniteInputIsRejectedAndStateKept) {
  auto sim = MakeChainSimulation(LinearSolverKind::kPcr);
  sim->Step();
  State poisoned = sim->state();
  poisoned.body_v_W[1].x() = kNaN;
  sim->set_state(poisoned);
  const StepReport& report = sim->Step();
  EXPECT_TRUE(report.status & kStepNonFinite);
  EXPECT_FALSE(report.message.empty());
  // the state is the one given (no step taken), and the time did not advance
  EXPECT_TRUE(std::isnan(sim->state().body_v_W[1].x()));
  EXPECT_EQ(sim->state().step, poisoned.step);
}


TEST(StepPipeline, DivergingIterateRestoresLastGoodState) {
  auto sim = MakeChainSimulation(LinearSolverKind::kPcr);
  for (int i = 0; i < 3; ++i) sim->Step();
  const State good = sim->state();
  // an infinite external force makes ũ, and with it the Newton iterate, non-finite
  sim->control().body_force_W[2] = Vec3(std::numeric_limits<Real>::infinity(), 0, 0);
  const StepReport& report = sim->Step();
  EXPECT_TRUE(report.status & kStepNonFinite);
  EXPECT_TRUE(IsFinite(sim->state()));
  EXPECT_EQ(sim->state().step, good.step);
  EXPECT_EQ(sim->state().body_X_WB[2].p, good.body_X_WB[2].p);
  // and the simulation continues once the force is sane again
  sim->control().body_force_W[2].setZero();
  EXPECT_EQ(sim->Step().status & kStepNonFinite, 0u);
  EXPECT_EQ(sim->state().step, good.step + 1);
}


class StepAllocations : public ::testing::TestWithParam<LinearSolverKind> {};

// style anchors §3.4: no heap allocation inside a step after the first one
TEST_P(StepAllocations, NoneAfterTheFirstStep) {
  // the counter itself works
  long before = g_allocations.load();
  // (a direct call: new-expressions may be elided by the compiler)
  ::operator delete(::operator new(16));
  ASSERT_GT(g_allocations.load(), before);

  auto sim = MakeChainSimulation(GetParam());
  for (int i = 0; i < 3; ++i) sim->Step();
  before = g_allocations.load();
  for (int i = 0; i < 50; ++i) sim->Step();
  EXPECT_EQ(g_allocations.load() - before, 0);
}

INSTANTIATE_TEST_SUITE_P(IterativeSolvers, StepAllocations,
                         ::testing::Values(LinearSolverKind::kPcr, LinearSolverKind::kPcg,
                                           LinearSolverKind::kJacobi,
                                           LinearSolverKind::kGaussSeidel),
                         test_support::LinearSolverParamName());

}  // namespace
}  // namespace sim
