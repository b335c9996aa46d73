// Scripted control: the keyframed joint drive targets of a scene (Model::joint_script) evaluated
// at a time into Control. Between two keys k−1 and k of a track, with u = (t − t_{k−1}) /
// (t_k − t_{k−1}) and Δ = θ_k − θ_{k−1}:
//   smooth   θ*(t) = θ_{k−1} + Δ (3u² − 2u³),   θ̇*(t) = Δ 6u(1 − u) / (t_k − t_{k−1})
//   linear   θ*(t) = θ_{k−1} + Δ u,             θ̇*(t) = Δ / (t_k − t_{k−1})
//   step     θ*(t) = θ_{k−1},                   θ̇*(t) = 0
// and after the last key θ* holds with θ̇* = 0. The target velocity feeds the drive's damping
// term f = −k (θ − θ*) − d (θ̇ − θ̇*), so a damped drive follows a moving target without lag
// from its damping.
#pragma once

#include "engine/model/model.h"
#include "engine/state/control.h"

namespace sim {

/// Target position [rad|m] and velocity [rad/s|m/s] of one track at time `t` [s].
void EvaluateScriptTrack(const JointScriptTrack& track, Real t, Real* position, Real* velocity);

/// Writes the script's targets at time `t` [s] into `control` (sized for the model by
/// MakeControl); joints without a track, and those the user has taken (JointTaken), keep what
/// the control holds.
void ApplyJointScript(const Model& model, Real t, Control* control);

}  // namespace sim
