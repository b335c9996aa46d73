// FEM element rows of the NSN solver, in compliance form (seed 002 §9.1-9.2 eq. (75)-(84), seed
// 000 §4.7.4 eq. (96)-(101); digest nsn-and-friction.md §2.7-2.8 with erratum §19 #14).
//
// Per constant-strain tet, with F = D_s D_m⁻¹ = U diag(s) Vᵀ (rotation-variant SVD) and
// F̂ = UᵀFV, six rows:
//   stretch rows i = 0..2    c_i = s_i                      (the three rows of §2.7)
//   shear rows (i, j) = (0,1), (0,2), (1,2)   c = (F̂_ij + F̂_ji)/√2, measured from the current
//                            principal frame (0 at the iterate; only its rate and stiffness enter)
//   J:  ∂F̂_mn/∂x_a = u_m c_na,  c_na = v_n · g_a,  g_a = row a−1 of D_m⁻¹ (a = 1..3),
//       g_0 = −(g_1 + g_2 + g_3)
// Energy U_e = V_e Ψ(s). In the principal frame ∂²Ψ/∂F̂² is block diagonal (fem_material.h): the
// stretch block ∂²Ψ/∂s² and per pair a 2×2 block with eigenvalues a (shear, symmetric mode) and b
// (rotation, antisymmetric mode). The compliance rows use
//   stretch: φ = V ∂Ψ/∂s + β H ṡ + λ,  H = V ∂²Ψ/∂s² made positive definite, E = H⁻¹   eq.
//   (98)-(100) shear:   φ = β k ċ + λ (∂Ψ/∂F̂ has no shear part in the principal frame),  k = V |a|,
//   E = 1/k
// linearized with Δq = Δt Δu for the unknown x = ΔλΔt of eq. (77):
//   J Δu + C x = −h,   C = E / (Δt(Δt + β)),   h = E φ / (Δt + β)
// (for β = 0 the digest's C = E/Δt², h = (1/Δt) E φ; with β the compliant joint row of
// newton_system.h with k = H, d = βH). At a solution the shear multipliers vanish and the stretch
// rows carry the exact force −V P D_m⁻ᵀ (P = U diag(∂Ψ/∂s) Vᵀ).
//
// Deviation from the sources, on purpose: §2.7 has only the three stretch rows. A perturbation
// that shears a tet in its principal frame does not change s to first order, so those rows give
// the Newton matrix no shear stiffness (2μV per mode at rest); with it missing, the iteration
// diverged on a ball dropped on the ground and on a randomly shaken block (measured, see the FEM
// tests), and the diagonal secant of §10 could not recover it (its estimate is 0 at the first
// iteration of every step). The shear rows restore the full first-order material stiffness at
// almost no cost: every row of a tet is a component of the same 3×3 products (below). The
// rotation modes' stiffness b (zero at rest, the stress stiffening of a loaded element) is the
// geometric stiffness of §10, K = ∂(Jᵀλ)/∂x at fixed λ, whose pair blocks are
// (λ_i − λ_j)/(s_i − s_j) on the symmetric mode and b_λ = (λ_i + λ_j)/(s_i + s_j) on the rotation
// mode. With the shear rows the symmetric mode's stiffness is theirs, so the particle-mass shift
// of §10 takes only the rotation modes, in closed form (AddRotationStiffness): the secant of §10
// measures both, and the symmetric one is unbounded for unconverged multipliers at nearly equal
// stretches (every tet of a ball near rest), which made the secant grow the particle masses
// 10⁴-10⁷-fold at the impact of a dropped ball and the Newton iteration diverge (measured).
// `solver.fem_shear_rows = false` gives the sources' three rows (the shear rows then sit
// inactive, like inactive friction rows) and the secant of §10 for the element rows.
//
// Data layout: the rows live packed as a structure of arrays per group of kTetLanes tets (node
// blocks, U, B = D_m⁻¹V, the compliance C, the residual's terms, the rest data and the SVD
// guess V), so a product is two passes over the tets and J is never stored row by row. Every
// kernel (evaluation, residual, products) runs kTetLanes tets at once in SIMD lanes, and the
// element rows are numbered group by group, row-major within a group (row r of the group's tet l
// at r·lanes + l, lanes = kTetLanes except in a shorter last group; RowIndex), so the lanes of a
// row are adjacent in every vector of the solver. A group runs as one AVX2 register of four
// doubles where the CPU has it (reading and writing node vectors padded to four doubles), else as
// two SSE2/NEON pairs (one table of kernels per width, chosen once: element_kernels.h). The
// products are:
//   (J t):  T = Uᵀ D_t B with D_t = [t1 − t0, t2 − t0, t3 − t0]; stretch T_ii,
//           shear (T_ij + T_ji)/√2;
//   (Jᵀ x): X̂ = diag(x_stretch) with X̂_ij = X̂_ji = x_shear/√2; nodes 1..3 get the columns
//           of U X̂ Bᵀ, node 0 minus their sum.
#pragma once

#include <algorithm>
#include <array>
#include <vector>

#include <Eigen/SparseCore>

#include "engine/core/math.h"
#include "engine/fem/fem_material.h"
#include "engine/model/model.h"
#include "engine/solvers/nsn/nsn_settings.h"

namespace sim::nsn {

struct ElementKernels;  // element_kernels.h
template <class S>
struct SchurArrays;  // schur_arrays.h
namespace element_lanes {
struct ElementProducts;  // the kernels' bodies (element_physics_lanes.h)
}  // namespace element_lanes

/// Rows per tet: 3 stretch rows, then 3 shear rows.
inline constexpr int kElementRows = 6;

/// Tets per SIMD group of the Schur products (element_rows.h, data layout): one AVX2 register of
/// doubles, or two SSE2/NEON ones (element_physics_lanes.h).
inline constexpr int kTetLanes = 4;

class ElementRows {
 public:
  /// Sets up the tets of every soft body for a step: node blocks (particle p is block
  /// `body_count` + p), rest data, materials, damping and the activation at the step's end
  /// `time` [s]. Fixed nodes need no care here: their blocks have a zero inverse mass.
  void Begin(const Model& model, int body_count, Real dt, Real time, bool shear_rows);

  int tet_count() const { return static_cast<int>(block_.size()); }
  int row_count() const { return kElementRows * tet_count(); }

  /// Index of row r (0..5) of tet e among the element rows (see the data layout above).
  int RowIndex(int e, int r) const {
    const int first = e - e % kTetLanes;
    const int lanes = std::min(kTetLanes, tet_count() - first);
    return kElementRows * first + r * lanes + e % kTetLanes;
  }

  /// Stretches, rows, energy derivatives and compliance at block positions `x` [m].
  void Evaluate(const std::vector<Vec3>& x, FemComplianceMode mode);

  /// Residual h and the Schur diagonal of the evaluated rows at block velocities `v` [m/s] with
  /// the element multipliers `lambda` [N·m] (6 per tet, at RowIndex): writes h and the diagonal of
  /// A = J H⁻¹ Jᵀ + C + εI (`inv_mass`: H⁻¹'s linear diagonal per block). Returns max |E φ| (the
  /// strain error of the rows).
  Real Assemble(const std::vector<Vec3>& v, const Real* lambda, const std::vector<Vec3>& inv_mass,
                Real regularization, Real* h, Real* diag) const;

  /// lin[block] += (Jᵀ x) for the element part `x` (6 per tet, at RowIndex).
  void AddJt(const Real* x, std::vector<Vec3>* lin) const;

  /// y = J t (the rows applied to the block vectors `t`).
  void MultiplyJ(const std::vector<Vec3>& t, Real* y) const;

  /// y = J t + C x + εx (the element rows of A x, with t = H⁻¹ Jᵀ x of the whole system);
  /// returns xᵀy over these rows.
  Real Apply(const std::vector<Vec3>& t, const Real* x, Real regularization, Real* y) const;

  /// One Gauss-Seidel sweep over the element rows: x_i += (b_i − (A x)_i)/diag_i, keeping
  /// t = H⁻¹ Jᵀ x current (`inv_mass` as in Assemble).
  void GaussSeidelSweep(const Real* b, const Real* diag, Real regularization,
                        const std::vector<Vec3>& inv_mass, std::vector<Vec3>* t, Real* x) const;

  /// Entries of J (columns 6·block + axis) and of C for the rows starting at `row_offset`.
  void AppendTriplets(int row_offset, std::vector<Eigen::Triplet<Real>>* j_entries,
                      std::vector<Eigen::Triplet<Real>>* c_entries) const;

  /// Remembers the rows of the accepted iterate (the other end of the geometric-stiffness secant).
  void KeepRows();

  /// The four node blocks of tet e.
  const std::array<int, 4>& blocks(int e) const { return block_[e]; }
  /// J of tet e's 6 rows on its 4 nodes (columns 3a + axis) [1/m]; inactive shear rows are zero.
  Eigen::Matrix<Real, kElementRows, 12> TetJacobian(int e) const;
  /// C + εI of tet e's 6 rows (the stretch block and the shear diagonal) [1/kg].
  Eigen::Matrix<Real, kElementRows, kElementRows> TetCompliance(int e, Real regularization) const;

  /// f[block] += Δt (J(qⁿ⁺¹) − J(qⁿ))ᵀ λ: the element part of the secant of digest §10.
  void AddSecantForce(const Real* lambda, Real dt, std::vector<Vec3>* f) const;

  /// c[block] += Δt² diag(K_rot): the diagonal of the rotation modes' geometric stiffness of the
  /// multipliers `lambda` (6 per tet, at RowIndex), K_rot = Σ_pairs b_λ g gᵀ with
  /// b_λ = (λ_i + λ_j)/(s_i + s_j) [N·m] and g = ∂((F̂_ij − F̂_ji)/√2)/∂x [1/m] (digest §10 in
  /// closed form for the six-row form; see the header comment) [kg].
  void AddRotationStiffness(const Real* lambda, Real dt, std::vector<Vec3>* c) const;

  bool shear_rows() const { return shear_rows_; }
  /// The largest element's size, the edge of a regular tet of its rest volume [m]: a strain
  /// error ε of the rows moves its nodes against each other by up to about ε times this.
  Real length_scale() const { return length_scale_; }

  /// Points the element part of `arrays` (tets, groups, lane width) at these rows' groups.
  void DescribeArrays(SchurArrays<Real>* arrays) const;

  /// Tests only: run the element kernels of `kernels` (PairElementKernels or QuadElementKernels,
  /// element_kernels.h) instead of the CPU's choice; nullptr restores it. Not thread-safe.
  static void UseKernelsForTesting(const ElementKernels* kernels);

 private:
  friend struct element_lanes::ElementProducts;  // the SIMD kernels (element_physics_lanes.h)
  /// Coefficients of row r of tet e on its four nodes: J_r,a [1/m].
  std::array<Vec3, 4> RowCoefficients(int e, int r) const;

  bool shear_rows_ = true;
  std::vector<std::array<int, 4>> block_;  // per tet: its node blocks (the scalar paths)
  // per group of kTetLanes tets, one array of lanes per scalar (the only copy of the iterate's
  // rows): the rows (all that Jᵀx reads), the compliance (A x), the terms of the residual h
  // (Assemble), the rest data (Evaluate) and the SVD guess. A shorter last group is padded with
  // copies of its first tet whose rows are zero (and whose shear stiffness is 1, so their
  // residual is 0 too).
  struct TetGroup {
    int block[4][kTetLanes];
    alignas(32) Real U[9][kTetLanes];  // U(r, c) at [3c + r]
    Real B[9][kTetLanes];              // B(r, c) at [3c + r]
  };
  struct TetGroupCompliance {
    alignas(32) Real stretch[6][kTetLanes];  // the stretch rows' C (symmetric): 00 11 22 01 02 12
    Real shear[3][kTetLanes];                // the shear rows' C
  };
  struct TetGroupResidual {
    alignas(32) Real E[9][kTetLanes];  // E of the stretch rows = H⁻¹ [1/J], E(r, c) at [3c + r]
    Real H[9][kTetLanes];              // the positive definite H [J]
    Real gradient[3][kTetLanes];       // V ∂Ψ/∂s [J]
    Real shear_k[3][kTetLanes];        // shear stiffness k = V|a| per pair [J]
    Real stretch[3][kTetLanes];        // principal stretches s (the rotation stiffness) [-]
  };
  struct TetGroupMaterial {  // what Evaluate reads besides the positions (set by Begin)
    alignas(32) Real rest_inverse[9][kTetLanes];  // D_m⁻¹ G⁻¹ (r, c) at [3c + r] [1/m]
    Real volume[kTetLanes];                       // V_e [m³]
    Real activation[kTetLanes];                   // p [Pa]
    Real damping[kTetLanes];                      // β [s]
    Real mu[kTetLanes], lambda[kTetLanes], c1[kTetLanes], d1[kTetLanes], alpha[kTetLanes];
    Real corotational[kTetLanes];  // 1 for the linear co-rotational model, 0 for Neo-Hookean
  };
  struct TetGroupFrame {  // V of the last SVD (the next one's guess)
    alignas(32) Real V[9][kTetLanes];
  };
  std::vector<TetGroup> groups_;
  std::vector<TetGroup> groups_prev_;  // the rows of the accepted iterate (KeepRows)
  std::vector<TetGroupFrame> group_frame_;
  std::vector<TetGroupCompliance> group_compliance_;
  std::vector<TetGroupResidual> group_residual_;
  std::vector<TetGroupMaterial> group_material_;
  // node vectors padded to 4 doubles per block, the form the AVX2 kernels read and write
  // (element_gather_lanes.h, kNodeStride); scratch of the const products
  struct alignas(32) PaddedNode {
    Real v[4];
  };
  mutable std::vector<PaddedNode> padded_nodes_[2];
  Real dt_ = 0;
  Real length_scale_ = 0;  // length_scale() [m]

  /// Adds the nodal forces U X̂ Bᵀ of the multipliers x (6) of tet e with the rows U, B of its
  /// lane in `group`.
  void ScatterForces(int e, const TetGroup& group, const Real* x, std::vector<Vec3>* f) const;
  /// Tet e's 3×3 matrix from a packed array of its group (entry (r, c) at [3c + r]).
  static Mat3 LaneMatrix(const Real (&entries)[9][kTetLanes], int e);
  /// C of tet e's stretch rows (symmetric) and of its shear row p [1/kg].
  Mat3 StretchCompliance(int e) const;
  Real ShearCompliance(int e, int p) const;
};

}  // namespace sim::nsn
