// libFuzzer target: the teleop recording reader (ParseTeleopRecording) on arbitrary text. The
// recording "lives" in the fuzzer's temporary folder beside an empty `scene.json`, so a `scene`
// naming it passes the existence check and the rest of the file is read and checked as for a
// real recording. A recording that reads writes back (TeleopRecordingJson) to text that reads to
// the same recording, number for number (the bit-exact round trip replays rely on).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>

#include "engine/io/teleop_recording_file.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

bool SameBits(double a, double b) { return std::memcmp(&a, &b, sizeof(double)) == 0; }

bool SameVector(const sim::Vec3& a, const sim::Vec3& b) {
  return SameBits(a.x(), b.x()) && SameBits(a.y(), b.y()) && SameBits(a.z(), b.z());
}

// the fields a recording's file carries, compared bit for bit
bool SameRecording(const sim::TeleopRecording& a, const sim::TeleopRecording& b) {
  if (a.scene_path != b.scene_path || a.overrides != b.overrides || a.solver != b.solver ||
      a.target_names != b.target_names || a.initial_state_hash != b.initial_state_hash ||
      a.steps != b.steps || a.final_state_hash != b.final_state_hash ||
      a.actions.size() != b.actions.size()) {
    return false;
  }
  for (std::size_t i = 0; i < a.actions.size(); ++i) {
    const sim::TeleopAction& x = a.actions[i].action;
    const sim::TeleopAction& y = b.actions[i].action;
    if (a.actions[i].step != b.actions[i].step || x.kind != y.kind || x.target != y.target ||
        !SameVector(x.linear, y.linear) || !SameVector(x.angular, y.angular) ||
        !SameVector(x.pose.p, y.pose.p) || !SameBits(x.pose.q.w(), y.pose.q.w()) ||
        !SameBits(x.pose.q.x(), y.pose.q.x()) || !SameBits(x.pose.q.y(), y.pose.q.y()) ||
        !SameBits(x.pose.q.z(), y.pose.q.z()) || !SameBits(x.value, y.value)) {
      return false;
    }
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string folder = [] {
    const std::string path = sim::fuzz::TempDir::Get().path();
    std::ofstream(path + "/scene.json") << "{}";
    return path;
  }();
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string source = folder + "/fuzz.teleop.json";
  sim::Expected<sim::io::TeleopRecordingFile> file = sim::io::ParseTeleopRecording(text, source);
  sim::fuzz::CheckDiagnostics(file.ok(), file.diagnostics());
  if (!file.ok()) return 0;
  const std::string written = sim::io::TeleopRecordingJson(file->recording);
  sim::Expected<sim::io::TeleopRecordingFile> again =
      sim::io::ParseTeleopRecording(written, source);
  sim::fuzz::Check(again.ok(), "a written recording reads back");
  if (again.ok()) {
    sim::fuzz::Check(SameRecording(file->recording, again->recording),
                     "a written recording reads back to the same numbers");
  }
  return 0;
}
