// Zero isosurface of a signed distance field as a triangle mesh, by naive surface nets (Gibson
// 1998, "Constrained elastic surface nets"; the dual method of Frisken's surface nets as used in
// dual contouring without Hermite data):
//   1. sample φ at the nodes of a regular grid of spacing h that encloses the surface;
//   2. in every cell whose 8 corners change sign, place one vertex at the mean of the edge
//      crossings x = a + φ(a)/(φ(a) − φ(b))·(b − a), then project it onto the surface with
//      Newton steps on the exact field, x ← x − φ(x)∇φ(x) (kept only while it stays near its
//      cell);
//   3. for every grid edge that changes sign, join the vertices of its four cells into a quad
//      (two triangles), wound so that the normal points from φ < 0 to φ > 0 (outward).
// Vertex normals are ∇φ/|∇φ| at the vertex. A closed surface inside the grid gives a closed,
// outward-oriented mesh; a surface cut by the grid boundary (an unbounded field) gives an open one.
#pragma once

#include <functional>
#include <memory>

#include "engine/core/math.h"
#include "engine/geometry/analytic_sdf.h"
#include "engine/geometry/sdf.h"
#include "engine/geometry/triangle_mesh.h"
#include "engine/geometry/visual_mesh.h"

namespace sim {

/// Triangles and per-vertex unit normals of a field's zero isosurface.
struct Isosurface {
  TriangleMesh mesh;          ///< counter-clockwise from outside (φ > 0)
  std::vector<Vec3> normals;  ///< ∇φ/|∇φ| per vertex
};

/// Zero isosurface of `field` (φ and ∇φ at a point) over the box [lower, upper] [m], with cubic
/// cells of about (longest side)/`cells` (cells in [4, 512]). The box should enclose the surface
/// with a margin of a cell; where it does not, the mesh is open along the box.
Isosurface ExtractIsosurface(const std::function<SdfSample(const Vec3&)>& field, const Vec3& lower,
                             const Vec3& upper, int cells);

/// Bounding box of an analytic field's solid (φ ≤ 0), from its primitives' boxes combined by the
/// tree's operators (union: merge, intersection: overlap, difference: the first operand, smooth
/// union: merge grown by k). Returns false when the solid is unbounded (a half-space not cut off
/// by an intersection); `lower`/`upper` then hold ±infinity on the unbounded axes.
bool AnalyticSdfBounds(const AnalyticSdf& field, Vec3* lower, Vec3* upper);

/// Extent [m] an unbounded field's surface is drawn to on each open axis, measured from the
/// finite side (or ± half of it about the origin when both sides are open).
inline constexpr Real kUnboundedDrawExtent = 2.0;

/// The drawn surface of an analytic field (shape frame): its isosurface over its bounds grown by
/// two cells, with `cells` cells along the longest side. Unbounded axes are clipped to
/// kUnboundedDrawExtent. One part in the default grey.
std::shared_ptr<VisualMesh> BuildSdfVisualMesh(const AnalyticSdf& field, int cells = 64);

}  // namespace sim
