// Demonstrations as HDF5 (engine/io/hdf5/demo_hdf5.h): a replay of a hand-written recording on
// our Fetch exported and read back with the HDF5 C API, checking the layout of
// docs/teleop-recording.md (names, shapes, dtypes, units attributes) and values known without
// the exporter: the recorded set_pose in the actions, the scene's initial joint positions and
// body orientation in the first sample, the contact counts against the contact events.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <hdf5.h>

#include "engine/io/hdf5/demo_hdf5.h"
#include "engine/io/teleop_replay.h"
#include "tests/support/teleop_scene.h"

namespace sim::io {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr int kSteps = 60;

// the recording: a pose target at step 0, the gripper closed at step 10
const char* const kRecording = R"({
  "format": "contact-studio-teleop-recording", "version": 1, "scene": "fetch_teleop.json",
  "steps": 60,
  "actions": [
    {"step": 0, "kind": "set_pose", "target": "arm", "position": [0.55, 0.05, 0.95], "quaternion_wxyz": [0, 0, 0, 2]},
    {"step": 10, "kind": "set_axis", "target": "gripper", "value": 1}]})";

// reading back: shapes, dtypes, values and string attributes of `file`
class H5In {
 public:
  explicit H5In(const std::string& path)
      : file_(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT)) {}
  ~H5In() {
    if (file_ >= 0) H5Fclose(file_);
  }
  bool ok() const { return file_ >= 0; }

  std::vector<hsize_t> Shape(const std::string& name) const {
    const hid_t dataset = H5Dopen2(file_, name.c_str(), H5P_DEFAULT);
    EXPECT_GE(dataset, 0) << name;
    if (dataset < 0) return {};
    const hid_t space = H5Dget_space(dataset);
    std::vector<hsize_t> dims(H5Sget_simple_extent_ndims(space));
    H5Sget_simple_extent_dims(space, dims.data(), nullptr);
    H5Sclose(space);
    H5Dclose(dataset);
    return dims;
  }

  // class and size of the stored type: H5T_FLOAT 8, H5T_INTEGER 4, ...
  std::pair<H5T_class_t, std::size_t> Type(const std::string& name) const {
    const hid_t dataset = H5Dopen2(file_, name.c_str(), H5P_DEFAULT);
    const hid_t type = H5Dget_type(dataset);
    const std::pair<H5T_class_t, std::size_t> result{H5Tget_class(type), H5Tget_size(type)};
    H5Tclose(type);
    H5Dclose(dataset);
    return result;
  }

  template <typename T>
  std::vector<T> Read(const std::string& name, hid_t memory_type) const {
    hsize_t count = 1;
    for (const hsize_t d : Shape(name)) count *= d;
    std::vector<T> values(count);
    const hid_t dataset = H5Dopen2(file_, name.c_str(), H5P_DEFAULT);
    if (count > 0) {
      EXPECT_GE(H5Dread(dataset, memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0);
    }
    H5Dclose(dataset);
    return values;
  }

  // a variable-length string attribute (one, or an array of them) of object `name`
  std::vector<std::string> Strings(const std::string& name, const char* attribute) const {
    const hid_t attr = H5Aopen_by_name(file_, name.c_str(), attribute, H5P_DEFAULT, H5P_DEFAULT);
    EXPECT_GE(attr, 0) << name << " has no attribute " << attribute;
    if (attr < 0) return {};
    const hid_t space = H5Aget_space(attr);
    const hssize_t count = H5Sget_simple_extent_npoints(space);
    const hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, H5T_VARIABLE);
    H5Tset_cset(type, H5T_CSET_UTF8);
    std::vector<char*> pointers(count);
    std::vector<std::string> values;
    if (H5Aread(attr, type, pointers.data()) >= 0) {
      for (char* p : pointers) values.emplace_back(p != nullptr ? p : "");
      H5Dvlen_reclaim(type, space, H5P_DEFAULT, pointers.data());
    }
    H5Tclose(type);
    H5Sclose(space);
    H5Aclose(attr);
    return values;
  }
  std::string String(const std::string& name, const char* attribute) const {
    const std::vector<std::string> values = Strings(name, attribute);
    return values.empty() ? "" : values.front();
  }

  std::int64_t Int(const std::string& name, const char* attribute) const {
    std::int64_t value = -1;
    const hid_t attr = H5Aopen_by_name(file_, name.c_str(), attribute, H5P_DEFAULT, H5P_DEFAULT);
    EXPECT_GE(attr, 0) << name << " has no attribute " << attribute;
    if (attr >= 0) {
      H5Aread(attr, H5T_NATIVE_INT64, &value);
      H5Aclose(attr);
    }
    return value;
  }

 private:
  hid_t file_;
};


TEST(DemoHdf5Test, ReplayExportsTheDocumentedLayout) {
  const fs::path dir = test_support::TestFolder("cs_demo_hdf5");
  const std::string scene = test_support::WriteTeleopFetchScene(dir);
  const fs::path recording = dir / "demo.teleop.json";
  std::ofstream(recording) << kRecording;

  DemoHdf5Writer writer;
  State initial;
  Pose eef_initial;
  ReplayOptions options;
  options.on_start = [&](const Simulation& simulation) {
    writer.Start(simulation);
    initial = simulation.state();
    eef_initial = simulation.teleop()->controller().EndEffectorPose(0, initial).value();
  };
  options.observer = [&](const Simulation& simulation) { writer.AfterStep(simulation); };
  Expected<ReplayResult> replay = ReplayTeleopRecording(recording.string(), options);
  ASSERT_TRUE(replay.ok()) << replay.diagnostics().Format();
  const Model& model = *replay->model;
  const fs::path out = dir / "demo.h5";
  std::string error;
  ASSERT_TRUE(writer.Write(out.string(),
                           {.scene_path = scene,
                            .recording_path = recording.string(),
                            .overrides = {},
                            .solver = replay->solver},
                           &error))
      << error;

  H5In h5(out.string());
  ASSERT_TRUE(h5.ok());
  const hsize_t n = kSteps;
  // /data and /data/demo_0 attributes
  EXPECT_EQ(h5.Int("/data", "total"), kSteps);
  const std::string env_args = h5.String("/data", "env_args");
  EXPECT_THAT(env_args, HasSubstr("\"env_name\": \"fetch_teleop\""));
  EXPECT_THAT(env_args, HasSubstr("\"solver\": \"nsn\", \"dt\": 0.0083"));
  EXPECT_THAT(env_args, HasSubstr("\"targets\": [\"arm\", \"gripper\"]"));
  const std::string demo = "/data/demo_0/";
  EXPECT_EQ(h5.Int("/data/demo_0", "num_samples"), kSteps);
  EXPECT_EQ(h5.String("/data/demo_0", "model_file"), scene);
  EXPECT_EQ(h5.String("/data/demo_0", "recording"), recording.string());

  // actions: arm pose target p (3) and q w x y z (4), then the gripper axis
  EXPECT_THAT(h5.Shape(demo + "actions"), ::testing::ElementsAre(n, 8));
  EXPECT_EQ(h5.Type(demo + "actions"), std::make_pair(H5T_FLOAT, std::size_t{8}));
  EXPECT_THAT(h5.String(demo + "actions", "layout"), HasSubstr("gripper: axis in [0, 1]"));
  const std::vector<double> actions = h5.Read<double>(demo + "actions", H5T_NATIVE_DOUBLE);
  // the set_pose of step 0, its quaternion (0, 0, 0, 2) normalized: exactly (0, 0, 0, 1)
  EXPECT_THAT(std::vector<double>(actions.begin(), actions.begin() + 7),
              ::testing::ElementsAre(0.55, 0.05, 0.95, 0, 0, 0, 1));
  EXPECT_TRUE(std::isnan(actions[9 * 8 + 7]));  // the gripper is not commanded before step 10
  EXPECT_EQ(actions[10 * 8 + 7], 1.0);

  // joints: every revolute, continuous and prismatic joint, the first sample the initial state
  std::vector<std::string> joint_names;
  for (int j = 0; j < model.joint_count(); ++j) {
    const JointType type = model.joint_type[j];
    if (type == JointType::kRevolute || type == JointType::kContinuous ||
        type == JointType::kPrismatic) {
      joint_names.push_back(model.joint_name[j]);
    }
  }
  const hsize_t joints = joint_names.size();
  ASSERT_GT(joints, 10u);
  EXPECT_THAT(h5.Shape(demo + "obs/joint_pos"), ::testing::ElementsAre(n, joints));
  EXPECT_THAT(h5.Shape(demo + "obs/joint_vel"), ::testing::ElementsAre(n, joints));
  EXPECT_EQ(h5.Strings(demo + "obs/joint_pos", "joint_names"), joint_names);
  EXPECT_EQ(h5.Strings(demo + "obs/joint_vel", "joint_names"), joint_names);
  EXPECT_THAT(h5.String(demo + "obs/joint_pos", "units"), StartsWith("rad"));
  EXPECT_THAT(h5.String(demo + "obs/joint_vel", "units"), StartsWith("rad/s"));
  const std::vector<double> joint_pos = h5.Read<double>(demo + "obs/joint_pos", H5T_NATIVE_DOUBLE);
  const std::vector<double> joint_vel = h5.Read<double>(demo + "obs/joint_vel", H5T_NATIVE_DOUBLE);
  const auto column = [&](const std::string& name) {
    return std::find(joint_names.begin(), joint_names.end(), name) - joint_names.begin();
  };
  // the scene's initial positions, up to the round-off of composing the link poses (1e-12 m)
  EXPECT_NEAR(joint_pos[column("fetch/torso_lift_joint")], 0.35, 1e-9);
  EXPECT_NEAR(joint_pos[column("fetch/elbow_flex_joint")], 1.69324, 1e-9);
  // the scene starts at rest
  for (hsize_t j = 0; j < joints; ++j) EXPECT_EQ(joint_vel[j], 0.0);
  // and the joints move once the arm tracks the target
  EXPECT_NE(joint_vel[(n - 1) * joints + column("fetch/shoulder_pan_joint")], 0.0);

  // the end effector, quaternions x y z w
  EXPECT_THAT(h5.Shape(demo + "obs/arm_eef_pos"), ::testing::ElementsAre(n, 3));
  EXPECT_THAT(h5.Shape(demo + "obs/arm_eef_quat"), ::testing::ElementsAre(n, 4));
  EXPECT_THAT(h5.String(demo + "obs/arm_eef_pos", "units"), StartsWith("m "));
  EXPECT_THAT(h5.String(demo + "obs/arm_eef_quat", "units"), HasSubstr("x y z w"));
  const std::vector<double> eef_pos = h5.Read<double>(demo + "obs/arm_eef_pos", H5T_NATIVE_DOUBLE);
  const std::vector<double> eef_quat =
      h5.Read<double>(demo + "obs/arm_eef_quat", H5T_NATIVE_DOUBLE);
  EXPECT_THAT(std::vector<double>(eef_pos.begin(), eef_pos.begin() + 3),
              ::testing::ElementsAre(eef_initial.p.x(), eef_initial.p.y(), eef_initial.p.z()));
  EXPECT_THAT(std::vector<double>(eef_quat.begin(), eef_quat.begin() + 4),
              ::testing::ElementsAre(eef_initial.q.x(), eef_initial.q.y(), eef_initial.q.z(),
                                     eef_initial.q.w()));
  for (hsize_t i = 0; i < n; ++i) {
    const double norm = std::hypot(eef_quat[4 * i], eef_quat[4 * i + 1], eef_quat[4 * i + 2]);
    EXPECT_NEAR(std::hypot(norm, eef_quat[4 * i + 3]), 1.0, 1e-12);  // unit: body poses are
  }                                                                  // renormalized every step

  // states: per body p, q (x y z w), v, w; the first sample the initial state
  const hsize_t bodies = model.body_count();
  EXPECT_THAT(h5.Shape(demo + "states"), ::testing::ElementsAre(n, 13 * bodies));
  EXPECT_EQ(h5.Strings(demo + "states", "body_names"), model.body_name);
  const std::vector<double> states = h5.Read<double>(demo + "states", H5T_NATIVE_DOUBLE);
  const int b = model.body_count() - 1;
  const Pose& X_WB = initial.body_X_WB[b];
  EXPECT_THAT(std::vector<double>(states.begin() + 13 * b, states.begin() + 13 * b + 7),
              ::testing::ElementsAre(X_WB.p.x(), X_WB.p.y(), X_WB.p.z(), X_WB.q.x(), X_WB.q.y(),
                                     X_WB.q.z(), X_WB.q.w()));

  // rewards 0, done on the last sample
  EXPECT_THAT(h5.Read<double>(demo + "rewards", H5T_NATIVE_DOUBLE), ::testing::Each(0.0));
  const std::vector<std::int64_t> dones = h5.Read<std::int64_t>(demo + "dones", H5T_NATIVE_INT64);
  ASSERT_EQ(dones.size(), n);
  EXPECT_EQ(std::count(dones.begin(), dones.end(), 1), 1);
  EXPECT_EQ(dones.back(), 1);

  // contacts: the per-sample counts add up to the events, which name their sample
  EXPECT_EQ(h5.Type(demo + "obs/contact_count"), std::make_pair(H5T_INTEGER, std::size_t{4}));
  const std::vector<std::int32_t> counts =
      h5.Read<std::int32_t>(demo + "obs/contact_count", H5T_NATIVE_INT32);
  const std::vector<std::int64_t> steps =
      h5.Read<std::int64_t>(demo + "contacts/step", H5T_NATIVE_INT64);
  EXPECT_EQ(h5.Type(demo + "contacts/step"), std::make_pair(H5T_INTEGER, std::size_t{8}));
  EXPECT_EQ(h5.Type(demo + "contacts/body_a"), std::make_pair(H5T_INTEGER, std::size_t{4}));
  ASSERT_GT(steps.size(), 0u);  // the wheels stand on the ground
  long long total = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    total += counts[i];
    EXPECT_EQ(std::count(steps.begin(), steps.end(), static_cast<std::int64_t>(i)), counts[i]);
  }
  EXPECT_EQ(total, static_cast<long long>(steps.size()));
  const hsize_t m = steps.size();
  EXPECT_THAT(h5.Shape(demo + "contacts/position"), ::testing::ElementsAre(m, 3));
  EXPECT_THAT(h5.Shape(demo + "contacts/normal"), ::testing::ElementsAre(m, 3));
  EXPECT_THAT(h5.Shape(demo + "contacts/normal_force"), ::testing::ElementsAre(m));
  EXPECT_THAT(h5.Shape(demo + "contacts/friction_force"), ::testing::ElementsAre(m, 2));
  EXPECT_THAT(h5.String(demo + "contacts/normal_force", "units"), StartsWith("N "));
  EXPECT_THAT(h5.String(demo + "contacts/position", "units"), StartsWith("m "));
  EXPECT_THAT(h5.String(demo + "contacts/body_a", "units"), HasSubstr("-1 the static world"));
  // the wheels (bodies) on the ground plane (the world), pushed up
  const std::vector<std::int32_t> body_a =
      h5.Read<std::int32_t>(demo + "contacts/body_a", H5T_NATIVE_INT32);
  const std::vector<std::int32_t> body_b =
      h5.Read<std::int32_t>(demo + "contacts/body_b", H5T_NATIVE_INT32);
  const std::vector<double> normal = h5.Read<double>(demo + "contacts/normal", H5T_NATIVE_DOUBLE);
  const std::vector<double> force =
      h5.Read<double>(demo + "contacts/normal_force", H5T_NATIVE_DOUBLE);
  for (hsize_t k = 0; k < m; ++k) {
    EXPECT_GE(body_a[k], 0);
    EXPECT_LT(body_a[k], model.body_count());
    EXPECT_EQ(body_b[k], -1);
    EXPECT_EQ(normal[3 * k + 2], 1.0);
  }
  // every sample's wheels press on the ground: the summed λ_n is positive (one contact's λ_n may
  // be slightly negative within the Newton solver's tolerance, so the sum is what is checked)
  std::vector<double> pressing(n, 0.0);
  for (hsize_t k = 0; k < m; ++k) pressing[steps[k]] += force[k];
  for (hsize_t i = 0; i < n; ++i) EXPECT_GT(pressing[i], 0.0) << "sample " << i;
}


TEST(DemoHdf5Test, UnwritablePathIsAnError) {
  DemoHdf5Writer writer;
  std::string error;
  EXPECT_FALSE(writer.Write("/nonexistent/folder/demo.h5", {}, &error));
  EXPECT_THAT(error, HasSubstr("cannot create the HDF5 file"));
}

}  // namespace
}  // namespace sim::io
