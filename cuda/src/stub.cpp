// CPU-only build of the GPU backend API (nvcc was not found at configure time).
#include "sim/cuda/device.h"

namespace sim::cuda {

namespace {
constexpr const char* kNotBuilt = "built without CUDA: nvcc was not found when configuring";
}  // namespace

bool BuiltWithCuda() { return false; }


std::optional<DeviceInfo> ProbeDevice(std::string* reason) {
  if (reason != nullptr) *reason = kNotBuilt;
  return std::nullopt;
}


bool RunSaxpySelfTest(int, double*, std::string* reason) {
  if (reason != nullptr) *reason = kNotBuilt;
  return false;
}

}  // namespace sim::cuda
