// Structure fields (digest nsn-and-friction.md §2.13, [T §3.3]): a direction of "grain" and its
// strength at every point of a surface, which the contact-material stage turns into an
// anisotropic Matchstick friction cone (§2.12). A field lives in 2-D field coordinates (u, v): the
// mesh's texture coordinates, or a projection of the shape-frame surface point (planar,
// cylindrical, triplanar; metres). Its value there is a tangent-space axis θ (measured from +u
// toward +v; an axis, so θ and θ + π are the same) and a strength w in [0, 1] (0: no grain).
//
// Two sources: procedural (uniform, radial, channel, slalom, vortex; evaluated exactly at each
// contact) and texels (a PNG image, or a procedural field baked for painting). Texels hold the
// doubled angle (cos 2θ, sin 2θ) and w as floats, so bilinear filtering of two texels whose axes
// differ only in sign (θ, θ + π) does not cancel: both have the same doubled angle. The filtered
// axis is θ = ½ atan2(S, C); where the filtered (C, S) is shorter than one 8-bit step (1/255) the
// neighbouring axes cancel (crossed grain) and the sample has no direction (w = 0).
//
// PNG encoding (8-bit RGB or RGBA; alpha ignored): R = round(127.5·(cos 2θ + 1)),
// G = round(127.5·(sin 2θ + 1)), B = round(255·w); decoding is c = 2·byte/255 − 1 (so 0 → −1,
// 255 → +1, 128 → +0.0039) and w = byte/255. The image covers one tile of `tile_size` in (u, v),
// repeated: column i spans u ∈ [i, i + 1)·size_u/W from the left, row r (counted from the top of
// the file) spans v ∈ [H − r − 1, H − r)·size_v/H, so +v points up the image as viewed.
//
// Painting: a field is shared, not copied, by every model built from the scene (Model holds
// std::shared_ptr<StructureField>, the one mutable part of an otherwise immutable Model). A painter
// writes texels (mutable_texels(), after Bake() for a procedural field) on the simulation worker
// thread between steps and calls MarkChanged(); the contact stage reads the texels at every step,
// so the next step uses the paint, and revision() tells a renderer or a cache that it changed.
// engine/edit/structure_paint.h locates and paints dabs (with undo in paint_history.h), and
// engine/io/structure_field_save.h saves a painted field as a PNG referenced from its scene.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/math.h"

namespace sim {

/// Where a field's values come from.
enum class StructureFieldKind {
  kImage = 0,  ///< texels read from a PNG file
  kUniform,    ///< one axis everywhere, at `angle`
  kRadial,     ///< the axis points away from `center` (spreading)
  kChannel,    ///< lanes along a centre line that steer sliders moving along it onto the line
  kSlalom,     ///< sinusoidal lanes: sliders along them weave across the centre line
  kVortex,     ///< the axis circles `center`
};

/// "image", "uniform", "radial", "channel", "slalom", "vortex".
const char* StructureFieldKindName(StructureFieldKind kind);

/// How a surface point becomes field coordinates (u, v) and surface tangents (T_u, T_v).
enum class FieldProjection {
  kUv = 0,       ///< the mesh's texture coordinates (UV units); triplanar where a contact has none
  kPlanar,       ///< coordinates in the plane normal to `axis` [m]
  kCylindrical,  ///< u = arc length ρ·φ around `axis`, v = height along it [m]
  kTriplanar,    ///< planar along the shape axis closest to the surface normal [m]
};

/// "uv", "planar", "cylindrical", "triplanar".
const char* FieldProjectionName(FieldProjection projection);

/// A projection and its frame, in the frame of the shape (a soft body: its material frame).
/// Planar along axis a with origin o: e_u = the shape x axis projected onto the plane (the y axis
/// when a is within 1e-6 of x), e_v = a × e_u; (u, v) = ((p − o)·e_u, (p − o)·e_v). Cylindrical:
/// the same e_u, e_v span the angle φ = atan2((p − o)·e_v, (p − o)·e_u) and the radius ρ; u = ρφ,
/// v = (p − o)·a, T_u = the circumferential unit vector, T_v = a. Triplanar: planar along the
/// shape axis ±x, ±y or ±z of the largest |n_i| of the surface normal n (the axis vector with a
/// positive coefficient; ties go to z, then y), with `origin`.
struct FieldProjectionSpec {
  FieldProjection kind = FieldProjection::kPlanar;
  Vec3 axis = Vec3::UnitZ();   ///< planar normal or cylinder axis (unit)
  Vec3 origin = Vec3::Zero();  ///< [m]
};

/// The coordinates of a surface point and its tangent frame (unit, T_u ⟂ T_v, shape frame).
struct FieldCoordinates {
  Vec2 uv = Vec2::Zero();
  Vec3 tangent_u = Vec3::UnitX();
  Vec3 tangent_v = Vec3::UnitY();
};

/// Projects `point` (with outward surface normal `normal`, both shape frame) by `spec`; kUv is
/// projected as kTriplanar (the caller gives UVs itself where a contact has them).
FieldCoordinates ProjectSurfacePoint(const FieldProjectionSpec& spec, const Vec3& point,
                                     const Vec3& normal);

/// Parameters of the procedural kinds, in field coordinates ([m] for projections, UV units for
/// kUv). Angles are counted from +u toward +v [rad].
struct ProceduralField {
  Real angle = 0;              ///< uniform: the axis; channel, slalom: the lanes' direction f
  Vec2 center = Vec2::Zero();  ///< radial, vortex: the centre; channel, slalom: a centre-line point
  /// channel: the axis is ⟂ f on the line and turns toward f by `turn`·clamp(d / width, −1, 1)
  /// at signed distance d (positive to the left of f), so a slider moving along +f meets the
  /// oblique cone that pushes it toward the line (the lateral force ∝ −sin 2α, α from f to t)
  Real width = 1;
  Real turn = 0.7853981633974483;  ///< channel: the turn at |d| ≥ width [rad], in (0, π/2)
  Real wavelength = 2;             ///< slalom: λ of the lanes v' = A sin(2π u'/λ) [m]
  Real amplitude = 0.25;           ///< slalom: A [m]
  Real strength = 1;               ///< w of every point, in [0, 1]
  Real core_radius = 1e-3;  ///< radial, vortex: no direction (w = 0) closer to the centre [m]
};

/// One filtered texel value: the doubled-angle axis and the strength.
struct StructureTexel {
  float cos2 = 1;  ///< cos 2θ
  float sin2 = 0;  ///< sin 2θ
  float strength = 0;
};

/// A field's value at a point: the tangent-space axis (unit, in the (u, v) plane) and w.
struct StructureSample {
  Vec2 direction = Vec2(1, 0);
  Real strength = 0;  ///< 0: no grain here (isotropic)
};

/// Largest texel array side of a field (PNG files and bakes) [px].
inline constexpr int kMaxStructureFieldSide = 8192;

class StructureField {
 public:
  StructureField() = default;
  /// A copy has the same parameters, texels and revision (a separate field to paint).
  StructureField(const StructureField& other) { *this = other; }
  StructureField& operator=(const StructureField& other);

  StructureFieldKind kind = StructureFieldKind::kUniform;
  ProceduralField procedural;
  FieldProjectionSpec projection;
  /// extent of one texel tile in field coordinates ([m], UV units for kUv); textures repeat
  Vec2 tile_size = Vec2(1, 1);
  std::string image_path;  ///< kImage: the PNG it was read from (a painter saves back there)
  /// JSON pointer of the scene value this field was read from ("/objects/2/structure_field"),
  /// where a painter saves its reference to the painted image; empty for fields built in code
  std::string scene_pointer;

  /// The value at field coordinates `uv`: bilinear over the texels when there are any (repeat
  /// wrap), else the procedural formula.
  StructureSample Sample(const Vec2& uv) const;
  /// The procedural formula at `uv` (ignores texels).
  StructureSample SampleProcedural(const Vec2& uv) const;

  int width() const { return width_; }
  int height() const { return height_; }
  bool has_texels() const { return !texels_.empty(); }
  /// Row-major texels, row 0 at the top of the image (largest v).
  const std::vector<StructureTexel>& texels() const { return texels_; }
  /// For a painter: write, then MarkChanged(). Worker thread, between steps only.
  std::vector<StructureTexel>& mutable_texels() { return texels_; }
  /// Replaces the texels (width·height of them, sides in [1, kMaxStructureFieldSide]).
  void SetTexels(int width, int height, std::vector<StructureTexel> texels);
  /// Rasterizes the procedural formula at the texel centres of one tile, so a painter can edit a
  /// procedural field; sampling then reads the texels. Each texel takes the formula's value at
  /// the image of its centre in the window [window_origin, window_origin + tile_size) (field
  /// coordinates), so a surface inside that window reads the formula's values where it lies.
  void Bake(int width, int height, const Vec2& window_origin = Vec2::Zero());
  /// Field coordinates of the centre of texel (column, row) of this field's texels.
  Vec2 TexelCenter(int column, int row) const;

  /// Counts edits; every SetTexels, Bake and MarkChanged increments it. Any thread may read it.
  std::uint64_t revision() const { return revision_.load(std::memory_order_acquire); }
  void MarkChanged() { revision_.fetch_add(1, std::memory_order_acq_rel); }

 private:
  int width_ = 0;
  int height_ = 0;
  std::vector<StructureTexel> texels_;
  std::atomic<std::uint64_t> revision_{0};
};

/// The texel of axis θ [rad] and strength w, and its 8-bit RGB encoding (see the file comment).
StructureTexel TexelFromAxis(Real theta, Real strength);
void EncodeStructureTexel(const StructureTexel& texel, std::uint8_t rgb[3]);
StructureTexel DecodeStructureTexel(std::uint8_t r, std::uint8_t g, std::uint8_t b);

}  // namespace sim
