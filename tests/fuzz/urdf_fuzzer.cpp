// libFuzzer target: the URDF loader on arbitrary text: ParseUrdf (urdfdom and the located
// checks), then, for a robot that parses, AddRobotToModel (bodies, shapes, joints, mimic
// couplings). The robot "lives" in the fuzzer's empty temporary folder, so its mesh references
// stay unresolved instead of reading the disk.
#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/io/urdf_loader.h"
#include "engine/model/model.h"
#include "engine/state/state.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string source = sim::fuzz::TempDir::Get().path() + "/fuzz_robot.urdf";
  sim::Expected<sim::io::UrdfRobot> robot = sim::io::ParseUrdf(text, source, {});
  sim::fuzz::CheckDiagnostics(robot.ok(), robot.diagnostics());
  if (!robot.ok()) return 0;
  sim::fuzz::Check(!robot->links.empty(), "a parsed robot has a link");
  for (const sim::io::UrdfJoint& joint : robot->joints) {
    sim::fuzz::Check(joint.parent >= 0 && joint.parent < static_cast<int>(robot->links.size()) &&
                         joint.child >= 0 && joint.child < static_cast<int>(robot->links.size()),
                     "joint links are in range");
  }

  sim::Model model;
  sim::State state;
  sim::Diagnostics diagnostics;
  sim::io::RobotPlacement placement;
  placement.visuals = false;
  sim::io::AddRobotToModel(robot.value(), placement, &model, &state, &diagnostics);
  if (!diagnostics.has_errors()) {
    sim::fuzz::Check(sim::MatchesModel(state, model), "the robot's state matches its model");
    sim::fuzz::Check(sim::IsFinite(state), "the robot's state is finite");
  }
  return 0;
}
