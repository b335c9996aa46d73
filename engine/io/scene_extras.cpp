// Scene keys beyond objects and joints: `cameras` (named views), `friction_pairs` (the contact
// friction of two materials) and `probes` (named measurements recorded per step). Each problem is
// reported at its value's line and JSON path; reading goes on to report all of them.
#include <set>
#include <utility>

#include "engine/io/scene_reader.h"

namespace sim::io {

bool ReadCameraSetup(SceneReader& reader, const JsonValue& camera, CameraSetup* setup,
                     const std::string& what, std::initializer_list<const char*> extra_keys) {
  // `follow` names a body, resolved once the objects are read (ReadCameraFollow)
  std::vector<const char*> keys = {"target",    "distance", "yaw_deg",
                                   "pitch_deg", "fov_deg",  "follow"};
  keys.insert(keys.end(), extra_keys.begin(), extra_keys.end());
  std::set<std::string> allowed(keys.begin(), keys.end());
  for (const auto& [key, value] : camera.members()) {
    if (!allowed.contains(key)) {
      std::vector<std::string> names(keys.begin(), keys.end());
      reader.Warning(value, "unknown key '" + key + "' in " + what +
                                " (expected one of: " + Join(names) + "); it is ignored");
    }
  }
  // the eye stays between 1 cm and 10 km from its target; pitch short of the poles
  bool ok = reader.ReadArray<3>(camera, "target", &setup->target, what);
  ok &= reader.ReadNumber(camera, "distance", &setup->distance, 0.01, 1e4, what);
  ok &= reader.ReadNumber(camera, "yaw_deg", &setup->yaw_deg, -360, 360, what);
  ok &= reader.ReadNumber(camera, "pitch_deg", &setup->pitch_deg, -89, 89, what);
  ok &= reader.ReadNumber(camera, "fov_deg", &setup->fov_y_deg, 5, 150, what);
  return ok;
}


void ReadCameras(SceneReader& reader, const JsonValue& root, bool has_default_camera,
                 Model* model) {
  const JsonValue* cameras = root.Find("cameras");
  if (cameras == nullptr) return;
  if (!reader.ExpectType(*cameras, JsonValue::Type::kArray, "'cameras'")) return;
  std::set<std::string> names;
  for (std::size_t i = 0; i < cameras->items().size(); ++i) {
    const JsonValue& item = cameras->items()[i];
    std::string what = "camera " + std::to_string(i);
    if (!reader.ExpectType(item, JsonValue::Type::kObject, what)) continue;
    NamedCamera camera;
    camera.setup = model->camera;
    const JsonValue* name = item.Find("name");
    if (name == nullptr) {
      reader.Error(item, what + " needs a 'name'");
      continue;
    }
    if (!reader.ReadString(item, "name", &camera.name, what)) continue;
    what = "camera '" + camera.name + "'";
    if (!names.insert(camera.name).second) {
      reader.Error(*name, "duplicate camera name '" + camera.name + "'");
      continue;
    }
    if (!ReadCameraSetup(reader, item, &camera.setup, what, {"name"})) continue;
    model->cameras.push_back(camera);
  }
  // without a `camera`, the first named view is where the scene opens
  if (!has_default_camera && !model->cameras.empty()) model->camera = model->cameras[0].setup;
}


void ReadCameraFollow(SceneReader& reader, const JsonValue& root, const ObjectNames& objects,
                      Model* model) {
  // the body `camera` names in `follow`, into `*setup`; an unknown or static one is an error
  const auto resolve = [&](const JsonValue& camera, const std::string& what, CameraSetup* setup) {
    const JsonValue* follow = camera.Find("follow");
    std::string name;
    if (follow == nullptr || !reader.ReadString(camera, "follow", &name, what)) return;
    const auto it = objects.find(name);
    if (it != objects.end() && it->second.kind == ObjectRef::Kind::kBody) {
      setup->follow_body = it->second.index;
      return;
    }
    std::vector<std::string> bodies;
    for (const auto& [object, ref] : objects) {
      if (ref.kind == ObjectRef::Kind::kBody) bodies.push_back(object);
    }
    constexpr std::size_t kListed = 8;  // a robot has dozens of links: name a few
    const std::size_t more = bodies.size() > kListed ? bodies.size() - kListed : 0;
    bodies.resize(bodies.size() - more);
    std::string expected =
        bodies.empty() ? "the scene has no body" : "expected a body: " + Join(bodies);
    if (more > 0) expected += " and " + std::to_string(more) + " more";
    reader.Error(*follow, what + " 'follow' is '" + name + "', which is not a body of the " +
                              "scene (" + expected + ")");
  };
  if (const JsonValue* camera = root.Find("camera"); camera != nullptr && camera->is_object()) {
    resolve(*camera, "camera", &model->camera);
  }
  const JsonValue* cameras = root.Find("cameras");
  if (cameras == nullptr || !cameras->is_array()) return;
  // named views were read in order, skipping those with errors: match them by name
  for (const JsonValue& item : cameras->items()) {
    const JsonValue* name = item.is_object() ? item.Find("name") : nullptr;
    if (name == nullptr || !name->is_string()) continue;
    for (NamedCamera& camera : model->cameras) {
      if (camera.name == name->string()) {
        resolve(item, "camera '" + camera.name + "'", &camera.setup);
        break;
      }
    }
  }
  // without a `camera`, the first named view is where the scene opens, following included
  if (root.Find("camera") == nullptr && !model->cameras.empty()) {
    model->camera = model->cameras[0].setup;
  }
}


void ReadFrictionPairs(SceneReader& reader, const JsonValue& root,
                       const std::map<std::string, int>& materials, Model* model) {
  const JsonValue* pairs = root.Find("friction_pairs");
  if (pairs == nullptr) return;
  if (!reader.ExpectType(*pairs, JsonValue::Type::kArray, "'friction_pairs'")) return;
  std::set<std::pair<int, int>> seen;
  for (std::size_t i = 0; i < pairs->items().size(); ++i) {
    const JsonValue& item = pairs->items()[i];
    const std::string what = "friction pair " + std::to_string(i);
    if (!reader.ExpectType(item, JsonValue::Type::kObject, what)) continue;
    reader.CheckKeys(item, {"materials", "friction", "friction_major", "friction_minor"}, what);
    const JsonValue* names = item.Find("materials");
    if (names == nullptr || item.Find("friction") == nullptr) {
      reader.Error(item, what + " needs 'materials' [a, b] and 'friction'");
      continue;
    }
    if (!names->is_array() || names->items().size() != 2 || !names->items()[0].is_string() ||
        !names->items()[1].is_string()) {
      reader.Error(*names, what + " 'materials' must be an array of 2 material names");
      continue;
    }
    FrictionPair pair;
    bool ok = true;
    int* ends[2] = {&pair.material_a, &pair.material_b};
    for (int k = 0; k < 2; ++k) {
      const JsonValue& name = names->items()[k];
      const auto it = materials.find(name.string());
      if (it == materials.end()) {
        std::vector<std::string> known;
        for (const auto& [n, index] : materials) known.push_back(n);
        reader.Error(name, what + " names unknown material '" + name.string() +
                               "' (defined: " + Join(known) + ")");
        ok = false;
      } else {
        *ends[k] = it->second;
      }
    }
    // μ above 10 is not a physical friction coefficient but a typo (as for materials)
    ok &= reader.ReadNumber(item, "friction", &pair.friction, 0, 10, what);
    ok &= ok && ReadFrictionAxes(reader, item, pair.friction, &pair.friction_major,
                                 &pair.friction_minor, what);
    if (!ok) continue;
    const auto key = std::minmax(pair.material_a, pair.material_b);
    if (!seen.insert(key).second) {
      reader.Error(*names, what + " repeats the pair '" + names->items()[0].string() + "', '" +
                               names->items()[1].string() + "'");
      continue;
    }
    model->friction_pairs.push_back(pair);
  }
}


namespace {

// the key that names a probe's target, by kind
const char* TargetKey(ProbeKind kind) {
  switch (kind) {
    case ProbeKind::kJointPosition:
    case ProbeKind::kJointVelocity:
      return "joint";
    case ProbeKind::kParticlePosition:
      return "particle";
    case ProbeKind::kSoftBodyCentroid:
      return "object";
    default:
      return "body";
  }
}

}  // namespace


void ReadProbes(SceneReader& reader, const JsonValue& root, const ObjectNames& objects,
                Model* model) {
  const JsonValue* probes = root.Find("probes");
  if (probes == nullptr) return;
  if (!reader.ExpectType(*probes, JsonValue::Type::kArray, "'probes'")) return;
  std::set<std::string> names;
  for (std::size_t i = 0; i < probes->items().size(); ++i) {
    const JsonValue& item = probes->items()[i];
    std::string what = "probe " + std::to_string(i);
    if (!reader.ExpectType(item, JsonValue::Type::kObject, what)) continue;
    Probe probe;
    if (item.Find("name") == nullptr) {
      reader.Error(item, what + " needs a 'name'");
      continue;
    }
    if (!reader.ReadString(item, "name", &probe.name, what)) continue;
    what = "probe '" + probe.name + "'";
    if (!names.insert(probe.name).second) {
      reader.Error(*item.Find("name"), "duplicate probe name '" + probe.name + "'");
      continue;
    }
    if (item.Find("type") == nullptr) {
      reader.Error(item, what +
                             " needs a 'type' (body_position, body_orientation, body_velocity, "
                             "body_angular_velocity, joint_position, joint_velocity, "
                             "particle_position or soft_body_centroid)");
      continue;
    }
    using K = ProbeKind;
    if (!reader.ReadEnum<K>(item, "type",
                            {{ProbeKindName(K::kBodyPosition), K::kBodyPosition},
                             {ProbeKindName(K::kBodyOrientation), K::kBodyOrientation},
                             {ProbeKindName(K::kBodyVelocity), K::kBodyVelocity},
                             {ProbeKindName(K::kBodyAngularVelocity), K::kBodyAngularVelocity},
                             {ProbeKindName(K::kJointPosition), K::kJointPosition},
                             {ProbeKindName(K::kJointVelocity), K::kJointVelocity},
                             {ProbeKindName(K::kParticlePosition), K::kParticlePosition},
                             {ProbeKindName(K::kSoftBodyCentroid), K::kSoftBodyCentroid}},
                            &probe.kind, what)) {
      continue;
    }
    const char* key = TargetKey(probe.kind);
    reader.CheckKeys(item, {"name", "type", key}, what);
    const JsonValue* target = item.Find(key);
    if (target == nullptr) {
      reader.Error(item, what + " of type '" + ProbeKindName(probe.kind) + "' needs '" + key + "'");
      continue;
    }
    std::string target_name;
    if (!reader.ReadString(item, key, &target_name, what)) continue;
    // the target by name: a body (object or "robot/link"), a joint, a particle, a soft body
    std::string kind_word = key;
    if (std::string(key) == "body") {
      const auto it = objects.find(target_name);
      if (it != objects.end() && it->second.kind == ObjectRef::Kind::kBody) {
        probe.target = it->second.index;
      }
      kind_word = "dynamic body";
    } else if (std::string(key) == "joint") {
      probe.target = model->FindJoint(target_name);
    } else if (std::string(key) == "particle") {
      probe.target = model->FindParticle(target_name);
    } else {
      for (std::size_t s = 0; s < model->soft_bodies.size(); ++s) {
        if (model->soft_bodies[s].name == target_name) probe.target = static_cast<int>(s);
      }
      kind_word = "soft body (tetmesh object)";
    }
    if (probe.target < 0) {
      reader.Error(*target, what + " " + key + " '" + target_name + "' is not a " + kind_word +
                                " of the scene");
      continue;
    }
    model->probes.push_back(probe);
  }
}

}  // namespace sim::io
