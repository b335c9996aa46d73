#include "app/cli/replay_command.h"

#include <cstdio>
#include <iostream>

#include "app/cli/simulate_commands.h"  // exit codes
#include "engine/io/run_report.h"
#include "engine/io/teleop_recording_file.h"
#include "engine/io/teleop_replay.h"
#ifdef SIM_HAVE_HDF5
#include "engine/io/hdf5/demo_hdf5.h"
#endif

namespace sim::cli {

namespace {

// what the final hash says, for the summary line
const char* Verdict(const io::ReplayResult& result) {
  if (result.compared) return result.matches ? "MATCH" : "MISMATCH";
  return "UNCHECKED";
}


void PrintSummary(const std::string& path, const io::ReplayResult& result) {
  const TeleopRecording& recording = result.file.recording;
  std::printf("%s: scene %s, solver %s, %llu steps of %.6g s (t = %.6g s), %d actions applied\n",
              path.c_str(), recording.scene_path.c_str(), result.solver.c_str(),
              static_cast<unsigned long long>(result.steps), result.model->options.solver.dt,
              result.final_state.time, result.actions_applied);
  std::string recorded = "none";
  if (recording.final_state_hash != 0) {
    recorded = io::FormatStateHash(recording.final_state_hash) + " after " +
               std::to_string(recording.steps) + " steps";
  }
  std::printf("  final state hash %s, recorded %s: %s\n",
              io::FormatStateHash(result.final_state_hash).c_str(), recorded.c_str(),
              Verdict(result));
  std::printf("  status: %s\n", result.status.ToString().c_str());
  if (result.actions_not_reached > 0) {
    std::fprintf(stderr, "%s: note: %d action(s) at or after step %llu were not applied\n",
                 path.c_str(), result.actions_not_reached,
                 static_cast<unsigned long long>(result.steps));
  }
}

}  // namespace


int RunReplay(const ReplayCommandOptions& options) {
#ifndef SIM_HAVE_HDF5
  if (!options.hdf5.empty()) {
    std::cerr << "contact-sim replay: --hdf5: this build has no HDF5 (install libhdf5-dev and "
                 "reconfigure)\n";
    return kExitUsage;
  }
#endif
  Expected<io::TeleopRecordingFile> file = io::ReadTeleopRecording(options.recording);
  std::fputs(file.diagnostics().Format().c_str(), stderr);
  if (!file.ok()) return kExitInputError;

  // the per-step outputs open before stepping so a bad path fails fast
  io::ContactWriter contact_dump;
  std::string error;
  if (!options.contacts.empty() && !contact_dump.Open(options.contacts, &error)) {
    std::cerr << options.contacts << ": error: cannot write: " << error << "\n";
    return kExitInputError;
  }
#ifdef SIM_HAVE_HDF5
  io::DemoHdf5Writer demo;
#endif
  io::ReplayOptions replay;
  replay.steps = options.steps;
  replay.on_start = [&](const Simulation& simulation) {
#ifdef SIM_HAVE_HDF5
    if (!options.hdf5.empty()) demo.Start(simulation);
#endif
    (void)simulation;
  };
  replay.observer = [&](const Simulation& simulation) {
    if (!options.contacts.empty()) {
      contact_dump.Append(simulation.model(), simulation.state(), simulation.contacts());
    }
#ifdef SIM_HAVE_HDF5
    if (!options.hdf5.empty()) demo.AfterStep(simulation);
#endif
  };
  Expected<io::ReplayResult> result = io::ReplayTeleopRecording(file.value(), replay);
  std::fputs(result.diagnostics().Format().c_str(), stderr);
  if (!result.ok()) return kExitInputError;
  PrintSummary(options.recording, result.value());

  // outputs
  int code = kExitOk;
  if (!contact_dump.Close(&error)) {
    std::cerr << options.contacts << ": error: " << error << "\n";
    code = kExitInputError;
  }
  if (!options.record.empty()) {
    TeleopRecording verified = result->verified;
    verified.scene_path = io::ScenePathFor(result->file.scene_file, options.record);
    if (!io::WriteTeleopRecording(options.record, verified, &error)) {
      std::cerr << options.record << ": error: cannot write: " << error << "\n";
      code = kExitInputError;
    } else {
      std::printf("  recording with this run's hashes written to %s\n", options.record.c_str());
    }
  }
#ifdef SIM_HAVE_HDF5
  if (!options.hdf5.empty()) {
    const io::DemoSource source{.scene_path = result->file.scene_file,
                                .recording_path = options.recording,
                                .overrides = result->file.recording.overrides,
                                .solver = result->solver};
    if (!demo.Write(options.hdf5, source, &error)) {
      std::cerr << options.hdf5 << ": error: " << error << "\n";
      code = kExitInputError;
    } else {
      std::printf("  demonstration written to %s: %d samples, %d contact events\n",
                  options.hdf5.c_str(), demo.sample_count(), demo.contact_event_count());
    }
  }
#endif

  // a diverged replay and a final state other than the recorded one fail
  const io::StatusCounts& status = result->status;
  if (status.count(kStepNonFinite) > 0 || status.count(kStepRunaway) > 0) {
    std::fprintf(stderr, "%s: error: %d non-finite and %d runaway step(s)\n",
                 options.recording.c_str(), status.count(kStepNonFinite),
                 status.count(kStepRunaway));
    code = kExitInputError;
  }
  if (result->compared && !result->matches) {
    Diagnostics mismatch;
    mismatch.Error(options.recording, result->file.final_state_hash_line, "",
                   "the replay ends in state " + io::FormatStateHash(result->final_state_hash) +
                       ", not the recorded " +
                       io::FormatStateHash(result->file.recording.final_state_hash) +
                       " (the engine, the scene's data or the platform differs from the "
                       "recording's)");
    std::fputs(mismatch.Format().c_str(), stderr);
    code = kExitInputError;
  }
  return code;
}

}  // namespace sim::cli
