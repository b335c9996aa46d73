// Backend selection shared by the CUDA build and the stub: one probe, one report.
#include <cstdio>
#include <mutex>

#include "sim/cuda/device.h"

namespace sim::cuda {

Backend SelectBackend(bool want_cuda) {
  if (!want_cuda) return Backend::kCpu;
  std::string reason;
  if (ProbeDevice(&reason).has_value()) return Backend::kCuda;
  // the fallback is worth one line per process, not one per step
  static std::once_flag reported;
  std::call_once(reported, [&] {
    std::fprintf(stderr, "contact-sim: CUDA unavailable (%s): using the CPU backend\n",
                 reason.c_str());
  });
  return Backend::kCpu;
}

}  // namespace sim::cuda
