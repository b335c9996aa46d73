// A soft ball dropped on the ground at the project's default solver settings (issue 5): the shared
// tet mesh sphere1K.msh (1760 nodes, 6851 tets) scaled to a 0.1 m radius, stable Neo-Hookean,
// E = 1e5 Pa, ν = 0.45, ρ = 1000 kg/m³ (bench/scenes/soft_ball_sphere1k.json), released 2 cm above
// the ground, with the default settings (6 Newton × 20 PCR iterations, Jacobi, α_damp = 0.75). The
// impact used to diverge within a few steps (the geometric-stiffness secant of the element rows
// grew the particle masses 10⁴-10⁷-fold, newton_system.cpp); the ball must land and settle.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "engine/io/scene_file.h"
#include "engine/solvers/nsn/nsn_settings.h"
#include "engine/step/pipeline.h"
#include "tests/support/shared_data.h"

namespace sim {
namespace {

const std::string kBall = test_support::SharedDataDir() + "/tetmesh/sphere1K.msh";

constexpr Real kRadius = 0.1;    // the mesh has radius 0.5, scaled by 0.2 [m]
constexpr Real kRelease = 0.12;  // centre height at release: 2 cm above the ground [m]

const std::string kScene = R"({"materials": {"tomato": {"friction": 0.75, "density": 1000}},
  "objects": [{"name": "ground", "type": "plane"},
    {"name": "ball", "type": "tetmesh", "file": ")" +
                           kBall + R"(", "scale": 0.2,
     "position": [0, 0, 0.12], "material": "tomato", "youngs_modulus": 1e5,
     "poisson_ratio": 0.45, "material_model": "neo_hookean"}]})";

// the NSN simulation of a loaded scene (null if it cannot start)
std::unique_ptr<Simulation> StartNsn(const io::Scene& scene) {
  Expected<std::unique_ptr<Simulation>> simulation =
      Simulation::Create(scene.model, scene.initial_state, "nsn");
  return simulation.ok() ? std::move(simulation.value()) : nullptr;
}

// the total mass of the particles [kg]
Real ParticleMass(const Model& model) {
  Real mass = 0;
  for (int p = 0; p < model.particle_count(); ++p) mass += model.particle_mass[p];
  return mass;
}

TEST(SoftBallDropTest, LandsAndSettlesAtTheDefaultSolverSettings) {
  SIM_REQUIRE_SHARED_DATA(kBall);
  Expected<io::Scene> scene = io::ParseScene(
      kScene, "ball.json", io::SceneOptions{.file_roots = test_support::TestFileRoots()});
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  const Model& model = *scene->model;
  const NsnSettings defaults;
  ASSERT_EQ(ReadNsnSettings(model.options.solver).newton_iterations, defaults.newton_iterations);
  ASSERT_EQ(ReadNsnSettings(model.options.solver).linear_iterations, defaults.linear_iterations);
  ASSERT_EQ(ReadNsnSettings(model.options.solver).fem_preconditioner, defaults.fem_preconditioner);
  const std::unique_ptr<Simulation> simulation = StartNsn(scene.value());
  ASSERT_TRUE(simulation);
  Simulation& sim = *simulation;

  // 45 steps (0.375 s): the fall (7 steps), the impact and two bounces
  const Real mass = ParticleMass(model);
  const Real g = -model.options.gravity.z();
  const Real released = mass * g * (kRelease - kRadius);  // m g h at impact [J]
  const int steps = 45;
  Real max_penetration = 0, max_energy = 0, late_kinetic = 0;
  for (int i = 0; i < steps; ++i) {
    const StepReport& report = sim.Step();
    ASSERT_EQ(report.status & (kStepNonFinite | kStepRunaway), 0u) << "step " << i;
    max_penetration = std::max(max_penetration, report.max_penetration);
    // kinetic + gravitational energy of the nodes, relative to the release
    const State& state = sim.state();
    Real kinetic = 0, potential = 0;
    for (int p = 0; p < model.particle_count(); ++p) {
      const Real m = model.particle_mass[p];
      kinetic += 0.5 * m * state.particle_v_W[p].squaredNorm();
      potential += m * g * (state.particle_x_W[p].z() - scene->initial_state.particle_x_W[p].z());
    }
    max_energy = std::max(max_energy, kinetic + potential);
    if (i >= steps - 5) late_kinetic += kinetic / 5;
  }
  std::printf(
      "sphere1K ball, default settings, %d steps: max penetration %.2e m, max (kinetic + "
      "gravitational) energy %.3g J, kinetic energy over the last 5 steps %.3g J (m g h = %.3g "
      "J)\n",
      steps, max_penetration, max_energy, late_kinetic, released);
  // contacts hold the surface: penetration within a few tenths of the 10 mm contact margin (the
  // NCP holds the gap at 0 up to the unconverged Newton residual; ~1 mm measured at impact)
  EXPECT_LT(max_penetration, 2e-3);
  // no energy is created: the elastic energy is ≥ 0 and backward Euler only dissipates, so the
  // kinetic + gravitational energy never exceeds its value at release (small margin for round-off
  // and the inexact solves)
  EXPECT_LT(max_energy, 0.01 * released);
  // it comes to rest: backward Euler damps the bounce (measured ω ≈ 37 rad/s, ωΔt ≈ 0.3) by
  // 1/(1 + (ωΔt)²) ≈ 0.92 in energy per step, ~4 % left after the 37 steps from the impact; 10 %
  // for the contact's non-linearity
  EXPECT_LT(late_kinetic, 0.1 * released);
}

// The 6851-tet ball at the default settings for 4 s, past the landing, as it rolls on the
// frictional ground (issue 20). Its c·Δt/h = 9.4, so solver.wave_iterations raises the inner
// iterations from 20 to 38: at 20 the unconverged element and contact forces lag the motion and
// the roll gains energy without bound (kinetic energy 1.2 J at 4 s from a 0.82 J drop, measured);
// at 33-38 it wanders at 1-6 cm/s without building up. It does not come to rest within 3 s: the
// discretized ball has a rolling potential of its own (TheRollTurnsWithTheMeshNotWithTheSolver),
// the landing leaves it on a slope of it, and without material damping only backward Euler's
// damping of the slow roll stops it (docs/notes/rolling-soft-ball.md).
TEST(SoftBallDropTest, TheDefaultInnerBudgetKeepsTheRollFromGainingEnergy) {
  SIM_REQUIRE_SHARED_DATA(kBall);
  Expected<io::Scene> scene = io::ParseScene(
      kScene, "ball.json", io::SceneOptions{.file_roots = test_support::TestFileRoots()});
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  const Model& model = *scene->model;
  const NsnSettings settings = ReadNsnSettings(model.options.solver);
  EXPECT_EQ(WaveIterations(settings, model, model.options.solver.dt), 38);
  const std::unique_ptr<Simulation> simulation = StartNsn(scene.value());
  ASSERT_TRUE(simulation);
  const Real mass = ParticleMass(model);
  const Real released = mass * -model.options.gravity.z() * (kRelease - kRadius);
  Real kinetic = 0, centre_speed = 0;
  for (int i = 0; i < 480; ++i) {
    const StepReport& report = simulation->Step();
    ASSERT_EQ(report.status & (kStepNonFinite | kStepRunaway), 0u) << "step " << i;
    const State& state = simulation->state();
    kinetic = 0;
    Vec3 momentum = Vec3::Zero();
    for (int p = 0; p < model.particle_count(); ++p) {
      kinetic += 0.5 * model.particle_mass[p] * state.particle_v_W[p].squaredNorm();
      momentum += model.particle_mass[p] * state.particle_v_W[p];
    }
    centre_speed = momentum.norm() / mass;
  }
  std::printf(
      "sphere1K ball at 4 s: kinetic energy %.3g J (drop m g h = %.3g J), centre %.3g m/s\n",
      kinetic, released, centre_speed);
  // without the gain the ball wanders at 1-6 cm/s, turning with the mesh (measured at 4 s: 35
  // iterations 4.6e-4 J and 1.2 cm/s, 38 7.3e-3 J and 5.0 cm/s); at 20 it reached 1.2 J and
  // 0.64 m/s. The bounds, 2.5 % of the drop's energy and 10 cm/s, sit between the two
  EXPECT_LT(kinetic, 0.025 * released);
  EXPECT_LT(centre_speed, 0.1);
}

// Where the roll comes from (issue 20): the sphere1K ball dropped straight down starts rolling
// after its bounce and runs 2 cm in 1 s. A solver artefact (a tangent frame, an ordering, the
// inexact inner solves) would roll it the same way whatever the ball's yaw; a rolling potential of
// the discretized ball itself turns with it. Turned by 90° about the vertical, the ball rolls the
// turned way: measured at 1 s, (−21.5, 7.3) mm and (−7.3, −21.5) mm. A converged solve
// (12 Newton × 200 inner iterations) rolls it (−20.3, 8.6) mm, and rounding the mesh's surface
// to 0.05 mm does not stop it (docs/notes/rolling-soft-ball.md), so the potential is the tets'
// elasticity under the ball's weight, not its outline.
TEST(SoftBallDropTest, TheRollTurnsWithTheMeshNotWithTheSolver) {
  SIM_REQUIRE_SHARED_DATA(kBall);
  const auto roll_after_one_second = [](Real yaw_deg) -> Vec3 {
    std::string text = kScene;
    const std::string scale = "\"scale\": 0.2,";
    text.replace(text.find(scale), scale.size(),
                 scale + " \"rpy_deg\": [0, 0, " + std::to_string(yaw_deg) + "],");
    Expected<io::Scene> scene = io::ParseScene(
        text, "ball.json", io::SceneOptions{.file_roots = test_support::TestFileRoots()});
    EXPECT_TRUE(scene.ok()) << scene.diagnostics().Format();
    if (!scene.ok()) return Vec3::Constant(NAN);
    const std::unique_ptr<Simulation> simulation = StartNsn(scene.value());
    const Model& model = *scene->model;
    const auto centre = [&](const State& state) {
      Vec3 sum = Vec3::Zero();
      for (int p = 0; p < model.particle_count(); ++p)
        sum += model.particle_mass[p] * state.particle_x_W[p];
      return Vec3(sum / ParticleMass(model));
    };
    const Vec3 start = centre(scene->initial_state);
    for (int i = 0; i < 120; ++i) {
      const StepReport& report = simulation->Step();
      EXPECT_EQ(report.status & (kStepNonFinite | kStepRunaway), 0u) << "step " << i;
    }
    return Vec3(centre(simulation->state()) - start);
  };
  const Vec3 roll = roll_after_one_second(0);
  const Vec3 turned = roll_after_one_second(90);
  std::printf("sphere1K ball after 1 s: rolled (%.1f, %.1f) mm; turned 90°: (%.1f, %.1f) mm\n",
              1e3 * roll.x(), 1e3 * roll.y(), 1e3 * turned.x(), 1e3 * turned.y());
  // it rolls (21 mm measured; a ball that rests moves < 1 mm)
  EXPECT_GT(roll.head<2>().norm(), 0.01);
  // and the turned ball rolls the turned way, Rz(90°)(x, y) = (−y, x), within 10 % of the roll
  // (the two runs differ only by the order of round-off in the turned positions)
  const Vec3 expected(-roll.y(), roll.x(), 0);
  EXPECT_LT((turned - expected).head<2>().norm(), 0.1 * roll.head<2>().norm());
}

// The shipped 384-tet ball without its damping, at the project's default solver settings, left at
// rest on the ground: it stays at rest (issue 20, "a soft body at rest does not stay at rest").
// It is first brought to rest with the shipped scene's damping β = 0.02 s (5 s), then runs 3 s
// undamped. Dropped undamped instead, this coarse ball rocks between its facets at up to 6 cm/s
// (the rocking's energy, 40 mJ, decays by backward Euler's damping of its ~1.5 s period by about
// 7 mJ/s: docs/notes/rolling-soft-ball.md).
TEST(SoftBallDropTest, TheCoarseBallLeftAtRestStaysAtRestWithoutDamping) {
  const std::string mesh = std::string(SIM_SOURCE_DIR) + "/resources/meshes/soft_ball.msh";
  const auto scene_text = [&](Real damping) {
    return R"({"materials": {"tomato": {"friction": 0.75, "density": 1000}},
      "objects": [{"name": "ground", "type": "plane"},
        {"name": "ball", "type": "tetmesh", "file": ")" +
           mesh + R"(", "scale": 2.5, "position": [0, 0, 0.12], "material": "tomato",
         "youngs_modulus": 1e5, "poisson_ratio": 0.45, "material_model": "neo_hookean",
         "damping": )" +
           std::to_string(damping) + "}]}";
  };
  Expected<io::Scene> damped = io::ParseScene(scene_text(0.02), "ball.json");
  Expected<io::Scene> undamped = io::ParseScene(scene_text(0), "ball.json");
  ASSERT_TRUE(damped.ok()) << damped.diagnostics().Format();
  ASSERT_TRUE(undamped.ok()) << undamped.diagnostics().Format();
  const NsnSettings defaults;
  ASSERT_EQ(ReadNsnSettings(undamped->model->options.solver).newton_iterations,
            defaults.newton_iterations);
  const std::unique_ptr<Simulation> settling = StartNsn(damped.value());
  const std::unique_ptr<Simulation> resting = StartNsn(undamped.value());
  ASSERT_TRUE(settling && resting);
  for (int i = 0; i < 600; ++i) settling->Step();
  resting->set_state(settling->state());

  const Model& model = *undamped->model;
  const Real mass = ParticleMass(model);
  Real late_speed = 0;
  Vec3 first = Vec3::Zero(), last = Vec3::Zero();
  for (int i = 0; i < 360; ++i) {
    const StepReport& report = resting->Step();
    ASSERT_EQ(report.status & (kStepNonFinite | kStepRunaway), 0u) << "step " << i;
    Vec3 momentum = Vec3::Zero(), centre = Vec3::Zero();
    for (int p = 0; p < model.particle_count(); ++p) {
      momentum += model.particle_mass[p] * resting->state().particle_v_W[p];
      centre += model.particle_mass[p] * resting->state().particle_x_W[p];
    }
    late_speed = std::max(late_speed, momentum.norm() / mass);
    last = centre / mass;
    if (i == 0) first = last;
  }
  std::printf(
      "coarse ball at rest, undamped, 3 s at the defaults: centre speed ≤ %.2e m/s, moved "
      "%.2e m\n",
      late_speed, (last - first).norm());
  // at rest: 1 mm/s is 2 % of its undamped rocking's peak (6 cm/s); 0.1 mm of motion in 3 s
  EXPECT_LT(late_speed, 1e-3);
  EXPECT_LT((last - first).norm(), 1e-4);
}

// The shipped scene "a soft ball resting on the ground" (scenes/soft_ball.json: the project's
// 384-tet ball, 4 × 50, tomato-like damping β = 0.02 s) must land and come to rest, held by
// contact forces that carry its weight. Before the damping it rocked on its facets by ±2 cm (peak
// 0.05 m/s) for as long as it ran.
TEST(SoftBallDropTest, TheShippedSoftBallComesToRest) {
  Expected<io::Scene> scene = io::LoadScene(std::string(SIM_SOURCE_DIR) + "/scenes/soft_ball.json");
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  const Model& model = *scene->model;
  const std::unique_ptr<Simulation> simulation = StartNsn(scene.value());
  ASSERT_TRUE(simulation);
  Simulation& sim = *simulation;
  const Real mass = ParticleMass(model);
  const Real weight = mass * -model.options.gravity.z();
  const auto centre_of_mass = [&](const State& state) {
    Vec3 centre = Vec3::Zero();
    for (int p = 0; p < model.particle_count(); ++p)
      centre += model.particle_mass[p] * state.particle_x_W[p];
    return Vec3(centre / mass);
  };
  const Vec3 released = centre_of_mass(scene->initial_state);
  // 5 s; the last 0.5 s (60 steps) are checked
  const int steps = 600, checked = 60;
  Real late_speed = 0, late_force_error = 0;
  Vec3 window_start = Vec3::Zero(), window_end = Vec3::Zero();
  for (int i = 0; i < steps; ++i) {
    const StepReport& report = sim.Step();
    ASSERT_EQ(report.status & (kStepNonFinite | kStepRunaway), 0u) << "step " << i;
    if (i < steps - checked) continue;
    const State& state = sim.state();
    Vec3 momentum = Vec3::Zero();
    for (int p = 0; p < model.particle_count(); ++p)
      momentum += model.particle_mass[p] * state.particle_v_W[p];
    late_speed = std::max(late_speed, momentum.norm() / mass);
    window_end = centre_of_mass(state);
    if (i == steps - checked) window_start = window_end;
    Real normal = 0;
    for (const Contact& contact : sim.contacts().items) normal += contact.normal_force;
    late_force_error = std::max(late_force_error, std::abs(normal - weight) / weight);
  }
  const Real late_motion = (window_end - window_start).norm();
  std::printf(
      "shipped soft ball over its last %d steps: centre speed ≤ %.2e m/s, centre moved %.2e m, "
      "|Σ normal force − m g| ≤ %.2e m g; it rolled %.3f m from where it was released onto a "
      "facet\n",
      checked, late_speed, late_motion, late_force_error, (window_end - released).head<2>().norm());
  // at rest: 1 mm/s is 2 % of the rocking's peak speed without the damping (0.05 m/s), and the
  // centre stays within 0.5 mm over the last 0.5 s (the rocking swept ±2 cm)
  EXPECT_LT(late_speed, 1e-3);
  EXPECT_LT(late_motion, 5e-4);
  // static equilibrium: the contacts carry the weight (the inexact solve leaves ~1e-5)
  EXPECT_LT(late_force_error, 0.01);
}

}  // namespace
}  // namespace sim
