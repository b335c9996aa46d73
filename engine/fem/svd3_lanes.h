// The rotation-variant SVD of svd3.h (F = U diag(σ) Vᵀ, U and V proper rotations, σ1 ≥ σ2 ≥ |σ3|,
// det F's sign on σ3) for several 3×3 matrices at once, one per lane of a GCC/Clang vector type V
// (two or four doubles: engine/core/real_lanes.h). The same steps as CalcSvd3, each lane getting
// exactly its sweeps, skips and swaps through masks instead of branches: the scalar version is a
// chain of dependent square roots and divisions, and running independent matrices side by side
// hides their latency (measured in the FEM element evaluation: nsn/element_rows.cpp).
#pragma once

#include <cmath>
#include <cstring>

#include "engine/core/math.h"
#include "engine/core/real_lanes.h"

namespace sim {

/// 3×3 matrices in lanes: m[r][c] holds entry (r, c) of every lane's matrix.
template <class V>
struct Mat3Lanes {
  V m[3][3];

  /// Lane l holds `matrices[l]` (as many as the lanes).
  static Mat3Lanes FromMatrices(const Mat3* matrices) {
    constexpr int kLanes = kLaneCount<V>;
    Real entries[3][3][kLanes];
    for (int l = 0; l < kLanes; ++l) {
      for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) entries[i][j][l] = matrices[l](i, j);
      }
    }
    Mat3Lanes out;
    std::memcpy(out.m, entries, sizeof entries);
    return out;
  }
  /// Lane l's matrix.
  Mat3 Lane(int l) const {
    Mat3 out;
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) out(i, j) = m[i][j][l];
    }
    return out;
  }
};

namespace svd3_lanes_internal {

template <class V>
[[gnu::always_inline]] inline V Abs(V v) {
  return v < 0 ? -v : v;
}

// per lane: the square roots are independent, so they pipeline
template <class V>
[[gnu::always_inline]] inline V Sqrt(V v) {
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
  // SSE2 vector square roots (VEX-encoded where the caller is compiled for AVX): std::sqrt lane by
  // lane stays scalar, since it may set errno. A quad takes two, as the AVX one is not declared
  // in code that is not compiled for AVX (the tests run quads there too)
  if constexpr (kLaneCount<V> == 4) {
    const RealPair low = __builtin_ia32_sqrtpd(__builtin_shufflevector(v, v, 0, 1));
    const RealPair high = __builtin_ia32_sqrtpd(__builtin_shufflevector(v, v, 2, 3));
    return __builtin_shufflevector(low, high, 0, 1, 2, 3);
  } else {
    return __builtin_ia32_sqrtpd(v);
  }
#else
  for (int l = 0; l < kLaneCount<V>; ++l) v[l] = std::sqrt(v[l]);
  return v;
#endif
}

// a Jacobi rotation in the (p, q) plane that zeroes S(p, q) where `active` and S(p, q) is not
// already negligible; S ← QᵀSQ, V ← VQ (svd3.h JacobiRotate)
template <class V, class Mask>
[[gnu::always_inline]] inline void JacobiRotate(Mat3Lanes<V>* S, Mat3Lanes<V>* Vm, int p, int q,
                                                Mask active) {
  V(&s)[3][3] = S->m;
  const V spq = s[p][q];
  const Mask rotate =
      active & (Abs(spq) > 1e-300) & (Abs(spq) > 1e-17 * (Abs(s[p][p]) + Abs(s[q][q])));
  const V spq_safe = rotate ? spq : V{} + 1;
  const V tau = (s[q][q] - s[p][p]) / (2 * spq_safe);
  const V sign = tau >= 0 ? V{} + 1 : V{} - 1;
  const V t_rotate = sign / (Abs(tau) + Sqrt(1 + tau * tau));
  const V t = rotate ? t_rotate : V{};
  const V c = rotate ? 1 / Sqrt(1 + t * t) : V{} + 1;
  const V sn = t * c;
  const int r = 3 - p - q;
  const V spp = s[p][p], sqq = s[q][q], srp = s[r][p], srq = s[r][q];
  s[p][p] = spp - t * spq;
  s[q][q] = sqq + t * spq;
  s[p][q] = s[q][p] = rotate ? V{} : spq;
  s[r][p] = s[p][r] = c * srp - sn * srq;
  s[r][q] = s[q][r] = sn * srp + c * srq;
  for (int k = 0; k < 3; ++k) {
    const V vp = Vm->m[k][p], vq = Vm->m[k][q];
    Vm->m[k][p] = c * vp - sn * vq;
    Vm->m[k][q] = sn * vp + c * vq;
  }
}

// Givens rotation on rows (p, q) of B that zeroes B(q, col); U ← U Gᵀ (svd3.h GivensQr)
template <class V>
[[gnu::always_inline]] inline void GivensQr(Mat3Lanes<V>* B, Mat3Lanes<V>* U, int p, int q,
                                            int col) {
  const V a = B->m[p][col], b = B->m[q][col];
  const V r = Sqrt(a * a + b * b);
  const auto rotate = r > 1e-300;
  const V r_safe = rotate ? r : V{} + 1;
  const V c = rotate ? a / r_safe : V{} + 1;
  const V s = rotate ? b / r_safe : V{};
  for (int k = 0; k < 3; ++k) {
    const V bp = B->m[p][k], bq = B->m[q][k];
    B->m[p][k] = c * bp + s * bq;
    B->m[q][k] = -s * bp + c * bq;
    const V up = U->m[k][p], uq = U->m[k][q];
    U->m[k][p] = c * up + s * uq;
    U->m[k][q] = -s * up + c * uq;
  }
}

template <class V>
[[gnu::always_inline]] inline Mat3Lanes<V> Multiply(const Mat3Lanes<V>& a, const Mat3Lanes<V>& b,
                                                    bool transpose_a) {
  Mat3Lanes<V> out;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      V sum{};
      for (int k = 0; k < 3; ++k) sum += (transpose_a ? a.m[k][i] : a.m[i][k]) * b.m[k][j];
      out.m[i][j] = sum;
    }
  }
  return out;
}

}  // namespace svd3_lanes_internal

/// CalcSvd3 (svd3.h) of each lane's F with its V guess: at most `max_sweeps` Jacobi sweeps per
/// lane, each lane stopping once ‖offdiag(VᵀFᵀFV)‖ ≤ `tolerance`·tr(FᵀF). Writes U, σ and V.
template <class V>
[[gnu::always_inline]] inline void CalcSvd3Lanes(const Mat3Lanes<V>& F, Mat3Lanes<V>* Vm,
                                                 int max_sweeps, Real tolerance, Mat3Lanes<V>* U,
                                                 V sigma[3]) {
  using namespace svd3_lanes_internal;
  // S = Vᵀ (FᵀF) V
  const Mat3Lanes<V> FtF = Multiply(F, F, true);
  Mat3Lanes<V> S = Multiply(*Vm, Multiply(FtF, *Vm, false), true);
  // cyclic Jacobi sweeps while any lane is above the tolerance
  for (int sweep = 0; sweep < max_sweeps; ++sweep) {
    const V off = S.m[0][1] * S.m[0][1] + S.m[0][2] * S.m[0][2] + S.m[1][2] * S.m[1][2];
    const V scale = S.m[0][0] + S.m[1][1] + S.m[2][2];
    const auto active = off > tolerance * tolerance * scale * scale;
    bool any = false;
    for (int l = 0; l < kLaneCount<V>; ++l) any |= active[l] != 0;
    if (!any) break;
    JacobiRotate(&S, Vm, 0, 1, active);
    JacobiRotate(&S, Vm, 0, 2, active);
    JacobiRotate(&S, Vm, 1, 2, active);
  }
  // sort descending; each swap negates one column so det V stays +1
  V eig[3] = {S.m[0][0], S.m[1][1], S.m[2][2]};
  const auto swap = [&](int i, int j) {
    const auto m = eig[i] < eig[j];
    const V ei = eig[i];
    eig[i] = m ? eig[j] : eig[i];
    eig[j] = m ? ei : eig[j];
    for (int k = 0; k < 3; ++k) {
      const V vi = Vm->m[k][i], vj = Vm->m[k][j];
      Vm->m[k][i] = m ? -vj : vi;
      Vm->m[k][j] = m ? vi : vj;
    }
  };
  swap(0, 1);
  swap(0, 2);
  swap(1, 2);
  // QR of FV by Givens rotations: U R with R's diagonal the signed singular values
  Mat3Lanes<V> B = Multiply(F, *Vm, false);
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) U->m[i][j] = V{} + (i == j ? 1 : 0);
  }
  GivensQr(&B, U, 0, 1, 0);
  GivensQr(&B, U, 0, 2, 0);
  GivensQr(&B, U, 1, 2, 1);
  // σ2 ≥ 0: flip the pair (σ2, σ3) with U's columns 1, 2 where column 1 vanished
  const auto flip = B.m[1][1] < 0;
  sigma[0] = B.m[0][0];
  sigma[1] = flip ? -B.m[1][1] : B.m[1][1];
  sigma[2] = flip ? -B.m[2][2] : B.m[2][2];
  for (int k = 0; k < 3; ++k) {
    U->m[k][1] = flip ? -U->m[k][1] : U->m[k][1];
    U->m[k][2] = flip ? -U->m[k][2] : U->m[k][2];
  }
}

}  // namespace sim
