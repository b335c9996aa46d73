// Anisotropic (Matchstick) friction driven by structure fields (issue 18), for every solver that
// claims contacts: the sliding oracle of digest nsn-and-friction.md §2.12 / §20 item 4
// (λ_f = −λ_n A⁻¹v/√(vᵀA⁻¹v), A⁻¹ = diag(μ_t², μ_b²) at the end-of-step slip v), the isotropic
// limit μ_t = μ_b, boxes steered by uniform, rotated, channel and slalom fields, and no energy
// gain on a box spinning on an anisotropic plane (its contact frames turn every step, so the
// warm start's world-frame friction is re-projected each step).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <numbers>
#include <string>

#include "engine/model/model.h"
#include "engine/solvers/solver_registry.h"
#include "engine/state/state.h"
#include "engine/step/pipeline.h"
#include "tests/support/model_builder.h"
#include "tests/support/solver_accuracy.h"
#include "tests/support/solver_cases.h"
#include "tests/support/start_simulation.h"

namespace sim {
namespace {

using test_support::AddBody;
using test_support::Box;
using test_support::SolversWith;

constexpr Real kPi = std::numbers::pi;
constexpr Real kMajor = 0.8;  // μ_major of the test material
constexpr Real kMinor = 0.2;  // μ_minor
constexpr Real kIso = 0.4;    // μ

// a model whose one material is anisotropic and whose ground plane (z = 0) carries `field`
Model FieldModel(const StructureField* field, Real major = kMajor, Real minor = kMinor) {
  Model model = test_support::MakeEmptyModel(kIso);
  model.materials[0].friction_major = major;
  model.materials[0].friction_minor = minor;
  test_support::AddWorldShape(&model, test_support::Plane(), Pose{});
  if (field != nullptr) {
    model.structure_fields.push_back(std::make_shared<StructureField>(*field));
    model.shape_structure_field = {0};
  }
  return model;
}

StructureField Uniform(Real angle) {
  StructureField field;
  field.kind = StructureFieldKind::kUniform;
  field.procedural.angle = angle;
  return field;
}

// tight settings: the oracle holds at the converged solution
void Converge(const std::string& solver, Model* model) {
  if (solver == "nsn") {
    SettingValues& nsn = *model->options.solver.Find("nsn");
    nsn.Set("newton_iterations", 60);
    nsn.Set("newton_max_iterations", 60);
    nsn.Set("newton_tolerance", 1e-13);
    nsn.Set("linear_solver", 4);  // direct
  } else if (solver == "pgs" || solver == "dual") {
    model->options.solver.Find(solver)->Set("iterations", 200);
  } else if (solver == "primal") {
    // friction bounded by the converged iterate's own normal force, not the previous step's
    SettingValues& primal = *model->options.solver.Find("primal");
    primal.Set("iterations", 200);
    primal.Set("friction_normal", 1);
  }
}

// the oracle force for end-of-step slip v_tb in the (t, b) frame
Vec2 OracleForce(Real normal_force, const Vec2& v_tb, Real mu_t, Real mu_b) {
  const Vec2 a_inv_v(mu_t * mu_t * v_tb.x(), mu_b * mu_b * v_tb.y());
  return -normal_force * a_inv_v / std::sqrt(v_tb.dot(a_inv_v));
}

class AnisotropicFriction : public ::testing::TestWithParam<std::string> {};

// a 1 kg particle sliding at 2 m/s at angle φ from the grain t (field at 20° from x): after one
// step its contact force is the oracle's at the step's own end slip, to 1e-6 relative (the
// solvers are run to convergence; round-off is ~1e-12). Along t or b the force is anti-parallel
// to v; at 30° and 60° it is turned away from −v̂ by the oracle's angle, well over 0.1 rad.
TEST_P(AnisotropicFriction, SlidingParticleMatchesTheOracle) {
  const Real grain = 20 * kPi / 180;
  const StructureField field = Uniform(grain);
  const Vec3 t(std::cos(grain), std::sin(grain), 0), b = Vec3::UnitZ().cross(t);
  for (const Real phi_deg : {0.0, 30.0, 60.0, 90.0}) {
    SCOPED_TRACE("phi " + std::to_string(phi_deg));
    const Real phi = phi_deg * kPi / 180;
    Model model = FieldModel(&field);
    Converge(GetParam(), &model);
    State state;
    const Vec3 v0 = 2 * (std::cos(phi) * t + std::sin(phi) * b);
    test_support::AddParticle(&model, &state, "p", 1, 0.05, Vec3(0, 0, 0.05), v0);
    auto sim = test_support::StartSimulation(std::move(model), state, GetParam());
    ASSERT_TRUE(sim);
    for (int step = 0; step < 3; ++step) sim->Step();
    ASSERT_EQ(sim->contacts().count(), 1);
    const Contact& c = sim->contacts().items[0];
    // the contact frame is the grain's and the cone the full (μ_major, μ_minor) one
    EXPECT_NEAR(std::abs(c.tangent_W.dot(t)), 1, 1e-12);
    EXPECT_DOUBLE_EQ(c.friction_t, kMajor);
    EXPECT_DOUBLE_EQ(c.friction_b, kMinor);
    const Vec3 v = sim->state().particle_v_W[0];
    const Vec2 v_tb(v.dot(c.tangent_W), v.dot(c.bitangent_W));
    const Vec2 force(c.friction_force[0], c.friction_force[1]);
    const Vec2 expected = OracleForce(c.normal_force, v_tb, c.friction_t, c.friction_b);
    EXPECT_GT(c.normal_force, 9);
    std::printf("[ measured ] %s phi %2.0f deg: |force - oracle| / |oracle| = %.2e\n",
                GetParam().c_str(), phi_deg, (force - expected).norm() / expected.norm());
    EXPECT_LE((force - expected).norm(), 1e-6 * expected.norm())
        << "force " << force.transpose() << ", oracle " << expected.transpose();
    // the angle between the force and −v̂
    const Real turn = std::acos(std::clamp(-force.normalized().dot(v_tb.normalized()), -1.0, 1.0));
    if (phi_deg == 0 || phi_deg == 90) {
      EXPECT_LT(turn, 1e-6);
    } else {
      const Real oracle_turn = std::acos(-expected.normalized().dot(v_tb.normalized()));
      EXPECT_GT(oracle_turn, 0.1);
      EXPECT_NEAR(turn, oracle_turn, 1e-6);
    }
  }
}


// a box sliding and spinning for 1 s on a plane whose field makes μ_t = μ_b (μ_major = μ_minor =
// μ): the same trajectory as with no field at all, bit for bit (a round cone keeps the
// normal-only frame; contact_material.h), while the field path itself ran (d = 1)
TEST_P(AnisotropicFriction, RoundConeReproducesTheIsotropicRun) {
  const StructureField field = Uniform(0.3);
  State state;
  const auto build = [&](const StructureField* f) {
    Model model = FieldModel(f, kIso, kIso);
    state = State{};
    AddBody(&model, &state, "box", Box(Vec3(0.15, 0.1, 0.05)), 2,
            Pose{Vec3(0, 0, 0.05), Quat(Eigen::AngleAxisd(0.2, Vec3::UnitZ()))}, Vec3(2, 1, 0),
            Vec3(0, 0, 3));
    return model;
  };
  Model isotropic = build(nullptr);
  auto plain = test_support::StartSimulation(std::move(isotropic), state, GetParam());
  Model fielded = build(&field);
  auto grained = test_support::StartSimulation(std::move(fielded), state, GetParam());
  ASSERT_TRUE(plain && grained);
  bool saw_field = false;
  for (int step = 0; step < 120; ++step) {
    plain->Step();
    grained->Step();
    for (const Contact& c : grained->contacts().items) saw_field |= c.anisotropy == 1;
  }
  EXPECT_TRUE(saw_field);
  EXPECT_EQ(StateHash(plain->state()), StateHash(grained->state()));
  EXPECT_EQ(plain->state().body_X_WB[0].p, grained->state().body_X_WB[0].p);
}


// the path of a 0.2 × 0.2 × 0.1 m, 1 kg box launched at 3 m/s along `heading` on a ground with
// `field`: positions per step until it stops (or 4 s)
struct Path {
  std::vector<Vec3> position;
  Vec3 first_friction_W = Vec3::Zero();  // net friction force of the first step [N]
  Vec3 first_velocity_W = Vec3::Zero();  // the box's velocity after the first step [m/s]
};

Path Slide(const std::string& solver, const StructureField& field, const Vec3& start, Real heading,
           Real speed, Real duration, Real major = kMajor, Real minor = kMinor) {
  Model model = FieldModel(&field, major, minor);
  State state;
  const Vec3 v(speed * std::cos(heading), speed * std::sin(heading), 0);
  AddBody(&model, &state, "box", Box(Vec3(0.1, 0.1, 0.05)), 1,
          Pose{start + Vec3(0, 0, 0.05), Quat(Eigen::AngleAxisd(heading, Vec3::UnitZ()))}, v);
  auto sim = test_support::StartSimulation(std::move(model), state, solver);
  Path path;
  if (!sim) return path;
  const int steps = static_cast<int>(duration / sim->model().options.solver.dt);
  for (int step = 0; step < steps; ++step) {
    sim->Step();
    if (step == 0) {
      for (const Contact& c : sim->contacts().items) {
        path.first_friction_W +=
            c.friction_force[0] * c.tangent_W + c.friction_force[1] * c.bitangent_W;
      }
      path.first_velocity_W = sim->state().body_v_W[0];
    }
    path.position.push_back(sim->state().body_X_WB[0].p);
    if (sim->state().body_v_W[0].norm() < 1e-3 && step > 10) break;
  }
  return path;
}

Real Heading(const Vec3& d) { return std::atan2(d.y(), d.x()); }

// grain along x (μ_major 0.8 along x, μ_minor 0.2 along y), launch at 45°: the first step's net
// friction force points along the oracle's −A⁻¹v (within 0.02 rad: four corner contacts whose
// end slips differ by the box's small spin), so the x velocity dies first and the path turns
// toward +y, the low-friction axis: the final displacement lies above 45° by more than the
// oracle's first-step turn. Rotating the field by 90° mirrors the path about the 45° line (to
// 1 mm: the box and its launch are mirror-symmetric).
TEST_P(AnisotropicFriction, BoxCurvesTowardTheLowFrictionAxis) {
  const Path path = Slide(GetParam(), Uniform(0), Vec3::Zero(), kPi / 4, 3, 4);
  ASSERT_GT(path.position.size(), 10u);
  const Vec3 v = path.first_velocity_W;
  const Vec3 oracle(-kMajor * kMajor * v.x(), -kMinor * kMinor * v.y(), 0);
  EXPECT_NEAR(Heading(path.first_friction_W), Heading(oracle), 0.02);
  const Real oracle_turn = std::abs(Heading(oracle) - Heading(-v));
  EXPECT_GT(oracle_turn, 0.5);  // 0.71 rad at 45° for μ_major/μ_minor = 4
  const Vec3 end = path.position.back();
  std::printf(
      "[ measured ] %s: first-step friction heading %.4f rad, oracle %.4f; end heading "
      "%.4f rad (launch 0.7854)\n",
      GetParam().c_str(), Heading(path.first_friction_W), Heading(oracle), Heading(end));
  EXPECT_GT(Heading(end), kPi / 4 + 0.1) << "end " << end.transpose();

  const Path rotated = Slide(GetParam(), Uniform(kPi / 2), Vec3::Zero(), kPi / 4, 3, 4);
  const Vec3 end_rotated = rotated.position.back();
  EXPECT_LT(Heading(end_rotated), kPi / 4 - 0.1);
  EXPECT_NEAR(end_rotated.x(), end.y(), 1e-3);
  EXPECT_NEAR(end_rotated.y(), end.x(), 1e-3);
}


// a channel along +x through y = 0 (width 0.5 m, 45° turn): a box launched along +x at 1 m
// outside the line (twice the width, where the cone is turned fully) ends inside the channel,
// |y| < width, and never moves away from the line; the same launch over the channel's own
// on-line grain everywhere (uniform ⟂ x) keeps its offset (no lateral force: v ∥ b)
TEST_P(AnisotropicFriction, ChannelFieldGathersTheBox) {
  StructureField channel;
  channel.kind = StructureFieldKind::kChannel;
  channel.procedural.width = 0.5;
  const Path path = Slide(GetParam(), channel, Vec3(0, 1.0, 0), 0, 4, 6);
  ASSERT_GT(path.position.size(), 10u);
  Real previous = 1.0;
  for (const Vec3& p : path.position) {
    EXPECT_LE(std::abs(p.y()), previous + 1e-6);
    previous = std::abs(p.y());
  }
  std::printf("[ measured ] %s: channel end y %.4f m (start 1.0, width 0.5)\n", GetParam().c_str(),
              path.position.back().y());
  EXPECT_LT(std::abs(path.position.back().y()), channel.procedural.width)
      << "end " << path.position.back().transpose();
  const Path straight = Slide(GetParam(), Uniform(kPi / 2), Vec3(0, 1.0, 0), 0, 4, 6);
  EXPECT_NEAR(straight.position.back().y(), 1.0, 1e-6);
}


// slalom lanes along x (λ = 3 m, A = 0.3 m, grain ⟂ the lanes): a box launched at the trough of
// its lane (x = −λ/4, y = −A) along +x follows the lane, so it crosses the centre line y = 0
// once per half wavelength it travels: as many times as the lane has zeros x = kλ/2 between its
// start and its end
TEST_P(AnisotropicFriction, SlalomCrossesTheCentreLineAsTheLanesDo) {
  StructureField slalom;
  slalom.kind = StructureFieldKind::kSlalom;
  slalom.procedural.wavelength = 3;
  slalom.procedural.amplitude = 0.3;
  const Real lambda = slalom.procedural.wavelength;
  const Vec3 start(-lambda / 4, -slalom.procedural.amplitude, 0);
  const Path path = Slide(GetParam(), slalom, start, 0, 3, 8, 1.0, 0.05);
  ASSERT_GT(path.position.size(), 10u);
  int crossings = 0;
  for (std::size_t i = 1; i < path.position.size(); ++i) {
    crossings += (path.position[i - 1].y() < 0) != (path.position[i].y() < 0);
  }
  const Real x_end = path.position.back().x();
  int zeros = 0;
  for (int k = 0; k * lambda / 2 < x_end; ++k) zeros += k * lambda / 2 > start.x();
  std::printf("[ measured ] %s: slalom x %.3f -> %.3f m, %d crossings, %d lane zeros\n",
              GetParam().c_str(), start.x(), x_end, crossings, zeros);
  EXPECT_GE(zeros, 3);  // the lanes must be long enough to say something
  EXPECT_EQ(crossings, zeros) << "x_end " << x_end;
}


// a box spinning at 2 rad/s on an anisotropic plane, both surfaces grained (the box's grain turns
// with it, so t = normalize(ŝ_box + ŝ_ground) and d turn every step and the warm start's
// world-frame friction is re-projected onto the new frame): its energy ½mv² + ½ωᵀIω + mgz never
// grows, beyond 1e-9 J per step of round-off (a mis-projected warm start would add work of
// order μλ_nΔt·slip ≈ 1e-3 J)
TEST_P(AnisotropicFriction, SpinningBoxGainsNoEnergy) {
  const StructureField ground = Uniform(0);
  Model model = FieldModel(&ground);
  auto box_field = std::make_shared<StructureField>();
  box_field->kind = StructureFieldKind::kUniform;
  box_field->projection.kind = FieldProjection::kTriplanar;
  model.structure_fields.push_back(box_field);
  State state;
  AddBody(&model, &state, "box", Box(Vec3(0.2, 0.1, 0.05)), 1, Pose{Vec3(0, 0, 0.05)}, Vec3::Zero(),
          Vec3(0, 0, 2));
  model.shape_structure_field = {0, 1};
  auto sim = test_support::StartSimulation(std::move(model), state, GetParam());
  ASSERT_TRUE(sim);
  const auto energy = [&] {
    const State& s = sim->state();
    const Mat3 R = s.body_X_WB[0].q.toRotationMatrix();
    const Mat3 I = R * sim->model().body_inertia[0] * R.transpose();
    return 0.5 * s.body_v_W[0].squaredNorm() + 0.5 * s.body_w_W[0].dot(I * s.body_w_W[0]) +
           9.81 * s.body_X_WB[0].p.z();
  };
  Real previous = energy();
  Real max_gain = -1e300;
  Real min_d = 1, max_d = 0;
  for (int step = 0; step < 240; ++step) {
    sim->Step();
    const Real e = energy();
    max_gain = std::max(max_gain, e - previous);
    previous = e;
    for (const Contact& c : sim->contacts().items) {
      min_d = std::min(min_d, c.anisotropy);
      max_d = std::max(max_d, c.anisotropy);
    }
  }
  std::printf(
      "[ measured ] %s: spinning box, largest energy gain of a step %.3e J, d in "
      "[%.3f, %.3f]\n",
      GetParam().c_str(), max_gain, min_d, max_d);
  EXPECT_LT(max_gain, test_support::AccuracyOf(GetParam()).energy_gain_per_step);
  EXPECT_LT(min_d, max_d);  // the frame did turn (d follows the angle between the grains)
}

INSTANTIATE_TEST_SUITE_P(ContactSolvers, AnisotropicFriction,
                         ::testing::ValuesIn(SolversWith(kFeatureContacts | kFeatureParticles)),
                         test_support::SolverParamName{});

}  // namespace
}  // namespace sim
