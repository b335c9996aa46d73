// CUDA build of the GPU backend API: device probe and a self-test kernel. The runtime is linked
// statically; it loads the driver (libcuda) at run time, so a machine without a GPU or driver gets
// an error code from the probe, never a crash or a missing-library failure.
#include <algorithm>
#include <cmath>
#include <mutex>
#include <vector>

#include <cuda_runtime.h>

#include "sim/cuda/device.h"

namespace sim::cuda {

namespace {

struct ProbeResult {
  std::optional<DeviceInfo> info;
  std::string reason;
};


ProbeResult ProbeOnce() {
  ProbeResult result;
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    result.reason = std::string(cudaGetErrorName(status)) + ": " + cudaGetErrorString(status);
    return result;
  }
  if (count == 0) {
    result.reason = "no CUDA device";
    return result;
  }
  cudaDeviceProp props{};
  if (cudaGetDeviceProperties(&props, 0) != cudaSuccess) {
    result.reason = "cannot query CUDA device 0";
    return result;
  }
  DeviceInfo info;
  info.ordinal = 0;
  info.name = props.name;
  info.compute_major = props.major;
  info.compute_minor = props.minor;
  info.memory_bytes = props.totalGlobalMem;
  cudaDriverGetVersion(&info.driver_version);
  cudaRuntimeGetVersion(&info.runtime_version);
  result.info = info;
  return result;
}


const ProbeResult& CachedProbe() {
  static std::once_flag once;
  static ProbeResult result;
  std::call_once(once, [] { result = ProbeOnce(); });
  return result;
}


__global__ void SaxpyKernel(int n, float a, const float* x, float* y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}


// frees device buffers on every exit path
struct DeviceBuffer {
  float* ptr = nullptr;
  ~DeviceBuffer() {
    if (ptr != nullptr) cudaFree(ptr);
  }
};

}  // namespace


bool BuiltWithCuda() { return true; }


std::optional<DeviceInfo> ProbeDevice(std::string* reason) {
  const ProbeResult& probe = CachedProbe();
  if (!probe.info && reason != nullptr) *reason = probe.reason;
  return probe.info;
}


bool RunSaxpySelfTest(int n, double* max_scaled_error, std::string* reason) {
  if (!ProbeDevice(reason)) return false;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = 0.001f * static_cast<float>(i);
    y[i] = 1.0f - 0.0005f * static_cast<float>(i);
  }
  constexpr float kA = 2.5f;
  DeviceBuffer dx, dy;
  const std::size_t bytes = sizeof(float) * static_cast<std::size_t>(n);
  auto fail = [&](cudaError_t status) {
    if (reason != nullptr) *reason = std::string("CUDA error: ") + cudaGetErrorString(status);
    return false;
  };
  cudaError_t status = cudaMalloc(&dx.ptr, bytes);
  if (status == cudaSuccess) status = cudaMalloc(&dy.ptr, bytes);
  if (status == cudaSuccess) status = cudaMemcpy(dx.ptr, x.data(), bytes, cudaMemcpyHostToDevice);
  if (status == cudaSuccess) status = cudaMemcpy(dy.ptr, y.data(), bytes, cudaMemcpyHostToDevice);
  if (status != cudaSuccess) return fail(status);
  constexpr int kBlock = 256;
  SaxpyKernel<<<(n + kBlock - 1) / kBlock, kBlock>>>(n, kA, dx.ptr, dy.ptr);
  status = cudaGetLastError();
  if (status == cudaSuccess) status = cudaDeviceSynchronize();
  std::vector<float> result(n);
  if (status == cudaSuccess)
    status = cudaMemcpy(result.data(), dy.ptr, bytes, cudaMemcpyDeviceToHost);
  if (status != cudaSuccess) return fail(status);
  // the device contracts a·x + y into one FMA, the host rounds twice: they differ by up to one
  // rounding of the terms, so the difference is measured against |a·x| + |y|
  double error = 0;
  for (int i = 0; i < n; ++i) {
    const float host = kA * x[i] + y[i];
    const double scale = std::abs(kA * x[i]) + std::abs(y[i]);
    error = std::max(error, std::abs(static_cast<double>(result[i]) - host) / scale);
  }
  *max_scaled_error = error;
  return true;
}

}  // namespace sim::cuda
