#include "engine/io/hdf5/demo_hdf5.h"

#include <filesystem>
#include <initializer_list>
#include <memory>
#include <utility>

#include <hdf5.h>

#include "engine/dynamics/constraint_rows.h"
#include "engine/io/text_util.h"
#include "engine/step/probes.h"

namespace sim::io {

namespace {

// a dataset or attribute name from a target name: HDF5 names cannot hold '/', and robomimic's
// observation keys are identifiers
std::string KeyName(const std::string& name) {
  std::string key = name;
  for (char& c : key) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!plain) c = '_';
  }
  return key;
}


bool HasCoordinate(JointType type) {
  return type == JointType::kRevolute || type == JointType::kContinuous ||
         type == JointType::kPrismatic;
}


void Push(std::vector<double>* out, const Vec3& v) {
  out->insert(out->end(), {v.x(), v.y(), v.z()});
}


// x y z w, robomimic's (and robosuite's) quaternion order
void PushXyzw(std::vector<double>* out, const Quat& q) {
  out->insert(out->end(), {q.x(), q.y(), q.z(), q.w()});
}


// which columns of the command vector belong to which target (TeleopSession::CommandVector)
std::string ActionLayout(const Model& model) {
  std::string layout;
  int at = 0;
  for (const TeleopTarget& target : model.teleop_targets) {
    if (!layout.empty()) layout += "; ";
    const auto columns = [&](int count) {
      const std::string range = count == 1
                                    ? std::to_string(at)
                                    : std::to_string(at) + "-" + std::to_string(at + count - 1);
      at += count;
      return " (column" + std::string(count == 1 ? " " : "s ") + range + ")";
    };
    switch (target.type) {
      case TeleopTargetType::kEndEffector:
        layout +=
            target.name + ": pose target, position x y z [m] and quaternion w x y z" + columns(7);
        break;
      case TeleopTargetType::kGripper:
      case TeleopTargetType::kSynergy:
        layout +=
            target.name + ": axis in [0, 1], 0 open, 1 closed, NaN until commanded" + columns(1);
        break;
      case TeleopTargetType::kBase:
        layout +=
            target.name + ": velocity v_x v_y [m/s] (heading frame), omega [rad/s]" + columns(3);
        break;
      case TeleopTargetType::kLookAt:
        layout += target.name + ": point looked at, x y z [m]" + columns(3);
        break;
    }
  }
  return layout;
}


// the demonstration's environment for robomimic's `env_args` attribute (JSON)
std::string EnvArgs(const DemoSource& source, double dt, const std::vector<std::string>& targets) {
  const auto strings = [](const std::vector<std::string>& values) {
    std::string out = "[";
    for (std::size_t k = 0; k < values.size(); ++k) {
      out += (k > 0 ? ", " : "") + JsonString(values[k]);
    }
    return out + "]";
  };
  return "{\"env_name\": " + JsonString(std::filesystem::path(source.scene_path).stem().string()) +
         ", \"type\": \"contact-studio\", \"env_kwargs\": {\"scene\": " +
         JsonString(source.scene_path) + ", \"overrides\": " + strings(source.overrides) +
         ", \"solver\": " + JsonString(source.solver) + ", \"dt\": " + ExactNumber(dt) +
         ", \"targets\": " + strings(targets) + "}}";
}


// an HDF5 identifier closed when it leaves scope (negative: the call that made it failed)
class Handle {
 public:
  Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() {
    if (id_ >= 0) close_(id_);
  }
  hid_t get() const { return id_; }
  bool ok() const { return id_ >= 0; }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};


// HDF5's own error printing off while a file is written (failures become one message)
class QuietErrors {
 public:
  QuietErrors() {
    H5Eget_auto2(H5E_DEFAULT, &function_, &data_);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  ~QuietErrors() { H5Eset_auto2(H5E_DEFAULT, function_, data_); }

 private:
  H5E_auto2_t function_ = nullptr;
  void* data_ = nullptr;
};


// groups, datasets and attributes, the first failure kept as the error
class H5Out {
 public:
  explicit H5Out(hid_t file) : file_(file) {}

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }

  hid_t Group(const std::string& name, std::vector<std::unique_ptr<Handle>>* keep) {
    keep->push_back(std::make_unique<Handle>(
        H5Gcreate2(file_, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose));
    if (!keep->back()->ok()) Fail("cannot create group " + name);
    return keep->back()->get();
  }

  // a dataset of `dims` (rows first) from `data`, with a `units` attribute; returns it open
  // in `keep` for more attributes
  hid_t Dataset(const std::string& name, hid_t file_type, hid_t memory_type, const void* data,
                std::initializer_list<hsize_t> dims, const std::string& units,
                std::vector<std::unique_ptr<Handle>>* keep) {
    if (!ok()) return -1;
    const std::vector<hsize_t> shape(dims);
    Handle space(H5Screate_simple(static_cast<int>(shape.size()), shape.data(), nullptr), H5Sclose);
    keep->push_back(std::make_unique<Handle>(H5Dcreate2(file_, name.c_str(), file_type, space.get(),
                                                        H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                                             H5Dclose));
    const hid_t dataset = keep->back()->get();
    if (!space.ok() || dataset < 0) {
      Fail("cannot create dataset " + name);
      return -1;
    }
    hsize_t count = 1;
    for (const hsize_t d : shape) count *= d;
    // an empty dataset (no contacts) has nothing to write
    if (count > 0 && H5Dwrite(dataset, memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0) {
      Fail("cannot write dataset " + name);
    }
    StringAttribute(dataset, "units", units);
    return dataset;
  }

  void StringAttribute(hid_t object, const char* name, const std::string& value) {
    StringsAttribute(object, name, {value}, true);
  }

  // variable-length UTF-8 strings (h5py reads them as str); `scalar`: one string, not an array
  void StringsAttribute(hid_t object, const char* name, const std::vector<std::string>& values,
                        bool scalar = false) {
    if (!ok()) return;
    Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(type.get(), H5T_VARIABLE);
    H5Tset_cset(type.get(), H5T_CSET_UTF8);
    const hsize_t count = values.size();
    Handle space(scalar ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &count, nullptr), H5Sclose);
    Handle attribute(H5Acreate2(object, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
                     H5Aclose);
    std::vector<const char*> pointers;
    for (const std::string& value : values) pointers.push_back(value.c_str());
    if (!attribute.ok() ||
        (!pointers.empty() && H5Awrite(attribute.get(), type.get(), pointers.data()) < 0)) {
      Fail(std::string("cannot write attribute ") + name);
    }
  }

  void IntAttribute(hid_t object, const char* name, std::int64_t value) {
    if (!ok()) return;
    Handle space(H5Screate(H5S_SCALAR), H5Sclose);
    Handle attribute(H5Acreate2(object, name, H5T_STD_I64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT),
                     H5Aclose);
    if (!attribute.ok() || H5Awrite(attribute.get(), H5T_NATIVE_INT64, &value) < 0) {
      Fail(std::string("cannot write attribute ") + name);
    }
  }

 private:
  void Fail(const std::string& message) {
    if (error_.empty()) error_ = message;
  }

  hid_t file_;
  std::string error_;
};

}  // namespace


void DemoHdf5Writer::Start(const Simulation& simulation) {
  const Model& model = simulation.model();
  *this = DemoHdf5Writer();
  started_ = true;
  previous_ = simulation.state();
  dt_ = model.options.solver.dt;
  for (int j = 0; j < model.joint_count(); ++j) {
    if (!HasCoordinate(model.joint_type[j])) continue;
    joints_.push_back(j);
    joint_names_.push_back(model.joint_name[j]);
  }
  body_names_ = model.body_name;
  for (std::size_t t = 0; t < model.teleop_targets.size(); ++t) {
    const TeleopTarget& target = model.teleop_targets[t];
    target_names_.push_back(target.name);
    if (target.type != TeleopTargetType::kEndEffector) continue;
    EndEffector end_effector;
    end_effector.target = static_cast<int>(t);
    end_effector.name = KeyName(target.name);
    end_effectors_.push_back(std::move(end_effector));
  }
  action_size_ = simulation.teleop() != nullptr ? simulation.teleop()->command_size() : 0;
  action_layout_ = ActionLayout(model);
}


void DemoHdf5Writer::AfterStep(const Simulation& simulation) {
  if (!started_) Start(simulation);
  Observe(simulation, previous_);
  previous_ = simulation.state();
}


void DemoHdf5Writer::Observe(const Simulation& simulation, const State& state) {
  const Model& model = simulation.model();
  const TeleopSession* session = simulation.teleop();
  ++samples_;

  // the command the step ran with, and the state it started from
  if (session != nullptr) {
    const VecX command = session->CommandVector(state);
    actions_.insert(actions_.end(), command.data(), command.data() + command.size());
  }
  for (const int j : joints_) {
    joint_pos_.push_back(JointCoordinate(model, state, j));
    joint_vel_.push_back(JointRate(model, state, j));
  }
  for (EndEffector& end_effector : end_effectors_) {
    const Pose X_WE =
        session != nullptr
            ? session->controller().EndEffectorPose(end_effector.target, state).value_or(Pose{})
            : Pose{};
    Push(&end_effector.position, X_WE.p);
    PushXyzw(&end_effector.quaternion, X_WE.q);
  }
  for (int b = 0; b < model.body_count(); ++b) {
    Push(&states_, state.body_X_WB[b].p);
    PushXyzw(&states_, state.body_X_WB[b].q);
    Push(&states_, state.body_v_W[b]);
    Push(&states_, state.body_w_W[b]);
  }

  // the contacts the step solved, their points at the step's end (as `run --contacts`)
  const Contacts& contacts = simulation.contacts();
  contact_count_.push_back(contacts.count());
  const auto body = [](const ContactSide& side) {
    return side.is_particle() || side.soft_body >= 0 ? -1 : side.body;
  };
  for (const Contact& contact : contacts.items) {
    contact_step_.push_back(static_cast<std::int64_t>(state.step));
    contact_body_a_.push_back(body(contact.a));
    contact_body_b_.push_back(body(contact.b));
    Push(&contact_position_, ContactMidpoint(simulation.state(), contact));
    Push(&contact_normal_, contact.normal_W);
    Push(&contact_tangent_, contact.tangent_W);
    contact_normal_force_.push_back(contact.normal_force);
    contact_friction_force_.insert(contact_friction_force_.end(),
                                   {contact.friction_force[0], contact.friction_force[1]});
  }
}


bool DemoHdf5Writer::Write(const std::string& path, const DemoSource& source,
                           std::string* error) const {
  QuietErrors quiet;
  Handle file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
  if (!file.ok()) {
    *error = "cannot create the HDF5 file (does its folder exist and is it writable?)";
    return false;
  }
  H5Out out(file.get());
  std::vector<std::unique_ptr<Handle>> open;  // closed in reverse before the file
  const hsize_t n = samples_;
  const hsize_t m = contact_step_.size();
  const hsize_t joints = joints_.size();
  const hid_t f64 = H5T_NATIVE_DOUBLE;

  // /data and the one demonstration
  const hid_t data = out.Group("/data", &open);
  out.IntAttribute(data, "total", samples_);
  out.StringAttribute(data, "env_args", EnvArgs(source, dt_, target_names_));
  const hid_t demo = out.Group("/data/demo_0", &open);
  out.IntAttribute(demo, "num_samples", samples_);
  out.StringAttribute(demo, "model_file", source.scene_path);
  out.StringAttribute(demo, "recording", source.recording_path);
  const std::string d = "/data/demo_0/";

  const hid_t actions =
      out.Dataset(d + "actions", H5T_IEEE_F64LE, f64, actions_.data(),
                  {n, static_cast<hsize_t>(action_size_)}, "per column, see layout", &open);
  out.StringAttribute(actions, "layout", action_layout_);
  std::vector<double> rewards(samples_, 0.0);
  out.Dataset(d + "rewards", H5T_IEEE_F64LE, f64, rewards.data(), {n}, "1 (always 0)", &open);
  std::vector<std::int64_t> dones(samples_, 0);
  if (!dones.empty()) dones.back() = 1;
  out.Dataset(d + "dones", H5T_STD_I64LE, H5T_NATIVE_INT64, dones.data(), {n},
              "1 (1 on the last sample)", &open);
  const hid_t states = out.Dataset(
      d + "states", H5T_IEEE_F64LE, f64, states_.data(), {n, 13 * body_names_.size()},
      "per body: m (x y z), 1 (quaternion x y z w), m/s (v), rad/s (omega); world frame", &open);
  out.StringAttribute(states, "layout",
                      "per body in body_names order: position x y z, quaternion x y z w, linear "
                      "velocity of the centre of mass x y z, angular velocity x y z");
  out.StringsAttribute(states, "body_names", body_names_);

  // observations
  out.Group(d + "obs", &open);
  const hid_t joint_pos =
      out.Dataset(d + "obs/joint_pos", H5T_IEEE_F64LE, f64, joint_pos_.data(), {n, joints},
                  "rad (revolute, continuous) or m (prismatic), per joint_names", &open);
  out.StringsAttribute(joint_pos, "joint_names", joint_names_);
  const hid_t joint_vel =
      out.Dataset(d + "obs/joint_vel", H5T_IEEE_F64LE, f64, joint_vel_.data(), {n, joints},
                  "rad/s (revolute, continuous) or m/s (prismatic), per joint_names", &open);
  out.StringsAttribute(joint_vel, "joint_names", joint_names_);
  for (const EndEffector& end_effector : end_effectors_) {
    out.Dataset(d + "obs/" + end_effector.name + "_eef_pos", H5T_IEEE_F64LE, f64,
                end_effector.position.data(), {n, 3}, "m (world frame)", &open);
    out.Dataset(d + "obs/" + end_effector.name + "_eef_quat", H5T_IEEE_F64LE, f64,
                end_effector.quaternion.data(), {n, 4}, "1 (unit quaternion x y z w, world frame)",
                &open);
  }
  out.Dataset(d + "obs/contact_count", H5T_STD_I32LE, H5T_NATIVE_INT32, contact_count_.data(), {n},
              "1 (contacts the step solved)", &open);

  // contact events
  const hid_t contacts = out.Group(d + "contacts", &open);
  out.StringsAttribute(contacts, "body_names", body_names_);
  out.Dataset(d + "contacts/step", H5T_STD_I64LE, H5T_NATIVE_INT64, contact_step_.data(), {m},
              "1 (the sample, State::step the step started from)", &open);
  out.Dataset(d + "contacts/body_a", H5T_STD_I32LE, H5T_NATIVE_INT32, contact_body_a_.data(), {m},
              "1 (index into body_names; -1 the static world, a particle or a soft body)", &open);
  out.Dataset(d + "contacts/body_b", H5T_STD_I32LE, H5T_NATIVE_INT32, contact_body_b_.data(), {m},
              "1 (index into body_names; -1 the static world, a particle or a soft body)", &open);
  out.Dataset(d + "contacts/position", H5T_IEEE_F64LE, f64, contact_position_.data(), {m, 3},
              "m (world frame, midway between the surfaces at the step's end)", &open);
  out.Dataset(d + "contacts/normal", H5T_IEEE_F64LE, f64, contact_normal_.data(), {m, 3},
              "1 (unit, world frame, from body_b to body_a)", &open);
  out.Dataset(d + "contacts/tangent", H5T_IEEE_F64LE, f64, contact_tangent_.data(), {m, 3},
              "1 (unit, world frame, the friction cone's principal tangent t)", &open);
  out.Dataset(d + "contacts/normal_force", H5T_IEEE_F64LE, f64, contact_normal_force_.data(), {m},
              "N (on body_a along the normal)", &open);
  out.Dataset(d + "contacts/friction_force", H5T_IEEE_F64LE, f64, contact_friction_force_.data(),
              {m, 2}, "N (on body_a along the tangent and the bitangent normal x tangent)", &open);

  // close everything before the file so the flush reports a failed write
  while (!open.empty()) open.pop_back();
  if (!out.ok()) {
    *error = out.error();
    return false;
  }
  if (H5Fflush(file.get(), H5F_SCOPE_GLOBAL) < 0) {
    *error = "cannot write the HDF5 file (disk full?)";
    return false;
  }
  return true;
}

}  // namespace sim::io
