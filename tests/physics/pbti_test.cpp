// The position-based frictional articulated integrator (pbti, seed 003, digest add-and-pbti.md
// part B) against closed forms and the paper's experiments, our own parameters where the paper
// gives none (§B.13: no dimensions, masses or C values are reported):
//   the average-velocity step of a free body, a pendulum's period and its joint in reduced
//   coordinates, Fig. 5 (a box sliding at 1 m/s: distance decreases monotonically with C^∥, at
//   every Δt), Fig. 6 (a 10-link chain sliding off a 30° slope, stable at Δt = 0.1 s, against NSN)
//   and the scenes it refuses, naming what.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <vector>

#include "engine/io/scene_file.h"
#include "engine/model/model.h"
#include "engine/solvers/solver_registry.h"
#include "engine/step/pipeline.h"
#include "tests/support/model_builder.h"
#include "tests/support/start_simulation.h"

namespace sim {
namespace {

using test_support::AddBody;
using test_support::AddJoint;
using test_support::AddWorldShape;
using test_support::Box;
using test_support::MakeEmptyModel;
using test_support::Plane;
using test_support::Sphere;
constexpr auto Start = test_support::StartSimulation;

constexpr Real kPi = std::numbers::pi;
constexpr Real kGravity = 9.81;


void SetPbti(Model* model, const char* setting, double value) {
  ASSERT_TRUE(model->options.solver.Find("pbti")->Set(setting, value)) << setting;
}


TEST(Pbti, AFreeBodyTakesTheAverageVelocityStep) {
  // no contact: GE's minimum is m(x − 2x_n + x_{n−1})/Δt² = m g (eq. 4), so v_{n+1} = v_n + Δt g
  // and x_{n+1} = x_n + Δt v_{n+1}: after N steps z = z0 + v0 N Δt − g Δt² N(N+1)/2 (to the LM
  // tolerance, 1e-8 of the weight over m/Δt²). A spin about a principal axis decays: the
  // Euclidean second difference of eq. (5) on a uniform rotation by a per step is its
  // centripetal term, and the minimiser turns by a − a³ (digest §B.14, velocities not on the Lie
  // group), so dω/dt = −ω³Δt and ω(t) = ω0 / sqrt(1 + 2 ω0² Δt t): 1.9365 rad/s from 2 after 1 s
  // at Δt = 1/120 s (to O(a⁵) per step).
  Model model = MakeEmptyModel();
  State state;
  AddBody(&model, &state, "box", Box(Vec3(0.1, 0.2, 0.3)), 2,
          Pose{Vec3(0, 0, 10), Quat::Identity()}, Vec3(1, 0, 3), Vec3(0, 0, 2));
  auto sim = Start(std::move(model), state, "pbti");
  ASSERT_TRUE(sim);
  const Real dt = sim->model().options.solver.dt;
  const int steps = 120;
  for (int s = 0; s < steps; ++s) ASSERT_EQ(sim->Step().status & kStepUnconverged, 0u);
  const Vec3 x = sim->state().body_X_WB[0].p;
  EXPECT_NEAR(x.z(), 10 + 3 * steps * dt - kGravity * dt * dt * steps * (steps + 1) / 2, 1e-9);
  EXPECT_NEAR(x.x(), steps * dt, 1e-9);
  const Real spin = 2 / std::sqrt(1 + 2 * 4 * dt * steps * dt);
  EXPECT_NEAR(sim->state().body_w_W[0].norm(), spin, 1e-4);
}


TEST(Pbti, APendulumSwingsAtItsPeriodOnAJointThatCannotOpen) {
  // a 1 kg sphere (r = 2 cm) on a 1 m massless arm, revolute at the origin, released at 5°: the
  // physical pendulum's period T = 2π sqrt(I_O / (m g L)), I_O = m L² + 2/5 m r² (small-angle
  // error (θ0²/16 = 0.05 %) and the first-order step's phase error at Δt = T/480 both well
  // under the 1 % allowed). In reduced coordinates the joint holds to round-off.
  Model model = MakeEmptyModel();
  State state;
  const Real length = 1, radius = 0.02, start = 5 * kPi / 180;
  const int bob =
      AddBody(&model, &state, "bob", Sphere(radius), 1,
              Pose{length * Vec3(std::sin(start), 0, -std::cos(start)), Quat::Identity()});
  AddJoint(&model, state, JointType::kRevolute, kWorldBody, bob, Vec3::Zero(), Vec3::UnitY());
  model.options.solver.dt = 1.0 / 240;
  auto sim = Start(std::move(model), state, "pbti");
  ASSERT_TRUE(sim);
  std::vector<Real> crossings;
  Real joint_error = 0, previous_x = sim->state().body_X_WB[bob].p.x();
  for (int s = 1; s <= 240 * 6; ++s) {
    joint_error = std::max(joint_error, sim->Step().max_joint_error);
    const Real x = sim->state().body_X_WB[bob].p.x();
    if ((previous_x > 0) != (x > 0)) {
      crossings.push_back((s - 1 + previous_x / (previous_x - x)) / 240.0);
    }
    previous_x = x;
  }
  ASSERT_GE(crossings.size(), 5u);
  const Real period = 2 * (crossings.back() - crossings.front()) / (crossings.size() - 1);
  const Real expected =
      2 * kPi * std::sqrt((length * length + 0.4 * radius * radius) / (kGravity * length));
  std::printf("pendulum: period %.5f s (expected %.5f s), joint error %.3g m\n", period, expected,
              joint_error);
  EXPECT_NEAR(period, expected, 0.01 * expected);
  EXPECT_LT(joint_error, 1e-9);
}


// distance [m] a 1 kg, 0.2 m box slides in 2 s from 1 m/s on the ground (μ = 0.5) at Δt and C^∥
Real BoxSlideDistance(Real dt, Real friction_scale) {
  Model model = MakeEmptyModel(0.5);
  State state;
  AddWorldShape(&model, Plane(), Pose{});
  AddBody(&model, &state, "box", Box(Vec3::Constant(0.1)), 1,
          Pose{Vec3(0, 0, 0.1), Quat::Identity()}, Vec3(1, 0, 0));
  model.options.solver.dt = dt;
  SetPbti(&model, "friction_scale", friction_scale);
  auto sim = Start(std::move(model), state, "pbti");
  if (!sim) return -1;
  const int steps = static_cast<int>(std::lround(2 / dt));
  for (int s = 0; s < steps; ++s) {
    const StepReport& report = sim->Step();
    if (ProblemBits(report.status) & (kStepNonFinite | kStepRunaway)) return -1;
  }
  return sim->state().body_X_WB[0].p.x();
}


TEST(PbtiFigures, SlidingDistanceFallsMonotonicallyWithTheFrictionScale) {
  // Fig. 5: the box from 1 m/s; for each Δt (0.01, 0.05, 0.1 s) the distance decreases strictly
  // with C^∥ over six decades, from nearly free sliding (2 m) towards rest. The printed f^∥ ∝
  // (Δt v)² makes the C^∥ of a given distance fall with Δt (§B.7: μ_eff = 2 (C^∥μ/C^⊥)(Δt v)²),
  // so the decades span every Δt's transition. NSN's Coulomb box stops at v²/(2μg) = 0.102 m.
  for (const Real dt : {0.01, 0.05, 0.1}) {
    Real previous = 1e9;
    std::string line;
    for (const Real scale : {1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13}) {
      const Real distance = BoxSlideDistance(dt, scale);
      ASSERT_GE(distance, 0) << "dt " << dt << ", C " << scale << ": the step failed";
      EXPECT_LT(distance, previous) << "dt " << dt << ", C " << scale;
      previous = distance;
      char cell[48];
      std::snprintf(cell, sizeof(cell), " %.3g", distance);
      line += cell;
    }
    std::printf("box slide, dt = %.2f s: distance [m] at C = 1e7..1e13:%s\n", dt, line.c_str());
  }
  // at the lowest scale the box keeps most of its 2 m; at the highest it stops within 10 cm
  EXPECT_GT(BoxSlideDistance(0.05, 1e7), 1.5);
  EXPECT_LT(BoxSlideDistance(0.05, 1e13), 0.1);
}


// A chain of 10 links (0.1 × 0.04 × 0.02 m boxes, 0.2 kg) joined by revolute joints across the
// slope, lying down a `slope` plane through the origin with friction μ
struct SlopeChain {
  Model model;
  State state;
  Vec3 downhill;
};

SlopeChain MakeSlopeChain(Real slope, Real mu) {
  SlopeChain chain{MakeEmptyModel(mu), State{}, Vec3::Zero()};
  const auto [tilt, normal] = test_support::AddSlope(&chain.model, slope, Vec3::UnitY());
  chain.downhill = tilt * Vec3::UnitX();
  for (int k = 0; k < 10; ++k) {
    const Vec3 centre = (0.1 * k + 0.05) * chain.downhill + 0.01 * normal;
    AddBody(&chain.model, &chain.state, "link" + std::to_string(k), Box(Vec3(0.05, 0.02, 0.01)),
            0.2, Pose{centre, tilt});
    if (k > 0) {
      AddJoint(&chain.model, chain.state, JointType::kRevolute, k - 1, k,
               0.1 * k * chain.downhill + 0.01 * normal, tilt * Vec3::UnitY());
    }
  }
  return chain;
}

struct ChainRun {
  Real distance = 0;     // mean displacement of the links down the slope [m]
  Real penetration = 0;  // largest over the run [m]
  Real speed = 0;        // fastest link at any step [m/s]
  Real joint_error = 0;  // largest [m]
  int problems = 0;      // steps with a problem bit (non-finite, runaway, unconverged)
  std::string message;
};

ChainRun RunSlopeChain(const std::string& solver, Real dt, Real mu, Real duration) {
  SlopeChain chain = MakeSlopeChain(30 * kPi / 180, mu);
  chain.model.options.solver.dt = dt;
  const Vec3 downhill = chain.downhill;
  Vec3 start = Vec3::Zero();
  for (const Pose& X : chain.state.body_X_WB) start += X.p / 10;
  auto sim = Start(std::move(chain.model), chain.state, solver);
  ChainRun run;
  if (!sim) return run;
  const int steps = static_cast<int>(std::lround(duration / dt));
  for (int s = 0; s < steps; ++s) {
    const StepReport& report = sim->Step();
    run.penetration = std::max(run.penetration, report.max_penetration);
    run.joint_error = std::max(run.joint_error, report.max_joint_error);
    run.speed = std::max(run.speed, report.max_speed);
    if (ProblemBits(report.status) != 0) {
      ++run.problems;
      run.message = report.message;
    }
  }
  Vec3 end = Vec3::Zero();
  for (const Pose& X : sim->state().body_X_WB) end += X.p / 10;
  run.distance = (end - start).dot(downhill);
  return run;
}


TEST(PbtiFigures, ChainSlidesOffTheSlopeStablyAtATenthOfASecond) {
  // Fig. 6: the chain on 30°. Frictionless, every link accelerates at a = g sin 30° and the
  // first-order step's exact distance after N steps is a Δt² N(N+1)/2 (2.70 m at Δt = 0.1 s,
  // 2.46 m at 1/240 s after 1 s). PBFD at Δt = 0.1 s meets its own step's distance within 1 %
  // (the penalty contact's settling), and at 1/240 s it follows NSN within 1 cm. With friction
  // (μ = 0.3, default C^∥) it stays stable at 0.1 s: finite, no problem bit, penetration below
  // 1 cm, no link faster than the frictionless slide (4.9 m/s after 1 s, + 10 %).
  const Real a = kGravity * std::sin(30 * kPi / 180);
  const ChainRun coarse = RunSlopeChain("pbti", 0.1, 0, 1);
  const ChainRun fine = RunSlopeChain("pbti", 1.0 / 240, 0, 1);
  const ChainRun nsn = RunSlopeChain("nsn", 1.0 / 240, 0, 1);
  const ChainRun rough = RunSlopeChain("pbti", 0.1, 0.3, 2);
  const ChainRun nsn_coarse = RunSlopeChain("nsn", 0.1, 0.3, 2);
  std::printf(
      "slope chain: pbti dt 0.1 %.4f m (step's exact %.4f), pbti 1/240 %.4f m, nsn 1/240 "
      "%.4f m; with mu 0.3 over 2 s at dt 0.1: pbti %.3f m, penetration %.3g m, fastest %.3g "
      "m/s, %d problem steps; nsn %.3f m, penetration %.3g m, fastest %.3g m/s, joint error "
      "%.3g m, %d problem steps %s\n",
      coarse.distance, a * 0.01 * 55, fine.distance, nsn.distance, rough.distance,
      rough.penetration, rough.speed, rough.problems, nsn_coarse.distance, nsn_coarse.penetration,
      nsn_coarse.speed, nsn_coarse.joint_error, nsn_coarse.problems, nsn_coarse.message.c_str());
  EXPECT_NEAR(coarse.distance, a * 0.01 * 55, 0.01 * a * 0.01 * 55);
  EXPECT_EQ(coarse.problems, 0) << coarse.message;
  EXPECT_NEAR(fine.distance, nsn.distance, 0.01);
  EXPECT_EQ(rough.problems, 0) << rough.message;
  EXPECT_LT(rough.penetration, 0.01);
  EXPECT_LT(rough.speed, 1.1 * a * 2);
  EXPECT_GT(rough.distance, 0);
  EXPECT_LT(rough.joint_error, 1e-9);
}


TEST(PbtiFigures, FetchOnItsBaseFollowsNsnWithinAMillimetre) {
  // the shipped Fetch (our URDF: mobile base, torso, arm and gripper on drives) in front of its
  // shelf for 2 s: pbti in reduced coordinates and nsn in maximal ones end with every body
  // within 1 mm of each other (0.3 mm measured: pbti's contact depth C⊥d² = weight on the
  // wheels and the shelf items), and pbti's joints are exact where nsn's converge to 1e-6 m
  Expected<io::Scene> scene =
      io::LoadScene(std::string(SIM_SOURCE_DIR) + "/scenes/fetch_teleop.json");
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  std::vector<std::vector<Pose>> poses;
  Real pbti_joint_error = 0;
  for (const char* solver : {"nsn", "pbti"}) {
    Model model = *scene->model;
    auto sim = Start(std::move(model), scene->initial_state, solver);
    ASSERT_TRUE(sim);
    for (int s = 0; s < 240; ++s) {
      const StepReport& report = sim->Step();
      ASSERT_EQ(ProblemBits(report.status), 0u) << solver << " step " << s << report.message;
      if (std::string(solver) == "pbti") {
        pbti_joint_error = std::max(pbti_joint_error, report.max_joint_error);
      }
    }
    poses.push_back(sim->state().body_X_WB);
  }
  Real farthest = 0;
  for (std::size_t b = 0; b < poses[0].size(); ++b) {
    farthest = std::max(farthest, (poses[0][b].p - poses[1][b].p).norm());
  }
  std::printf("fetch_teleop, 2 s: farthest body pbti vs nsn %.3g m, pbti joint error %.3g m\n",
              farthest, pbti_joint_error);
  EXPECT_LT(farthest, 1e-3);
  EXPECT_LT(pbti_joint_error, 1e-9);
}


TEST(Pbti, GroupedDifferencesGiveTheSameStepsAsOnePerCoordinate) {
  // pbti.grouped_differences shares residual evaluations between columns of G that reach no
  // common row; the other entries are structurally zero, so the heavy stack (5 free boxes, 20
  // contacts) and the arch (many blocks) step the same to the round-off of the differences
  for (const char* name : {"heavy_stack", "arch"}) {
    Expected<io::Scene> scene =
        io::LoadScene(std::string(SIM_SOURCE_DIR) + "/scenes/validation/" + name + ".json");
    ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
    std::vector<std::vector<Pose>> poses;
    std::vector<int> iterations;
    for (const bool grouped : {true, false}) {
      Model model = *scene->model;
      SetPbti(&model, "grouped_differences", grouped);
      auto sim = Start(std::move(model), scene->initial_state, "pbti");
      ASSERT_TRUE(sim);
      int total = 0;
      for (int s = 0; s < 10; ++s) total += sim->Step().outer_iterations;
      poses.push_back(sim->state().body_X_WB);
      iterations.push_back(total);
    }
    Real farthest = 0;
    for (std::size_t b = 0; b < poses[0].size(); ++b) {
      farthest = std::max(farthest, (poses[0][b].p - poses[1][b].p).norm());
    }
    std::printf("%s, 10 steps: grouped vs per-coordinate %.3g m, LM iterations %d / %d\n", name,
                farthest, iterations[0], iterations[1]);
    EXPECT_LT(farthest, 1e-9) << name;
  }
}


TEST(Pbti, RefusesWhatHasNoReducedCoordinatesNamingIt) {
  // particles, ball joints and closed loops are refused by name before the first step
  Model model = MakeEmptyModel();
  State state;
  const int a = AddBody(&model, &state, "a", Sphere(0.1), 1, Pose{Vec3(0, 0, 1), Quat::Identity()});
  const int b = AddBody(&model, &state, "b", Sphere(0.1), 1, Pose{Vec3(1, 0, 1), Quat::Identity()});
  AddJoint(&model, state, JointType::kBall, kWorldBody, a, Vec3(0, 0, 2));
  AddJoint(&model, state, JointType::kRevolute, a, b, Vec3(0.5, 0, 1));
  AddJoint(&model, state, JointType::kRevolute, kWorldBody, b, Vec3(1, 0, 2));
  test_support::AddParticle(&model, &state, "p", 0.1, 0.01, Vec3(3, 0, 1));
  const Diagnostics refused = CheckSolverSupports(*FindSolver("pbti"), model);
  const std::string text = refused.Format();
  EXPECT_TRUE(refused.has_errors());
  EXPECT_NE(text.find("particles"), std::string::npos) << text;
  EXPECT_NE(text.find("ball joints (joint 'joint_0')"), std::string::npos) << text;
  EXPECT_NE(text.find("closed loops (body 'b'"), std::string::npos) << text;
}

}  // namespace
}  // namespace sim
