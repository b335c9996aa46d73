// GPU backend: skips with the probe's reason where no CUDA device exists, runs for real where one
// does. The CPU fallback must always be selectable.
#include "sim/cuda/device.h"

#include <gtest/gtest.h>

#include <cmath>

namespace sim::cuda {
namespace {

TEST(CudaBackendTest, FallsBackToCpuWithoutADevice) {
  std::string reason;
  const bool has_device = ProbeDevice(&reason).has_value();
  EXPECT_EQ(SelectBackend(false), Backend::kCpu);
  EXPECT_EQ(SelectBackend(true), has_device ? Backend::kCuda : Backend::kCpu);
  if (!has_device) {
    EXPECT_FALSE(reason.empty());
  }
}


TEST(CudaBackendTest, SaxpyMatchesCpu) {
  std::string reason;
  const std::optional<DeviceInfo> device = ProbeDevice(&reason);
  if (!device) GTEST_SKIP() << "no CUDA device: " << reason;
  std::printf("CUDA device: %s (sm_%d%d, %.1f GiB, driver %d, runtime %d)\n", device->name.c_str(),
              device->compute_major, device->compute_minor, device->memory_bytes / 1073741824.0,
              device->driver_version, device->runtime_version);
  double max_error = -1;
  ASSERT_TRUE(RunSaxpySelfTest(1 << 20, &max_error, &reason)) << reason;
  // a·x + y in float32 on both sides: the GPU's one FMA rounding and the host's two roundings are
  // each within u·(|a·x| + |y|) of the exact value (u = 2⁻²⁴), so they differ by at most 3u of it
  // (an H200 gave 1.19e-7 = 2u)
  std::printf("largest difference: %.3g of |a·x| + |y|\n", max_error);
  EXPECT_LE(max_error, 3.0 * std::ldexp(1.0, -24));
}

}  // namespace
}  // namespace sim::cuda
