// Closest point on a triangle to a point (Ericson, "Real-Time Collision Detection", 2005, §5.1.5,
// ClosestPtPointTriangle): Voronoi-region tests on the vertices, then the edges, then the face.
// Header-only so the BVH, the SDF builder and the narrow phase inline it.
#pragma once

#include "engine/core/math.h"

namespace sim {

/// Closest point of triangle (a, b, c) to p [m]. Writes the barycentric coordinates (u, v, w) of
/// the result (result = u a + v b + w c, u + v + w = 1, all ≥ 0) to `barycentric` when not null.
/// Exact vertex/edge regions give exact zeros, so callers can classify the feature. Degenerate
/// triangles are handled (the result is still a point of the triangle's convex hull).
inline Vec3 ClosestPointOnTriangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c,
                                   Vec3* barycentric = nullptr) {
  auto set = [barycentric](Real u, Real v, Real w) {
    if (barycentric != nullptr) *barycentric = Vec3(u, v, w);
  };
  // vertex region a
  const Vec3 ab = b - a;
  const Vec3 ac = c - a;
  const Vec3 ap = p - a;
  const Real d1 = ab.dot(ap);
  const Real d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) {
    set(1, 0, 0);
    return a;
  }
  // vertex region b
  const Vec3 bp = p - b;
  const Real d3 = ab.dot(bp);
  const Real d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) {
    set(0, 1, 0);
    return b;
  }
  // edge region ab
  const Real vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const Real v = d1 / (d1 - d3);
    set(1 - v, v, 0);
    return a + v * ab;
  }
  // vertex region c
  const Vec3 cp = p - c;
  const Real d5 = ab.dot(cp);
  const Real d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) {
    set(0, 0, 1);
    return c;
  }
  // edge region ac
  const Real vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const Real w = d2 / (d2 - d6);
    set(1 - w, 0, w);
    return a + w * ac;
  }
  // edge region bc
  const Real va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
    const Real w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    set(0, 1 - w, w);
    return b + w * (c - b);
  }
  // face region; a zero denominator only for a degenerate triangle, which the tests above catch
  const Real denom = va + vb + vc;
  if (!(denom > 0)) {
    set(1, 0, 0);
    return a;
  }
  const Real v = vb / denom;
  const Real w = vc / denom;
  set(1 - v - w, v, w);
  return a + ab * v + ac * w;
}

}  // namespace sim
