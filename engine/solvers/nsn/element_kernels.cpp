// The choice of the element kernels (element_kernels.h), made once per process: the quads where
// CMakeLists.txt builds them (SIM_ELEMENT_QUADS: x86-64, GCC or Clang, no sanitizer) and the CPU
// has AVX2 and FMA, else the pairs.
#include "engine/solvers/nsn/element_kernels.h"

namespace sim::nsn {

const ElementKernels& PairElementKernels() { return kPairElementKernels; }


const ElementKernels* QuadElementKernels() {
#ifdef SIM_ELEMENT_QUADS
  // the CPU's features, read once (the quads' file is compiled for x86-64-v3)
  static const bool cpu_runs_quads =
      __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return cpu_runs_quads ? &kQuadElementKernels : nullptr;
#else
  return nullptr;
#endif
}


const ElementKernels& CpuElementKernels() {
  // the table of this CPU, chosen at the first call
  static const ElementKernels& kernels =
      QuadElementKernels() != nullptr ? *QuadElementKernels() : PairElementKernels();
  return kernels;
}

}  // namespace sim::nsn
