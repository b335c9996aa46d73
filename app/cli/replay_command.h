// `contact-sim replay FILE`: replays a teleop recording (engine/io/teleop_replay.h), prints its
// steps and final state hash against the recorded one (MATCH / MISMATCH), and optionally writes
// the verified recording, a robomimic-style HDF5 demonstration and the contact dump.
#pragma once

#include <cstdint>
#include <string>

namespace sim::cli {

struct ReplayCommandOptions {
  std::string recording;    ///< the recording file
  std::uint64_t steps = 0;  ///< 0: the recording's
  std::string record;       ///< write the recording with this run's hashes and steps here
  std::string hdf5;         ///< write the demonstration (HDF5) here
  std::string contacts;     ///< write every step's contacts (CSV, as `run --contacts`) here
};

/// 0 on MATCH (or when the recording has no final hash to compare, said as UNCHECKED); 1 on
/// MISMATCH, a recording or scene with errors, a file that cannot be written or a non-finite
/// step; 2 for --hdf5 in a build without HDF5.
int RunReplay(const ReplayCommandOptions& options);

}  // namespace sim::cli
