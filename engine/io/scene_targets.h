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

/// Reads member `key` of `object` ({joint or pattern: target}, in degrees when `degrees`) into
/// `*out` as (joint, target [rad or m]) pairs; a pattern's '*' matches any run of characters and
/// skips joints without a drive. `named` (joint → the name that matched it) catches a joint named
/// twice across calls. Every mistake is an error at its value; a target outside the joint's
/// limits a warning. False on an error.
bool ReadJointTargets(SceneReader& reader, const JsonValue& object, const char* key, bool degrees,
                      const Model& model, std::map<int, std::string>* named,
                      std::vector<std::pair<int, double>>* out, const std::string& what);

}  // namespace sim::io
