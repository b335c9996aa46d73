// Colour-format rules shared by the scene, the clear colour and the overlay.
#include "render/vk/color_format.h"

#include <algorithm>
#include <cmath>

namespace sim::render {

bool NeedsShaderSrgbEncoding(VkFormat format) {
  switch (format) {
    case VK_FORMAT_R8G8B8A8_SRGB:
    case VK_FORMAT_B8G8R8A8_SRGB:
    case VK_FORMAT_A8B8G8R8_SRGB_PACK32:
    case VK_FORMAT_R8G8B8_SRGB:
    case VK_FORMAT_B8G8R8_SRGB:
    case VK_FORMAT_R16G16B16A16_SFLOAT:
    case VK_FORMAT_B10G11R11_UFLOAT_PACK32:
    case VK_FORMAT_R32G32B32A32_SFLOAT:
      return false;
    default:
      return true;
  }
}


float EncodeSrgb(float linear) {
  linear = std::clamp(linear, 0.0f, 1.0f);
  return linear <= 0.0031308f ? 12.92f * linear : 1.055f * std::pow(linear, 1.0f / 2.4f) - 0.055f;
}

}  // namespace sim::render
