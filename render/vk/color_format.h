// How a colour attachment's format treats the linear colours our shaders compute. One rule for
// every host (offscreen target, Qt swapchain) and every pass (scene, sky clear, ImGui overlay).
#pragma once

#include <vulkan/vulkan.h>

namespace sim::render {

/// True when values written to an attachment of `format` are stored as-is and displayed as sRGB
/// (8/10-bit UNORM), so the writer must encode linear colour itself. False for *_SRGB formats
/// (the hardware encodes on store) and float formats (they hold linear values).
bool NeedsShaderSrgbEncoding(VkFormat format);

/// Linear -> sRGB transfer curve of IEC 61966-2-1 on one channel in [0, 1] (clamped).
float EncodeSrgb(float linear);

}  // namespace sim::render
