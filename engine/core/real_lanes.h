// Two or four doubles as one GCC/Clang vector (an SSE2/NEON register, or an AVX one where the code
// is compiled for it): the SIMD unit of the hot loops the compiler leaves scalar (the PCR vector
// passes of nsn/linear_solvers.cpp, the FEM element products and SVDs of nsn/element_rows.cpp and
// fem/svd3_lanes.h), with unaligned loads and stores through memcpy (one move each).
#pragma once

#include <cstring>

#include "engine/core/math.h"

namespace sim {

using RealPair = Real __attribute__((vector_size(2 * sizeof(Real))));
using RealQuad = Real __attribute__((vector_size(4 * sizeof(Real))));

/// Numbers in one vector of type V.
template <class V>
inline constexpr int kLaneCount = sizeof(V) / sizeof(Real);

template <class V>
[[gnu::always_inline]] inline V LoadLanes(const Real* p) {
  V v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <class V>
[[gnu::always_inline]] inline void StoreLanes(Real* p, const V& v) {
  std::memcpy(p, &v, sizeof v);
}

}  // namespace sim
