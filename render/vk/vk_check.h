// Checked Vulkan calls: SIM_VK_CHECK(expr) throws sim::render::DeviceError naming the VkResult, the
// expression, file and line (SaschaWillems' VK_CHECK_RESULT, but throwing instead of exiting).
#pragma once

#include <stdexcept>
#include <string>

#include <vulkan/vulkan.h>

namespace sim::render {

/// A Vulkan (or other device) failure; what() says what failed and where.
class DeviceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// "VK_ERROR_OUT_OF_DEVICE_MEMORY" etc.
const char* VkResultName(VkResult result);

[[noreturn]] void ThrowVkError(VkResult result, const char* expression, const char* file, int line);

}  // namespace sim::render

#define SIM_VK_CHECK(expr)                                                    \
  do {                                                                        \
    const VkResult sim_vk_result_ = (expr);                                   \
    if (sim_vk_result_ != VK_SUCCESS)                                         \
      ::sim::render::ThrowVkError(sim_vk_result_, #expr, __FILE__, __LINE__); \
  } while (0)
