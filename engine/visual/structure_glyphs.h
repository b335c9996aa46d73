// Structure glyphs: what the `structure` view draws of the structure fields (structure_field.h).
// Each glyph is a short dash lying on a surface along the field's grain axis at that point,
// sampled exactly as a contact there would be (SampleSideStructure of contact_material.h: the
// same projection or UVs, the same lift to world through the shape pose or the current soft-body
// triangle), so what the view shows is what friction uses. Axes carry no sign, so a dash has no
// head. Strength w is given for colouring; points without grain (w = 0) are kept, so erased or
// crossed regions show as such.
//
// Where glyphs are placed (per shape or soft body with a field):
//   plane      a square grid in the plane, snapped to multiples of its spacing (so the dashes
//              stay put while bodies move), over the bounds of the scene's moving bodies,
//              particles and camera target, padded by half their size, and at least
//              kPlaneGlyphSpanPerCameraDistance times the scene camera's distance (and
//              kMinPlaneGlyphHalfSpan) to either side;
//   box        a grid on each face;  sphere  a Fibonacci lattice;
//   capsule, cylinder  rings along the axis (and the caps of a cylinder);
//   hull       each face's centroid; mesh  triangle centroids (at most kMaxGlyphsPerShape);
//   soft body  the centroids of its boundary triangles (at most kMaxGlyphsPerShape).
// Analytic-SDF shapes get none.
#pragma once

#include <array>
#include <vector>

#include "engine/model/model.h"

namespace sim {

struct State;

/// One dash of the structure view.
struct VisualStructureGlyph {
  std::array<float, 3> center = {0, 0, 0};  ///< on the surface, world [m]
  std::array<float, 3> axis = {1, 0, 0};    ///< unit grain axis, tangent to the surface, world
  std::array<float, 3> normal = {0, 0, 1};  ///< unit outward surface normal, world
  float half_length = 0;                    ///< half the dash's length [m]
  float strength = 0;                       ///< w in [0, 1]; 0 where there is no grain
  bool on_world = false;  ///< on a shape of the static world (ground), which compared lanes share
};

/// Glyphs per shape or soft body at most, and per frame at most.
inline constexpr int kMaxGlyphsPerShape = 2500;
inline constexpr int kMaxStructureGlyphs = 12000;
/// Glyphs along each side of a plane's grid.
inline constexpr int kPlaneGlyphsPerSide = 48;
/// Least half side of a plane's glyph grid [m], and as a fraction of the scene camera's distance
/// (0.6: about what the scene camera sees at 45° field of view).
inline constexpr Real kMinPlaneGlyphHalfSpan = 1.0;
inline constexpr Real kPlaneGlyphSpanPerCameraDistance = 0.6;

/// Appends the glyphs of every shape and soft body that has a structure field in `model`, at the
/// configuration `state`, to `glyphs` (nothing when the model has no fields). Cost: one field
/// sample per glyph (about 0.3 ms for a plane's 48² grid on one core).
void AppendStructureGlyphs(const Model& model, const State& state,
                           std::vector<VisualStructureGlyph>* glyphs);

}  // namespace sim
