// Cantilever (style §3.8 "FEM" / architecture §7): the beam of scenes/validation/cantilever.json,
// clamped at x = 0 and loaded at the tip, against Euler–Bernoulli's δ = P L³ / (3 E I).
//  1. Refinement study: the linear FE solution (engine rest tangent ∂P/∂F(I), structured meshes of
//     10n × n × n cells) converges toward δ and is within 5 % at the finest mesh (n = 8,
//     25 600 tets). Constant-strain tets lock in bending, hence the fine mesh.
//  2. The NSN solver holds that static solution on the scene's own mesh: started from it with the
//     tip load applied, the tip oscillates about it (the element rows' forces are the FE forces).
#include <cmath>
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "engine/io/scene_file.h"
#include "engine/solvers/nsn/nsn_settings.h"
#include "engine/step/pipeline.h"
#include "tests/support/fem_static.h"

namespace sim {
namespace {

const std::string kScene = std::string(SIM_SOURCE_DIR) + "/scenes/validation/cantilever.json";

// the beam of the scene: its size, material and the tip load direction
struct Beam {
  Real length = 0, width = 0, height = 0;
  Real youngs = 0, poisson = 0;
  std::string model;
};

Beam SceneBeam(const Model& model, const State& state) {
  const SoftBody& body = model.soft_bodies.at(0);
  Vec3 lower = Vec3::Constant(1e9), upper = Vec3::Constant(-1e9);
  for (int k = 0; k < body.particle_count; ++k) {
    lower = lower.cwiseMin(state.particle_x_W[body.first_particle + k]);
    upper = upper.cwiseMax(state.particle_x_W[body.first_particle + k]);
  }
  const Vec3 size = upper - lower;
  return {size.x(),           size.y(),
          size.z(),           body.youngs_modulus,
          body.poisson_ratio, FemMaterialModelName(body.material_model)};
}

// the beam alone, clamped at x = 0, meshed with `cells`, no gravity
io::Scene BeamScene(const Beam& beam, int n) {
  char json[1024];
  std::snprintf(json, sizeof(json),
                R"({"gravity": [0, 0, 0], "objects": [{"name": "beam", "type": "tetmesh",
      "primitive": "box", "size": [%.17g, %.17g, %.17g], "cells": [%d, %d, %d],
      "position": [%.17g, 0, 0], "youngs_modulus": %.17g, "poisson_ratio": %.17g,
      "material_model": "%s", "fixed": {"box": {"min": [-1e-9, -1, -1], "max": [1e-9, 1, 1]}}}]})",
                beam.length, beam.width, beam.height, 10 * n, n, n, beam.length / 2, beam.youngs,
                beam.poisson, beam.model.c_str());
  Expected<io::Scene> scene = io::ParseScene(json, "beam.json");
  EXPECT_TRUE(scene.ok()) << scene.diagnostics().Format();
  return scene.value();
}

// the particles of the tip face (x = L) of soft body 0
std::vector<int> TipNodes(const Model& model, const State& state, Real length) {
  std::vector<int> tip;
  const SoftBody& body = model.soft_bodies.at(0);
  Real x_max = -1e9;
  for (int k = 0; k < body.particle_count; ++k) {
    x_max = std::max(x_max, state.particle_x_W[body.first_particle + k].x());
  }
  for (int k = 0; k < body.particle_count; ++k) {
    const int p = body.first_particle + k;
    if (state.particle_x_W[p].x() > x_max - 1e-6 * length) tip.push_back(p);
  }
  return tip;
}

// tip load P, split evenly over the tip nodes, along −z [N]
std::vector<Vec3> TipForces(const Model& model, const std::vector<int>& tip, Real load) {
  std::vector<Vec3> forces(model.particle_count(), Vec3::Zero());
  for (int p : tip) forces[p] = Vec3(0, 0, -load / tip.size());
  return forces;
}

Real MeanZ(const std::vector<Vec3>& displacement, const std::vector<int>& nodes) {
  Real sum = 0;
  for (int p : nodes) sum += displacement[p].z();
  return sum / nodes.size();
}

class CantileverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Expected<io::Scene> scene = io::LoadScene(kScene);
    ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
    scene_ = scene.value();
    beam_ = SceneBeam(*scene_.model, scene_.initial_state);
  }

  // δ = P L³/(3 E I), I = W H³/12
  Real BeamTheory(Real load) const {
    const Real inertia = beam_.width * std::pow(beam_.height, 3) / 12;
    return load * std::pow(beam_.length, 3) / (3 * beam_.youngs * inertia);
  }

  io::Scene scene_;
  Beam beam_;
};

TEST_F(CantileverTest, RefinementConvergesToBeamTheory) {
  // any load: the problem is linear; 1 N
  const Real load = 1;
  const Real reference = BeamTheory(load);
  std::printf("cantilever %g x %g x %g m, E = %g Pa, nu = %g, P = %g N: PL^3/(3EI) = %.6e m\n",
              beam_.length, beam_.width, beam_.height, beam_.youngs, beam_.poisson, load,
              reference);
  std::printf("   n  cells        tets   nodes  tip deflection [m]  ratio to beam theory\n");
  Real previous_error = 1e9;
  Real finest_ratio = 0;
  for (int n : {2, 4, 6, 8}) {
    const io::Scene scene = BeamScene(beam_, n);
    const Model& model = *scene.model;
    const std::vector<int> tip = TipNodes(model, scene.initial_state, beam_.length);
    const std::vector<Vec3> u = test_support::SolveLinearStatic(
        model, 0, scene.initial_state.particle_x_W, TipForces(model, tip, load));
    const Real deflection = -MeanZ(u, tip);
    const Real ratio = deflection / reference;
    std::printf("  %2d  %3dx%dx%d  %7d  %6d  %.6e        %.4f\n", n, 10 * n, n, n,
                model.tet_count(), model.particle_count(), deflection, ratio);
    // locking only ever makes the FE beam stiffer, and refinement relaxes it monotonically
    EXPECT_LT(ratio, 1.0);
    EXPECT_LT(std::abs(1 - ratio), previous_error) << "n = " << n;
    previous_error = std::abs(1 - ratio);
    finest_ratio = ratio;
  }
  // the issue's bar: within 5 % on the finest mesh (Timoshenko shear adds ~0.8 % to the beam
  // theory for L/H = 10, so the FE value approaches from below and stays under 1)
  EXPECT_NEAR(finest_ratio, 1, 0.05);
}

// how the NSN solver holds a static solution: the time average of the tip deflection over its
// linear static value, and the largest deviation from it
struct Hold {
  Real mean = 0, worst = 0;
  int steps = 0;
  bool finite = true;
};

Hold HoldStaticSolution(const io::Scene& scene, const Beam& beam, Real expected_scale,
                        const SolverOptions& settings, Real* expected_out) {
  // the scene's beam and mesh, its tip weight detached and gravity off; a tip load of 0.5 % L
  // deflection, and the state started at the linear static solution of this mesh
  auto model = std::make_shared<Model>(*scene.model);
  model->options.solver = settings;
  model->options.gravity.setZero();
  model->attachment_particle.clear();
  model->attachment_body.clear();
  model->attachment_p_B.clear();
  model->attachment_compliance.clear();
  const Real load = 0.005 * beam.length / expected_scale;
  State state = scene.initial_state;
  const std::vector<int> tip = TipNodes(*model, state, beam.length);
  const std::vector<Vec3> forces = TipForces(*model, tip, load);
  const std::vector<Vec3> u =
      test_support::SolveLinearStatic(*model, 0, state.particle_x_W, forces);
  const Real expected = MeanZ(u, tip);
  *expected_out = expected;
  for (int p = 0; p < model->particle_count(); ++p) state.particle_x_W[p] += u[p];
  Expected<std::unique_ptr<Simulation>> simulation = Simulation::Create(model, state, "nsn");
  EXPECT_TRUE(simulation.ok());
  Simulation& sim = *simulation.value();
  sim.control().particle_force_W = forces;

  // 0.4 s of holding (about two periods of the first bending mode)
  Hold hold;
  hold.steps = static_cast<int>(std::ceil(0.4 / settings.dt));
  Real sum = 0;
  for (int i = 0; i < hold.steps; ++i) {
    const StepReport& report = sim.Step();
    if (report.status & kStepNonFinite) {
      hold.finite = false;
      return hold;
    }
    std::vector<Vec3> displacement(model->particle_count());
    for (int p = 0; p < model->particle_count(); ++p) {
      displacement[p] = sim.state().particle_x_W[p] - scene.initial_state.particle_x_W[p];
    }
    const Real ratio = MeanZ(displacement, tip) / expected;
    hold.worst = std::max(hold.worst, std::abs(ratio - 1));
    sum += ratio;
  }
  hold.mean = sum / hold.steps;
  return hold;
}

TEST_F(CantileverTest, SolverHoldsTheStaticSolutionOfTheSceneMesh) {
  // the tip oscillates about the static solution, because the first steps build the element
  // multipliers up from 0 and the start is not exactly at rest for the solver; its time average
  // equals the static deflection within 1 % (the linear vs co-rotational difference at 0.5 %
  // deflection is ~1e-4; an unfinished part of a period adds < 0.2 %) and the swing stays
  // within 5 %
  Real expected = 0;
  const Hold hold =
      HoldStaticSolution(scene_, beam_, BeamTheory(1), scene_.model->options.solver, &expected);
  ASSERT_TRUE(hold.finite);
  std::printf(
      "static tip deflection %.6e m; NSN tip over %d steps: mean %.4f of it, largest "
      "deviation %.2f %%\n",
      -expected, hold.steps, hold.mean, 100 * hold.worst);
  EXPECT_NEAR(hold.mean, 1, 0.01);
  EXPECT_LT(hold.worst, 0.05);
}

TEST_F(CantileverTest, WoodburyPreconditionerHoldsItAtAFourTimesLargerStep) {
  // the scene needs Δt = 1/480 s with 50 Jacobi-preconditioned PCR iterations (c·Δt/h ≲ 0.4 ×
  // the iterations, scenes/README.md); with the element block inverted exactly
  // (fem_preconditioner = woodbury) 10 iterations hold the same static solution at Δt = 1/120 s,
  // within the same 1 % / 5 % as above, where the diagonal with 10 iterations lets the beam go
  SolverOptions settings = scene_.model->options.solver;
  settings.dt = 1.0 / 120;
  settings.Set("linear_iterations", 10);
  settings.Set("wave_iterations", false);  // the diagonal at 10, not raised to the wave's count
  Real expected = 0;
  settings.Set("fem_preconditioner", FemPreconditioner::kWoodbury);
  const Hold woodbury = HoldStaticSolution(scene_, beam_, BeamTheory(1), settings, &expected);
  settings.Set("fem_preconditioner", FemPreconditioner::kJacobi);
  const Hold jacobi = HoldStaticSolution(scene_, beam_, BeamTheory(1), settings, &expected);
  std::printf(
      "Δt = 1/120 s, 10 PCR iterations, %d steps: woodbury mean %.4f of the static tip "
      "deflection, largest deviation %.2f %%; jacobi mean %.4f, largest deviation %.2f %%%s\n",
      woodbury.steps, woodbury.mean, 100 * woodbury.worst, jacobi.mean, 100 * jacobi.worst,
      jacobi.finite ? "" : " (non-finite)");
  ASSERT_TRUE(woodbury.finite);
  EXPECT_NEAR(woodbury.mean, 1, 0.01);
  EXPECT_LT(woodbury.worst, 0.05);
  EXPECT_TRUE(!jacobi.finite || jacobi.worst > 0.05);
}

}  // namespace
}  // namespace sim
