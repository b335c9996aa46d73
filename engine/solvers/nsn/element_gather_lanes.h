// The SIMD plumbing of the element kernels (element_physics_lanes.h), for a vector type V of two
// or four doubles (engine/core/real_lanes.h): node vectors gathered into lanes and scattered back,
// element vectors loaded and stored by group (the row layout of element_rows.h), the padded node
// copies the quads read and write, and the lanes' sums and maxima. Internal to the per-width
// kernel files (element_kernels_sse2.cpp, element_kernels_avx2.cpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "engine/core/math.h"
#include "engine/core/real_lanes.h"
#include "engine/solvers/nsn/element_rows.h"

namespace sim::nsn::element_lanes {

// the block vectors as flat arrays of 3 doubles
static_assert(sizeof(Vec3) == 3 * sizeof(Real));

// Node (block) vectors as the kernels read and write them: on pairs the solver's own, 3 doubles
// per block; on quads a copy padded to 4 doubles per block (NodesIn, NodesOut), so that a lane's
// node is one 256-bit load or add and the four lanes of a group transpose in registers. Measured
// on sphere1K.msh at 6 × 20 against lane-by-lane scalar loads and read-modify-writes: solve
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
template <class V>
[[gnu::always_inline]] inline void ScatterPaddedNodes(const V* f, const int* block, int lanes,
                                                      Real* out) {
  static_assert(kLaneCount<V> == 4);
  const V zero{};
  const V xy02 = __builtin_shufflevector(f[0], f[1], 0, 4, 2, 6);  // x0 y0 x2 y2
  const V xy13 = __builtin_shufflevector(f[0], f[1], 1, 5, 3, 7);
  const V z02 = __builtin_shufflevector(f[2], zero, 0, 4, 2, 6);  // z0 0 z2 0
  const V z13 = __builtin_shufflevector(f[2], zero, 1, 5, 3, 7);
  const V rows[4] = {__builtin_shufflevector(xy02, z02, 0, 1, 4, 5),
                     __builtin_shufflevector(xy13, z13, 0, 1, 4, 5),
                     __builtin_shufflevector(xy02, z02, 2, 3, 6, 7),
                     __builtin_shufflevector(xy13, z13, 2, 3, 6, 7)};
  for (int l = 0; l < lanes; ++l) {
    Real* node = out + 4 * block[l];
    StoreLanes<V>(node, LoadLanes<V>(node) + rows[l]);
  }
}

// out[block[l]] += (f[0][l], f[1][l], f[2][l]) for the lanes l < lanes of node vectors in the
// layout of V (kNodeStride), one lane after the other
template <class V>
[[gnu::always_inline]] inline void ScatterNodes(const V* f, const int* block, int lanes,
                                                Real* out) {
  if constexpr (kNodeStride<V> == 4) {
    ScatterPaddedNodes<V>(f, block, lanes, out);
  } else {
    // (x, y) of both lanes by one 2×2 transpose: one vector add per node instead of two scalar
    // ones (measured: 4 % of the solve on pairs)
    const RealPair xy[2] = {__builtin_shufflevector(f[0], f[1], 0, 2),
                            __builtin_shufflevector(f[0], f[1], 1, 3)};
    for (int l = 0; l < std::min(kLaneCount<V>, lanes); ++l) {
      Real* node = out + 3 * block[l];
      StoreLanes<RealPair>(node, LoadLanes<RealPair>(node) + xy[l]);
      node[2] += f[2][l];
    }
  }
}

// the 6 rows of lanes [part·W, part·W + W) of group gi (of `lanes` tets) of an element vector x
// (zero in padding lanes)
template <class V>
[[gnu::always_inline]] inline void LoadRows(const Real* x, int gi, int lanes, int part, V* xs) {
  constexpr int W = kLaneCount<V>;
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

// and back: the rows ys of those lanes into y (the padding lanes dropped)
template <class V>
[[gnu::always_inline]] inline void StoreRows(const V* ys, int gi, int lanes, int part, Real* y) {
  constexpr int W = kLaneCount<V>;
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

// the block vectors t as the kernels of V read them: t itself (pairs) or its padded copy in
// `scratch` (quads; Node is ElementRows' padded node of 4 doubles)
template <class V, class Node>
const Real* NodesIn(const std::vector<Vec3>& t, std::vector<Node>* scratch) {
  if constexpr (kNodeStride<V> == 3) {
    return t.data()->data();
  } else {
    scratch->resize(t.size());
    for (std::size_t b = 0; b < t.size(); ++b) (*scratch)[b] = {{t[b].x(), t[b].y(), t[b].z(), 0}};
    return scratch->data()->v;
  }
}

// where the kernels of V add node vectors for `out`: out itself (pairs) or `scratch` zeroed in
// the padded layout (quads), which AddNodesOut then adds to out
template <class V, class Node>
Real* NodesOut(std::vector<Vec3>* out, std::vector<Node>* scratch) {
  if constexpr (kNodeStride<V> == 3) {
    return out->data()->data();
  } else {
    scratch->assign(out->size(), Node{});
    return scratch->data()->v;
  }
}
template <class V>
void AddNodesOut(const Real* nodes, std::vector<Vec3>* out) {
  if constexpr (kNodeStride<V> == 4) {
    for (std::size_t b = 0; b < out->size(); ++b) {
      (*out)[b] += Vec3(nodes[4 * b], nodes[4 * b + 1], nodes[4 * b + 2]);
    }
  }
}

// the largest and the sum of the lanes, in pairs first (the order of the results is fixed per
// width)
template <class V>
Real MaxOfLanes(const V& v) {
  if constexpr (kLaneCount<V> == 4) {
    return std::max(std::max(v[0], v[1]), std::max(v[2], v[3]));
  } else {
    return std::max(v[0], v[1]);
  }
}
template <class V>
Real SumOfLanes(const V& v) {
  if constexpr (kLaneCount<V> == 4) {
    return (v[0] + v[1]) + (v[2] + v[3]);
  } else {
    return v[0] + v[1];
  }
}

}  // namespace sim::nsn::element_lanes
