#include "engine/solvers/nsn/linear_solvers.h"

#include <algorithm>
#include <cmath>

#include <Eigen/SparseCholesky>

#include "engine/core/real_lanes.h"

namespace sim::nsn {

namespace {

// a curvature below this means the Krylov space is exhausted
constexpr Real kBreakdown = 1e-300;

// converged to round-off: ‖r‖_P below 1e-13 of its start (squared here). Iterating further
// only divides round-off by round-off and adds noise to x.
constexpr Real kConvergedSquared = 1e-26;

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


LinearSolveStats SolvePcr(const SchurOperator& A, const VectorX& b, int iterations, VectorX* x,
                          LinearWorkspace* w, std::vector<Real>* residuals,
                          std::vector<Real>* preconditioned) {
  // the vector updates of one iteration are fused into three passes over memory (the size is
  // 6 per tet, and the products alone are cheap enough that ten separate Eigen passes cost as
  // much as the matvec); the arithmetic is that of digest §9.2
  LinearSolveStats stats;
  const long n = b.size();
  x->setZero();
  // P = diag(A)⁻¹ as a product (kept in q); r = b − A·0, z = P r, p = z, rz0 = rᵀz
  w->q = A.diagonal().cwiseInverse();
  w->r = b;
  w->z = w->r.cwiseProduct(w->q);
  w->p = w->z;
  const Real rz0 = w->r.dot(w->z);
  Real rz = rz0;
  Real rho = A.ApplyDot(w->z, &w->Az);
  w->Ap = w->Az;
  Real* xs = x->data();
  Real* r = w->r.data();
  Real* z = w->z.data();
  Real* p = w->p.data();
  Real* Ap = w->Ap.data();
  Real* Az = w->Az.data();
  const Real* inv_d = w->q.data();
  // P Ap is never stored: it is inv_d·Ap wherever it is used
  Real lanes[kLanes] = {0, 0, 0, 0};  // (Ap)ᵀ P Ap
  for (long i = 0; i < n; ++i) lanes[i % kLanes] += Ap[i] * Ap[i] * inv_d[i];
  Real curvature = SumLanes(lanes);
  for (int k = 0; k < iterations; ++k) {
    // converged (or Az ⟂ z: nothing left to reduce)
    if (!(rho > kBreakdown) || rz <= kConvergedSquared * rz0) break;
    if (!(curvature > kBreakdown)) {
      stats.failed = !(curvature >= 0);
      break;
    }
    const Real alpha = rho / curvature;
    // x += αp, r −= αAp, z −= αP Ap, with ‖r‖² and rᵀz of the new residual
    Real rr_lanes[kLanes] = {0, 0, 0, 0}, rz_lanes[kLanes] = {0, 0, 0, 0};
    UpdatePass(n, alpha, p, Ap, inv_d, xs, r, z, rr_lanes, rz_lanes);
    rz = SumLanes(rz_lanes);
    ++stats.iterations;
    if (residuals) residuals->push_back(std::sqrt(SumLanes(rr_lanes)));
    if (preconditioned) preconditioned->push_back(std::sqrt(std::max<Real>(0, rz)));
    if (k + 1 == iterations) break;                  // p and Ap are not needed any more
    const Real rho_next = A.ApplyDot(w->z, &w->Az);  // the single matvec of the iteration
    Az = w->Az.data();
    const Real beta = rho_next / rho;
    rho = rho_next;
    // p = z + βp, Ap = Az + βAp (the extra axpy compared with CG), and the next curvature
    std::fill(lanes, lanes + kLanes, Real{0});
    DirectionPass(n, beta, z, Az, inv_d, p, Ap, lanes);
    curvature = SumLanes(lanes);
  }
  return stats;
}


// the start of the preconditioned Krylov methods from x = 0: r = b, z = P r, p = z; returns rᵀz
Real StartPreconditioned(const SchurOperator& A, const VectorX& b, VectorX* x, LinearWorkspace* w) {
  x->setZero();
  w->r = b;
  A.ApplyPreconditioner(w->r, &w->z);
  w->p = w->z;
  return w->r.dot(w->z);
}


// PCR with the operator's own preconditioner (SchurOperator::ApplyPreconditioner): the same
// recurrences as SolvePcr with P Ap kept in w->q, one application of P per iteration
LinearSolveStats SolvePcrPreconditioned(const SchurOperator& A, const VectorX& b, int iterations,
                                        VectorX* x, LinearWorkspace* w,
                                        std::vector<Real>* residuals,
                                        std::vector<Real>* preconditioned) {
  LinearSolveStats stats;
  const Real rz0 = StartPreconditioned(A, b, x, w);
  Real rz = rz0;
  A.Apply(w->z, &w->Az);
  w->Ap = w->Az;
  Real rho = w->z.dot(w->Az);
  A.ApplyPreconditioner(w->Ap, &w->q);
  Real curvature = w->Ap.dot(w->q);
  for (int k = 0; k < iterations; ++k) {
    if (!(rho > kBreakdown) || rz <= kConvergedSquared * rz0) break;
    if (!(curvature > kBreakdown)) {
      stats.failed = !(curvature >= 0);
      break;
    }
    const Real alpha = rho / curvature;
    *x += alpha * w->p;
    w->r -= alpha * w->Ap;
    w->z -= alpha * w->q;
    rz = w->r.dot(w->z);
    ++stats.iterations;
    if (residuals) residuals->push_back(w->r.norm());
    if (preconditioned) preconditioned->push_back(std::sqrt(std::max<Real>(0, rz)));
    if (k + 1 == iterations) break;
    A.Apply(w->z, &w->Az);
    const Real rho_next = w->z.dot(w->Az);
    const Real beta = rho_next / rho;
    rho = rho_next;
    w->p = w->z + beta * w->p;
    w->Ap = w->Az + beta * w->Ap;
    A.ApplyPreconditioner(w->Ap, &w->q);
    curvature = w->Ap.dot(w->q);
  }
  return stats;
}


LinearSolveStats SolvePcg(const SchurOperator& A, const VectorX& b, int iterations, VectorX* x,
                          LinearWorkspace* w, std::vector<Real>* residuals,
                          std::vector<Real>* preconditioned) {
  LinearSolveStats stats;
  Real rz = StartPreconditioned(A, b, x, w);
  const Real rz0 = rz;
  for (int k = 0; k < iterations; ++k) {
    if (!(rz > kBreakdown) || rz <= kConvergedSquared * rz0) break;
    A.Apply(w->p, &w->Ap);
    const Real curvature = w->p.dot(w->Ap);
    if (!(curvature > kBreakdown)) {
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
    case LinearSolverKind::kPcr:
      if (A.has_preconditioner()) {
        return SolvePcrPreconditioned(A, b, iterations, x, workspace, residuals,
                                      preconditioned_residuals);
      }
      return SolvePcr(A, b, iterations, x, workspace, residuals, preconditioned_residuals);
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
