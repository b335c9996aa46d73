#include "engine/solvers/nsn/element_rows.h"

// GCC notes that returning a 4-double vector passes it differently with and without AVX
// (-Wpsabi); the helpers that return vectors are inlined into this file's functions, so no call
// crosses that boundary
#pragma GCC diagnostic ignored "-Wpsabi"

#include <algorithm>
#include <cmath>

#include "engine/core/real_lanes.h"
#include "engine/fem/fem_material_lanes.h"
#include "engine/fem/svd3_lanes.h"
#include "engine/fem/tet_elements.h"

namespace sim::nsn {

namespace {

// smallest stiffness of a filtered element Hessian, relative to the rest shear stiffness 2μV_e:
// it bounds the compliance of a direction the energy barely resists to 1000× the rest shear
// compliance, so one Newton step cannot fling a node along it
constexpr Real kHessianFloor = 1e-3;

// Jacobi sweeps of the SVD per evaluation: the guess is the last iteration's V, so one or two
// sweeps reach the tolerance; the bound only matters for a wildly changed element
constexpr int kSvdSweeps = 6;
// their stopping point: an off-diagonal of FᵀF below 1e-8 of its trace leaves the stretches exact
// to round-off where they are distinct (the error is quadratic in it) and within 1e-8 where they
// are not, and the frame within ~1e-8 rad, far below what the inexact Newton solve resolves; the
// default 1e-15 costs one more sweep per tet and evaluation (measured)
constexpr Real kSvdTolerance = 1e-8;

// the pairs (i, j) of the shear rows 3, 4, 5
constexpr int kPairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};

const Real kInvSqrt2 = 1 / std::sqrt(2.0);

// Jᵀx of one tet: with X̂ = diag(x0, x1, x2), X̂_01 = x3/√2, X̂_02 = x4/√2, X̂_12 = x5/√2 (shear
// terms only when `shear`), nodes 1..3 get the columns of U X̂ Bᵀ and node 0 minus their sum
[[gnu::always_inline]] inline void NodeForces(const Mat3& U, const Mat3& B, const Real* x,
                                              bool shear, Vec3* f) {
  const Vec3 u0 = U.col(0), u1 = U.col(1), u2 = U.col(2);
  const auto b = [&](int r, int c) { return B(r, c); };
  const Real x01 = shear ? kInvSqrt2 * x[3] : 0;
  const Real x02 = shear ? kInvSqrt2 * x[4] : 0;
  const Real x12 = shear ? kInvSqrt2 * x[5] : 0;
  // Y = U X̂ by columns
  const Vec3 y0 = u0 * x[0] + u1 * x01 + u2 * x02;
  const Vec3 y1 = u0 * x01 + u1 * x[1] + u2 * x12;
  const Vec3 y2 = u0 * x02 + u1 * x12 + u2 * x[2];
  f[1] = y0 * b(0, 0) + y1 * b(0, 1) + y2 * b(0, 2);
  f[2] = y0 * b(1, 0) + y1 * b(1, 1) + y2 * b(1, 2);
  f[3] = y0 * b(2, 0) + y1 * b(2, 1) + y2 * b(2, 2);
  f[0] = -(f[1] + f[2] + f[3]);
}

// the Schur products run a group of kTetLanes tets as one quad (AVX2) or as two pairs (SSE2,
// NEON) of doubles (engine/core/real_lanes.h; ElementProducts below)
using Pair = RealPair;
using Quad = RealQuad;
static_assert(kTetLanes % kLaneCount<Quad> == 0 && kTetLanes % kLaneCount<Pair> == 0);

// Node (block) vectors as the kernels read and write them: on pairs the solver's own, 3 doubles
// per block; on quads a copy padded to 4 doubles per block (PadNodes), so that a lane's node is
// one 256-bit load or add and the four lanes of a group transpose in registers. Measured on
// sphere1K.msh at 6 × 20 against lane-by-lane scalar loads and read-modify-writes: solve
// 21.6-21.9 → 19.0-19.4 ms, assembly 12.7 → 12.4-12.9 (the copies cost ~2 µs per product)
template <class V>
inline constexpr int kNodeStride = kLaneCount<V> == 4 ? 4 : 3;

// axes[k] = axis k of the node vectors t[block[l]], one lane each
template <class V>
[[gnu::always_inline]] inline void GatherNodes(const Real* t, const int* block, V* axes) {
  if constexpr (kNodeStride<V> == 4) {
    // rows [x y z 0] of the four lanes, transposed
    const V r0 = LoadLanes<V>(t + 4 * block[0]), r1 = LoadLanes<V>(t + 4 * block[1]),
            r2 = LoadLanes<V>(t + 4 * block[2]), r3 = LoadLanes<V>(t + 4 * block[3]);
    const V xz01 = __builtin_shufflevector(r0, r1, 0, 4, 2, 6);
    const V y01 = __builtin_shufflevector(r0, r1, 1, 5, 3, 7);
    const V xz23 = __builtin_shufflevector(r2, r3, 0, 4, 2, 6);
    const V y23 = __builtin_shufflevector(r2, r3, 1, 5, 3, 7);
    axes[0] = __builtin_shufflevector(xz01, xz23, 0, 1, 4, 5);
    axes[1] = __builtin_shufflevector(y01, y23, 0, 1, 4, 5);
    axes[2] = __builtin_shufflevector(xz01, xz23, 2, 3, 6, 7);
  } else {
    for (int k = 0; k < 3; ++k) {
      V axis;
      for (int l = 0; l < kLaneCount<V>; ++l) axis[l] = t[3 * block[l] + k];
      axes[k] = axis;
    }
  }
}

// out[block[l]] += (f[0][l], f[1][l], f[2][l]) for the lanes l < lanes of padded node vectors
// (quads), one lane after the other (the tets of a group may share nodes)
[[gnu::always_inline]] inline void ScatterPaddedNodes(const Quad* f, const int* block, int lanes,
                                                      Real* out) {
  const Quad zero{};
  const Quad xy02 = __builtin_shufflevector(f[0], f[1], 0, 4, 2, 6);  // x0 y0 x2 y2
  const Quad xy13 = __builtin_shufflevector(f[0], f[1], 1, 5, 3, 7);
  const Quad z02 = __builtin_shufflevector(f[2], zero, 0, 4, 2, 6);  // z0 0 z2 0
  const Quad z13 = __builtin_shufflevector(f[2], zero, 1, 5, 3, 7);
  const Quad rows[4] = {__builtin_shufflevector(xy02, z02, 0, 1, 4, 5),
                        __builtin_shufflevector(xy13, z13, 0, 1, 4, 5),
                        __builtin_shufflevector(xy02, z02, 2, 3, 6, 7),
                        __builtin_shufflevector(xy13, z13, 2, 3, 6, 7)};
  for (int l = 0; l < lanes; ++l) {
    Real* node = out + 4 * block[l];
    StoreLanes<Quad>(node, LoadLanes<Quad>(node) + rows[l]);
  }
}

// out[block[l]] += (f[0][l], f[1][l], f[2][l]) for the lanes l < lanes of node vectors in the
// layout of V (kNodeStride), one lane after the other
template <class V>
[[gnu::always_inline]] inline void ScatterNodes(const V* f, const int* block, int lanes,
                                                Real* out) {
  if constexpr (kNodeStride<V> == 4) {
    ScatterPaddedNodes(f, block, lanes, out);
  } else {
    // (x, y) of both lanes by one 2×2 transpose: one vector add per node instead of two scalar
    // ones (measured: 4 % of the solve on pairs)
    const Pair xy[2] = {__builtin_shufflevector(f[0], f[1], 0, 2),
                        __builtin_shufflevector(f[0], f[1], 1, 3)};
    for (int l = 0; l < std::min(kLaneCount<V>, lanes); ++l) {
      Real* node = out + 3 * block[l];
      StoreLanes<Pair>(node, LoadLanes<Pair>(node) + xy[l]);
      node[2] += f[2][l];
    }
  }
}

// the block vectors as flat arrays of 3 doubles
static_assert(sizeof(Vec3) == 3 * sizeof(Real));

}  // namespace


void ElementRows::Begin(const Model& model, int body_count, Real dt, Real time, bool shear_rows) {
  dt_ = dt;
  shear_rows_ = shear_rows;
  const int tets = model.tet_count();
  const int groups = (tets + kTetLanes - 1) / kTetLanes;
  block_.resize(tets);
  groups_.resize(groups);
  group_frame_.resize(groups);
  group_compliance_.resize(groups);
  group_residual_.resize(groups);
  group_material_.resize(groups);
  // lane `slot` of the packed groups: a tet's node blocks, rest data and material, and its SVD
  // guess and rows at the rest frame (V = U = I, B = D_m⁻¹)
  const auto pack = [&](int slot, const std::array<int, 4>& blocks, const TetRest& rest,
                        const FemMaterialParameters& material, Real activation, Real damping) {
    const int l = slot % kTetLanes;
    TetGroup& g = groups_[slot / kTetLanes];
    TetGroupMaterial& m = group_material_[slot / kTetLanes];
    for (int a = 0; a < 4; ++a) g.block[a][l] = blocks[a];
    for (int i = 0; i < 9; ++i) {
      m.rest_inverse[i][l] = g.B[i][l] = rest.inverse(i % 3, i / 3);
      group_frame_[slot / kTetLanes].V[i][l] = g.U[i][l] = i % 4 == 0 ? 1 : 0;
    }
    m.volume[l] = rest.volume;
    m.activation[l] = activation;
    m.damping[l] = damping;
    m.mu[l] = material.mu;
    m.lambda[l] = material.lambda;
    m.c1[l] = material.c1;
    m.d1[l] = material.d1;
    m.alpha[l] = material.alpha;
    m.corotational[l] = material.model == FemMaterialModel::kLinearCorotational ? 1 : 0;
  };
  int t = 0;
  for (const SoftBody& body : model.soft_bodies) {
    const FemMaterialParameters material = SoftBodyMaterial(body);
    const Real scale = ActivationScale(body, time);
    for (int e = 0; e < body.tet_count(); ++e, ++t) {
      for (int k = 0; k < 4; ++k) block_[t][k] = body_count + body.tets[e][k];
      const Real activation = body.tet_activation.empty() ? 0 : scale * body.tet_activation[e];
      // the rest shape with the activation growth, if any
      pack(t, block_[t], GrownTetRest(body, e, scale), material, activation, body.damping);
    }
  }
  // the padding lanes of a shorter last group: copies of the group's first tet, so the lanes of
  // Evaluate stay finite (Evaluate clears their rows)
  for (int slot = tets; slot < groups * kTetLanes; ++slot) {
    const int l = slot % kTetLanes;
    TetGroup& g = groups_.back();
    TetGroupMaterial& m = group_material_.back();
    TetGroupFrame& frame = group_frame_.back();
    for (int a = 0; a < 4; ++a) g.block[a][l] = g.block[a][0];
    for (int i = 0; i < 9; ++i) {
      m.rest_inverse[i][l] = g.B[i][l] = m.rest_inverse[i][0];
      frame.V[i][l] = g.U[i][l] = g.U[i][0];
    }
    for (Real* lanes :
         {m.volume, m.activation, m.damping, m.mu, m.lambda, m.c1, m.d1, m.alpha, m.corotational}) {
      lanes[l] = lanes[0];
    }
  }
  groups_prev_ = groups_;
}


Mat3 ElementRows::LaneMatrix(const Real (&entries)[9][kTetLanes], int e) {
  Mat3 out;
  for (int i = 0; i < 9; ++i) out(i % 3, i / 3) = entries[i][e % kTetLanes];
  return out;
}


Mat3 ElementRows::StretchCompliance(int e) const {
  const TetGroupCompliance& c = group_compliance_[e / kTetLanes];
  const int l = e % kTetLanes;
  Mat3 C;
  C << c.stretch[0][l], c.stretch[3][l], c.stretch[4][l],  //
      c.stretch[3][l], c.stretch[1][l], c.stretch[5][l],   //
      c.stretch[4][l], c.stretch[5][l], c.stretch[2][l];
  return C;
}


Real ElementRows::ShearCompliance(int e, int p) const {
  return group_compliance_[e / kTetLanes].shear[p][e % kTetLanes];
}


std::array<Vec3, 4> ElementRows::RowCoefficients(int e, int r) const {
  // ∂F̂_mn/∂x_a = u_m c_na with c_na = B(a − 1, n), c_n0 = −Σ_a c_na
  const Mat3 U = LaneMatrix(groups_[e / kTetLanes].U, e);
  const Mat3 B = LaneMatrix(groups_[e / kTetLanes].B, e);
  std::array<Vec3, 4> J;
  J[0].setZero();
  for (int a = 1; a < 4; ++a) {
    if (r < 3) {
      J[a] = B(a - 1, r) * U.col(r);
    } else {
      const int i = kPairs[r - 3][0], j = kPairs[r - 3][1];
      J[a] = kInvSqrt2 * (B(a - 1, j) * U.col(i) + B(a - 1, i) * U.col(j));
    }
    J[0] -= J[a];
  }
  return J;
}


void ElementRows::ScatterForces(int e, const TetGroup& group, const Real* x,
                                std::vector<Vec3>* f) const {
  Vec3 forces[4];
  NodeForces(LaneMatrix(group.U, e), LaneMatrix(group.B, e), x, shear_rows_, forces);
  const std::array<int, 4>& block = block_[e];
  for (int a = 0; a < 4; ++a) (*f)[block[a]] += forces[a];
}


// The element kernels for one vector type V: the Schur products (AddJt, MultiplyJ, Apply: the
// inner loop of every PCR iteration), the evaluation, the residual and the rotation stiffness.
// Each group of kTetLanes tets runs as kTetLanes / kLaneCount<V> parts of that many lanes. On
// x86-64 with AVX2 and FMA (checked at run time) they run on quads, compiled for x86-64-v3 by the
// wrappers below, so the binary stays portable; elsewhere on pairs. Measured on sphere1K.msh at 6 ×
// 20 (alternating runs against the former two-tet groups on SSE2 pairs): the quads take 14 % less
// solve time, the pairs 3 % more; the same four-tet code compiled for SSE2 alone took 18 % more
// (its vectors of four spill registers).
struct ElementProducts {
  // tets of group gi in the last (shorter) group, else kTetLanes
  static int GroupLanes(const ElementRows& rows, int gi) {
    return std::min(kTetLanes, rows.tet_count() - gi * kTetLanes);
  }

  // scratch slot `slot` of padded node vectors (kNodeStride 4) for `blocks` blocks, zeroed
  static Real* PaddedZeros(const ElementRows& rows, int slot, std::size_t blocks) {
    rows.padded_nodes_[slot].assign(blocks, ElementRows::PaddedNode{});
    return rows.padded_nodes_[slot].data()->v;
  }
  // out[block] += the padded node vectors `padded` (the scratch a quad kernel summed into)
  static void AddPadded(const Real* padded, std::vector<Vec3>* out) {
    for (std::size_t b = 0; b < out->size(); ++b) {
      (*out)[b] += Vec3(padded[4 * b], padded[4 * b + 1], padded[4 * b + 2]);
    }
  }
  // the block vectors t as padded node vectors in scratch slot `slot`
  static const Real* PadNodes(const ElementRows& rows, int slot, const std::vector<Vec3>& t) {
    std::vector<ElementRows::PaddedNode>& padded = rows.padded_nodes_[slot];
    padded.resize(t.size());
    for (std::size_t b = 0; b < t.size(); ++b) padded[b] = {{t[b].x(), t[b].y(), t[b].z(), 0}};
    return padded.data()->v;
  }

  // the 6 rows applied to node vectors t for lanes [part·W, part·W + W) of group gi (J t):
  // d_a = t_a − t_0 (a = 1..3),
  // w_n = Σ_a d_a B(a, n), T_mn = u_m · w_n; stretch T_ii, shear (T_ij + T_ji)/√2
  template <class V>
  [[gnu::always_inline]] static void Rates(const ElementRows& rows, int gi, int part, const Real* t,
                                           V* y) {
    constexpr int W = kLaneCount<V>;
    const ElementRows::TetGroup& g = rows.groups_[gi];
    const int o = part * W;
    V t0[3], d[3][3];  // d[edge][axis]
    GatherNodes<V>(t, g.block[0] + o, t0);
    for (int a = 0; a < 3; ++a) {
      GatherNodes<V>(t, g.block[a + 1] + o, d[a]);
      for (int k = 0; k < 3; ++k) d[a][k] -= t0[k];
    }
    V w[3][3];  // w[n][axis]
    for (int n = 0; n < 3; ++n) {
      const V b0 = LoadLanes<V>(g.B[3 * n] + o), b1 = LoadLanes<V>(g.B[3 * n + 1] + o),
              b2 = LoadLanes<V>(g.B[3 * n + 2] + o);
      for (int k = 0; k < 3; ++k) w[n][k] = d[0][k] * b0 + d[1][k] * b1 + d[2][k] * b2;
    }
    const auto T = [&](int m, int n) {
      return LoadLanes<V>(g.U[3 * m] + o) * w[n][0] + LoadLanes<V>(g.U[3 * m + 1] + o) * w[n][1] +
             LoadLanes<V>(g.U[3 * m + 2] + o) * w[n][2];
    };
    for (int i = 0; i < 3; ++i) y[i] = T(i, i);
    for (int p = 0; p < 3; ++p) {
      const int i = kPairs[p][0], j = kPairs[p][1];
      y[3 + p] = rows.shear_rows_ ? kInvSqrt2 * (T(i, j) + T(j, i)) : V{};
    }
  }

  // the 6 rows of lanes [part·W, part·W + W) of group gi of an element vector x (zero in padding
  // lanes), and back
  template <class V>
  [[gnu::always_inline]] static void LoadRows(const ElementRows& rows, int gi, int part,
                                              const Real* x, V* xs) {
    constexpr int W = kLaneCount<V>;
    const int lanes = GroupLanes(rows, gi);
    const Real* xg = x + kElementRows * gi * kTetLanes;
    if (lanes == kTetLanes) {
      for (int r = 0; r < kElementRows; ++r) xs[r] = LoadLanes<V>(xg + r * kTetLanes + part * W);
      return;
    }
    // a shorter last group, through a zero-padded copy (element access would keep xs in memory
    // for every group)
    Real padded[kElementRows][kTetLanes] = {};
    for (int r = 0; r < kElementRows; ++r) {
      for (int l = 0; l < lanes; ++l) padded[r][l] = xg[r * lanes + l];
    }
    for (int r = 0; r < kElementRows; ++r) xs[r] = LoadLanes<V>(padded[r] + part * W);
  }
  template <class V>
  [[gnu::always_inline]] static void StoreRows(const ElementRows& rows, int gi, int part,
                                               const V* ys, Real* y) {
    constexpr int W = kLaneCount<V>;
    const int lanes = GroupLanes(rows, gi);
    Real* yg = y + kElementRows * gi * kTetLanes;
    if (lanes == kTetLanes) {
      for (int r = 0; r < kElementRows; ++r) StoreLanes<V>(yg + r * kTetLanes + part * W, ys[r]);
      return;
    }
    Real padded[kElementRows][W];
    for (int r = 0; r < kElementRows; ++r) StoreLanes<V>(padded[r], ys[r]);
    for (int r = 0; r < kElementRows; ++r) {
      for (int l = part * W; l < std::min(lanes, part * W + W); ++l)
        yg[r * lanes + l] = padded[r][l - part * W];
    }
  }

  // lin += Jᵀx: NodeForces for the lanes of each group: X̂ symmetric with the stretch multipliers
  // on the diagonal and shear/√2 off it, Y = U X̂, node a = 1..3 gets Σ_n Y_:n B(a − 1, n), node
  // 0 minus their sum
  template <class V>
  [[gnu::always_inline]] static void AddJt(const ElementRows& rows, const Real* x, Real* out) {
    constexpr int W = kLaneCount<V>;
    const Real shear = rows.shear_rows_ ? kInvSqrt2 : 0;
    for (int gi = 0; gi < static_cast<int>(rows.groups_.size()); ++gi) {
      const ElementRows::TetGroup& g = rows.groups_[gi];
      const int lanes = GroupLanes(rows, gi);
      for (int part = 0; part * W < lanes; ++part) {
        const int o = part * W;
        V xs[kElementRows];
        LoadRows<V>(rows, gi, part, x, xs);
        const V x01 = shear * xs[3], x02 = shear * xs[4], x12 = shear * xs[5];
        const V xh[3][3] = {{xs[0], x01, x02}, {x01, xs[1], x12}, {x02, x12, xs[2]}};
        V Y[3][3];  // Y[n][axis] = (U X̂)(axis, n)
        for (int n = 0; n < 3; ++n) {
          for (int k = 0; k < 3; ++k) {
            Y[n][k] = LoadLanes<V>(g.U[k] + o) * xh[0][n] +
                      LoadLanes<V>(g.U[3 + k] + o) * xh[1][n] +
                      LoadLanes<V>(g.U[6 + k] + o) * xh[2][n];
          }
        }
        V f[4][3];  // [node][axis]
        for (int a = 0; a < 3; ++a) {
          const V b0 = LoadLanes<V>(g.B[a] + o), b1 = LoadLanes<V>(g.B[3 + a] + o),
                  b2 = LoadLanes<V>(g.B[6 + a] + o);
          for (int k = 0; k < 3; ++k) f[a + 1][k] = Y[0][k] * b0 + Y[1][k] * b1 + Y[2][k] * b2;
        }
        for (int k = 0; k < 3; ++k) f[0][k] = -(f[1][k] + f[2][k] + f[3][k]);
        // scatter tet by tet (the tets of a group may share nodes)
        for (int a = 0; a < 4; ++a) ScatterNodes<V>(f[a], g.block[a] + o, lanes - o, out);
      }
    }
  }

  // y = J t
  template <class V>
  [[gnu::always_inline]] static void MultiplyJ(const ElementRows& rows, const Real* t, Real* y) {
    for (int gi = 0; gi < static_cast<int>(rows.groups_.size()); ++gi) {
      for (int part = 0; part * kLaneCount<V> < GroupLanes(rows, gi); ++part) {
        V rates[kElementRows];
        Rates<V>(rows, gi, part, t, rates);
        StoreRows<V>(rows, gi, part, rates, y);
      }
    }
  }

  // y = J t + C x + εx; returns xᵀy per lane
  template <class V>
  [[gnu::always_inline]] static V Apply(const ElementRows& rows, const Real* t, const Real* x,
                                        Real regularization, Real* y) {
    V dot{};
    for (int gi = 0; gi < static_cast<int>(rows.groups_.size()); ++gi) {
      const ElementRows::TetGroupCompliance& c = rows.group_compliance_[gi];
      for (int part = 0; part * kLaneCount<V> < GroupLanes(rows, gi); ++part) {
        const int o = part * kLaneCount<V>;
        V ys[kElementRows], xs[kElementRows];
        Rates<V>(rows, gi, part, t, ys);
        LoadRows<V>(rows, gi, part, x, xs);
        // + C x + εx: the symmetric stretch block, then the shear diagonal
        const V c00 = LoadLanes<V>(c.stretch[0] + o), c11 = LoadLanes<V>(c.stretch[1] + o),
                c22 = LoadLanes<V>(c.stretch[2] + o);
        const V c01 = LoadLanes<V>(c.stretch[3] + o), c02 = LoadLanes<V>(c.stretch[4] + o),
                c12 = LoadLanes<V>(c.stretch[5] + o);
        ys[0] += c00 * xs[0] + c01 * xs[1] + c02 * xs[2];
        ys[1] += c01 * xs[0] + c11 * xs[1] + c12 * xs[2];
        ys[2] += c02 * xs[0] + c12 * xs[1] + c22 * xs[2];
        for (int p = 0; p < 3; ++p) ys[3 + p] += LoadLanes<V>(c.shear[p] + o) * xs[3 + p];
        for (int r = 0; r < kElementRows; ++r) {
          ys[r] += regularization * xs[r];
          dot += xs[r] * ys[r];  // zero in padding lanes (x is)
        }
        StoreRows<V>(rows, gi, part, ys, y);
      }
    }
    return dot;
  }

  // Assemble for the lanes of each group (see ElementRows::Assemble); returns max |E φ| per lane
  template <class V>
  [[gnu::always_inline]] static V Assemble(const ElementRows& rows, const Real* v,
                                           const Real* lambda, const Real* inv_mass,
                                           Real regularization, Real* h, Real* diag) {
    constexpr int W = kLaneCount<V>;
    V error{};
    // error = max(error, |a|), leaving error as it is where a is NaN (as std::max)
    const auto keep_max = [&error](const V& a) {
      const V magnitude = a < 0 ? -a : a;
      error = magnitude > error ? magnitude : error;
    };
    for (int gi = 0; gi < static_cast<int>(rows.groups_.size()); ++gi) {
      const ElementRows::TetGroup& g = rows.groups_[gi];
      const ElementRows::TetGroupCompliance& c = rows.group_compliance_[gi];
      const ElementRows::TetGroupResidual& s = rows.group_residual_[gi];
      const ElementRows::TetGroupMaterial& m = rows.group_material_[gi];
      for (int part = 0; part * W < GroupLanes(rows, gi); ++part) {
        const int o = part * W;
        const auto load = [o](const Real* lanes) { return LoadLanes<V>(lanes + o); };
        V rate[kElementRows], le[kElementRows], he[kElementRows], de[kElementRows];
        Rates<V>(rows, gi, part, v, rate);
        LoadRows<V>(rows, gi, part, lambda, le);
        const V beta = load(m.damping);
        const V dt_beta = rows.dt_ + beta;
        // stretch rows: φ = ∂U/∂s + βH ṡ + λ, h = Eφ/(Δt + β)
        V phi[3];
        for (int i = 0; i < 3; ++i) {
          const V h_rate =
              load(s.H[i]) * rate[0] + load(s.H[3 + i]) * rate[1] + load(s.H[6 + i]) * rate[2];
          phi[i] = load(s.gradient[i]) + beta * h_rate + le[i];
        }
        for (int i = 0; i < 3; ++i) {
          const V e_phi =
              load(s.E[i]) * phi[0] + load(s.E[3 + i]) * phi[1] + load(s.E[6 + i]) * phi[2];
          he[i] = e_phi / dt_beta;
          keep_max(e_phi);
        }
        // shear rows: φ = βk ċ + λ; inactive (sources' 3-row form): J = 0, C = 1/Δt, h = λ, which
        // only decays a stale multiplier (as inactive friction rows, digest §6.6)
        for (int p = 0; p < 3; ++p) {
          if (!rows.shear_rows_) {
            he[3 + p] = le[3 + p];
            continue;
          }
          const V k = load(s.shear_k[p]);
          const V e_phi = (beta * k * rate[3 + p] + le[3 + p]) / k;
          he[3 + p] = e_phi / dt_beta;
          keep_max(e_phi);
        }
        // diag A_rr = Σ_a J_ra · diag(H⁻¹_a) J_ra + C_rr + ε, with the rows' node coefficients
        // J_ra = c_an u_n (stretch n = r) or (c_aj u_i + c_ai u_j)/√2 (shear pair (i, j)), c_an =
        // B(a − 1, n) and c_0n = −Σ_a c_an, through w_mn = u_m · diag(H⁻¹_a) u_n per node
        V u[3][3];  // u[n][axis] = U(axis, n)
        for (int n = 0; n < 3; ++n) {
          for (int k = 0; k < 3; ++k) u[n][k] = load(g.U[3 * n + k]);
        }
        V sum[kElementRows] = {};
        for (int a = 0; a < 4; ++a) {
          V coefficient[3];
          for (int n = 0; n < 3; ++n) {
            coefficient[n] =
                a > 0 ? load(g.B[3 * n + a - 1])
                      : -(load(g.B[3 * n]) + load(g.B[3 * n + 1]) + load(g.B[3 * n + 2]));
          }
          V d[3];
          GatherNodes<V>(inv_mass, g.block[a] + o, d);
          const auto w = [&](int m, int n) {
            return u[m][0] * d[0] * u[n][0] + u[m][1] * d[1] * u[n][1] + u[m][2] * d[2] * u[n][2];
          };
          const V w_diag[3] = {w(0, 0), w(1, 1), w(2, 2)};
          for (int n = 0; n < 3; ++n) sum[n] += coefficient[n] * coefficient[n] * w_diag[n];
          if (!rows.shear_rows_) continue;
          for (int p = 0; p < 3; ++p) {
            const int i = kPairs[p][0], j = kPairs[p][1];
            const V ci = coefficient[i], cj = coefficient[j];
            sum[3 + p] += 0.5 * (cj * cj * w_diag[i] + ci * ci * w_diag[j] + 2 * ci * cj * w(i, j));
          }
        }
        for (int i = 0; i < 3; ++i) de[i] = sum[i] + load(c.stretch[i]) + regularization;
        for (int p = 0; p < 3; ++p) de[3 + p] = sum[3 + p] + load(c.shear[p]) + regularization;
        StoreRows<V>(rows, gi, part, he, h);
        StoreRows<V>(rows, gi, part, de, diag);
      }
    }
    return error;
  }

  // c[block] += Δt² diag(K_rot) for the lanes of each group (ElementRows::AddRotationStiffness)
  template <class V>
  [[gnu::always_inline]] static void RotationStiffness(const ElementRows& rows, const Real* lambda,
                                                       Real dt, Real* out) {
    constexpr int W = kLaneCount<V>;
    constexpr Real kTinyStretchSum = 1e-6;  // s_i + s_j away from 0 (flat or inverted tets)
    for (int gi = 0; gi < static_cast<int>(rows.groups_.size()); ++gi) {
      const ElementRows::TetGroup& g = rows.groups_[gi];
      const ElementRows::TetGroupResidual& h = rows.group_residual_[gi];
      const int lanes = GroupLanes(rows, gi);
      for (int part = 0; part * W < lanes; ++part) {
        const int o = part * W;
        const auto load = [o](const Real* lanes_of) { return LoadLanes<V>(lanes_of + o); };
        V le[kElementRows];
        LoadRows<V>(rows, gi, part, lambda, le);
        V diagonal[4][3] = {};  // [node][axis]
        for (const auto& pair : kPairs) {
          const int i = pair[0], j = pair[1];
          const V sum = load(h.stretch[i]) + load(h.stretch[j]);
          const V b = (le[i] + le[j]) / (sum < kTinyStretchSum ? V{} + kTinyStretchSum : sum);
          V g0[3] = {};
          for (int a = 1; a < 4; ++a) {
            const V bj = kInvSqrt2 * load(g.B[3 * j + a - 1]);
            const V bi = kInvSqrt2 * load(g.B[3 * i + a - 1]);
            for (int k = 0; k < 3; ++k) {
              const V coefficient = bj * load(g.U[3 * i + k]) - bi * load(g.U[3 * j + k]);
              diagonal[a][k] += b * coefficient * coefficient;
              g0[k] -= coefficient;
            }
          }
          for (int k = 0; k < 3; ++k) diagonal[0][k] += b * g0[k] * g0[k];
        }
        for (int a = 0; a < 4; ++a) {
          for (int k = 0; k < 3; ++k) diagonal[a][k] *= dt * dt;
          ScatterNodes<V>(diagonal[a], g.block[a] + o, lanes - o, out);
        }
      }
    }
  }

  // Evaluate for W tets at a time: the SVDs of F = D_s D_m⁻¹ with the last V as the guess
  // (CalcSvd3 semantics, svd3_lanes.h), then the rows' energy derivatives, filtered Hessians,
  // compliance and shear stiffness (fem_material_lanes.h; the scalar CalcProjectedCompliance for
  // a lane whose Hessian needs its eigenvalues filtered), stored into the packed groups, the only
  // copy of the rows. The padding lanes of a shorter last group evaluate copies of the group's
  // first tet (finite), and their rows are cleared at the end. Measured
  // on sphere1K.msh at 6 × 20 (alternating runs): the SVDs side by side took assembly 21.4-22.1
  // ms → 15.0-15.5 on quads (17.8-18.5 on pairs); the materials and the packing side by side,
  // 11.95 → 9.4-9.8 ms; F and the guesses in lanes without per-tet copies, 9.1-10.5 → 7.5-8.05
  template <class V>
  [[gnu::always_inline]] static void Evaluate(ElementRows& rows, const Real* x,
                                              FemComplianceMode mode) {
    constexpr int W = kLaneCount<V>;
    const int tets = rows.tet_count();
    for (int first = 0; first < tets; first += W) {
      const int o = first % kTetLanes;
      ElementRows::TetGroup& g = rows.groups_[first / kTetLanes];
      ElementRows::TetGroupCompliance& c = rows.group_compliance_[first / kTetLanes];
      ElementRows::TetGroupResidual& h = rows.group_residual_[first / kTetLanes];
      const ElementRows::TetGroupMaterial& m = rows.group_material_[first / kTetLanes];
      ElementRows::TetGroupFrame& frame = rows.group_frame_[first / kTetLanes];
      const auto load = [o](const Real* lanes_of) { return LoadLanes<V>(lanes_of + o); };
      const auto store = [o](Real* lanes_of, const V& v) { StoreLanes<V>(lanes_of + o, v); };
      // the SVDs of F = D_s D_m⁻¹ (D_s = [x1 − x0, x2 − x0, x3 − x0]), the last V as the guess
      V x0[3], edge[3][3];  // edge[c][axis]: column c of D_s
      GatherNodes<V>(x, g.block[0] + o, x0);
      for (int a = 0; a < 3; ++a) {
        GatherNodes<V>(x, g.block[a + 1] + o, edge[a]);
        for (int k = 0; k < 3; ++k) edge[a][k] -= x0[k];
      }
      Mat3Lanes<V> F, Vm, U, B;
      for (int r = 0; r < 3; ++r) {
        for (int col = 0; col < 3; ++col) {
          F.m[r][col] = edge[0][r] * load(m.rest_inverse[3 * col]) +
                        edge[1][r] * load(m.rest_inverse[3 * col + 1]) +
                        edge[2][r] * load(m.rest_inverse[3 * col + 2]);
          Vm.m[r][col] = load(frame.V[3 * col + r]);
        }
      }
      V sigma[3];
      CalcSvd3Lanes(F, &Vm, kSvdSweeps, kSvdTolerance, &U, sigma);
      // B = D_m⁻¹ V
      for (int r = 0; r < 3; ++r) {
        for (int col = 0; col < 3; ++col) {
          B.m[r][col] = load(m.rest_inverse[r]) * Vm.m[0][col] +
                        load(m.rest_inverse[3 + r]) * Vm.m[1][col] +
                        load(m.rest_inverse[6 + r]) * Vm.m[2][col];
        }
      }
      // stretch rows: V ∂Ψ/∂s and the filtered V ∂²Ψ/∂s² with its inverse E
      const MaterialLanes<V> material{load(m.mu), load(m.lambda), load(m.c1),
                                      load(m.d1), load(m.alpha),  load(m.corotational)};
      const V volume = load(m.volume), activation = load(m.activation), beta = load(m.damping);
      V gradient[3];
      Mat3Lanes<V> hessian, E, H;
      EvalPrincipalDerivativesLanes(material, sigma, activation, gradient, &hessian);
      for (auto& row : hessian.m) {
        for (V& entry : row) entry *= volume;
      }
      const V floor = kHessianFloor * 2 * material.mu * volume;
      const auto direct = CalcProjectedComplianceLanes(hessian, mode, floor, &E, &H);
      for (int l = 0; l < W; ++l) {
        if (direct[l]) continue;
        Mat3 H_l;
        const Mat3 E_l = CalcProjectedCompliance(hessian.Lane(l), mode, floor[l], &H_l);
        for (int i = 0; i < 3; ++i) {
          for (int j = 0; j < 3; ++j) {
            E.m[i][j][l] = E_l(i, j);
            H.m[i][j][l] = H_l(i, j);
          }
        }
      }
      // C = E/(Δt(Δt + β)) for the Schur products (symmetrized: E inverts a symmetric H up to
      // round-off, and the products keep one triangle)
      const V scale = 1 / (rows.dt_ * (rows.dt_ + beta));
      V C[3][3];
      for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) C[i][j] = (0.5 * scale) * (E.m[i][j] + E.m[j][i]);
      }
      // shear rows: the pair stiffness a, by magnitude (the same absolute-value filter); inactive
      // rows (sources' 3-row form) get C = 1/Δt and no stiffness (see Assemble)
      V shear_k[3], shear_C[3];
      if (rows.shear_rows_) {
        V a[3];
        EvalPairShearLanes(material, sigma, activation, a);
        for (int p = 0; p < 3; ++p) {
          const V k = volume * (a[p] < 0 ? -a[p] : a[p]);
          shear_k[p] = k > floor ? k : floor;
          shear_C[p] = scale * (1 / shear_k[p]);
        }
      } else {
        for (int p = 0; p < 3; ++p) {
          shear_k[p] = V{} + 1;
          shear_C[p] = V{} + 1 / rows.dt_;
        }
      }
      // the packed groups (entry (r, c) at [3c + r]) ...
      for (int i = 0; i < 9; ++i) {
        store(g.U[i], U.m[i % 3][i / 3]);
        store(g.B[i], B.m[i % 3][i / 3]);
        store(h.E[i], E.m[i % 3][i / 3]);
        store(h.H[i], H.m[i % 3][i / 3]);
      }
      const V stretch_c[6] = {C[0][0], C[1][1], C[2][2], C[0][1], C[0][2], C[1][2]};
      for (int i = 0; i < 6; ++i) store(c.stretch[i], stretch_c[i]);
      for (int p = 0; p < 3; ++p) {
        store(c.shear[p], shear_C[p]);
        store(h.gradient[p], volume * gradient[p]);
        store(h.shear_k[p], shear_k[p]);
      }
      for (int i = 0; i < 3; ++i) store(h.stretch[i], sigma[i]);
      for (int i = 0; i < 9; ++i) store(frame.V[i], Vm.m[i % 3][i / 3]);
    }
    // padding lanes of a shorter last group: zero rows, compliance and residual terms (on a valid
    // node, set by Begin), and a unit shear stiffness (Assemble divides by it)
    for (int l = tets % kTetLanes; l > 0 && l < kTetLanes; ++l) {
      ElementRows::TetGroup& g = rows.groups_.back();
      ElementRows::TetGroupCompliance& c = rows.group_compliance_.back();
      ElementRows::TetGroupResidual& h = rows.group_residual_.back();
      for (int i = 0; i < 9; ++i) g.U[i][l] = g.B[i][l] = h.E[i][l] = h.H[i][l] = 0;
      for (int i = 0; i < 6; ++i) c.stretch[i][l] = 0;
      for (int p = 0; p < 3; ++p) {
        c.shear[p][l] = h.gradient[p][l] = h.stretch[p][l] = 0;
        h.shear_k[p][l] = 1;
      }
    }
  }
};

namespace {

// the Quad versions, compiled for x86-64-v3 (not under the sanitizers, which may not expect
// code for a CPU the build did not target), and whether this CPU runs them
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
    !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#define SIM_ELEMENT_QUADS 1
bool force_pairs = false;  // ElementRows::ForcePairsForTesting
bool CpuHasQuads() {
  static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return has && !force_pairs;
}
[[gnu::target("arch=x86-64-v3")]] void AddJtQuads(const ElementRows& rows, const Real* x,
                                                  std::vector<Vec3>* lin) {
  Real* padded = ElementProducts::PaddedZeros(rows, 0, lin->size());
  ElementProducts::AddJt<Quad>(rows, x, padded);
  ElementProducts::AddPadded(padded, lin);
}
[[gnu::target("arch=x86-64-v3")]] void MultiplyJQuads(const ElementRows& rows,
                                                      const std::vector<Vec3>& t, Real* y) {
  ElementProducts::MultiplyJ<Quad>(rows, ElementProducts::PadNodes(rows, 0, t), y);
}
[[gnu::target("arch=x86-64-v3")]] void RotationStiffnessQuads(const ElementRows& rows,
                                                              const Real* lambda, Real dt,
                                                              std::vector<Vec3>* c) {
  Real* padded = ElementProducts::PaddedZeros(rows, 0, c->size());
  ElementProducts::RotationStiffness<Quad>(rows, lambda, dt, padded);
  ElementProducts::AddPadded(padded, c);
}
[[gnu::target("arch=x86-64-v3")]] void EvaluateQuads(ElementRows& rows, const std::vector<Vec3>& x,
                                                     FemComplianceMode mode) {
  ElementProducts::Evaluate<Quad>(rows, ElementProducts::PadNodes(rows, 0, x), mode);
}
[[gnu::target("arch=x86-64-v3")]] Real AssembleQuads(const ElementRows& rows,
                                                     const std::vector<Vec3>& v, const Real* lambda,
                                                     const std::vector<Vec3>& inv_mass,
                                                     Real regularization, Real* h, Real* diag) {
  const Quad error = ElementProducts::Assemble<Quad>(
      rows, ElementProducts::PadNodes(rows, 0, v), lambda,
      ElementProducts::PadNodes(rows, 1, inv_mass), regularization, h, diag);
  return std::max(std::max(error[0], error[1]), std::max(error[2], error[3]));
}
[[gnu::target("arch=x86-64-v3")]] Real ApplyQuads(const ElementRows& rows,
                                                  const std::vector<Vec3>& t, const Real* x,
                                                  Real regularization, Real* y) {
  const Quad dot = ElementProducts::Apply<Quad>(rows, ElementProducts::PadNodes(rows, 0, t), x,
                                                regularization, y);
  return (dot[0] + dot[1]) + (dot[2] + dot[3]);
}
#else
#define SIM_ELEMENT_QUADS 0
#endif

}  // namespace


void ElementRows::Evaluate(const std::vector<Vec3>& x, FemComplianceMode mode) {
  // principal stretches of F = D_s D_m⁻¹ (digest §2.7, the last V as the guess), the rows' energy
  // derivatives, filtered Hessians and compliance (eq. (98)-(100)), kTetLanes or two tets at a
  // time into the packed groups (ElementProducts::Evaluate)
#if SIM_ELEMENT_QUADS
  if (CpuHasQuads()) return EvaluateQuads(*this, x, mode);
#endif
  ElementProducts::Evaluate<Pair>(*this, x.data()->data(), mode);
}


void ElementRows::ForcePairsForTesting(bool pairs) {
#if SIM_ELEMENT_QUADS
  force_pairs = pairs;
#else
  (void)pairs;
#endif
}


void ElementRows::AddJt(const Real* x, std::vector<Vec3>* lin) const {
#if SIM_ELEMENT_QUADS
  if (CpuHasQuads()) return AddJtQuads(*this, x, lin);
#endif
  ElementProducts::AddJt<Pair>(*this, x, lin->data()->data());
}


void ElementRows::MultiplyJ(const std::vector<Vec3>& t, Real* y) const {
#if SIM_ELEMENT_QUADS
  if (CpuHasQuads()) return MultiplyJQuads(*this, t, y);
#endif
  ElementProducts::MultiplyJ<Pair>(*this, t.data()->data(), y);
}


Real ElementRows::Assemble(const std::vector<Vec3>& v, const Real* lambda,
                           const std::vector<Vec3>& inv_mass, Real regularization, Real* h,
                           Real* diag) const {
#if SIM_ELEMENT_QUADS
  if (CpuHasQuads()) {
    return AssembleQuads(*this, v, lambda, inv_mass, regularization, h, diag);
  }
#endif
  const Pair error = ElementProducts::Assemble<Pair>(
      *this, v.data()->data(), lambda, inv_mass.data()->data(), regularization, h, diag);
  return std::max(error[0], error[1]);
}


Real ElementRows::Apply(const std::vector<Vec3>& t, const Real* x, Real regularization,
                        Real* y) const {
#if SIM_ELEMENT_QUADS
  if (CpuHasQuads()) return ApplyQuads(*this, t, x, regularization, y);
#endif
  const Pair dot = ElementProducts::Apply<Pair>(*this, t.data()->data(), x, regularization, y);
  return dot[0] + dot[1];
}


void ElementRows::GaussSeidelSweep(const Real* b, const Real* diag, Real regularization,
                                   const std::vector<Vec3>& inv_mass, std::vector<Vec3>* t,
                                   Real* x) const {
  for (int e = 0; e < tet_count(); ++e) {
    const std::array<int, 4>& block = block_[e];
    const Mat3 stretch_C = StretchCompliance(e);
    for (int r = 0; r < kElementRows; ++r) {
      const bool active = r < 3 || shear_rows_;
      std::array<Vec3, 4> J = {Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), Vec3::Zero()};
      if (active) J = RowCoefficients(e, r);
      Real ax = regularization * x[RowIndex(e, r)];
      for (int a = 0; a < 4; ++a) ax += J[a].dot((*t)[block[a]]);
      if (r < 3) {
        for (int j = 0; j < 3; ++j) ax += stretch_C(r, j) * x[RowIndex(e, j)];
      } else {
        ax += ShearCompliance(e, r - 3) * x[RowIndex(e, r)];
      }
      const int row = RowIndex(e, r);
      const Real delta = (b[row] - ax) / diag[row];
      x[row] += delta;
      for (int a = 0; a < 4; ++a) {
        (*t)[block[a]] += inv_mass[block[a]].cwiseProduct(delta * J[a]);
      }
    }
  }
}


void ElementRows::AppendTriplets(int row_offset, std::vector<Eigen::Triplet<Real>>* j_entries,
                                 std::vector<Eigen::Triplet<Real>>* c_entries) const {
  for (int e = 0; e < tet_count(); ++e) {
    const auto row = [&](int r) { return row_offset + RowIndex(e, r); };
    const Mat3 stretch_C = StretchCompliance(e);
    for (int r = 0; r < kElementRows; ++r) {
      if (r < 3 || shear_rows_) {
        const std::array<Vec3, 4> J = RowCoefficients(e, r);
        for (int a = 0; a < 4; ++a) {
          for (int k = 0; k < 3; ++k)
            j_entries->emplace_back(row(r), 6 * block_[e][a] + k, J[a](k));
        }
      }
      if (r < 3) {
        for (int j = 0; j < 3; ++j) c_entries->emplace_back(row(r), row(j), stretch_C(r, j));
      } else {
        c_entries->emplace_back(row(r), row(r), ShearCompliance(e, r - 3));
      }
    }
  }
}


Eigen::Matrix<Real, kElementRows, 12> ElementRows::TetJacobian(int e) const {
  Eigen::Matrix<Real, kElementRows, 12> J = Eigen::Matrix<Real, kElementRows, 12>::Zero();
  for (int r = 0; r < kElementRows; ++r) {
    if (r >= 3 && !shear_rows_) continue;
    const std::array<Vec3, 4> coefficients = RowCoefficients(e, r);
    for (int a = 0; a < 4; ++a) J.block<1, 3>(r, 3 * a) = coefficients[a].transpose();
  }
  return J;
}


Eigen::Matrix<Real, kElementRows, kElementRows> ElementRows::TetCompliance(
    int e, Real regularization) const {
  Eigen::Matrix<Real, kElementRows, kElementRows> C =
      regularization * Eigen::Matrix<Real, kElementRows, kElementRows>::Identity();
  C.topLeftCorner<3, 3>() += StretchCompliance(e);
  for (int p = 0; p < 3; ++p) C(3 + p, 3 + p) += ShearCompliance(e, p);
  return C;
}


void ElementRows::KeepRows() { groups_prev_ = groups_; }


void ElementRows::AddSecantForce(const Real* lambda, Real dt, std::vector<Vec3>* f) const {
  // Δt (J(qⁿ⁺¹) − J(qⁿ))ᵀ λ: the forces of the same multipliers through the new and old rows
  Real scaled[kElementRows];
  Real negated[kElementRows];
  for (int e = 0; e < tet_count(); ++e) {
    bool any = false;
    for (int r = 0; r < kElementRows; ++r) {
      const Real le = lambda[RowIndex(e, r)];
      scaled[r] = dt * le;
      negated[r] = -scaled[r];
      any |= le != 0;
    }
    if (!any) continue;
    ScatterForces(e, groups_[e / kTetLanes], scaled, f);
    ScatterForces(e, groups_prev_[e / kTetLanes], negated, f);
  }
}

void ElementRows::AddRotationStiffness(const Real* lambda, Real dt, std::vector<Vec3>* c) const {
  // per pair (i, j): b_λ = (λ_i + λ_j)/(s_i + s_j) on the mode m = (F̂_ij − F̂_ji)/√2, whose
  // coefficients on node a = 1..3 are g_a = (B(a − 1, j) u_i − B(a − 1, i) u_j)/√2 and on node 0
  // minus their sum, on the lanes of the products (ElementProducts::RotationStiffness)
#if SIM_ELEMENT_QUADS
  if (CpuHasQuads()) return RotationStiffnessQuads(*this, lambda, dt, c);
#endif
  ElementProducts::RotationStiffness<Pair>(*this, lambda, dt, c->data()->data());
}

}  // namespace sim::nsn
