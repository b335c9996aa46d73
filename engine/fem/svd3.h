// Rotation-variant singular value decomposition of a 3×3 matrix, F = U diag(σ) Vᵀ with U and V
// proper rotations (det = +1), σ1 ≥ σ2 ≥ |σ3| and the sign of det F carried by σ3 (Irving et al.
// 2004, "Invertible finite elements"; the principal stretches of digest nsn-and-friction.md §2.7).
//
// Method (McAdams et al. 2011, "Computing the singular value decomposition of 3×3 matrices with
// minimal branching", with exact instead of approximate Givens angles since we compute in double):
//   1. S = FᵀF; cyclic Jacobi sweeps over the pairs (0,1), (0,2), (1,2) rotate S to diagonal,
//      S ← QᵀSQ, V ← VQ. Starting from a guess V₀ (the tet's V of the previous Newton iteration)
//      leaves S nearly diagonal, so one sweep usually suffices.
//   2. Sort the eigenvalues descending, permuting V's columns (a swap negates one column so V
//      stays a rotation).
//   3. QR of B = FV by three Givens rotations, B = U R; R's diagonal is σ (R₁₁, R₂₂ ≥ 0; R₃₃
//      takes the sign of det F) and U is a product of rotations. R's off-diagonal is the Jacobi
//      residual and is dropped. Columns that vanish (a flat or collapsed tet) leave the Givens
//      rotation at identity, so U stays orthonormal.
// Header-only and branch-light so the same code can later run in a CUDA kernel.
#pragma once

#include <cmath>

#include "engine/core/math.h"

namespace sim {

struct Svd3 {
  Mat3 U = Mat3::Identity();
  Vec3 sigma = Vec3::Ones();
  Mat3 V = Mat3::Identity();
};

namespace svd3_internal {

// one Jacobi rotation in the (p, q) plane that zeroes S(p, q); S ← QᵀSQ, V ← VQ
inline void JacobiRotate(Mat3* S, Mat3* V, int p, int q) {
  const Real spq = (*S)(p, q);
  // already diagonal to round-off: a rotation would only add noise
  if (std::abs(spq) <= 1e-300 ||
      std::abs(spq) <= 1e-17 * (std::abs((*S)(p, p)) + std::abs((*S)(q, q)))) {
    return;
  }
  // t = tan θ of the smaller root (Golub & Van Loan, Alg. 8.4.1)
  const Real tau = ((*S)(q, q) - (*S)(p, p)) / (2 * spq);
  const Real t = (tau >= 0 ? 1 : -1) / (std::abs(tau) + std::sqrt(1 + tau * tau));
  const Real c = 1 / std::sqrt(1 + t * t);
  const Real s = t * c;
  const int r = 3 - p - q;
  const Real spp = (*S)(p, p), sqq = (*S)(q, q), srp = (*S)(r, p), srq = (*S)(r, q);
  (*S)(p, p) = spp - t * spq;
  (*S)(q, q) = sqq + t * spq;
  (*S)(p, q) = (*S)(q, p) = 0;
  (*S)(r, p) = (*S)(p, r) = c * srp - s * srq;
  (*S)(r, q) = (*S)(q, r) = s * srp + c * srq;
  for (int k = 0; k < 3; ++k) {
    const Real vp = (*V)(k, p), vq = (*V)(k, q);
    (*V)(k, p) = c * vp - s * vq;
    (*V)(k, q) = s * vp + c * vq;
  }
}

// Givens rotation on rows (p, q) of B that zeroes B(q, col); U ← U Gᵀ
inline void GivensQr(Mat3* B, Mat3* U, int p, int q, int col) {
  const Real a = (*B)(p, col), b = (*B)(q, col);
  const Real r = std::sqrt(a * a + b * b);
  if (!(r > 1e-300)) return;
  const Real c = a / r, s = b / r;
  for (int k = 0; k < 3; ++k) {
    const Real bp = (*B)(p, k), bq = (*B)(q, k);
    (*B)(p, k) = c * bp + s * bq;
    (*B)(q, k) = -s * bp + c * bq;
    const Real up = (*U)(k, p), uq = (*U)(k, q);
    (*U)(k, p) = c * up + s * uq;
    (*U)(k, q) = -s * up + c * uq;
  }
}

}  // namespace svd3_internal

/// Relative off-diagonal size below which the Jacobi sweeps stop: ‖offdiag(S)‖ ≤ 1e-15·tr(S),
/// a few double round-offs (the singular values are then exact to ~1e-15 relative).
inline constexpr Real kSvd3Tolerance = 1e-15;

/// Rotation-variant SVD of F (see the file comment). `V_guess` (a rotation, e.g. the previous
/// iteration's V) speeds up the Jacobi sweeps; the result does not depend on it beyond round-off
/// except for the arbitrary basis of repeated singular values. At most `max_sweeps` sweeps, which
/// stop once ‖offdiag(VᵀFᵀFV)‖ ≤ `tolerance`·tr(FᵀF).
inline Svd3 CalcSvd3(const Mat3& F, const Mat3& V_guess = Mat3::Identity(), int max_sweeps = 8,
                     Real tolerance = kSvd3Tolerance) {
  using svd3_internal::GivensQr;
  using svd3_internal::JacobiRotate;
  Svd3 out;
  Mat3 V = V_guess;
  Mat3 S = V.transpose() * (F.transpose() * F) * V;
  // symmetric eigen-decomposition of FᵀF by cyclic Jacobi sweeps
  for (int sweep = 0; sweep < max_sweeps; ++sweep) {
    const Real off = S(0, 1) * S(0, 1) + S(0, 2) * S(0, 2) + S(1, 2) * S(1, 2);
    const Real scale = S.trace();
    if (off <= tolerance * tolerance * scale * scale) break;
    JacobiRotate(&S, &V, 0, 1);
    JacobiRotate(&S, &V, 0, 2);
    JacobiRotate(&S, &V, 1, 2);
  }
  // sort descending; each swap negates one column so det V stays +1
  Vec3 eig(S(0, 0), S(1, 1), S(2, 2));
  const auto swap = [&](int i, int j) {
    std::swap(eig(i), eig(j));
    const Vec3 column = V.col(i);
    V.col(i) = -V.col(j);
    V.col(j) = column;
  };
  if (eig(0) < eig(1)) swap(0, 1);
  if (eig(0) < eig(2)) swap(0, 2);
  if (eig(1) < eig(2)) swap(1, 2);
  // QR of FV by Givens rotations: U R with R's diagonal the signed singular values
  Mat3 B = F * V;
  Mat3 U = Mat3::Identity();
  GivensQr(&B, &U, 0, 1, 0);
  GivensQr(&B, &U, 0, 2, 0);
  GivensQr(&B, &U, 1, 2, 1);
  out.U = U;
  out.V = V;
  out.sigma = Vec3(B(0, 0), B(1, 1), B(2, 2));
  // R₂₂ ≥ 0 by construction except when column 1 vanished; keep σ2 ≥ 0 by flipping the sign
  // pair (σ2, σ3) with U's columns 1, 2 (U stays a rotation)
  if (out.sigma(1) < 0) {
    out.sigma(1) = -out.sigma(1);
    out.sigma(2) = -out.sigma(2);
    out.U.col(1) = -out.U.col(1);
    out.U.col(2) = -out.U.col(2);
  }
  return out;
}

}  // namespace sim
