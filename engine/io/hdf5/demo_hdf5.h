// Demonstrations as HDF5 files in robomimic's layout (`/data/demo_N`), for imitation learning
// from replayed teleop recordings (`contact-sim replay --hdf5`). Layout, shapes, dtypes and units:
// docs/teleop-recording.md. A separate library (sim_demo_hdf5) so the engine and sim_io do not
// depend on HDF5.
//
// Sample t belongs to step t (State::step t → t + 1): obs/* and states are of the state the step
// starts from, actions the teleop command vector the step runs with (TeleopSession::
// CommandVector after the step's actions were applied), contact_count and the contact events the
// contacts the step solved.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/state/state.h"
#include "engine/step/pipeline.h"

namespace sim::io {

/// What a demonstration was replayed from, for the file's attributes.
struct DemoSource {
  std::string scene_path;              ///< the scene file (`model_file`, env_args `scene`)
  std::string recording_path;          ///< the recording replayed (`recording`)
  std::vector<std::string> overrides;  ///< the recording's `--set` assignments
  std::string solver;                  ///< the solver that ran
};

/// Collects one sample per step in memory and writes them as `/data/demo_0`.
class DemoHdf5Writer {
 public:
  /// Before the first step: the model's layout and the state the first sample observes.
  void Start(const Simulation& simulation);
  /// After each step: one sample (Start is implied, from the current state, when not called).
  void AfterStep(const Simulation& simulation);

  int sample_count() const { return samples_; }
  int contact_event_count() const { return static_cast<int>(contact_step_.size()); }

  /// Writes the file (replacing one at `path`); false with `*error` set on failure.
  bool Write(const std::string& path, const DemoSource& source, std::string* error) const;

 private:
  struct EndEffector {
    int target = -1;
    std::string name;  ///< dataset prefix: the target's name with '/' and other odd bytes as '_'
    std::vector<double> position;    ///< N x 3 [m]
    std::vector<double> quaternion;  ///< N x 4, x y z w
  };

  void Observe(const Simulation& simulation, const State& state);

  bool started_ = false;
  State previous_;  // the state the next step starts from
  int samples_ = 0;
  // layout, from the model at Start
  int action_size_ = 0;
  std::vector<int> joints_;  // joints with a coordinate (revolute, continuous, prismatic)
  std::vector<std::string> joint_names_;
  std::vector<std::string> body_names_;
  std::vector<std::string> target_names_;
  std::string action_layout_;
  double dt_ = 0;
  // samples, row-major
  std::vector<double> actions_, joint_pos_, joint_vel_, states_;
  std::vector<std::int32_t> contact_count_;
  std::vector<EndEffector> end_effectors_;
  // contact events
  std::vector<std::int64_t> contact_step_;
  std::vector<std::int32_t> contact_body_a_, contact_body_b_;
  std::vector<double> contact_position_, contact_normal_, contact_tangent_;
  std::vector<double> contact_normal_force_, contact_friction_force_;
};

}  // namespace sim::io
