// One colour per compared lane, the same in the studio's viewport labels, its charts and
// `contact-sim compare --plot`: Tableau 10, whose neighbours stay distinct for colour-blind
// readers; lanes past ten repeat it.
#pragma once

#include <array>
#include <cstdint>

#include "engine/visual/srgb.h"

namespace sim {

/// 0xRRGGBB of lane `lane` (≥ 0).
inline std::uint32_t LaneColor(int lane) {
  static constexpr std::array<std::uint32_t, 10> kPalette = {
      0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd,
      0x8c564b, 0xe377c2, 0x7f7f7f, 0xbcbd22, 0x17becf,
  };
  return kPalette[static_cast<std::size_t>(lane < 0 ? 0 : lane) % kPalette.size()];
}

/// Lane `lane`'s colour as linear RGB, as the viewport draws it.
inline std::array<float, 3> LaneColorLinear(int lane) {
  const std::uint32_t rgb = LaneColor(lane);
  return {SrgbToLinear((rgb >> 16) & 0xff), SrgbToLinear((rgb >> 8) & 0xff),
          SrgbToLinear(rgb & 0xff)};
}

}  // namespace sim
