// The element kernels on quads of doubles (element_kernels.h): a group of four tets in one AVX2
// register. The one file compiled for x86-64-v3 (CMakeLists.txt), so nothing here may run before
// element_kernels.cpp has found AVX2 and FMA on the CPU: the table is constant-initialized and
// only reached through QuadElementKernels.
#include "engine/solvers/nsn/element_physics_lanes.h"

namespace sim::nsn {

// the width-templated kernels (element_physics_lanes.h) on RealQuad
constinit const ElementKernels kQuadElementKernels =
    element_lanes::MakeElementKernels<RealQuad>("quads");

}  // namespace sim::nsn
