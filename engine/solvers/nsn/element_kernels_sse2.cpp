// The element kernels on pairs of doubles (element_kernels.h): two lanes per vector, SSE2 on
// x86-64 and NEON on ARM, compiled for the build's baseline CPU like the rest of the engine, so
// this table runs on every CPU (the fallback of element_kernels.cpp).
#include "engine/solvers/nsn/element_physics_lanes.h"

namespace sim::nsn {

// the width-templated kernels (element_physics_lanes.h) on RealPair
constinit const ElementKernels kPairElementKernels =
    element_lanes::MakeElementKernels<RealPair>("pairs");

}  // namespace sim::nsn
