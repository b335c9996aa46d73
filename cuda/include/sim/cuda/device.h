// GPU backend entry points (host API, no CUDA types, so it can be included anywhere). Built from
// CUDA sources when nvcc is found at configure time, else from a CPU-only stub. At run time a
// missing GPU or driver selects the CPU path, reported once, never a crash.
#pragma once

#include <optional>
#include <string>

namespace sim::cuda {

enum class Backend { kCpu = 0, kCuda };

/// Properties of the CUDA device the backend uses.
struct DeviceInfo {
  int ordinal = 0;
  std::string name;       ///< e.g. "NVIDIA H100 80GB HBM3"
  int compute_major = 0;  ///< compute capability
  int compute_minor = 0;
  std::size_t memory_bytes = 0;  ///< global memory [bytes]
  int driver_version = 0;        ///< CUDA driver API version, e.g. 13000
  int runtime_version = 0;       ///< CUDA runtime the backend was built with
};

/// True when this binary contains the CUDA backend (nvcc was found at configure time).
bool BuiltWithCuda();

/// Probes for a usable CUDA device once per process (thread-safe) and caches the answer. On
/// failure returns nullopt and sets `reason` (no device, no driver, driver too old, built without
/// CUDA).
std::optional<DeviceInfo> ProbeDevice(std::string* reason = nullptr);

/// kCuda if `want_cuda` and a device is usable, else kCpu. The first fallback is reported once on
/// stderr ("contact-sim: CUDA unavailable (...): using the CPU backend").
Backend SelectBackend(bool want_cuda);

/// Device self-test: y = a·x + y on `n` elements on the GPU, compared with the same on the CPU.
/// Returns false with `reason` when no device is usable; else sets the largest difference divided
/// by |a·x| + |y|, the scale of the rounding either side may make (dimensionless).
bool RunSaxpySelfTest(int n, double* max_scaled_error, std::string* reason);

}  // namespace sim::cuda
