#include "engine/solvers/nsn/linear_solvers.h"

#include <algorithm>
#include <cmath>

#include <Eigen/SparseCholesky>

#include "engine/core/real_lanes.h"

namespace sim::nsn {

namespace {

// weight of the damped Jacobi iteration (see the file comment of linear_solvers.h)
constexpr Real kJacobiWeight = 2.0 / 3.0;


void RecordResidual(const SchurOperator& A, const VectorX& b, const VectorX& x, VectorX* scratch,
                    std::vector<Real>* residuals) {
  if (residuals == nullptr) return;
  A.Apply(x, scratch);
  residuals->push_back((b - *scratch).norm());
}


// four independent partial sums, so the reductions below pipeline (and vectorize) like Eigen's
// dot product instead of waiting on one chain of additions
constexpr int kLanes = 4;

Real SumLanes(const Real* lanes) { return (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]); }

// the two fused passes of a PCR iteration over pairs of doubles (GCC/Clang vectors, SSE2): the
// compiler left the loops scalar, reloading every value it had just stored (measured). Lane j
// of the sums takes the entries i ≡ j (mod kLanes), as before, so the sums are the same.
using Pair = RealPair;  // engine/core/real_lanes.h
static_assert(kLanes == 4);

// x += αp, r −= αAp, z −= αP Ap (P = diag(inv_d)); ‖r‖² and rᵀz of the new residual by lanes
void UpdatePass(long n, Real alpha, const Real* p, const Real* Ap, const Real* inv_d, Real* x,
                Real* r, Real* z, Real* rr_lanes, Real* rz_lanes) {
  const long n_lanes = n - n % kLanes;
  Pair rr[2] = {Pair{}, Pair{}}, rz[2] = {Pair{}, Pair{}};
  for (long i = 0; i < n_lanes; i += kLanes) {
    for (int h = 0; h < 2; ++h) {
      const long k = i + 2 * h;
      const Pair ap = LoadLanes<Pair>(Ap + k);
      const Pair rk = LoadLanes<Pair>(r + k) - alpha * ap;
      const Pair zk = LoadLanes<Pair>(z + k) - alpha * ap * LoadLanes<Pair>(inv_d + k);
      StoreLanes<Pair>(x + k, LoadLanes<Pair>(x + k) + alpha * LoadLanes<Pair>(p + k));
      StoreLanes<Pair>(r + k, rk);
      StoreLanes<Pair>(z + k, zk);
      rr[h] += rk * rk;
      rz[h] += rk * zk;
    }
  }
  for (int j = 0; j < kLanes; ++j) {
    rr_lanes[j] = rr[j / 2][j % 2];
    rz_lanes[j] = rz[j / 2][j % 2];
  }
  for (long i = n_lanes; i < n; ++i) {
    x[i] += alpha * p[i];
    r[i] -= alpha * Ap[i];
    z[i] -= alpha * Ap[i] * inv_d[i];
    rr_lanes[0] += r[i] * r[i];
    rz_lanes[0] += r[i] * z[i];
  }
}

// p = z + βp, Ap = Az + βAp; (Ap)ᵀ P Ap by lanes
void DirectionPass(long n, Real beta, const Real* z, const Real* Az, const Real* inv_d, Real* p,
                   Real* Ap, Real* lanes) {
  const long n_lanes = n - n % kLanes;
  Pair sum[2] = {Pair{}, Pair{}};
  for (long i = 0; i < n_lanes; i += kLanes) {
    for (int h = 0; h < 2; ++h) {
      const long k = i + 2 * h;
      const Pair ap = LoadLanes<Pair>(Az + k) + beta * LoadLanes<Pair>(Ap + k);
      StoreLanes<Pair>(p + k, LoadLanes<Pair>(z + k) + beta * LoadLanes<Pair>(p + k));
      StoreLanes<Pair>(Ap + k, ap);
      sum[h] += ap * ap * LoadLanes<Pair>(inv_d + k);
    }
  }
  for (int j = 0; j < kLanes; ++j) lanes[j] = sum[j / 2][j % 2];
  for (long i = n_lanes; i < n; ++i) {
    p[i] = z[i] + beta * p[i];
    Ap[i] = Az[i] + beta * Ap[i];
    lanes[0] += Ap[i] * Ap[i] * inv_d[i];
  }
}


// the start of the preconditioned Krylov methods from x = 0: r = b, z = P r, p = z; returns rᵀz
Real StartPreconditioned(const SchurOperator& A, const VectorX& b, VectorX* x, LinearWorkspace* w) {
  x->setZero();
  w->r = b;
  A.ApplyPreconditioner(w->r, &w->z);
  w->p = w->z;
  return w->r.dot(w->z);
}


// PCR's operations (pcr.h) with the diagonal preconditioner P = diag(A)⁻¹: the vector updates
// of one iteration fused into the two passes above (the size is 6 per tet, and the products alone
// are cheap enough that ten separate Eigen passes cost as much as the matvec); P Ap is never
// stored, it is inv_d·Ap wherever it is used
class DiagonalPcrOps {
 public:
  using Scalar = Real;
  DiagonalPcrOps(const SchurOperator& A, const VectorX& b, VectorX* x, LinearWorkspace* w)
      : A_(A), b_(b), x_(x), w_(w), n_(b.size()) {}

  Real Start() {
    x_->setZero();
    w_->q = A_.diagonal().cwiseInverse();  // inv_d
    w_->r = b_;
    w_->z = w_->r.cwiseProduct(w_->q);
    w_->p = w_->z;
    return w_->r.dot(w_->z);
  }
  Real ApplyDotZ() { return A_.ApplyDot(w_->z, &w_->Az); }
  Real StartDirection() {
    w_->Ap = w_->Az;
    Real lanes[kLanes] = {0, 0, 0, 0};
    for (long i = 0; i < n_; ++i) lanes[i % kLanes] += w_->Ap[i] * w_->Ap[i] * w_->q[i];
    return SumLanes(lanes);
  }
  void UpdateIterate(Real alpha, Real* rr, Real* rz) {
    Real rr_lanes[kLanes] = {0, 0, 0, 0}, rz_lanes[kLanes] = {0, 0, 0, 0};
    UpdatePass(n_, alpha, w_->p.data(), w_->Ap.data(), w_->q.data(), x_->data(), w_->r.data(),
               w_->z.data(), rr_lanes, rz_lanes);
    *rr = SumLanes(rr_lanes);
    *rz = SumLanes(rz_lanes);
  }
  Real UpdateDirection(Real beta) {
    Real lanes[kLanes] = {0, 0, 0, 0};
    DirectionPass(n_, beta, w_->z.data(), w_->Az.data(), w_->q.data(), w_->p.data(), w_->Ap.data(),
                  lanes);
    return SumLanes(lanes);
  }

 private:
  const SchurOperator& A_;
  const VectorX& b_;
  VectorX* x_;
  LinearWorkspace* w_;
  long n_;
};


// PCR's operations with the operator's own preconditioner (SchurOperator::ApplyPreconditioner):
// P Ap kept in q, one application of P per iteration
class OperatorPcrOps {
 public:
  using Scalar = Real;
  OperatorPcrOps(const SchurOperator& A, const VectorX& b, VectorX* x, LinearWorkspace* w)
      : A_(A), b_(b), x_(x), w_(w) {}

  Real Start() { return StartPreconditioned(A_, b_, x_, w_); }
  Real ApplyDotZ() {
    A_.Apply(w_->z, &w_->Az);
    return w_->z.dot(w_->Az);
  }
  Real StartDirection() {
    w_->Ap = w_->Az;
    return PreconditionedCurvature();
  }
  void UpdateIterate(Real alpha, Real* rr, Real* rz) {
    *x_ += alpha * w_->p;
    w_->r -= alpha * w_->Ap;
    w_->z -= alpha * w_->q;
    *rr = w_->r.squaredNorm();
    *rz = w_->r.dot(w_->z);
  }
  Real UpdateDirection(Real beta) {
    w_->p = w_->z + beta * w_->p;
    w_->Ap = w_->Az + beta * w_->Ap;
    return PreconditionedCurvature();
  }

 private:
  Real PreconditionedCurvature() {
    A_.ApplyPreconditioner(w_->Ap, &w_->q);
    return w_->Ap.dot(w_->q);
  }
  const SchurOperator& A_;
  const VectorX& b_;
  VectorX* x_;
  LinearWorkspace* w_;
};


LinearSolveStats SolvePcg(const SchurOperator& A, const VectorX& b, int iterations, VectorX* x,
                          LinearWorkspace* w, std::vector<Real>* residuals,
                          std::vector<Real>* preconditioned) {
  LinearSolveStats stats;
  Real rz = StartPreconditioned(A, b, x, w);
  const Real rz0 = rz;
  for (int k = 0; k < iterations; ++k) {
    if (!(rz > KrylovLimits<Real>::kBreakdown) || rz <= KrylovLimits<Real>::kConvergedSquared * rz0)
      break;
    A.Apply(w->p, &w->Ap);
    const Real curvature = w->p.dot(w->Ap);
    if (!(curvature > KrylovLimits<Real>::kBreakdown)) {
      stats.failed = !(curvature >= 0);
      break;
    }
    const Real alpha = rz / curvature;
    *x += alpha * w->p;
    w->r -= alpha * w->Ap;
    A.ApplyPreconditioner(w->r, &w->z);
    const Real rz_next = w->r.dot(w->z);
    w->p = w->z + (rz_next / rz) * w->p;
    rz = rz_next;
    ++stats.iterations;
    if (residuals) residuals->push_back(w->r.norm());
    if (preconditioned) preconditioned->push_back(std::sqrt(std::max<Real>(0, rz)));
  }
  return stats;
}


LinearSolveStats SolveJacobi(const SchurOperator& A, const VectorX& b, int iterations, VectorX* x,
                             LinearWorkspace* w, std::vector<Real>* residuals) {
  LinearSolveStats stats;
  const VectorX& d = A.diagonal();
  x->setZero();
  w->r = b;
  // Jacobi diverges where the Schur diagonal is not dominant (stacks): keep the iterate with the
  // smallest residual, and stop once the residual has grown 1e3-fold, so a diverging inner
  // solve degrades to "stagnates" instead of feeding the Newton step with 1e19
  w->z = *x;
  Real best = b.norm();
  for (int k = 0; k < iterations; ++k) {
    *x += kJacobiWeight * w->r.cwiseQuotient(d);
    A.Apply(*x, &w->Ap);
    w->r = b - w->Ap;
    ++stats.iterations;
    const Real norm = w->r.norm();
    if (residuals) residuals->push_back(norm);
    if (norm < best) {
      best = norm;
      w->z = *x;
    } else if (!(norm < 1e3 * best)) {
      stats.failed = true;
      break;
    }
  }
  *x = w->z;
  return stats;
}


LinearSolveStats SolveGaussSeidel(const SchurOperator& A, const VectorX& b, int iterations,
                                  VectorX* x, LinearWorkspace* w, std::vector<Real>* residuals) {
  LinearSolveStats stats;
  x->setZero();
  for (int k = 0; k < iterations; ++k) {
    A.GaussSeidelSweep(b, x);
    ++stats.iterations;
    RecordResidual(A, b, *x, &w->Ap, residuals);
  }
  return stats;
}


LinearSolveStats SolveDirect(const SchurOperator& A, const VectorX& b, VectorX* x,
                             LinearWorkspace* w, std::vector<Real>* residuals) {
  LinearSolveStats stats;
  const Eigen::SparseMatrix<Real> matrix = A.AssembleMatrix();
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<Real>> factorization(matrix);
  if (factorization.info() != Eigen::Success) {
    x->setZero();
    stats.failed = true;
    return stats;
  }
  *x = factorization.solve(b);
  stats.iterations = 1;
  if (!x->allFinite()) {
    x->setZero();
    stats.failed = true;
  }
  RecordResidual(A, b, *x, &w->Ap, residuals);
  return stats;
}

}  // namespace


void LinearWorkspace::Resize(int n) {
  for (VectorX* v : {&r, &z, &p, &q, &Ap, &Az}) v->resize(n);
}


LinearSolveStats SolveLinear(LinearSolverKind kind, const SchurOperator& A, const VectorX& b,
                             int iterations, VectorX* x, LinearWorkspace* workspace,
                             std::vector<Real>* residuals,
                             std::vector<Real>* preconditioned_residuals) {
  const int n = A.size();
  x->resize(n);
  if (workspace->r.size() != n) workspace->Resize(n);
  if (n == 0) return {};
  switch (kind) {
    case LinearSolverKind::kPcr: {
      if (A.has_preconditioner()) {
        OperatorPcrOps ops(A, b, x, workspace);
        return Pcr(ops, iterations, residuals, preconditioned_residuals);
      }
      DiagonalPcrOps ops(A, b, x, workspace);
      return Pcr(ops, iterations, residuals, preconditioned_residuals);
    }
    case LinearSolverKind::kPcg:
      return SolvePcg(A, b, iterations, x, workspace, residuals, preconditioned_residuals);
    case LinearSolverKind::kJacobi:
      return SolveJacobi(A, b, iterations, x, workspace, residuals);
    case LinearSolverKind::kGaussSeidel:
      return SolveGaussSeidel(A, b, iterations, x, workspace, residuals);
    case LinearSolverKind::kDirect:
      return SolveDirect(A, b, x, workspace, residuals);
  }
  return {};
}


DenseSchurOperator::DenseSchurOperator(Eigen::MatrixXd matrix)
    : matrix_(std::move(matrix)), diagonal_(matrix_.diagonal()) {}


void DenseSchurOperator::GaussSeidelSweep(const VectorX& b, VectorX* x) const {
  for (int i = 0; i < size(); ++i) {
    const Real ax = matrix_.row(i).dot(*x);
    (*x)(i) += (b(i) - ax) / diagonal_(i);
  }
}

}  // namespace sim::nsn
