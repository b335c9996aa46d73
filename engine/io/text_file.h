// Reading an input file, with the checks every loader makes before it reads a byte: the path is a
// regular file (not a directory, FIFO or device such as /dev/zero, which would block or never
// end) no larger than the input limit, else a diagnostic naming the file.
#pragma once

#include <cstdint>
#include <string>

#include "engine/core/diagnostics.h"

namespace sim::io {

/// Largest input file read by default [bytes]: 1 GiB, far above any scene, robot, mesh or tet
/// mesh we know of. The environment variable CONTACT_STUDIO_MAX_INPUT_MB overrides it (in MiB).
inline constexpr std::uint64_t kDefaultMaxInputBytes = std::uint64_t{1} << 30;

/// The input limit in effect [bytes] (kDefaultMaxInputBytes or the environment's override).
std::uint64_t MaxInputBytes();

/// Empty when `path` can be read as a `kind` file ("scene", "URDF", "mesh", ...); else an error
/// naming it: missing, not a regular file, or over MaxInputBytes().
Diagnostics CheckInputFile(const std::string& path, const std::string& kind);

/// The contents of `path` after CheckInputFile, or its error.
Expected<std::string> ReadTextFile(const std::string& path, const std::string& kind);

}  // namespace sim::io
