// SIM_VK_CHECK and VkResultName: failed calls become DeviceErrors naming the result, the
// expression and the place; no device is needed.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "render/vk/vk_check.h"

namespace sim::render {
namespace {

using ::testing::HasSubstr;

VkResult Fails() { return VK_ERROR_DEVICE_LOST; }


TEST(VkCheck, NamesCommonResults) {
  EXPECT_STREQ(VkResultName(VK_SUCCESS), "VK_SUCCESS");
  EXPECT_STREQ(VkResultName(VK_ERROR_OUT_OF_DEVICE_MEMORY), "VK_ERROR_OUT_OF_DEVICE_MEMORY");
  EXPECT_STREQ(VkResultName(VK_ERROR_INCOMPATIBLE_DRIVER), "VK_ERROR_INCOMPATIBLE_DRIVER");
  EXPECT_STREQ(VkResultName(VK_ERROR_OUT_OF_DATE_KHR), "VK_ERROR_OUT_OF_DATE_KHR");
  EXPECT_STREQ(VkResultName(static_cast<VkResult>(-123456)), "VK_RESULT_UNKNOWN");
}


TEST(VkCheck, ThrowsDeviceErrorWithResultExpressionAndPlace) {
  try {
    SIM_VK_CHECK(Fails());
    FAIL() << "SIM_VK_CHECK did not throw";
  } catch (const DeviceError& e) {
    EXPECT_THAT(e.what(), HasSubstr("vk_check_test.cpp:"));
    EXPECT_THAT(e.what(), HasSubstr("Fails() failed with VK_ERROR_DEVICE_LOST (-4)"));
  }
  EXPECT_NO_THROW(SIM_VK_CHECK(VK_SUCCESS));
}

}  // namespace
}  // namespace sim::render
