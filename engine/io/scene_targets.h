// Internal to the scene reader: the joint drive targets a `script` keyframe and a `keyframes`
// entry name, {"joint": rad|m} or {"joint": deg}, with '*' wildcards.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "engine/io/json_document.h"
#include "engine/io/scene_reader.h"
#include "engine/model/model.h"

namespace sim::io {

/// What a {joint: value} object gives: drive targets (only joints with a drive take them) or
/// joint positions (any revolute, continuous or prismatic joint).
enum class JointValues { kDriveTargets, kPositions };

/// Reads member `key` of `object` ({joint or pattern: value}, in degrees when `degrees`) into
/// `*out` as (joint, value [rad or m]) pairs; a pattern's '*' matches any run of characters and
/// skips joints that cannot take `kind`. `named` (joint → the name that matched it) catches a
/// joint named twice across calls. Every mistake is an error at its value; a value outside the
/// joint's limits a warning. False on an error.
bool ReadJointTargets(SceneReader& reader, const JsonValue& object, const char* key, bool degrees,
                      const Model& model, std::map<int, std::string>* named,
                      std::vector<std::pair<int, double>>* out, const std::string& what,
                      JointValues kind = JointValues::kDriveTargets);

}  // namespace sim::io
