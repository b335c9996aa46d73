// sRGB colour values as the renderer takes them: linear RGB.
#pragma once

#include <cmath>

namespace sim {

/// An 8-bit sRGB channel as linear RGB in [0, 1] (IEC 61966-2-1 decoding).
inline float SrgbToLinear(int c8) {
  const float c = static_cast<float>(c8) / 255.0f;
  return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f);
}

}  // namespace sim
