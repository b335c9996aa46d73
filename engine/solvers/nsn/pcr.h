// Preconditioned conjugate residual (digest §9.2; Saad 2003 Alg. 6.20 in preconditioned form),
// written once over a small vector-operations interface, so the CPU (double, fused SIMD passes,
// linear_solvers.cpp) and a device backend (float, its own kernels) run the same iteration. It
// minimizes ‖r‖_P = sqrt(rᵀ P r) from x = 0, one product with A per iteration.
//
// `Ops` holds A, P, b, x and the work vectors r, z, p, Ap, Az and provides, with S = Ops::Scalar:
//   S Start()             x = 0, r = b, z = P r, p = z; returns rᵀz
//   S ApplyDotZ()         Az = A z; returns zᵀ A z
//   S StartDirection()    Ap = Az; returns (Ap)ᵀ P Ap
//   void UpdateIterate(α, S* rr, S* rz)   x += αp, r −= αAp, z −= αP Ap; returns ‖r‖², rᵀz
//   S UpdateDirection(β)  p = z + βp, Ap = Az + βAp; returns (Ap)ᵀ P Ap
#pragma once

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "engine/core/math.h"

namespace sim::nsn {

/// Result of one linear solve.
struct LinearSolveStats {
  int iterations = 0;
  bool failed = false;  ///< breakdown (non-positive curvature) or factorization failure
};

/// The stopping thresholds of the Krylov iterations in scalar type S.
template <class S>
struct KrylovLimits {
  /// a curvature below this means the Krylov space is exhausted
  static constexpr S kBreakdown = std::is_same_v<S, double> ? S(1e-300) : S(1e-35);
  /// converged to round-off: ‖r‖_P below 1e-13 of its start in double, 1e-6 in float (squared
  /// here); iterating further only divides round-off by round-off and adds noise to x
  static constexpr S kConvergedSquared = std::is_same_v<S, double> ? S(1e-26) : S(1e-12);
};

/// At most `iterations` PCR iterations; appends ‖r‖₂ and ‖r‖_P after each to `residuals` and
/// `preconditioned` where given.
template <class Ops>
LinearSolveStats Pcr(Ops& ops, int iterations, std::vector<Real>* residuals,
                     std::vector<Real>* preconditioned) {
  using S = typename Ops::Scalar;
  using Limits = KrylovLimits<S>;
  LinearSolveStats stats;
  const S rz0 = ops.Start();
  S rz = rz0;
  S rho = ops.ApplyDotZ();
  S curvature = ops.StartDirection();
  for (int k = 0; k < iterations; ++k) {
    // converged (or Az ⟂ z: nothing left to reduce)
    if (!(rho > Limits::kBreakdown) || rz <= Limits::kConvergedSquared * rz0) break;
    if (!(curvature > Limits::kBreakdown)) {
      stats.failed = !(curvature >= 0);
      break;
    }
    const S alpha = rho / curvature;
    S rr = 0;
    ops.UpdateIterate(alpha, &rr, &rz);
    ++stats.iterations;
    if (residuals) residuals->push_back(std::sqrt(static_cast<Real>(rr)));
    if (preconditioned) preconditioned->push_back(std::sqrt(std::max<Real>(0, rz)));
    if (k + 1 == iterations) break;      // p and Ap are not needed any more
    const S rho_next = ops.ApplyDotZ();  // the single product of the iteration
    const S beta = rho_next / rho;
    rho = rho_next;
    curvature = ops.UpdateDirection(beta);
  }
  return stats;
}

}  // namespace sim::nsn
