// Exact inverse of the FEM block of the Schur system, as a preconditioner for PCR/PCG
// (settings.fem_preconditioner = woodbury; the other rows keep the diagonal).
//
// The Schur matrix of the NSN system (seed 002 eq. (59)/(80), digest §6.5) restricted to the
// element rows e of every tet (element_rows.h) is
//   A_ee = C' + J_e H⁻¹ J_eᵀ,   C' = C + εI (6×6 per tet: the stretch block, the shear diagonal)
// with H the particle block of the Newton matrix (masses plus the geometric-stiffness diagonal of
// digest §10). Its rows couple through shared nodes across the whole mesh, so a diagonal (Jacobi)
// preconditioner needs about c·Δt/h iterations to carry a pressure wave through a stiff body
// (scenes/README.md). The Woodbury matrix identity (Woodbury 1950; Golub & Van Loan §2.1.4) gives
// its inverse through a sparse SPD system on the particle DOFs instead:
//   A_ee⁻¹ = C'⁻¹ − C'⁻¹ J_e K⁻¹ J_eᵀ C'⁻¹,   K = H + J_eᵀ C'⁻¹ J_e
// K is the mass plus the implicit FEM stiffness (3 per free particle; fixed particles have
// H⁻¹ = 0, so their columns of J_e drop out of A_ee and their DOFs out of K). K is factored by a
// sparse Cholesky (Eigen SimplicialLLT, the AMD ordering and symbolic analysis kept while the mesh
// and its fixed nodes stay the same), so one application is two triangular solves plus element
// products (Schur complement of digest §6.5 on the particle DOFs instead of on the rows).
// Rows of the system with particle ends (a node's or a surface triangle's contacts with the world
// or a rigid body, attachments: PointRow) join the block the same way, C' then being their C + ε
// plus the J M⁻¹ Jᵀ of their rigid ends: a contact on a stiff body is held by the whole body,
// which a diagonal on its row alone does not see (a stiff PneuNet finger pressed on a ball ran
// away with only the world's single-node rows in the block). Two rows on one rigid body couple
// through it; that coupling is left to PCR (the block stays SPD, exact for a row alone).
// The preconditioner keeps its own copy of J and C'⁻¹ from the time it was factored: it is the
// exact inverse of that A_SS, and so SPD, however the rows move afterwards. It is refactored at
// every Newton iterate (nsn_solver.cpp): one factored at the step's first iterate lets a soft
// ball's impact diverge, as contacts switch on within the step (measured).
//
// Cost (measured, sphere1K.msh: 1760 nodes, 6851 tets, K of 5280 DOFs with 99k stored entries,
// 0.86M in its AMD-ordered factor): a factorization takes 100-150 ms and an application 2.4 ms,
// against 0.25 ms for a Schur product, so it pays on small stiff meshes (the cantilever at
// Δt = 1/120 s with 10 inner iterations instead of Δt = 1/480 s with 50), not on that ball.
#pragma once

#include <array>
#include <vector>

#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>

#include "engine/core/math.h"
#include "engine/dynamics/constraint_rows.h"
#include "engine/solvers/nsn/element_rows.h"

namespace sim::nsn {

/// A row of the system with particle ends (a particle or a surface triangle against the static
/// world or a rigid body: a contact's normal or friction row, an attachment): row index in the
/// system, its particle blocks with J's linear parts, and its C' = C + ε plus the rigid ends'
/// J M⁻¹ Jᵀ.
struct PointRow {
  int row = 0;
  int count = 0;                         ///< particle ends used
  std::array<int, kMaxRowEnds> block{};  ///< particle blocks (K's DOFs after Update)
  std::array<Vec3, kMaxRowEnds> lin{};   ///< J's linear part on each
  Real compliance = 0;                   ///< [1/kg]
};

/// The rows among `rows` with at least one end on a particle block (`block_particle`), with
/// C' = `compliance` + `regularization` + `rigid_inverse_mass` (the J M⁻¹ Jᵀ of the row's ends
/// on rigid bodies, per row). A rigid end is kept in the preconditioner only through that
/// diagonal: the coupling of two rows through one rigid body is left to PCR, which keeps the
/// block SPD and exact for a row alone on its body.
std::vector<PointRow> CollectPointRows(const std::vector<Row>& rows,
                                       const std::vector<unsigned char>& block_particle,
                                       const Eigen::Ref<const Eigen::VectorXd>& compliance,
                                       const Eigen::Ref<const Eigen::VectorXd>& rigid_inverse_mass,
                                       Real regularization);

class ElementPreconditioner {
 public:
  /// Factors A_SS for the element rows of the evaluated `rows` (system rows `element_offset` +
  /// RowIndex) and the `point_rows`, with H⁻¹'s linear diagonal `inv_mass` per block (zero for
  /// fixed blocks) and the shift ε = `regularization` [1/kg]. Point rows with no end on a free
  /// tet node, or with ends on nodes that share no tet, are left out (they keep whatever the
  /// caller puts in z). Returns false if the factorization failed (then invalid).
  bool Update(const ElementRows& rows, const std::vector<Vec3>& inv_mass, Real regularization,
              int element_offset, const std::vector<PointRow>& point_rows);

  /// z_S = A_SS⁻¹ r_S on the element rows and the kept point rows (other entries untouched).
  void Apply(const Real* r, Real* z) const;

  bool valid() const { return valid_; }
  void Invalidate() { valid_ = false; }

 private:
  using TetJacobian = Eigen::Matrix<Real, kElementRows, 12>;
  using TetMatrix = Eigen::Matrix<Real, kElementRows, kElementRows>;
  using TetVector = Eigen::Matrix<Real, kElementRows, 1>;

  /// Sparsity of K and the symbolic factorization for the DOF numbering `node_dof`.
  void Analyze(const std::vector<std::array<int, 4>>& node_dof, int dof_count);

  bool valid_ = false;
  // per tet, from the last Update
  std::vector<std::array<int, 4>> node_dof_;        // first DOF of each node in K, −1 if fixed
  std::vector<std::array<int, kElementRows>> row_;  // RowIndex of the 6 rows
  std::vector<TetJacobian> jacobian_;
  std::vector<TetMatrix> inverse_compliance_;  // C'⁻¹ [kg]
  std::vector<PointRow> point_rows_;           // kept point rows, block replaced by its DOF
  mutable std::vector<Real> point_scaled_;     // r/C' per kept point row
  // K (lower triangle) with its fixed pattern, and where each tet's entries land in it
  Eigen::SparseMatrix<Real> K_;
  std::vector<int> tet_entry_;       // 144 per tet: value index of (3a + k, 3b + l), −1 if unused
  std::vector<int> diagonal_entry_;  // value index of each DOF's diagonal
  std::vector<int> dof_block_;       // block of each DOF / 3
  Eigen::SimplicialLLT<Eigen::SparseMatrix<Real>, Eigen::Lower> cholesky_;
  int dof_count_ = 0;
  bool analyzed_ = false;
  mutable std::vector<TetVector> scaled_;  // C'⁻¹ r per tet
  mutable Eigen::VectorXd force_, solution_;
};

}  // namespace sim::nsn
