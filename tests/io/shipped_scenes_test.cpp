// The shipped scenes (scenes/, what `contact-sim scenes` lists): every one loads without an error,
// says what it is, and runs 1 s of its own time step headless without a non-finite state (a few
// slow scenes run a shorter stretch, see kStepBudget). The scripted scenes do what their
// descriptions say: the Fetch picks the tomato up and puts it on the scale, whose needle reads
// the weight; the Fetch holds the beam; the Allegro hands keep their objects when turned over.
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <numbers>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engine/dynamics/constraint_rows.h"
#include "engine/io/scene_catalog.h"
#include "engine/io/scene_file.h"
#include "engine/step/pipeline.h"
#include "tests/support/run_command.h"

namespace sim::io {
namespace {

const std::string kScenes = std::string(SIM_SOURCE_DIR) + "/scenes";

// Scenes too slow on this 2-core machine to step a whole second in the suite, with the number of
// steps they run instead. Without the FEM solver (issue 5) their tet meshes are loose particles
// colliding as a heap (pneunet: 936 particles, 2500 contacts, ~50 ms a step; allegro_gel: 867
// particles, ~25 ms; sphere_pile: 1000 spheres, ~25 ms). 24 steps still cross the first contacts.
const std::map<std::string, int> kStepBudget = {{"pneunet", 24},
                                                {"allegro_gel", 24},
                                                {"allegro_gel_across", 24},
                                                {"validation/sphere_pile", 36}};

std::vector<SceneEntry> ShippedScenes() {
  Diagnostics diagnostics;
  std::vector<SceneEntry> scenes = ListScenes(kScenes, &diagnostics);
  EXPECT_FALSE(diagnostics.has_errors()) << diagnostics.Format();
  return scenes;
}

std::string SceneName(const ::testing::TestParamInfo<SceneEntry>& info) {
  std::string name = info.param.id;
  std::replace_if(
      name.begin(), name.end(), [](char c) { return !std::isalnum(c); }, '_');
  return name;
}

class ShippedSceneTest : public ::testing::TestWithParam<SceneEntry> {};


TEST_P(ShippedSceneTest, LoadsAndRunsOneSecondFinite) {
  const SceneEntry& entry = GetParam();
  Expected<Scene> scene = LoadScene(entry.path);
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  EXPECT_FALSE(scene.diagnostics().has_errors()) << scene.diagnostics().Format();
  EXPECT_FALSE(entry.name.empty()) << entry.path;
  EXPECT_FALSE(entry.description.empty()) << entry.path;
  auto simulation =
      Simulation::Create(scene->model, scene->initial_state, scene->model->options.solver.name);
  ASSERT_TRUE(simulation.ok()) << simulation.diagnostics().Format();
  Simulation& sim = *simulation.value();
  const Real dt = sim.model().options.solver.dt;
  const auto budget = kStepBudget.find(entry.id);
  const int steps =
      budget != kStepBudget.end() ? budget->second : static_cast<int>(std::ceil(1.0 / dt - 1e-9));
  for (int i = 0; i < steps; ++i) {
    const StepReport& report = sim.Step();
    // finite, and not diverging while finite (kStepRunaway: a body faster than 1 km/s)
    ASSERT_EQ(report.status & (kStepNonFinite | kStepRunaway), 0u)
        << entry.id << " step " << i << ": " << report.message;
  }
  EXPECT_TRUE(IsFinite(sim.state()));
  EXPECT_NEAR(sim.state().time, steps * dt, 1e-9);
}

INSTANTIATE_TEST_SUITE_P(Scenes, ShippedSceneTest, ::testing::ValuesIn(ShippedScenes()), SceneName);


TEST(ShippedScenesTest, ContactSimListsTheSeedScenes) {
#ifndef SIM_HAVE_CLI
  GTEST_SKIP() << "contact-sim is not built in this configuration (SIM_BUILD_APP=OFF)";
#endif
  const auto result = test_support::RunCommand(
      std::string(SIM_BINARY_DIR) + "/bin/contact-sim scenes --scenes-dir " + kScenes,
      std::string(SIM_BINARY_DIR) + "/shipped_scenes_list.log");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  for (const char* id :
       {"fetch_tomato", "fetch_beam", "allegro_ball", "allegro_grasp", "allegro_gel", "pneunet",
        "table_pile", "humanoids", "sliding_boxes", "log_slide"}) {
    EXPECT_THAT(result.output, ::testing::HasSubstr(id)) << id;
  }
}


TEST(ShippedScenesTest, TheTablePileStartsWithoutOverlaps) {
  // scenes/tools/make_table_pile.py raises each table 5 mm clear of the ground and of the tables
  // below it: the first step finds no penetration and the tables fall from rest (a scene that
  // started 12.8 cm into the ground shot its tables out at several m/s in its first step)
  Expected<Scene> pile = LoadScene(kScenes + "/table_pile.json");
  ASSERT_TRUE(pile.ok());
  Expected<std::unique_ptr<Simulation>> sim =
      Simulation::Create(pile->model, pile->initial_state, "nsn");
  ASSERT_TRUE(sim.ok());
  const StepReport& report = sim.value()->Step();
  EXPECT_EQ(report.max_penetration, 0);
  Real speed = 0;
  for (const Vec3& v : sim.value()->state().body_v_W) speed = std::max(speed, v.norm());
  // one step of free fall, g Δt = 0.081 m/s, and nothing faster
  EXPECT_LT(speed, 9.81 * 0.0083 * 1.01);
}


TEST(ShippedScenesTest, SeedCountsOfTable2) {
  // seed 002 Table 2 (digest nsn-and-friction.md §13-14): table pile 54 bodies, mu 0.7, 4.7 kg;
  // the beam's 16 links of 3 g with 250 N·m/rad bending joints; the tomato Y, nu, rho
  Expected<Scene> pile = LoadScene(kScenes + "/table_pile.json");
  ASSERT_TRUE(pile.ok());
  EXPECT_EQ(pile->model->body_count(), 54);
  for (int b = 0; b < 54; ++b) EXPECT_NEAR(pile->model->body_mass[b], 4.7, 1e-12);
  EXPECT_DOUBLE_EQ(pile->model->materials[pile->model->FindMaterial("wood")].friction, 0.7);

  Expected<Scene> beam = LoadScene(kScenes + "/fetch_beam.json");
  ASSERT_TRUE(beam.ok());
  int links = 0, bends = 0;
  for (int b = 0; b < beam->model->body_count(); ++b) {
    if (beam->model->body_name[b].rfind("beam_", 0) != 0) continue;
    ++links;
    EXPECT_NEAR(beam->model->body_mass[b], 0.003, 1e-15);
  }
  for (int j = 0; j < beam->model->joint_count(); ++j) {
    if (beam->model->joint_name[j].rfind("beam_bend_", 0) != 0) continue;
    ++bends;
    EXPECT_NEAR(1 / beam->model->JointAngularCompliance(j), 250, 1e-9);
    EXPECT_EQ(beam->model->joint_compliance[j], 0);
  }
  EXPECT_EQ(links, 16);
  EXPECT_EQ(bends, 15);

  Expected<Scene> tomato = LoadScene(kScenes + "/fetch_tomato.json");
  ASSERT_TRUE(tomato.ok());
  ASSERT_EQ(tomato->model->soft_bodies.size(), 1u);
  const SoftBody& soft = tomato->model->soft_bodies[0];
  EXPECT_EQ(soft.youngs_modulus, 1e5);
  EXPECT_EQ(soft.poisson_ratio, 0.45);
  EXPECT_DOUBLE_EQ(tomato->model->materials[soft.material].friction, 0.75);
  EXPECT_DOUBLE_EQ(tomato->model->materials[tomato->model->FindMaterial("fetch")].friction, 0.75);
  Real mass = 0;
  for (int p = soft.first_particle; p < soft.first_particle + soft.particle_count; ++p) {
    mass += tomato->model->particle_mass[p];
  }
  EXPECT_NEAR(mass, 1000 * 143.92e-6, 1e-5);  // rho V of resources/meshes/tomato.msh (143.92 cm³)
}


// --- the Fetch and the scale
// ----------------------------------------------------------------------

// dimensions of the scale in scenes/tools/make_fetch_scenes.py
constexpr double kSpring = 200;     // platform spring [N/m]
constexpr double kCrank = 0.012;    // needle crank radius [m]
constexpr double kTableTop = 0.72;  // [m]
constexpr double kG = 9.81;

std::unique_ptr<Simulation> Start(const std::string& path) {
  Expected<Scene> scene = LoadScene(path);
  EXPECT_TRUE(scene.ok()) << scene.diagnostics().Format();
  if (!scene.ok()) return nullptr;
  auto simulation = Simulation::Create(scene->model, scene->initial_state, "nsn");
  EXPECT_TRUE(simulation.ok()) << simulation.diagnostics().Format();
  return simulation.ok() ? std::move(simulation.value()) : nullptr;
}

void RunUntil(Simulation* sim, double time) {
  while (sim->state().time < time - 1e-9) {
    ASSERT_EQ(sim->Step().status & kStepNonFinite, 0u) << sim->report().message;
  }
}

constexpr double kRod = 0.05;  // rod between the crank end and the platform's bracket [m]

// needle angle [rad]
double NeedleAngle(const Simulation& sim) {
  const Model& model = sim.model();
  const int pivot = model.FindJoint("scale_needle_pivot");
  return JointCoordinate(model, pivot, Pose{}, sim.state().body_X_WB[model.joint_child[pivot]]);
}

// the mass [kg] the needle reads: the platform sank m g / k, which the linkage turns into the
// needle angle theta: drop = r sin(theta) + L - sqrt(L² - (r (1 - cos(theta)))²) (the crank end
// goes down and sideways, tilting the rod of length L; make_fetch_scenes.py platform_drop)
double ScaleReading(const Simulation& sim) {
  const double theta = NeedleAngle(sim);
  const double side = kCrank * (1 - std::cos(theta));
  const double drop = kCrank * std::sin(theta) + kRod - std::sqrt(kRod * kRod - side * side);
  return kSpring * drop / kG;
}


TEST(FetchTomatoTest, ScaleNeedleReadsAWeightOnItsPlatform) {
  // loads hung on the platform as forces (the robot has not reached the scale before 5 s): the
  // platform sinks m g / k and the rod turns the needle (ScaleReading). The platform's and rod's
  // own weights are carried by the spring's target and the needle is nearly balanced, so the
  // reading is within 1 % (measured +0.4 % to +0.5 %) once the damped platform has settled
  // (0.8 s each); the 100 g tick is within 0.5° of the needle (measured 0.1°)
  auto sim = Start(SIM_SOURCE_DIR "/tests/data/fetch_tomato_rigid.json");
  ASSERT_TRUE(sim);
  const int platform = sim->model().FindBody("scale_platform");
  RunUntil(sim.get(), 0.5);
  EXPECT_NEAR(ScaleReading(*sim), 0.0, 1e-4);  // empty: the needle on the zero tick
  double time = 0.5;
  for (double mass : {0.05, 0.1, 0.2}) {
    sim->control().body_force_W[platform] = Vec3(0, 0, -mass * kG);
    time += 0.8;
    RunUntil(sim.get(), time);
    EXPECT_NEAR(ScaleReading(*sim), mass, 0.01 * mass) << mass << " kg";
  }
  // the 100 g tick of the dial sits where the needle points under 100 g
  sim->control().body_force_W[platform] = Vec3(0, 0, -0.1 * kG);
  RunUntil(sim.get(), time + 0.8);
  const Model& model = sim->model();
  int tick = -1;
  for (int s = 0; s < model.shape_count(); ++s) {
    if (model.shape_name[s] == "scale_tick_100g") tick = s;
  }
  ASSERT_GE(tick, 0);
  const Vec3 tick_axis = model.shape_X_BS[tick].q * Vec3::UnitZ();
  EXPECT_NEAR(std::atan2(tick_axis.x(), tick_axis.z()), NeedleAngle(*sim),
              0.5 * std::numbers::pi / 180);
}


// checks of the pick and place: after the lift keyframe (4.3 s) the tomato hangs between the
// finger pads above the table; at the end it lies on the scale, whose needle reads its mass
void CheckPickAndPlace(Simulation* sim, double tomato_mass, double tolerance,
                       const std::function<Vec3(const Simulation&)>& tomato_position) {
  const Model& model = sim->model();
  RunUntil(sim, 4.6);
  const Vec3 p = tomato_position(*sim);
  const Vec3 l = sim->state().body_X_WB[model.FindBody("fetch/l_gripper_finger_link")].p;
  const Vec3 r = sim->state().body_X_WB[model.FindBody("fetch/r_gripper_finger_link")].p;
  EXPECT_GT(p.z(), kTableTop + 0.1);            // lifted 0.17 m by the script
  EXPECT_LT((p - 0.5 * (l + r)).norm(), 0.02);  // between the fingers
  RunUntil(sim, 10.0);
  const Vec3 placed = tomato_position(*sim);
  const Vec3 platform = sim->state().body_X_WB[model.FindBody("scale_platform")].p;
  EXPECT_LT(std::hypot(placed.x() - platform.x(), placed.y() - platform.y()), 0.03);
  EXPECT_NEAR(ScaleReading(*sim), tomato_mass, tolerance * tomato_mass);
}


TEST(FetchTomatoTest, PicksARigidTomatoAndTheScaleReadsIt) {
  // the scripted scene with the tomato as a rigid ball of its mass (tests/data, written by
  // make_fetch_scenes.py): the grasp, the transfer and the scale do not need the FEM solver.
  // 1 % on the reading (measured +0.4 %, as for a hung weight)
  auto sim = Start(SIM_SOURCE_DIR "/tests/data/fetch_tomato_rigid.json");
  ASSERT_TRUE(sim);
  const int tomato = sim->model().FindBody("tomato");
  ASSERT_GE(tomato, 0);
  CheckPickAndPlace(sim.get(), sim->model().body_mass[tomato], 0.01,
                    [tomato](const Simulation& s) { return s.state().body_X_WB[tomato].p; });
}


TEST(FetchTomatoTest, PicksTheSoftTomatoAndTheScaleReadsIt) {
#if !__has_include("engine/solvers/nsn/element_rows.h")
  // TODO(scenes): re-check once the tet FEM of issue 5 is merged; without it the tomato's nodes
  // are loose particles that cannot be grasped
  GTEST_SKIP() << "tet FEM not in this build (issue 5): the soft tomato is loose particles";
#endif
  auto sim = Start(kScenes + "/fetch_tomato.json");
  ASSERT_TRUE(sim);
  const SoftBody& soft = sim->model().soft_bodies.at(0);
  double mass = 0;
  for (int p = soft.first_particle; p < soft.first_particle + soft.particle_count; ++p) {
    mass += sim->model().particle_mass[p];
  }
  // 3 %: a soft tomato settles and wobbles on the platform longer than a rigid ball
  CheckPickAndPlace(sim.get(), mass, 0.03, [soft](const Simulation& s) {
    Vec3 c = Vec3::Zero();
    for (int p = soft.first_particle; p < soft.first_particle + soft.particle_count; ++p) {
      c += s.state().particle_x_W[p];
    }
    return Vec3(c / soft.particle_count);
  });
}


TEST(FetchBeamTest, GripperHoldsTheBeamAndTheHoleBendsIt) {
  // at 1.5 s the beam hangs from the gripper above the hole; at 5 s, with the tip caught in the
  // hole and the grip 30 mm aside, the top link follows the grip while the tip stays in the hole
  // (16 mm wide): the beam bends
  auto sim = Start(kScenes + "/fetch_beam.json");
  ASSERT_TRUE(sim);
  const Model& model = sim->model();
  const int top = model.FindBody("beam_00");
  const int tip = model.FindBody("beam_15");
  const int fingers = model.FindBody("fetch/l_gripper_finger_link");
  RunUntil(sim.get(), 1.5);
  const double drop = sim->state().body_X_WB[fingers].p.z() - sim->state().body_X_WB[top].p.z();
  EXPECT_LT(std::abs(drop), 0.02);  // still held where it started
  RunUntil(sim.get(), 5.0);
  const Vec3 p_top = sim->state().body_X_WB[top].p;
  const Vec3 p_tip = sim->state().body_X_WB[tip].p;
  EXPECT_GT(p_top.x() - 0.65, 0.02);             // moved with the grip
  EXPECT_LT(std::abs(p_tip.x() - 0.65), 0.008);  // held in the hole
  EXPECT_LT(p_tip.z(), kTableTop + 0.06);        // below the fixture's top
}


TEST(AllegroGraspTest, HandsKeepTheirObjectsWhenTurnedOver) {
  // at 4.5 s the hands are turned 60° about the forearm; each object is still in its palm:
  // within 8 cm of the palm (a palm is 11 cm wide) and above the floor
  auto sim = Start(kScenes + "/allegro_grasp.json");
  ASSERT_TRUE(sim);
  RunUntil(sim.get(), 4.5);
  const Model& model = sim->model();
  const char* objects[] = {"star", "ring", "cross", "bone"};
  for (int k = 0; k < 4; ++k) {
    const Vec3 object = sim->state().body_X_WB[model.FindBody(objects[k])].p;
    const Vec3 palm =
        sim->state().body_X_WB[model.FindBody("hand" + std::to_string(k) + "/palm_link")].p;
    EXPECT_LT((object - palm).norm(), 0.08) << objects[k];
    EXPECT_GT(object.z(), 0.2) << objects[k];
  }
  const int wrist = model.FindJoint("wrist0");
  EXPECT_NEAR(
      JointCoordinate(model, wrist, Pose{}, sim->state().body_X_WB[model.joint_child[wrist]]),
      -60 * std::numbers::pi / 180, 0.05);
}

}  // namespace
}  // namespace sim::io
