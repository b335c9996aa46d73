// What every signed distance field of the engine returns: the distance φ(x) and its gradient ∇φ(x)
// at a point of the field's own frame (digest pd-sdf-robotics.md §2.1: φ < 0 inside, ∇φ points
// towards increasing distance, closest surface point y = x − φ ∇φ).
//
// Grid and analytic fields are different classes with the same non-virtual
// `SdfSample Sample(const Vec3& x) const`, so the chapter-6 kernels (templates over the field type)
// inline the query in their inner loops.
#pragma once

#include "engine/core/math.h"

namespace sim {

struct SdfSample {
  Real distance = 0;              ///< φ(x) [m]; negative inside
  Vec3 gradient = Vec3::UnitZ();  ///< ∇φ(x) [-]; unit for an exact field
};

}  // namespace sim
