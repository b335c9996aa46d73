// Time of one damped-least-squares IK call (engine/kinematics/dls_ik.h) on our Fetch's arm and
// torso (8 joints, gripper link from the world), the call the teleop controller makes every
// simulation step; and of FK with the Jacobian alone. Budget (issue 19): teleop under 5 % of a
// fetch_tomato step (2–5 ms on this machine), i.e. 100–250 µs. Run:
//   build/bench/teleop_ik_bench --benchmark_min_time=0.2
#include <benchmark/benchmark.h>

#include <string>

#include "engine/io/urdf_loader.h"
#include "engine/kinematics/dls_ik.h"

namespace sim {
namespace {

// the chain of our Fetch from the world to its gripper link
KinematicChain FetchArm() {
  Expected<io::UrdfRobot> robot =
      io::LoadUrdf(std::string(SIM_SOURCE_DIR) + "/resources/robots/fetch/fetch.urdf", {});
  Model model;
  model.materials.push_back(Material{.name = "default"});
  State state;
  Diagnostics diagnostics;
  io::RobotPlacement placement;
  placement.name_prefix = "fetch/";
  placement.visuals = false;
  io::AddRobotToModel(robot.value(), placement, &model, &state, &diagnostics);
  return BuildKinematicChain(model, "", "fetch/gripper_link").value();
}


// the tomato start posture, and a target 10 cm and 0.2 rad away from its gripper pose
const VecX kStart =
    (VecX(8) << 0.35, 0.27932, -1.18317, -0.08488, 1.69324, 0.0367, 1.06227, 0.18284).finished();


void BM_DlsIkStep(benchmark::State& bench) {
  DlsIk ik(FetchArm(), {.max_step = VecX::Constant(8, 0.0125)});
  const Pose X_WE = ChainForwardKinematics(ik.chain(), Pose{}, kStart);
  const IkTarget target{.X_WT = {X_WE.p + Vec3(0.1, 0, 0),
                                 X_WE.q * Quat(Eigen::AngleAxis<Real>(0.2, Vec3::UnitZ()))}};
  for (auto _ : bench) {
    const IkResult result = ik.Step(Pose{}, kStart, target);
    benchmark::DoNotOptimize(result.q.data());
  }
}
BENCHMARK(BM_DlsIkStep)->Unit(benchmark::kMicrosecond);


void BM_ForwardKinematicsAndJacobian(benchmark::State& bench) {
  const KinematicChain chain = FetchArm();
  Jacobian6 jacobian;
  for (auto _ : bench) {
    const Pose X_WE = ChainForwardKinematics(chain, Pose{}, kStart, &jacobian);
    benchmark::DoNotOptimize(X_WE.p.data());
    benchmark::DoNotOptimize(jacobian.data());
  }
}
BENCHMARK(BM_ForwardKinematicsAndJacobian)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace sim

BENCHMARK_MAIN();
