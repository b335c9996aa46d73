// Two-way coupling of FEM and rigid bodies through contact (issue 5), on
// scenes/validation/box_on_soft_block.json: a 1 kg rigid box on a soft cube on the ground. At rest
// the block is shorter by δ = ρgH²/(2E) + mgH/(EA) (uniaxial stress, ν = 0) and the contact forces
// on the box add up to its weight.
#include <cmath>
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "engine/io/scene_file.h"
#include "engine/step/pipeline.h"

namespace sim {
namespace {

const std::string kScene =
    std::string(SIM_SOURCE_DIR) + "/scenes/validation/box_on_soft_block.json";

TEST(SoftCouplingTest, BoxOnSoftBlockSinksByTheBlockStiffnessAndIsCarried) {
  Expected<io::Scene> scene = io::LoadScene(kScene);
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  const Model& model = *scene->model;
  const SoftBody& block = model.soft_bodies.at(0);
  const int box = model.FindBody("box");
  ASSERT_GE(box, 0);
  Expected<std::unique_ptr<Simulation>> simulation =
      Simulation::Create(scene->model, scene->initial_state, "nsn");
  ASSERT_TRUE(simulation.ok());
  Simulation& sim = *simulation.value();
  // 2 s; the box on the block (k = EA/H = 5000 N/m, m = 1 kg) has ωΔt = 0.6, so backward Euler
  // damps it to rest within a fraction of a second
  for (int i = 0; i < 240; ++i) ASSERT_EQ(sim.Step().status & kStepNonFinite, 0u);

  // the block's height: its top and bottom node layers, before and after
  const State& initial = scene->initial_state;
  Real z_min = 1e9, z_max = -1e9;
  for (int k = 0; k < block.particle_count; ++k) {
    z_min = std::min(z_min, initial.particle_x_W[block.first_particle + k].z());
    z_max = std::max(z_max, initial.particle_x_W[block.first_particle + k].z());
  }
  Real top = 0, bottom = 0;
  int top_count = 0, bottom_count = 0;
  for (int k = 0; k < block.particle_count; ++k) {
    const int p = block.first_particle + k;
    if (initial.particle_x_W[p].z() > z_max - 1e-6) {
      top += sim.state().particle_x_W[p].z();
      ++top_count;
    } else if (initial.particle_x_W[p].z() < z_min + 1e-6) {
      bottom += sim.state().particle_x_W[p].z();
      ++bottom_count;
    }
  }
  const Real height = z_max - z_min;
  const Real shortening = height - (top / top_count - bottom / bottom_count);

  // δ = ρgH²/(2E) + mgH/(EA): uniaxial stress of a linear co-rotational block with ν = 0
  const Real g = -model.options.gravity.z();
  const Real rho = model.materials[block.material].density;
  const Real area = height * height;  // a cube
  const Real mass = model.body_mass[box];
  const Real expected = rho * g * height * height / (2 * block.youngs_modulus) +
                        mass * g * height / (block.youngs_modulus * area);
  std::printf("block shortened by %.4f mm, linear elasticity predicts %.4f mm\n", 1e3 * shortening,
              1e3 * expected);
  // the bar is 10 %; a 1-D uniaxial problem has exact nodal values with linear elements
  // (the box part is a uniform strain, the self weight a quadratic one that nodes still capture),
  // so 1 % only leaves room for the solver's tolerance (measured: agreement to 1e-4)
  EXPECT_NEAR(shortening, expected, 0.01 * expected);

  // at rest the contacts carry the box: Σ λ_n n_z over its contacts equals m g (2 %: the box is
  // still settling by a few µm/s after 2 s)
  Real carried = 0;
  for (const Contact& c : sim.contacts().items) {
    const Real sign = c.a.body == box ? 1 : c.b.body == box ? -1 : 0;
    carried += sign * c.normal_force * c.normal_W.z();
  }
  std::printf("contact force on the box %.4f N, weight %.4f N\n", carried, mass * g);
  EXPECT_NEAR(carried, mass * g, 0.02 * mass * g);
  // and it is at rest on the block
  EXPECT_LT(sim.state().body_v_W[box].norm(), 1e-3);
}

}  // namespace
}  // namespace sim
