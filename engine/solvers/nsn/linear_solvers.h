// Inner linear solvers of the non-smooth Newton method: they solve the Schur-complement system
//   A x = b,  A = J H⁻¹ Jᵀ + C + εI   (eq. (59)/(80), seed 002; digest §6.5)
// approximately, with a fixed iteration budget, matrix-free through SchurOperator.
//   PCR  preconditioned conjugate residual, diagonal preconditioner (pcr.h, written once over a
//        vector-operations interface): minimizes ‖r‖_P = sqrt(rᵀ P r), so that norm decreases
//        monotonically; 1 matvec and 2 inner products per iteration.
//   PCG  preconditioned conjugate gradient, diagonal preconditioner (residual not monotone).
//   PCR and PCG take the operator's own SPD preconditioner instead of the diagonal where it
//   has one (SchurOperator::has_preconditioner; the FEM block of element_preconditioner.h):
//   then one application of P per iteration besides the matvec.
//   Jacobi  weighted Jacobi x ← x + ω D⁻¹(b − Ax), ω = 2/3 (the classical smoothing weight;
//        ω = 1 diverges on stacked contacts, where the Schur diagonal is not dominant). It
//        returns its best iterate and stops when the residual has grown 1e3-fold.
//   GS   Gauss-Seidel sweeps, row by row, done by the operator (it owns the rows).
//   direct  sparse LDLᵀ of the assembled A (Eigen SimplicialLDLT), the reference.
// Every solver starts from x = 0 (no warm start, digest §9.2) and records ‖b − Ax‖₂ after each
// iteration.
#pragma once

#include <vector>

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include "engine/core/math.h"
#include "engine/model/model.h"
#include "engine/solvers/nsn/nsn_settings.h"
#include "engine/solvers/nsn/pcr.h"

namespace sim::nsn {

using VectorX = Eigen::VectorXd;

/// The system matrix A, applied without forming it.
class SchurOperator {
 public:
  virtual ~SchurOperator() = default;
  virtual int size() const = 0;
  /// y = A x.
  virtual void Apply(const VectorX& x, VectorX* y) const = 0;
  /// y = A x, returning xᵀ A x (PCR's ρ; an operator may sum it in its own pass over x and y
  /// instead of a second one).
  virtual Real ApplyDot(const VectorX& x, VectorX* y) const {
    Apply(x, y);
    return x.dot(*y);
  }
  /// diag(A), positive.
  virtual const VectorX& diagonal() const = 0;
  /// One forward Gauss-Seidel sweep over the rows, updating x in place.
  virtual void GaussSeidelSweep(const VectorX& b, VectorX* x) const = 0;
  /// A assembled as a sparse matrix (for the direct solver; may allocate).
  virtual Eigen::SparseMatrix<Real> AssembleMatrix() const = 0;
  /// Whether PCR/PCG use ApplyPreconditioner instead of the diagonal.
  virtual bool has_preconditioner() const { return false; }
  /// z = P r with a fixed SPD P ≈ A⁻¹: the operator's own where has_preconditioner(), else the
  /// diagonal (PCG calls it either way).
  virtual void ApplyPreconditioner(const VectorX& r, VectorX* z) const {
    *z = r.cwiseQuotient(diagonal());
  }
};

/// Scratch vectors of the iterative solvers, sized once.
struct LinearWorkspace {
  VectorX r, z, p, q, Ap, Az;
  void Resize(int n);
};

/// A x = b from x = 0 in at most `iterations`. `residuals` gets ‖b − Ax‖₂ after every iteration;
/// when `preconditioned_residuals` is given, PCR/PCG also append sqrt(rᵀ P r).
LinearSolveStats SolveLinear(LinearSolverKind kind, const SchurOperator& A, const VectorX& b,
                             int iterations, VectorX* x, LinearWorkspace* workspace,
                             std::vector<Real>* residuals,
                             std::vector<Real>* preconditioned_residuals = nullptr);

/// A dense matrix as a SchurOperator (tests and small problems).
class DenseSchurOperator final : public SchurOperator {
 public:
  explicit DenseSchurOperator(Eigen::MatrixXd matrix);
  int size() const override { return static_cast<int>(matrix_.rows()); }
  void Apply(const VectorX& x, VectorX* y) const override { *y = matrix_ * x; }
  const VectorX& diagonal() const override { return diagonal_; }
  void GaussSeidelSweep(const VectorX& b, VectorX* x) const override;
  Eigen::SparseMatrix<Real> AssembleMatrix() const override { return matrix_.sparseView(); }

 private:
  Eigen::MatrixXd matrix_;
  VectorX diagonal_;
};

}  // namespace sim::nsn
