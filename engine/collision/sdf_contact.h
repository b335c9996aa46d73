// Mesh features against signed distance fields by local optimization: Macklin, "Simulation for
// Learning and Robotics", PhD thesis, Univ. Copenhagen 2020, chapter 6 ("Local Optimization for
// Robust Signed Distance Field Collision", PACMCGIT 2020); digest shared/docs/seeds/
// pd-sdf-robotics.md §2 (seed 000). Equation numbers are the thesis's.
//
// Problems solved, in the field frame F (φ from any type with `SdfSample Sample(const Vec3&)`):
//   face  (137–139)  min_{u,v,w} φ(u p + v q + w r)   s.t. u, v, w ≥ 0, u + v + w = 1
//   edge  (145–147)  min_u φ(u p + (1 − u) q)          s.t. 0 ≤ u ≤ 1
// Solvers:
//   PGD (140–141)    c ← P(c − α d), d_k = ∇φ(x)·x_k, P = Euclidean projection onto the simplex
//   Frank–Wolfe (142–144)  s = argmin_{s∈{p,q,r}} sᵀ∇φ(x), x ← x + γ (s − x), γ = 2/(i+2)
//   golden-section search on the edge parameter (no gradients)
// Around them: start at the vertex with the smallest φ and cull with φ(centroid) < r + δ (§2.5),
// stop on the projected-gradient norm / the FW gap or after 32 iterations (§2.6, Table 4), and
// turn the optimum into a contact iff φ(x*) < δ with n = ∇φ/‖∇φ‖, y = x* − n φ(x*) (§2.8).
// Deformable fields (148–153, §2.9) are a wrapper field type, EmbeddedField, so the same kernels
// serve rigid, grid and embedded fields.
//
// Deliberate deviations (each is documented at its code):
//  - PGD step: the thesis keeps α fixed "in barycentric coordinates" but d scales with the element
//    size L, so the step used is α/L (digest §2.3 note), with α = 1 by default. On top of it, a
//    step that does not decrease φ is rejected and α halved (`pgd_backtrack`, on by default):
//    with a fixed step, PGD oscillates around non-smooth minima (cone apex, box edge, Fig. 38)
//    with an amplitude of α·L. The rejection costs no extra evaluation: the sample at the trial
//    point is the one the next iteration needs anyway. `pgd_backtrack = false` is eq. (141)
//    verbatim.
//  - d_k is evaluated as ∇φ·(x_k − x) instead of ∇φ·x_k: the projection onto the simplex is
//    invariant to adding a constant to all components, so this is the same iterate, but it is
//    independent of how far the element is from the field origin (no cancellation).
//  - all three solvers return the best iterate they evaluated (FW's first step γ = 1 jumps to a
//    vertex and can leave the start vertex; keeping the best costs a compare).
//  - FW terminates on the duality gap (x − s)ᵀ∇φ(x) (errata: the thesis writes sᵀ∇φ(x)).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "engine/core/math.h"
#include "engine/geometry/sdf.h"
#include "engine/geometry/triangle_mesh.h"

namespace sim {

/// Any field the chapter-6 kernels accept: AnalyticSdf, SdfGrid, EmbeddedField<...>.
template <class F>
concept SdfField = requires(const F& field, const Vec3& x) {
  { field.Sample(x) } -> std::convertible_to<SdfSample>;
};

/// Iteration controls shared by the face and edge solvers.
struct SdfOptimizerSettings {
  int max_iterations = 32;  ///< per element; Table 4 times every method at 32 iterations
  /// PGD step α [-] in barycentric units; the applied step is α/L (L = longest edge [m]) so that
  /// one step moves the iterate by ≈ α·(tangential |∇φ|) in barycentric coordinates whatever the
  /// element size. 1.0 because steps are backtracked (halved on no decrease), so a long first
  /// step is safe: measured on the unit tests' sphere problems after 32 iterations, α = 0.25 (the
  /// digest's fixed-step suggestion) leaves 5e-6 m of error, 0.5 leaves 5e-11 m, 1.0 converges to
  /// 1e-15 m in ≤ 20 iterations, 2.0 overshoots back to 8e-6 m. Use 0.1–0.25 without backtracking.
  Real pgd_step = 1.0;
  /// Reject a PGD step that does not decrease φ and halve α (see the file comment).
  bool pgd_backtrack = true;
  /// Stationarity tolerance [-]: PGD stops when ‖c − P(c − αd/L)‖/α < tolerance (projected
  /// gradient norm, §2.6 [D]); FW stops when its gap (x − s)ᵀ∇φ / L < tolerance. Dimensionless
  /// (a tangential gradient magnitude), 1e-7 ≈ single-precision resolution of a unit gradient.
  Real tolerance = 1e-7;
};

/// Minimum of φ over a triangle (field frame).
struct FaceResult {
  Vec3 barycentric = Vec3::UnitX();  ///< (u, v, w): weights of p, q, r; ≥ 0, sum 1
  Vec3 point = Vec3::Zero();         ///< x* = u p + v q + w r [m]
  Real distance = std::numeric_limits<Real>::infinity();  ///< φ(x*) [m]
  Vec3 gradient = Vec3::UnitZ();                          ///< ∇φ(x*) [-]
  int iterations = 0;  ///< iterations run (each costs one field sample)
};

/// Minimum of φ over a segment (field frame).
struct EdgeResult {
  Real u = 1;                 ///< x* = u p + (1 − u) q, u ∈ [0, 1] (eq. 145's parameter)
  Vec3 point = Vec3::Zero();  ///< x* [m]
  Real distance = std::numeric_limits<Real>::infinity();  ///< φ(x*) [m]
  Vec3 gradient = Vec3::UnitZ();                          ///< ∇φ(x*) [-]
  int iterations = 0;
};

/// φ at one point: plain point sampling ("Simple" in Table 4).
struct VertexResult {
  Vec3 point = Vec3::Zero();                              ///< [m]
  Real distance = std::numeric_limits<Real>::infinity();  ///< φ(point) [m]
  Vec3 gradient = Vec3::UnitZ();                          ///< ∇φ(point) [-]
};

/// Contact of §2.8 in the field frame.
struct SdfContactPoint {
  Vec3 normal = Vec3::UnitZ();        ///< n = ∇φ/‖∇φ‖, unit, out of the SDF body
  Vec3 surface_point = Vec3::Zero();  ///< y on the SDF's zero isosurface [m]
  Real distance = 0;                  ///< φ(x*) [m]; negative: penetration
};

/// Euclidean projection of y onto the probability simplex {c ≥ 0, Σc = 1} by sorting (digest
/// §2.3 [D]): sort descending, ρ = max{j : y_j − (Σ_{k≤j} y_k − 1)/j > 0},
/// τ = (Σ_{k≤ρ} y_k − 1)/ρ, c = max(y − τ, 0). This is the closest point of the triangle
/// [1,0,0], [0,1,0], [0,0,1] to y (the "closest-point methodology" of eq. (141)).
inline Vec3 ProjectToSimplex(const Vec3& y) {
  // three-element sorting network, descending
  Real s0 = y.x(), s1 = y.y(), s2 = y.z();
  if (s0 < s1) std::swap(s0, s1);
  if (s1 < s2) std::swap(s1, s2);
  if (s0 < s1) std::swap(s0, s1);
  // largest ρ with a positive thresholded entry; j = 1 always qualifies
  Real tau = s0 - 1;
  const Real sum2 = s0 + s1;
  if (s1 - (sum2 - 1) / 2 > 0) tau = (sum2 - 1) / 2;
  const Real sum3 = sum2 + s2;
  if (s2 - (sum3 - 1) / 3 > 0) tau = (sum3 - 1) / 3;
  return (y.array() - tau).cwiseMax(Real(0)).matrix();
}


/// Radius of the bounding sphere centred at the centroid of p, q, r [m] (§2.5).
inline Real FaceCullRadius(const Vec3& p, const Vec3& q, const Vec3& r, const Vec3& centroid) {
  return std::sqrt(std::max(
      {(p - centroid).squaredNorm(), (q - centroid).squaredNorm(), (r - centroid).squaredNorm()}));
}


/// Early-out of §2.5: true iff φ(centre) < radius + margin, i.e. the bounding sphere of the
/// element may come within `margin` [m] of the surface. Exact for a Euclidean φ; conservative for
/// a field that underestimates distance (combinations inside, smooth unions).
template <SdfField Field>
bool PassesCull(const Vec3& centre, Real radius, Real margin, const Field& field) {
  return field.Sample(centre).distance < radius + margin;
}


/// φ and ∇φ at one point ("Simple" point sampling).
template <SdfField Field>
VertexResult SampleVertex(const Vec3& x, const Field& field) {
  const SdfSample s = field.Sample(x);
  return {x, s.distance, s.gradient};
}


namespace sdf_internal {

/// Relative level below which vertex values count as equal (× the element's longest edge).
inline constexpr Real kLevelTolerance = 1e-9;

// §2.5 start iterate: evaluate φ at the three vertices, return the index of the smallest
template <SdfField Field>
int StartVertex(const std::array<Vec3, 3>& x, const Field& field, std::array<SdfSample, 3>* s) {
  for (int k = 0; k < 3; ++k) (*s)[k] = field.Sample(x[k]);
  int best = 0;
  if ((*s)[1].distance < (*s)[best].distance) best = 1;
  if ((*s)[2].distance < (*s)[best].distance) best = 2;
  return best;
}

/// Ties: when the field is level over the whole element (its three vertices within `tolerance`
/// [m] of the optimum and the centroid no higher), every point is a minimum and the vertex the
/// search started from is arbitrary. The centroid is returned instead, so each triangle of a flat
/// contact patch reports its own face contact rather than a shared vertex that the
/// representative-triangle filter (§2.9) would hand to one neighbour only.
template <class Field>
void PreferCentreOnTies(const std::array<Vec3, 3>& x_k, const std::array<SdfSample, 3>& samples,
                        const Field& field, Real tolerance, FaceResult* result) {
  for (const SdfSample& s : samples) {
    if (s.distance > result->distance + tolerance) return;
  }
  const Vec3 centroid = (x_k[0] + x_k[1] + x_k[2]) / 3;
  const SdfSample centre = field.Sample(centroid);
  if (centre.distance > result->distance + tolerance) return;
  result->barycentric = Vec3::Constant(Real(1) / 3);
  result->point = centroid;
  result->distance = centre.distance;
  result->gradient = centre.gradient;
}

inline Real LongestEdge(const Vec3& p, const Vec3& q, const Vec3& r) {
  return std::sqrt(std::max({(q - p).squaredNorm(), (r - q).squaredNorm(), (p - r).squaredNorm()}));
}

}  // namespace sdf_internal


/// Face minimization by projected gradient descent, eq. (140–141), from the smallest-φ vertex.
/// Runs at most settings.max_iterations iterations, one field sample each (plus 3 for the start).
template <SdfField Field>
FaceResult MinimizeFacePgd(const Vec3& p, const Vec3& q, const Vec3& r, const Field& field,
                           const SdfOptimizerSettings& settings = {}) {
  const std::array<Vec3, 3> x_k = {p, q, r};
  std::array<SdfSample, 3> vertex_samples;
  const int start = sdf_internal::StartVertex(x_k, field, &vertex_samples);
  FaceResult result;
  result.barycentric = Vec3::Unit(start);
  result.point = x_k[start];
  result.distance = vertex_samples[start].distance;
  result.gradient = vertex_samples[start].gradient;
  const Real length = sdf_internal::LongestEdge(p, q, r);
  if (!(length > 0)) return result;  // degenerate (point) element: the vertex sample is exact
  // α/L: barycentric step independent of the element's world size (digest §2.3 note)
  Real alpha = settings.pgd_step;
  Vec3 c = result.barycentric;
  Vec3 x = result.point;
  SdfSample current{result.distance, result.gradient};
  for (int i = 0; i < settings.max_iterations; ++i) {
    result.iterations = i + 1;
    // barycentric gradient, eq. (140) with the constant ∇φ·x removed (projection-invariant)
    const Vec3& g = current.gradient;
    const Vec3 d(g.dot(p - x), g.dot(q - x), g.dot(r - x));
    // projected step, eq. (141)
    const Vec3 c_new = ProjectToSimplex(c - (alpha / length) * d);
    // termination §2.6 [D]: projected-gradient norm ‖c − P(c − αd/L)‖/α (dimensionless)
    const Real stationarity = (c_new - c).norm() / alpha;
    if (stationarity < settings.tolerance) break;
    const Vec3 x_new = c_new.x() * p + c_new.y() * q + c_new.z() * r;
    const SdfSample trial = field.Sample(x_new);
    if (settings.pgd_backtrack && !(trial.distance < current.distance)) {
      // no decrease: the step overshot a minimum (or a kink); halve it and retry from c
      alpha *= Real(0.5);
      continue;
    }
    c = c_new;
    x = x_new;
    current = trial;
    if (current.distance < result.distance) {
      result.barycentric = c;
      result.point = x;
      result.distance = current.distance;
      result.gradient = current.gradient;
    }
  }
  sdf_internal::PreferCentreOnTies(x_k, vertex_samples, field,
                                   sdf_internal::kLevelTolerance * length, &result);
  return result;
}


/// Face minimization by Frank–Wolfe (conditional gradient), eq. (142–144), step γ = 2/(i+2),
/// stopping on the FW duality gap (x − s)ᵀ∇φ(x) / L < tolerance. Parameter-free (§2.4).
template <SdfField Field>
FaceResult MinimizeFaceFrankWolfe(const Vec3& p, const Vec3& q, const Vec3& r, const Field& field,
                                  const SdfOptimizerSettings& settings = {}) {
  const std::array<Vec3, 3> x_k = {p, q, r};
  std::array<SdfSample, 3> vertex_samples;
  const int start = sdf_internal::StartVertex(x_k, field, &vertex_samples);
  FaceResult result;
  result.barycentric = Vec3::Unit(start);
  result.point = x_k[start];
  result.distance = vertex_samples[start].distance;
  result.gradient = vertex_samples[start].gradient;
  const Real length = sdf_internal::LongestEdge(p, q, r);
  if (!(length > 0)) return result;
  Vec3 c = result.barycentric;
  Vec3 x = result.point;
  Vec3 g = result.gradient;
  for (int i = 0; i < settings.max_iterations; ++i) {
    result.iterations = i + 1;
    // support vertex s = argmin sᵀ∇φ(x) by enumeration, eq. (143)
    int s = 0;
    Real best_dot = g.dot(x_k[0] - x);
    for (int k = 1; k < 3; ++k) {
      const Real dot = g.dot(x_k[k] - x);
      if (dot < best_dot) best_dot = dot, s = k;
    }
    // duality gap (x − s)ᵀ∇φ(x) ≥ 0 (§2.4 [D], errata), normalized by L
    if (-best_dot / length < settings.tolerance) break;
    // decreasing step, eq. (144); barycentrics follow the same convex combination
    const Real gamma = Real(2) / Real(i + 2);
    c = (1 - gamma) * c + gamma * Vec3::Unit(s);
    x = c.x() * p + c.y() * q + c.z() * r;
    const SdfSample sample = field.Sample(x);
    g = sample.gradient;
    if (sample.distance < result.distance) {
      result.barycentric = c;
      result.point = x;
      result.distance = sample.distance;
      result.gradient = sample.gradient;
    }
  }
  sdf_internal::PreferCentreOnTies(x_k, vertex_samples, field,
                                   sdf_internal::kLevelTolerance * length, &result);
  return result;
}


/// Edge minimization by golden-section search over u ∈ [0, 1], eq. (145–147) and digest §2.7:
/// `iterations` interval reductions by ρ = (√5 − 1)/2 (32 → 2·10⁻⁷ of the edge length), then
/// the midpoint is compared with both endpoints and the smallest φ kept. No gradients are used
/// during the search; the result's gradient is sampled at the returned point.
template <SdfField Field>
EdgeResult MinimizeEdgeGoldenSection(const Vec3& p, const Vec3& q, const Field& field,
                                     int iterations = 32) {
  // golden ratio conjugate (√5 − 1)/2
  constexpr Real kRho = Real(0.6180339887498949);
  const auto at = [&](Real u) { return Vec3(u * p + (1 - u) * q); };
  Real a = 0, b = 1;
  Real u1 = b - kRho * (b - a), u2 = a + kRho * (b - a);
  Real f1 = field.Sample(at(u1)).distance, f2 = field.Sample(at(u2)).distance;
  for (int i = 0; i < iterations; ++i) {
    if (f1 < f2) {
      b = u2, u2 = u1, f2 = f1;
      u1 = b - kRho * (b - a);
      f1 = field.Sample(at(u1)).distance;
    } else {
      a = u1, u1 = u2, f1 = f2;
      u2 = a + kRho * (b - a);
      f2 = field.Sample(at(u2)).distance;
    }
  }
  // midpoint of the final bracket vs the endpoints (§2.7 [D]: non-unimodal φ may end at either)
  EdgeResult result;
  result.iterations = iterations;
  for (const Real u : {(a + b) / 2, Real(1), Real(0)}) {
    const SdfSample s = field.Sample(at(u));
    if (s.distance < result.distance) {
      result.u = u;
      result.point = at(u);
      result.distance = s.distance;
      result.gradient = s.gradient;
    }
  }
  return result;
}


/// §2.8: contact from an optimum x* (field frame) iff φ(x*) < margin δ [m]. n = ∇φ/‖∇φ‖; the
/// surface point is y = x* − n φ(x*), or the field's own `SurfacePoint(x*)` when it has one
/// (EmbeddedField projects in material space). Returns false (no contact) when φ ≥ δ or when
/// ∇φ vanishes (no direction to push along, e.g. the medial axis of a sphere's centre).
template <SdfField Field>
bool MakeSdfContact(const Field& field, const Vec3& x, const SdfSample& sample, Real margin,
                    SdfContactPoint* contact) {
  if (!(sample.distance < margin)) return false;
  const Real gradient_norm = sample.gradient.norm();
  // below this the direction is numerical noise (a unit-gradient field has norm 1)
  if (!(gradient_norm > Real(1e-12))) return false;
  contact->normal = sample.gradient / gradient_norm;
  contact->distance = sample.distance;
  if constexpr (requires { field.SurfacePoint(x); }) {
    contact->surface_point = field.SurfacePoint(x);
  } else {
    contact->surface_point = x - contact->normal * sample.distance;
  }
  return true;
}


/// Which feature of a triangle a barycentric point lies on (§2.9 [D]), used to discard contacts
/// on features not owned by the triangle (representative triangles).
enum class TriangleFeatureKind : std::uint8_t { kVertex, kEdge, kFace };

struct TriangleFeature {
  TriangleFeatureKind kind = TriangleFeatureKind::kFace;
  /// kVertex: local vertex 0..2; kEdge: local edge k joining vertices k and (k+1) mod 3; kFace: 0.
  int index = 0;
};

/// Two weights ≤ `tolerance` → the third vertex; one → the edge opposite it; none → the face.
TriangleFeature ClassifyBarycentric(const Vec3& barycentric, Real tolerance);


/// Outcome of building the affine map of an embedding tet (§2.9: "ill-conditioned or inverted
/// tets should be detected and ignored").
enum class EmbeddingStatus : std::uint8_t {
  kOk = 0,
  kDegenerateRest,  ///< the material-space tet is flat: fix the cage (mesh input error)
  kIllConditioned,  ///< the deformed tet is nearly flat: skip the triangle this step
  kInverted,        ///< the deformed tet's orientation flipped: skip the triangle this step
};

const char* EmbeddingStatusName(EmbeddingStatus status);

/// Shape quality of a tet edge matrix D = [e1 e2 e3]: det(D) / (‖e1‖‖e2‖‖e3‖) ∈ [−1, 1]
/// (Hadamard); 0 for a flat tet, ≈ 0.71 for a regular one, sign = orientation.
Real TetQuality(const Mat3& edges);


/// A material-space field seen through one tet's deformation (eq. 148–153, §2.9):
///   φ_d(x_s) = φ_m(g(x_s)),  g(x_s) = Dm Ds⁻¹ (x_s − v0_s) + v0_m,  G = ∇g = Dm Ds⁻¹ = F⁻¹.
/// The tet is the one enclosing the triangle's centroid (found by the caller's BVH), so G is
/// evaluated once per triangle and held constant during the optimization (§2.9).
/// Sample returns ∇φ_d = Gᵀ∇φ_m(g(x)), so the generic kernels compute exactly the thesis's
/// barycentric gradient d_k = ∇φ_m(g(x))·G·x_k (eq. 152); ‖∇φ_d‖ ≠ 1 but the isosurface is
/// preserved. SurfacePoint projects in material space (x_m − n_m φ_m) and maps back with F.
/// Check status() before use: for a non-Ok tet G = F = I (finite, meaningless) and the triangle
/// must be skipped. Holds a pointer to `material`, which must outlive this object.
template <SdfField Field>
class EmbeddedField {
 public:
  /// `rest_m`: tet vertices in material space [m]; `deformed_s`: the same vertices in world [m].
  /// `min_quality` [-]: |TetQuality| below it is ill-conditioned; 1e-3 means a tet ~1000× flatter
  /// than a regular one, where G amplifies world errors by more than ~10³.
  EmbeddedField(const Field& material, const std::array<Vec3, 4>& rest_m,
                const std::array<Vec3, 4>& deformed_s, Real min_quality = Real(1e-3))
      : material_(&material), v0_m_(rest_m[0]), v0_s_(deformed_s[0]) {
    Mat3 dm, ds;
    for (int k = 0; k < 3; ++k) {
      dm.col(k) = rest_m[k + 1] - rest_m[0];
      ds.col(k) = deformed_s[k + 1] - deformed_s[0];
    }
    const Real q_m = TetQuality(dm), q_s = TetQuality(ds);
    // classify before inverting anything: never divide by a ~0 determinant
    if (!(std::abs(q_m) >= min_quality)) {
      status_ = EmbeddingStatus::kDegenerateRest;
    } else if (!(std::abs(q_s) >= min_quality)) {
      status_ = EmbeddingStatus::kIllConditioned;
    } else if ((q_s > 0) != (q_m > 0)) {
      status_ = EmbeddingStatus::kInverted;
    } else {
      status_ = EmbeddingStatus::kOk;
      g_ = dm * ds.inverse();  // G = Dm Ds⁻¹, eq. (151)
      f_ = ds * dm.inverse();  // F = Ds Dm⁻¹
    }
  }

  EmbeddingStatus status() const { return status_; }
  bool ok() const { return status_ == EmbeddingStatus::kOk; }
  /// G = Dm Ds⁻¹ = F⁻¹ (identity when not ok()).
  const Mat3& inverse_deformation_gradient() const { return g_; }
  /// ‖G‖_F ≥ ‖∇φ_d‖: φ_d is in material units, so a world bounding radius r must be scaled to
  /// r·lipschitz_bound() for the §2.5 culling test to stay conservative under compression.
  Real lipschitz_bound() const { return g_.norm(); }

  /// x_m = g(x_s), eq. (150).
  Vec3 ToMaterial(const Vec3& x_s) const { return g_ * (x_s - v0_s_) + v0_m_; }
  /// x_s = F (x_m − v0_m) + v0_s, the tet's affine map.
  Vec3 ToWorld(const Vec3& x_m) const { return f_ * (x_m - v0_m_) + v0_s_; }

  /// φ_d(x_s) = φ_m(g(x_s)) and ∇φ_d = Gᵀ∇φ_m (eq. 149, 152).
  SdfSample Sample(const Vec3& x_s) const {
    const SdfSample s = material_->Sample(ToMaterial(x_s));
    return {s.distance, g_.transpose() * s.gradient};
  }

  /// Contact point of §2.9: closest surface point in material space, mapped back to world.
  Vec3 SurfacePoint(const Vec3& x_s) const {
    const Vec3 x_m = ToMaterial(x_s);
    const SdfSample s = material_->Sample(x_m);
    const Real norm = s.gradient.norm();
    const Vec3 n_m = norm > Real(1e-12) ? Vec3(s.gradient / norm) : Vec3::Zero();
    return ToWorld(x_m - n_m * s.distance);
  }

 private:
  const Field* material_;
  Vec3 v0_m_, v0_s_;
  Mat3 g_ = Mat3::Identity();
  Mat3 f_ = Mat3::Identity();
  EmbeddingStatus status_ = EmbeddingStatus::kOk;
};


/// Face solver of the batch driver. kVertices is point sampling of every mesh vertex ("Simple").
enum class FaceMethod : std::uint8_t { kVertices = 0, kPgd, kFrankWolfe };

/// Settings of CollideMeshSdf.
struct SdfCollideSettings {
  FaceMethod face_method = FaceMethod::kPgd;
  /// Also minimize over every edge in `edges` by golden-section search (rigid coarse meshes:
  /// vertices + edge GSS, §2.9; ropes and hair: edges only with face_method = kVertices and an
  /// empty triangle list).
  bool edges_gss = false;
  Real margin = 0;   ///< contact margin δ [m] (§2.6, §2.8): contact iff φ(x*) < δ
  bool cull = true;  ///< bounding-sphere early-out of §2.5 (faces and edges)
  /// With a face method: also sample each vertex of the faces that pass the cull, once (rigid
  /// coarse meshes, §2.9: a face lying flat on a surface has its whole area at one depth, and its
  /// optimum is one arbitrary corner, so a flat box face would be carried by two or three
  /// changing points; its vertices give the support polygon).
  bool face_vertices = false;
  SdfOptimizerSettings optimizer;
};

/// Which element of the mesh produced a contact.
enum class SdfElementKind : std::uint8_t { kVertex = 0, kEdge, kFace };

/// One contact between a placed mesh and a placed field, world frame.
struct SdfMeshContact {
  SdfElementKind kind = SdfElementKind::kFace;
  int element = -1;  ///< triangle id (kFace), index into `edges` (kEdge) or vertex id (kVertex)
  std::array<int, 3> vertex_ids = {-1, -1, -1};  ///< mesh vertices weighted by `barycentric`
  Vec3 barycentric = Vec3::UnitX();  ///< weights of vertex_ids (unused ids have weight 0)
  Vec3 point_mesh_W = Vec3::Zero();  ///< x* on the mesh, world [m]
  Vec3 point_sdf_W = Vec3::Zero();   ///< y on the SDF surface, world [m]
  Vec3 normal_W = Vec3::UnitZ();     ///< unit, out of the SDF body, world
  Real distance = 0;                 ///< φ(x*) [m]; negative: penetration
};

/// Counters of one CollideMeshSdf call.
struct SdfCollideStats {
  int elements = 0;  ///< elements considered (vertices, or faces + edges)
  int culled = 0;    ///< rejected by the bounding-sphere test before optimizing
  int contacts = 0;  ///< appended to the output
};

/// The unique edges of a mesh's triangles (each undirected edge once, lower vertex id first,
/// in first-seen order), for the edge pass of CollideMeshSdf.
std::vector<std::array<int, 2>> CollectUniqueEdges(const TriangleMesh& mesh);


/// Runs one method over every element of `mesh` placed at X_WM against `field` placed at X_WF
/// and appends one contact per colliding element to `out` (never clears it; no other allocation).
/// One contact per element (§2.9); feature ownership (representative triangles) is left to the
/// caller via ClassifyBarycentric.
template <SdfField Field>
SdfCollideStats CollideMeshSdf(const TriangleMesh& mesh, const Pose& X_WM, const Field& field,
                               const Pose& X_WF, const SdfCollideSettings& settings,
                               std::span<const std::array<int, 2>> edges,
                               std::vector<SdfMeshContact>* out) {
  SdfCollideStats stats;
  // mesh vertices are mapped into the field frame on the fly: X_FM = X_WF⁻¹ X_WM
  const Pose X_FM = X_WF.Inverse() * X_WM;
  const Mat3 R_FM = X_FM.q.toRotationMatrix();
  const Mat3 R_WF = X_WF.q.toRotationMatrix();
  const auto to_field = [&](int v) { return Vec3(R_FM * mesh.vertices[v] + X_FM.p); };
  const auto emit = [&](SdfElementKind kind, int element, const std::array<int, 3>& ids,
                        const Vec3& barycentric, const Vec3& x, const SdfSample& sample) {
    SdfContactPoint contact;
    if (!MakeSdfContact(field, x, sample, settings.margin, &contact)) return;
    SdfMeshContact& c = out->emplace_back();
    c.kind = kind;
    c.element = element;
    c.vertex_ids = ids;
    c.barycentric = barycentric;
    c.point_mesh_W = R_WF * x + X_WF.p;
    c.point_sdf_W = R_WF * contact.surface_point + X_WF.p;
    c.normal_W = R_WF * contact.normal;
    c.distance = contact.distance;
    ++stats.contacts;
  };

  if (settings.face_method == FaceMethod::kVertices) {
    // point sampling: one sample per vertex, no culling needed
    for (int v = 0; v < mesh.vertex_count(); ++v) {
      ++stats.elements;
      const Vec3 x = to_field(v);
      const SdfSample s = field.Sample(x);
      emit(SdfElementKind::kVertex, v, {v, -1, -1}, Vec3::UnitX(), x, s);
    }
  } else {
    // vertices already sampled in this call (face_vertices): a stamp per vertex, bumped per call
    // so the buffer is never cleared
    thread_local std::vector<std::uint32_t> vertex_stamp;
    thread_local std::uint32_t stamp = 0;
    if (settings.face_vertices) {
      if (static_cast<int>(vertex_stamp.size()) < mesh.vertex_count() || ++stamp == 0) {
        vertex_stamp.assign(std::max<std::size_t>(vertex_stamp.size(), mesh.vertex_count()), 0);
        stamp = 1;
      }
    }
    for (int t = 0; t < mesh.triangle_count(); ++t) {
      ++stats.elements;
      const auto& tri = mesh.triangles[t];
      const Vec3 p = to_field(tri[0]), q = to_field(tri[1]), r = to_field(tri[2]);
      // bounding-sphere early-out at the centroid (§2.5)
      if (settings.cull) {
        const Vec3 centroid = (p + q + r) / 3;
        if (!PassesCull(centroid, FaceCullRadius(p, q, r, centroid), settings.margin, field)) {
          ++stats.culled;
          continue;
        }
      }
      if (settings.face_vertices) {
        for (int k = 0; k < 3; ++k) {
          if (vertex_stamp[tri[k]] == stamp) continue;
          vertex_stamp[tri[k]] = stamp;
          const Vec3& x = k == 0 ? p : (k == 1 ? q : r);
          emit(SdfElementKind::kVertex, tri[k], {tri[k], -1, -1}, Vec3::UnitX(), x,
               field.Sample(x));
        }
      }
      const FaceResult f = settings.face_method == FaceMethod::kPgd
                               ? MinimizeFacePgd(p, q, r, field, settings.optimizer)
                               : MinimizeFaceFrankWolfe(p, q, r, field, settings.optimizer);
      emit(SdfElementKind::kFace, t, tri, f.barycentric, f.point, {f.distance, f.gradient});
    }
  }

  if (settings.edges_gss) {
    for (int e = 0; e < static_cast<int>(edges.size()); ++e) {
      ++stats.elements;
      const Vec3 p = to_field(edges[e][0]), q = to_field(edges[e][1]);
      // the same early-out with the edge's bounding sphere (§2.5)
      if (settings.cull &&
          !PassesCull(Vec3((p + q) / 2), (p - q).norm() / 2, settings.margin, field)) {
        ++stats.culled;
        continue;
      }
      const EdgeResult r =
          MinimizeEdgeGoldenSection(p, q, field, settings.optimizer.max_iterations);
      emit(SdfElementKind::kEdge, e, {edges[e][0], edges[e][1], -1}, Vec3(r.u, 1 - r.u, 0), r.point,
           {r.distance, r.gradient});
    }
  }
  return stats;
}

}  // namespace sim
