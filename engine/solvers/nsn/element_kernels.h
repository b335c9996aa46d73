// The SIMD kernels of the FEM element rows (element_rows.h) as one table of function pointers per
// vector width, chosen once per process (element_kernels.cpp):
//   pairs  two doubles per vector (SSE2 on x86-64, NEON on ARM): element_kernels_sse2.cpp,
//          compiled for the build's baseline CPU, so it runs everywhere
//   quads  four doubles per vector (AVX2 + FMA): element_kernels_avx2.cpp, the one file compiled
//          for x86-64-v3 (CMakeLists.txt; x86-64 only, not under the sanitizers), run only where
//          the CPU has both
// Both tables run the same width-templated bodies (element_physics_lanes.h), so the physics is
// written once; this header is what ElementRows and the tests see of them.
#pragma once

#include <numbers>
#include <vector>

#include "engine/core/math.h"
#include "engine/fem/fem_material.h"

namespace sim::nsn {

class ElementRows;

/// The element kernels of one vector width: each entry is the ElementRows member of the same name
/// (element_rows.h) for all tets of `rows`.
struct ElementKernels {
  const char* name;  // "pairs" or "quads" (test messages)
  void (*evaluate)(ElementRows& rows, const std::vector<Vec3>& x, FemComplianceMode mode);
  Real (*assemble)(const ElementRows& rows, const std::vector<Vec3>& v, const Real* lambda,
                   const std::vector<Vec3>& inv_mass, Real regularization, Real* h, Real* diag);
  Real (*apply)(const ElementRows& rows, const std::vector<Vec3>& t, const Real* x,
                Real regularization, Real* y);
  void (*add_jt)(const ElementRows& rows, const Real* x, std::vector<Vec3>* lin);
  void (*multiply_j)(const ElementRows& rows, const std::vector<Vec3>& t, Real* y);
  void (*add_rotation_stiffness)(const ElementRows& rows, const Real* lambda, Real dt,
                                 std::vector<Vec3>* c);
};

/// The pairs table (every CPU).
const ElementKernels& PairElementKernels();
/// The quads table where it is built and this CPU runs it (AVX2 and FMA), else nullptr.
const ElementKernels* QuadElementKernels();
/// The table of this CPU, chosen at the first call: quads where QuadElementKernels has them, else
/// pairs.
const ElementKernels& CpuElementKernels();

// the two tables, defined by element_kernels_sse2.cpp and element_kernels_avx2.cpp (the latter only
// where CMakeLists.txt builds it); constant-initialized, so no code of theirs runs at load
extern const ElementKernels kPairElementKernels;
extern const ElementKernels kQuadElementKernels;

// the pairs (i, j) of the shear rows 3, 4, 5 (the scalar paths and the kernels)
inline constexpr int kPairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};

// 1/√2 of the shear rows, as 1 / std::sqrt(2.0) rounds it (a constant, so the x86-64-v3 file runs
// no initializer of it at load)
inline constexpr Real kInvSqrt2 = 1 / std::numbers::sqrt2;

}  // namespace sim::nsn
