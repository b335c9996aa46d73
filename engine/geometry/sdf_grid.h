// Signed distance field sampled on a regular grid (digest pd-sdf-robotics.md §2.10): float values
// at the grid nodes, trilinear interpolation with the analytic gradient of the interpolant inside
// the box, and, outside it, the value at the closest box point plus the distance to the box (the
// §2.10 alternative to relying on the margin alone), so queries anywhere are defined, continuous
// and never report penetration far from the shape.
//
// Interpolation error (see `error_bound()`): for x in a cell with corners c_i and trilinear weights
// w_i (w_i ≥ 0, Σ w_i = 1, Σ w_i c_i = x because trilinear interpolation reproduces linear
// functions), exact corner values of a 1-Lipschitz φ give
//   |Σ w_i φ(c_i) − φ(x)| ≤ Σ w_i |c_i − x| ≤ (Σ w_i |c_i − x|²)^½          (Jensen)
//                        = (Σ_a t_a (1 − t_a) h_a²)^½ ≤ ½ (Σ_a h_a²)^½,
// since the weights are a product of per-axis Bernoulli(t_a) distributions, so the variance per
// axis is t_a (1 − t_a) h_a². The bound is half the cell diagonal, reached in the limit at cell
// centres; storing floats adds at most 2⁻²⁴ max|φ_node| (round to nearest).
#pragma once

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <vector>

#include "engine/core/diagnostics.h"
#include "engine/core/load_monitor.h"
#include "engine/core/math.h"
#include "engine/geometry/sdf.h"
#include "engine/geometry/triangle_mesh.h"

namespace sim {

struct MeshTopology;

/// Most pairs of a triangle and a grid node inside the triangle's bounds that
/// `SdfGrid::FromMesh` accepts: each is a point–triangle distance of the band's closest-triangle
/// queries (about 140 ns, so some 5 s at this bound). Small triangles pair with a node or two;
/// large overlapping ones with much of the grid each, and are refused at a fine resolution with
/// the largest resolution that fits.
inline constexpr double kMaxSdfTriangleNodePairs = 1 << 25;

/// Options of `SdfGrid::FromMesh`.
struct SdfGridOptions {
  /// Number of cells along the longest axis of the padded bounds (≥ 8); cells are cubes.
  int resolution = 64;
  /// Extra space around the mesh bounds on every side [m] (the §2.10 conservative margin);
  /// negative selects the default max(3 cells, 5 % of the bounds' diagonal).
  Real padding = -1;
};

/// Immutable grid SDF, shared as `std::shared_ptr<const SdfGrid>`; thread-safe to query.
class SdfGrid {
 public:
  using Index3 = Eigen::Vector3i;

  /// Distance [m] and gradient [-] at `x` [m] (field frame). Inside the box: the trilinear
  /// interpolant and its exact gradient (unit only approximately). Outside: the value at the
  /// clamped point plus the distance to the box, gradient the unit direction from the box.
  SdfSample Sample(const Vec3& x) const;

  /// Builds the signed distance of a closed, consistently oriented mesh (φ < 0 inside), after
  /// Batty's SDFGen. Nodes within 3 cells of a triangle get exact values (closest triangle via a
  /// BVH, in parallel with TBB; sign from the angle-weighted pseudonormal of the closest feature,
  /// Bærentzen & Aanæs 2005), so `error_bound()` is proven in every cell with a point within
  /// 1.27 cells of the surface. The other nodes come from fast sweeping of the closest-triangle
  /// index with exact re-evaluation: distances to actual triangles (never below |φ|), exact
  /// where the closest triangle's Voronoi region reaches the node through the grid and otherwise
  /// high by a few % of a cell (4.6 % at most on the test torus); their sign is carried from the
  /// band.
  /// Reports an error naming the mesh and returns null for an invalid, open, non-manifold or
  /// inconsistently oriented mesh. O(N³ + band · log T) for N = `options.resolution`.
  /// `progress` sees the band and each sweep advance; a cancel stops the build within a slab of
  /// the grid and returns null with the kLoadCancelledMessage error.
  static std::shared_ptr<const SdfGrid> FromMesh(const TriangleMesh& mesh,
                                                 const SdfGridOptions& options,
                                                 Diagnostics* diagnostics,
                                                 const LoadProgress& progress = {});

  /// Samples `phi` [m] at the `dims` nodes (each ≥ 2) spanning the box [lower, upper] [m]; for
  /// tests and analytic shapes. `error_bound()` holds if `phi` is a 1-Lipschitz distance.
  static std::shared_ptr<const SdfGrid> FromFunction(const Vec3& lower, const Vec3& upper,
                                                     const Index3& dims,
                                                     const std::function<Real(const Vec3&)>& phi);

  const Vec3& lower() const { return lower_; }          ///< first node [m]
  const Vec3& upper() const { return upper_; }          ///< last node [m]
  const Vec3& cell_size() const { return cell_size_; }  ///< per axis [m]
  const Index3& dims() const { return dims_; }          ///< nodes per axis (cells + 1)
  /// Node values [m], x fastest: value(i, j, k) = values()[i + dims.x (j + dims.y k)].
  const std::vector<float>& values() const { return values_; }
  float value(int i, int j, int k) const { return values_[NodeIndex(i, j, k)]; }

  /// Bound [m] on |Sample(x).distance − φ(x)| inside the box, proven wherever the 8 corner values
  /// of x's cell are exact distances (derivation at the top of this file): half the cell diagonal
  /// plus the float rounding of the stored values. `FromMesh` makes the corners exact near the
  /// surface (see there); `FromFunction` wherever `phi` is an exact distance.
  Real error_bound() const { return error_bound_; }

 private:
  SdfGrid() = default;
  size_t NodeIndex(int i, int j, int k) const {
    return static_cast<size_t>(i) +
           static_cast<size_t>(dims_.x()) *
               (static_cast<size_t>(j) + static_cast<size_t>(dims_.y()) * static_cast<size_t>(k));
  }
  // node values of a closed mesh's signed distance (band exact by BVH, then fast sweeping);
  // false when `progress` was cancelled on the way (the values are then incomplete)
  static bool FillFromMesh(const TriangleMesh& mesh, const MeshTopology& topology, Real h,
                           const LoadProgress& progress, SdfGrid* grid);
  // sets cell_size_ and error_bound_ once lower_, upper_, dims_ and values_ are set
  void Finish();

  Vec3 lower_ = Vec3::Zero();
  Vec3 upper_ = Vec3::Zero();
  Vec3 cell_size_ = Vec3::Ones();
  Vec3 inv_cell_size_ = Vec3::Ones();
  Index3 dims_ = Index3::Constant(2);
  std::vector<float> values_;
  Real error_bound_ = 0;
};


inline SdfSample SdfGrid::Sample(const Vec3& x) const {
  // clamp to the box; the remainder is added as distance
  const Vec3 clamped = x.cwiseMax(lower_).cwiseMin(upper_);
  const Vec3 q = (clamped - lower_).cwiseProduct(inv_cell_size_);

  // cell and local coordinates t ∈ [0, 1]³ (the last node belongs to the last cell)
  int cell[3];
  Real t[3];
  for (int a = 0; a < 3; ++a) {
    const int c = std::clamp(static_cast<int>(std::floor(q[a])), 0, dims_[a] - 2);
    cell[a] = c;
    t[a] = q[a] - c;
  }
  const size_t base = NodeIndex(cell[0], cell[1], cell[2]);
  const size_t sy = static_cast<size_t>(dims_.x());
  const size_t sz = sy * static_cast<size_t>(dims_.y());
  const Real v000 = values_[base];
  const Real v100 = values_[base + 1];
  const Real v010 = values_[base + sy];
  const Real v110 = values_[base + sy + 1];
  const Real v001 = values_[base + sz];
  const Real v101 = values_[base + sz + 1];
  const Real v011 = values_[base + sz + sy];
  const Real v111 = values_[base + sz + sy + 1];

  // trilinear value: lerp along x, then y, then z
  const Real v00 = v000 + t[0] * (v100 - v000);
  const Real v10 = v010 + t[0] * (v110 - v010);
  const Real v01 = v001 + t[0] * (v101 - v001);
  const Real v11 = v011 + t[0] * (v111 - v011);
  const Real v0 = v00 + t[1] * (v10 - v00);
  const Real v1 = v01 + t[1] * (v11 - v01);
  SdfSample sample;
  sample.distance = v0 + t[2] * (v1 - v0);

  // analytic gradient of the interpolant (∂/∂t_a divided by the cell size)
  const Real dx00 = v100 - v000;
  const Real dx10 = v110 - v010;
  const Real dx01 = v101 - v001;
  const Real dx11 = v111 - v011;
  const Real dx0 = dx00 + t[1] * (dx10 - dx00);
  const Real dx1 = dx01 + t[1] * (dx11 - dx01);
  const Real gx = dx0 + t[2] * (dx1 - dx0);
  const Real dy0 = v10 - v00;
  const Real dy1 = v11 - v01;
  const Real gy = dy0 + t[2] * (dy1 - dy0);
  const Real gz = v1 - v0;
  sample.gradient = Vec3(gx, gy, gz).cwiseProduct(inv_cell_size_);

  // outside the box: add the distance to the box, gradient pointing away from it
  const Vec3 outside = x - clamped;
  const Real d_out = outside.norm();
  if (d_out > 0) {
    sample.distance += d_out;
    sample.gradient = outside / d_out;
  }
  return sample;
}

}  // namespace sim
