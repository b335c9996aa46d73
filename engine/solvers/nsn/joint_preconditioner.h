// Exact inverse of the joint block of the Schur system, as a preconditioner for PCR/PCG
// (settings.joint_preconditioner = exact, or auto while a link carries a heavy load:
// newton_system.cpp; the other rows keep theirs).
//
// The Schur matrix of the NSN system (seed 002 eq. (59)/(80), digest §6.5) restricted to the
// rows of joints and couplings j (the rows [0, attachment_row_begin) of constraint_set.h) is
//   A_jj = J_j H⁻¹ J_jᵀ + C_j + εI  (its rigid rows j, see below)
// with H the rigid bodies' blocks of the Newton matrix (mass, and the inertia with the joints'
// rotational geometric stiffness). A chain is a path of these rows coupled through its links, and
// a light link carrying a heavy load couples its two pins far more strongly than either row's
// diagonal says: a diagonal (Jacobi) preconditioner needs about twice the default 20 PCR
// iterations to carry a 1000:1 load along 20 links, and more as the ratio grows. A_jj is small
// (5-6 rows per joint) and sparse with a tree's structure, so its sparse LDLᵀ (Eigen
// SimplicialLDLT, AMD ordering, no fill along a chain) is cheap next to the Schur products, and
// with it PCR solves a system of joints alone in one iteration.
// Only the rigid rows join the block (locked and point rows of infinite stiffness); contact rows,
// and the joints' compliant, drive, limit and friction rows, stay on the diagonal. An exact solve
// of those gives Newton steps that a truncated Krylov solve does not: scenes/fetch_beam.json (a
// gripper's drives squeezing a beam of compliant joints) diverged at 1-2 s with the direct inner
// solver and with its drive and compliant rows in this block, where the rigid rows alone, like
// the diagonal, hold it (measured).
// The factor is of A_jj at one iterate, refactored at every Newton iterate (nsn_solver.cpp), so
// it is SPD (ε > 0 or a row with mass) and exact for that iterate.
#pragma once

#include <vector>

#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>

#include "engine/core/math.h"
#include "engine/dynamics/body_blocks.h"
#include "engine/dynamics/constraint_rows.h"

namespace sim::nsn {

class JointPreconditioner {
 public:
  /// Factors A_jj of the rows i < row_end with `selected`[i] among `rows`, with the blocks'
  /// current H⁻¹ and the rows' compliance `c_diag` plus `regularization`. Invalid (Apply leaves z
  /// alone) when no row is selected or the factorization fails.
  void Update(const std::vector<Row>& rows, int row_end, const std::vector<unsigned char>& selected,
              const BodyBlocks& blocks, const Real* c_diag, Real regularization);

  /// z = A_jj⁻¹ r on the selected rows; the other entries untouched.
  void Apply(const Real* r, Real* z) const;

  bool valid() const { return valid_; }

 private:
  int rows_ = 0;
  std::vector<int> index_;   // block row of each system row, −1 outside the block
  std::vector<int> member_;  // system row of each block row
  bool valid_ = false;
  std::vector<Eigen::Triplet<Real>> entries_;
  // rows of each block, for the outer products J_b H_b⁻¹ J_bᵀ
  std::vector<int> block_begin_, block_row_;
  std::vector<Vec3> block_lin_, block_ang_;
  Eigen::SparseMatrix<Real> matrix_;
  // the pattern factor_ was analyzed for
  bool analyzed_ = false;
  std::vector<int> analyzed_member_, analyzed_block_begin_, analyzed_block_row_;
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<Real>> factor_;
  mutable Eigen::VectorXd rhs_, solution_;
};

}  // namespace sim::nsn
