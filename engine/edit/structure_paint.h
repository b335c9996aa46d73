// Painting structure fields (issue 18; structure_field.h): where a ray hit lands on a field, and
// the brush dabs that edit the field's texels. The studio's paint mode casts a ray from the mouse
// (engine/collision/raycast.h), locates the spot with LocatePaint and applies a dab there each
// frame of the stroke, recorded for undo by PaintHistory (paint_history.h). All of it runs on the
// simulation worker between steps (the painting contract of structure_field.h), so the next
// step's contacts read the paint.
//
// Locating. A hit on a shape or a soft body with a field gives the field coordinates (u, v)
// exactly as the contact stage computes them for a contact at that point (structure_surface.h);
// the world images T_u, T_v of the field's +u and +v axes there, through which the contact stage
// lifts an axis θ (s = cos θ·T_u + sin θ·T_v, then projected onto the tangent plane); and k, the
// field units per metre of surface, so a brush radius r [m] is k·r in field coordinates:
//   metre projections (planar, cylindrical, triplanar) on rigid shapes: k = 1 (exact where the
//     surface is parallel to the projection plane; on a face tilted by α from it a disc of the
//     field is an ellipse on the surface, 1/cos α longer down the slope);
//   "uv" on a mesh triangle: k = sqrt(A_uv / A), the triangle's UV area over its area [m²];
//   soft bodies (metre projections of the rest shape): k = sqrt(A_rest / A_now) of the hit
//     triangle, so the radius is measured on the deformed surface.
//
// Baking. A procedural field has no texels: before its first paint, BakeForPainting rasterizes it
// into texels that reproduce the formula on every surface using the field. The tile becomes the
// window of field coordinates those surfaces cover (bounds of their shape-frame boxes, or of a
// mesh's UVs, through the projection), grown by one texel on each side so bilinear filtering at
// a surface's edge does not wrap onto the opposite edge, with square texels of pitch
// h = max(E / (kPaintBakeMaxSide − 2), h_min) for the window's larger side E, h_min =
// kPaintBakeMinPitch (0.5 mm): at most kPaintBakeMaxSide² texels (a 12 m × 2.4 m pad: 1.2 cm
// texels, 1024 × 207). An unbounded surface (a plane, an unbounded analytic SDF) gets a window
// kUnboundedPaintWindow wide centred on the first dab; the tile repeats beyond it. A field that
// has texels (an image, or one baked before) is painted as it is.
//
// Dabs. A dab is a disc of radius r (field units) centred at (u, v). Each texel whose centre lies
// at distance d < r (field units) moves toward the tool's target by a = opacity·f(d / r), with
// the falloff of hardness η in [0, 1]
//   f(s) = 1                                             s ≤ η    (η = 1: a hard disc)
//   f(s) = 1 − (3t² − 2t³),  t = (s − η) / (1 − η)       η < s < 1 (a smoothstep down to 0)
//   f(s) = 0                                             s ≥ 1
// (η = 0: f(½) = ½, f(¼) = 0.84375, f(¾) = 0.15625). The tile repeats, so a dab across a tile
// edge continues on the opposite edge; a disc wider than the tile touches each texel once, at
// its nearest image. Texels keep unit doubled-angle vectors (cos 2θ, sin 2θ): an axis moves by
// blending that vector toward the target's and renormalizing (so θ and θ + π stay one axis); a
// strength moves linearly, w ← w + a·(w_target − w). Targets:
//   comb:      the stroke's axis, TangentSpaceAngle of the motion since the previous dab;
//   set angle: the brush's angle θ (a = 1 writes exactly TexelFromAxis(θ, w));
//              comb and set angle also move w toward the brush's strength unless keep_strength;
//   smooth:    a box blur of (cos 2θ, sin 2θ) and w over (2m + 1)² texels, m = max(1,
//              round(r_texels / 4)), of the texels as they were before the dab;
//   erase:     w → 0, isotropic friction there (a = 1 gives exactly 0);
//   strength:  w → the brush's strength.
// A dab calls the field's MarkChanged() once if it wrote a texel, and returns what it wrote.
#pragma once

#include <array>
#include <optional>

#include "engine/collision/raycast.h"
#include "engine/model/model.h"
#include "engine/state/state.h"

namespace sim {

/// Largest side of a baked field [texels].
inline constexpr int kPaintBakeMaxSide = 1024;
/// Smallest texel pitch of a bake in metre projections [m] ("uv" projections: 1e-4 UV units).
inline constexpr Real kPaintBakeMinPitch = 5e-4;
/// Width of the baked window on an unbounded surface, centred on the first dab [field units].
inline constexpr Real kUnboundedPaintWindow = 10;

/// Where a ray hit lands on a structure field.
struct PaintSpot {
  int field = -1;                    ///< index into Model::structure_fields
  int shape = -1;                    ///< the shape hit, or −1 on a soft body
  int soft_body = -1;                ///< the soft body hit, or −1 on a shape
  Vec2 uv = Vec2::Zero();            ///< field coordinates of the hit point
  Vec3 tangent_u_W = Vec3::UnitX();  ///< world image of the field's +u axis (unit on rigid shapes)
  Vec3 tangent_v_W = Vec3::UnitY();  ///< world image of the field's +v axis
  Vec3 normal_W = Vec3::UnitZ();     ///< outward unit surface normal
  Real units_per_metre = 1;          ///< k: field units per metre of surface
};

/// The field under `hit` (from Raycast on `model` at `state`), or nullopt where the surface hit
/// has none (or nothing was hit). A hit on a solid primitive from inside it takes the ray-facing
/// normal as the outward one (it only matters to triplanar projections).
std::optional<PaintSpot> LocatePaint(const Model& model, const State& state, const RayHit& hit);

/// The tangent-space axis θ [rad] (from +u toward +v, in (−π, π]) that the contact stage at
/// `spot` lifts onto world direction `direction_W` (its part in the tangent plane): the
/// least-squares solution of cos θ·T_u' + sin θ·T_v' ∥ m' with T_u', T_v', m' projected onto the
/// tangent plane. Nullopt where the direction has no tangential part.
std::optional<Real> TangentSpaceAngle(const PaintSpot& spot, const Vec3& direction_W);

/// Bakes field `field` of `model` into texels for painting (the file comment's window and
/// pitch); `near_uv` (field coordinates, usually the first dab's) centres the window of an
/// unbounded surface. Returns false, and changes nothing, when the field already has texels.
bool BakeForPainting(const Model& model, int field, const Vec2& near_uv);

enum class BrushTool {
  kComb = 0,  ///< the axis follows the stroke
  kSetAngle,  ///< the axis becomes Brush::angle
  kSmooth,    ///< blurs axis and strength
  kErase,     ///< strength → 0 (isotropic)
  kStrength,  ///< strength → Brush::strength
};

/// "comb", "set angle", "smooth", "erase", "strength".
const char* BrushToolName(BrushTool tool);

struct Brush {
  BrushTool tool = BrushTool::kComb;
  Real radius = 0.05;  ///< on the surface [m]
  Real opacity = 1;    ///< how far a dab moves a texel at full falloff, in [0, 1]
  Real hardness =
      0.5;         ///< η of the falloff, in [0, 1] (1: hard disc, 0: smoothstep from the centre)
  Real angle = 0;  ///< set angle: the tangent-space axis θ [rad]
  Real strength = 1;           ///< w in [0, 1] that strength, comb and set angle paint
  bool keep_strength = false;  ///< comb, set angle: change only the axis
};

/// One dab in field coordinates.
struct FieldDab {
  Vec2 center = Vec2::Zero();  ///< field coordinates
  Real radius = 0;             ///< field units
  Real angle = 0;              ///< comb, set angle: the axis θ [rad]; NaN: none (no dab)
};

/// The dab of `brush` at `spot`: radius k·r, the brush's angle, or for comb the axis of the
/// stroke's world motion since the previous dab [m] (none on the first dab of a stroke, or a
/// motion along the normal: that comb dab changes nothing).
FieldDab DabAt(const PaintSpot& spot, const Brush& brush,
               const Vec3& stroke_motion_W = Vec3::Zero());

/// A rectangle of texels: columns [column, column + width), rows [row, row + height) counted
/// from the top of the image, as StructureField::texels().
struct TexelRect {
  int column = 0;
  int row = 0;
  int width = 0;
  int height = 0;
  bool empty() const { return width <= 0 || height <= 0; }
};

/// Texels a dab covers: up to four rectangles inside the tile (a dab across a tile edge wraps to
/// the opposite edge).
struct DirtyTexels {
  std::array<TexelRect, 4> rects;
  int count = 0;
  bool empty() const { return count == 0; }
  /// One rectangle holding them all (empty when there are none).
  TexelRect Bounds() const;
};

/// The texels `dab` may write in `field` (the bounding box of its disc), without writing them.
DirtyTexels DabTexels(const StructureField& field, const FieldDab& dab);

/// Paints one dab of `brush` into `field`'s texels (none: nothing, BakeForPainting first) and
/// returns the texels it wrote (their bounding boxes); MarkChanged() once if it wrote any.
DirtyTexels ApplyDab(StructureField* field, const Brush& brush, const FieldDab& dab);

}  // namespace sim
