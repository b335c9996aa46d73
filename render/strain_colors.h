// Colour maps of the strain view and the range they span, shared by the renderer (per-vertex
// colours of soft bodies) and the overlay's colour bar, so both always agree. CPU only.
//   J − 1: diverging cool-warm map (Moreland 2009, "Diverging Color Maps for Scientific
//          Visualization"): blue for compression, near-white at 0, red for expansion, over
//          [−range, +range];
//   σ_vm:  sequential map (matplotlib's magma, light end first, its darkest quarter cut so
//          lighting stays readable) over [0, range].
#pragma once

#include <array>
#include <string>

#include "engine/visual/visual_frame.h"
#include "render/render_options.h"

namespace sim::render {

/// The field, its range and its labels, for one frame.
struct StrainLegend {
  StrainField field = StrainField::kVolumetric;
  float min = 0;  ///< value at the low end of the map (−range for J − 1, 0 for σ_vm)
  float max = 0;  ///< value at the high end
  float data_min = 0, data_max = 0;  ///< extremes of the frame's values (0 without soft bodies)
  std::string title;                 ///< "volumetric strain J − 1" or "von Mises stress"
  std::string unit;                  ///< "" (dimensionless, shown in %) or "Pa"
};

/// The fitted range spans this quantile of the nodes' |value|: a few collapsed or inverted tets
/// (|J − 1| near 1 while the body strains by a few per cent) would otherwise wash the map out.
/// Values beyond it saturate; the legend shows the frame's extremes.
inline constexpr float kRangeQuantile = 0.98f;

/// Smallest automatic range: |J − 1| ≤ 1e-3 is drawn as no strain (round-off of a body at rest).
inline constexpr float kMinVolumetricRange = 1e-3f;
/// Smallest automatic von Mises range [Pa].
inline constexpr float kMinVonMisesRange = 1.0f;

/// Legend of `frame` for `options` (field, fixed or fitted range).
StrainLegend ComputeStrainLegend(const VisualFrame& frame, const RenderOptions& options);

/// Linear RGB of `value` on the legend's map (clamped to its ends).
std::array<float, 3> StrainColor(float value, const StrainLegend& legend);

/// `value` with an SI prefix and the legend's unit ("12.5 kPa", "-3.20 %").
std::string FormatStrainValue(float value, const StrainLegend& legend);

}  // namespace sim::render
