// Two doubles as one GCC/Clang vector (one SSE2 register): the SIMD unit of a hot loop the
// compiler leaves scalar (the PCR vector passes of nsn/linear_solvers.cpp), with unaligned loads
// and stores through memcpy (one movupd each). The FEM element products use groups of four
// (nsn/element_rows.h).
#pragma once

#include <cstring>

#include "engine/core/math.h"

namespace sim {

using RealPair = Real __attribute__((vector_size(2 * sizeof(Real))));

inline RealPair LoadPair(const Real* p) {
  RealPair v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

inline void StorePair(Real* p, const RealPair& v) { std::memcpy(p, &v, sizeof v); }

}  // namespace sim
