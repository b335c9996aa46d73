// The arrays the Schur product A x = J H⁻¹ Jᵀ x + C x + εx of the NSN inner solve reads
// (newton_system.h, eq. (80), seed 002; digest §6.5, §9.2), described as plain spans of a scalar
// type S: double for the CPU's own arrays, float for a copy a device backend uploads as it is.
//
//   blocks    H⁻¹ per DOF block: the linear diagonal (3 per block) and, for rigid bodies, the
//             angular 3×3 (9 per body, column-major)
//   rows      every row but the element rows, by row (CSR over the used ends, for J t) and by
//             block (the same ends sorted by block, for Jᵀx as a gather without write conflicts),
//             with the diagonal of the compliance C
//   elements  the FEM element rows (element_rows.h) in groups of `lanes` tets, one array of lanes
//             per quantity; the lane width is a run-time value (4 for the CPU's AVX2 groups; a
//             warp on a GPU), so the same description serves either
//
// The products below are templates over S and read nothing else: the CPU runs the row products
// through them (NewtonSystem::ApplyDot), and a copy in float (SchurArrayCopy) runs all of them,
// which is what a device backend mirrors. The CPU's element products run its SIMD kernels over
// the same arrays (element_kernels.h); the scalar element products here are their reference.
#pragma once

#include <algorithm>
#include <deque>
#include <span>
#include <type_traits>
#include <vector>

#include <Eigen/Core>

#include "engine/solvers/nsn/element_kernels.h"
#include "engine/solvers/nsn/element_rows.h"
#include "engine/solvers/nsn/pcr.h"

namespace sim::nsn {

/// Per-group arrays of `fields` scalars per tet, `lanes` tets per group, groups `group_stride`
/// entries apart: entry (group, field, lane) at data[group·group_stride + field·lanes + lane].
/// A packed copy has group_stride = fields·lanes; the CPU's groups hold several quantities per
/// group, so theirs is the group's size (a pitched copy, e.g. cudaMemcpy2D, moves them as they
/// are).
template <class T>
struct LaneArray {
  T* data = nullptr;
  int fields = 0;
  int lanes = 0;
  long group_stride = 0;
  T& at(int group, int field, int lane) const {
    return data[group * group_stride + static_cast<long>(field) * lanes + lane];
  }
};

template <class S>
struct SchurArrays {
  // DOF blocks: rigid bodies [0, body_count), then particles
  int block_count = 0;
  int body_count = 0;
  std::span<const S> inv_mass;     ///< H⁻¹'s linear diagonal, 3 per block [1/kg]
  std::span<const S> inv_inertia;  ///< H⁻¹'s angular block, 9 per body, column-major [1/(kg·m²)]

  // rows before the element rows, with their used ends
  int row_count = 0;
  std::span<const int> row_begin;        ///< row_count + 1 offsets into the ends
  std::span<const int> end_block;        ///< block of each end
  std::span<const S> end_lin, end_ang;   ///< J's linear and angular coefficients, 3 per end
  std::span<const int> incidence_begin;  ///< block_count + 1 offsets into the incidence
  std::span<const int> incidence_row;    ///< the ends by block: row of each
  std::span<const S> incidence_lin, incidence_ang;  ///< its coefficients, 3 per end
  std::span<const S> compliance;                    ///< C_ii per row
  S regularization = 0;                             ///< ε
  std::span<const S> diagonal;  ///< diag(A) of every row, element rows included (PCR's P⁻¹)

  // element rows, numbered after the other rows (element_rows.h, data layout)
  int tet_count = 0;
  bool shear_rows = true;
  LaneArray<const int> element_block;       ///< 4 node blocks per tet
  LaneArray<const S> element_U, element_B;  ///< U and B = D_m⁻¹V, (r, c) at 3c + r [-, 1/m]
  LaneArray<const S> element_stretch_compliance;  ///< stretch C: 00 11 22 01 02 12 [1/kg]
  LaneArray<const S> element_shear_compliance;    ///< shear C per pair [1/kg]

  int size() const { return row_count + kElementRows * tet_count; }
  /// Index of element row r (0..5) of tet e: row r·lanes + lane of its group, in a shorter last
  /// group with its own lane count.
  int ElementRowIndex(int e, int r) const {
    const int lanes = element_U.lanes;
    const int first = e - e % lanes;
    return row_count + kElementRows * first + r * std::min(lanes, tet_count - first) + e % lanes;
  }
};

/// An owning copy of SchurArrays in scalar type S, its element groups repacked to `lanes` tets
/// (element rows renumbered accordingly: ElementRowIndex of the copy).
template <class S>
class SchurArrayCopy {
 public:
  template <class From>
  SchurArrayCopy(const SchurArrays<From>& from, int lanes);
  SchurArrayCopy(const SchurArrayCopy&) = delete;  // the spans point into this copy's vectors
  SchurArrayCopy& operator=(const SchurArrayCopy&) = delete;
  const SchurArrays<S>& arrays() const { return arrays_; }

 private:
  SchurArrays<S> arrays_;
  // the copied arrays (a deque: the spans stay valid as it grows)
  std::deque<std::vector<int>> ints_;
  std::deque<std::vector<S>> scalars_;
};

/// Scratch block vectors of the products (3 per block each).
template <class S>
struct SchurScratch {
  std::vector<S> lin, ang, lin2, ang2;
};

template <class S>
using Vec3Of = Eigen::Matrix<S, 3, 1>;
template <class S>
using Mat3Of = Eigen::Matrix<S, 3, 3>;

/// lin, ang = (Jᵀx) of the rows for blocks [begin, end), gathered per block in row order.
template <class S>
void GatherRowsJt(const SchurArrays<S>& a, const S* x, int begin, int end, S* lin, S* ang) {
  using V3 = Vec3Of<S>;
  for (int b = begin; b < end; ++b) {
    V3 sum_lin = V3::Zero(), sum_ang = V3::Zero();
    for (int k = a.incidence_begin[b]; k < a.incidence_begin[b + 1]; ++k) {
      const S xi = x[a.incidence_row[k]];
      sum_lin += xi * Eigen::Map<const V3>(a.incidence_lin.data() + 3 * k);
      sum_ang += xi * Eigen::Map<const V3>(a.incidence_ang.data() + 3 * k);
    }
    Eigen::Map<V3>(lin + 3 * b) = sum_lin;
    Eigen::Map<V3>(ang + 3 * b) = sum_ang;
  }
}

/// out = H⁻¹ in for every block. Particles do not rotate (zero inverse inertia): their angular
/// parts are zero, without the 3×3 product (a soft ball's 1760 nodes made it 2 % of the step).
template <class S>
void ApplyInverseH(const SchurArrays<S>& a, const S* lin, const S* ang, S* out_lin, S* out_ang) {
  using V3 = Vec3Of<S>;
  const auto linear = [&](int k) {
    Eigen::Map<V3>(out_lin + 3 * k) = Eigen::Map<const V3>(a.inv_mass.data() + 3 * k)
                                          .cwiseProduct(Eigen::Map<const V3>(lin + 3 * k));
  };
  for (int k = 0; k < a.body_count; ++k) {
    linear(k);
    Eigen::Map<V3>(out_ang + 3 * k) = Eigen::Map<const Mat3Of<S>>(a.inv_inertia.data() + 9 * k) *
                                      Eigen::Map<const V3>(ang + 3 * k);
  }
  for (int k = a.body_count; k < a.block_count; ++k) {
    linear(k);
    Eigen::Map<V3>(out_ang + 3 * k).setZero();
  }
}

/// y_i = J_i t + (C_ii + ε) x_i for rows [begin, end), with t = (lin, ang) block vectors.
template <class S>
void ApplyRows(const SchurArrays<S>& a, const S* t_lin, const S* t_ang, const S* x, int begin,
               int end, S* y) {
  using V3 = Vec3Of<S>;
  for (int i = begin; i < end; ++i) {
    S value = 0;
    for (int k = a.row_begin[i]; k < a.row_begin[i + 1]; ++k) {
      const int block = a.end_block[k];
      value += Eigen::Map<const V3>(a.end_lin.data() + 3 * k)
                   .dot(Eigen::Map<const V3>(t_lin + 3 * block)) +
               Eigen::Map<const V3>(a.end_ang.data() + 3 * k)
                   .dot(Eigen::Map<const V3>(t_ang + 3 * block));
    }
    y[i] = value + (a.compliance[i] + a.regularization) * x[i];
  }
}

/// Tet e's U and B (its lane of the groups).
template <class S>
void ElementFrame(const SchurArrays<S>& a, int e, Mat3Of<S>* U, Mat3Of<S>* B) {
  const int lanes = a.element_U.lanes;
  for (int i = 0; i < 9; ++i) {
    (*U)(i % 3, i / 3) = a.element_U.at(e / lanes, i, e % lanes);
    (*B)(i % 3, i / 3) = a.element_B.at(e / lanes, i, e % lanes);
  }
}

/// The nodal forces Jᵀx of one tet's six multipliers `x` (element_rows.h, the products): with
/// X̂ = diag(x0, x1, x2), X̂_01 = x3/√2, X̂_02 = x4/√2, X̂_12 = x5/√2 (shear terms only when
/// `shear`), nodes 1..3 get the columns of U X̂ Bᵀ and node 0 minus their sum.
template <class S>
void ElementNodeForces(const Mat3Of<S>& U, const Mat3Of<S>& B, const S* x, bool shear,
                       Vec3Of<S>* f) {
  const S s = shear ? S(kInvSqrt2) : S(0);
  const S x01 = s * x[3], x02 = s * x[4], x12 = s * x[5];
  const Vec3Of<S> y0 = U.col(0) * x[0] + U.col(1) * x01 + U.col(2) * x02;
  const Vec3Of<S> y1 = U.col(0) * x01 + U.col(1) * x[1] + U.col(2) * x12;
  const Vec3Of<S> y2 = U.col(0) * x02 + U.col(1) * x12 + U.col(2) * x[2];
  for (int a = 1; a < 4; ++a) f[a] = y0 * B(a - 1, 0) + y1 * B(a - 1, 1) + y2 * B(a - 1, 2);
  f[0] = -(f[1] + f[2] + f[3]);
}

/// The six rates J t of one tet at node vectors t_a: T = Uᵀ D_t B with D_t = [t1 − t0, t2 − t0,
/// t3 − t0]; stretch T_ii, shear (T_ij + T_ji)/√2 (zero without shear rows).
template <class S>
void ElementRates(const Mat3Of<S>& U, const Mat3Of<S>& B, const Vec3Of<S>* t, bool shear, S* y) {
  Mat3Of<S> D;
  for (int a = 0; a < 3; ++a) D.col(a) = t[a + 1] - t[0];
  const Mat3Of<S> T = U.transpose() * D * B;
  for (int i = 0; i < 3; ++i) y[i] = T(i, i);
  for (int p = 0; p < 3; ++p) {
    const int i = kPairs[p][0], j = kPairs[p][1];
    y[3 + p] = shear ? S(kInvSqrt2) * (T(i, j) + T(j, i)) : S(0);
  }
}

/// lin += Jᵀx of the element rows (x: the whole vector, element rows at ElementRowIndex).
template <class S>
void AddElementsJt(const SchurArrays<S>& a, const S* x, S* lin) {
  Mat3Of<S> U, B;
  for (int e = 0; e < a.tet_count; ++e) {
    ElementFrame(a, e, &U, &B);
    S xe[kElementRows];
    for (int r = 0; r < kElementRows; ++r) xe[r] = x[a.ElementRowIndex(e, r)];
    Vec3Of<S> f[4];
    ElementNodeForces(U, B, xe, a.shear_rows, f);
    const int lanes = a.element_block.lanes;
    for (int n = 0; n < 4; ++n) {
      Eigen::Map<Vec3Of<S>>(lin + 3 * a.element_block.at(e / lanes, n, e % lanes)) += f[n];
    }
  }
}

/// y = J t + C x + εx on the element rows (t: linear block vectors).
template <class S>
void ApplyElements(const SchurArrays<S>& a, const S* t, const S* x, S* y) {
  Mat3Of<S> U, B;
  const int lanes = a.element_U.lanes;
  for (int e = 0; e < a.tet_count; ++e) {
    const int g = e / lanes, l = e % lanes;
    ElementFrame(a, e, &U, &B);
    Vec3Of<S> te[4];
    for (int n = 0; n < 4; ++n) {
      te[n] = Eigen::Map<const Vec3Of<S>>(t + 3 * a.element_block.at(g, n, l));
    }
    S ye[kElementRows], xe[kElementRows];
    ElementRates(U, B, te, a.shear_rows, ye);
    for (int r = 0; r < kElementRows; ++r) xe[r] = x[a.ElementRowIndex(e, r)];
    // the symmetric stretch block (00 11 22 01 02 12), then the shear diagonal
    constexpr int kStretchEntry[3][3] = {{0, 3, 4}, {3, 1, 5}, {4, 5, 2}};
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) {
        ye[r] += a.element_stretch_compliance.at(g, kStretchEntry[r][c], l) * xe[c];
      }
    }
    for (int p = 0; p < 3; ++p) ye[3 + p] += a.element_shear_compliance.at(g, p, l) * xe[3 + p];
    for (int r = 0; r < kElementRows; ++r) {
      y[a.ElementRowIndex(e, r)] = ye[r] + a.regularization * xe[r];
    }
  }
}

/// y = A x over the whole system, by successive products J (H⁻¹ (Jᵀ x)) + C x + εx; returns xᵀy.
template <class S>
S ApplySchur(const SchurArrays<S>& a, const S* x, S* y, SchurScratch<S>* scratch) {
  const long n3 = 3L * a.block_count;
  for (std::vector<S>* v : {&scratch->lin, &scratch->ang, &scratch->lin2, &scratch->ang2}) {
    v->resize(n3);
  }
  GatherRowsJt(a, x, 0, a.block_count, scratch->lin.data(), scratch->ang.data());
  AddElementsJt(a, x, scratch->lin.data());
  ApplyInverseH(a, scratch->lin.data(), scratch->ang.data(), scratch->lin2.data(),
                scratch->ang2.data());
  ApplyRows(a, scratch->lin2.data(), scratch->ang2.data(), x, 0, a.row_count, y);
  ApplyElements(a, scratch->lin2.data(), x, y);
  S dot = 0;
  for (int i = 0; i < a.size(); ++i) dot += x[i] * y[i];
  return dot;
}


/// PCR's operations (pcr.h) over SchurArrays in scalar type S with the diagonal preconditioner,
/// one plain loop per vector operation: the reference a device backend's kernels follow.
template <class S>
class ArraysPcrOps {
 public:
  using Scalar = S;
  ArraysPcrOps(const SchurArrays<S>& a, const S* b, S* x)
      : a_(a), b_(b), x_(x), n_(a.size()), r_(n_), z_(n_), p_(n_), Ap_(n_), Az_(n_) {}

  S Start() {
    S rz = 0;
    for (long i = 0; i < n_; ++i) {
      x_[i] = 0;
      r_[i] = b_[i];
      p_[i] = z_[i] = r_[i] / a_.diagonal[i];
      rz += r_[i] * z_[i];
    }
    return rz;
  }
  S ApplyDotZ() { return ApplySchur(a_, z_.data(), Az_.data(), &scratch_); }
  S StartDirection() {
    Ap_ = Az_;
    return Curvature();
  }
  void UpdateIterate(S alpha, S* rr, S* rz) {
    *rr = *rz = 0;
    for (long i = 0; i < n_; ++i) {
      x_[i] += alpha * p_[i];
      r_[i] -= alpha * Ap_[i];
      z_[i] -= alpha * Ap_[i] / a_.diagonal[i];
      *rr += r_[i] * r_[i];
      *rz += r_[i] * z_[i];
    }
  }
  S UpdateDirection(S beta) {
    for (long i = 0; i < n_; ++i) {
      p_[i] = z_[i] + beta * p_[i];
      Ap_[i] = Az_[i] + beta * Ap_[i];
    }
    return Curvature();
  }

 private:
  S Curvature() const {
    S sum = 0;
    for (long i = 0; i < n_; ++i) sum += Ap_[i] * Ap_[i] / a_.diagonal[i];
    return sum;
  }
  const SchurArrays<S>& a_;
  const S* b_;
  S* x_;
  long n_;
  std::vector<S> r_, z_, p_, Ap_, Az_;
  SchurScratch<S> scratch_;
};


template <class S>
template <class From>
SchurArrayCopy<S>::SchurArrayCopy(const SchurArrays<From>& from, int lanes) {
  SchurArrays<S>& a = arrays_;
  const auto copy_ints = [&](std::span<const int> span) {
    return std::span<const int>(ints_.emplace_back(span.begin(), span.end()));
  };
  const auto copy_scalars = [&](std::span<const From> span) {
    return std::span<const S>(scalars_.emplace_back(span.begin(), span.end()));
  };
  a.block_count = from.block_count;
  a.body_count = from.body_count;
  a.inv_mass = copy_scalars(from.inv_mass);
  a.inv_inertia = copy_scalars(from.inv_inertia);
  a.row_count = from.row_count;
  a.row_begin = copy_ints(from.row_begin);
  a.end_block = copy_ints(from.end_block);
  a.end_lin = copy_scalars(from.end_lin);
  a.end_ang = copy_scalars(from.end_ang);
  a.incidence_begin = copy_ints(from.incidence_begin);
  a.incidence_row = copy_ints(from.incidence_row);
  a.incidence_lin = copy_scalars(from.incidence_lin);
  a.incidence_ang = copy_scalars(from.incidence_ang);
  a.compliance = copy_scalars(from.compliance);
  a.regularization = static_cast<S>(from.regularization);
  a.tet_count = from.tet_count;
  a.shear_rows = from.shear_rows;

  // element groups repacked to `lanes`, group_stride = fields·lanes
  const int groups = (from.tet_count + lanes - 1) / lanes;
  const auto repack = [&](const auto& source, auto* storage) {
    using T = std::remove_const_t<std::remove_reference_t<decltype(storage->front())>>;
    storage->assign(static_cast<long>(groups) * source.fields * lanes, T{});
    for (int e = 0; e < from.tet_count; ++e) {
      for (int f = 0; f < source.fields; ++f) {
        (*storage)[(static_cast<long>(e / lanes) * source.fields + f) * lanes + e % lanes] =
            static_cast<T>(source.at(e / source.lanes, f, e % source.lanes));
      }
    }
    using Element = std::conditional_t<std::is_same_v<T, int>, const int, const S>;
    return LaneArray<Element>{storage->data(), source.fields, lanes,
                              static_cast<long>(source.fields) * lanes};
  };
  a.element_block = repack(from.element_block, &ints_.emplace_back());
  a.element_U = repack(from.element_U, &scalars_.emplace_back());
  a.element_B = repack(from.element_B, &scalars_.emplace_back());
  a.element_stretch_compliance = repack(from.element_stretch_compliance, &scalars_.emplace_back());
  a.element_shear_compliance = repack(from.element_shear_compliance, &scalars_.emplace_back());

  // the diagonal, its element rows renumbered to the new groups
  std::vector<S>& diagonal =
      scalars_.emplace_back(from.diagonal.begin(), from.diagonal.begin() + from.row_count);
  diagonal.resize(a.size());
  for (int e = 0; e < a.tet_count; ++e) {
    for (int r = 0; r < kElementRows; ++r) {
      diagonal[a.ElementRowIndex(e, r)] = static_cast<S>(from.diagonal[from.ElementRowIndex(e, r)]);
    }
  }
  a.diagonal = diagonal;
}

}  // namespace sim::nsn
