// Convex hull with qhull's reentrant C library (Barber, Dobkin & Huhdanpaa 1996, "The Quickhull
// algorithm for convex hulls"). Option "C-0" pre-merges facets that are coplanar within roundoff,
// so planar faces come out as single polygons (a box's hull has 6 quads); the triangulated "Qt"
// output is deliberately not used. Mass properties by the divergence theorem, summed over the
// tetrahedra spanned by a reference point and the fan triangles of each face (Tonon 2004,
// "Explicit exact formulas for the 3-D tetrahedron inertia tensor in terms of its vertex
// coordinates": ∫_T x xᵀ dV = V/20 (Σ v_i v_iᵀ + s sᵀ), s = Σ v_i).
#include "engine/geometry/convex_hull.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include <Eigen/SVD>

extern "C" {
#include <libqhull_r/qhull_ra.h>
}

namespace sim {
namespace {

// relative smallest singular value of the centred points below which the set is flat: a few
// hundred ulps of the point spread, far below any meaningful collision shape thickness
constexpr Real kFlatRatio = 1e-10;

// brute force beats hill climbing on small hulls (fewer cache misses, no branches on neighbours)
constexpr int kBruteForceSupportBelow = 32;


std::string HullLabel(const std::string& name) { return "convex hull '" + name + "'"; }


// reports a zero-volume error (flat or collinear point set)
void ReportZeroVolume(const std::string& name, const std::string& detail,
                      Diagnostics* diagnostics) {
  diagnostics->Error(
      name, 0, "",
      HullLabel(name) + " has zero volume (" + detail + "; expected points spanning 3 dimensions)");
}


// true when the centred points span fewer than 3 dimensions
bool IsFlat(const std::vector<Vec3>& points, Real* thickness_ratio) {
  Vec3 mean = Vec3::Zero();
  for (const Vec3& p : points) mean += p;
  mean /= static_cast<Real>(points.size());
  Mat3 covariance = Mat3::Zero();
  for (const Vec3& p : points) covariance += (p - mean) * (p - mean).transpose();
  const Eigen::JacobiSVD<Mat3> svd(covariance);
  const Vec3 sigma = svd.singularValues().cwiseMax(0.0).cwiseSqrt();
  *thickness_ratio = sigma[0] > 0 ? sigma[2] / sigma[0] : 0;
  return !(sigma[2] > kFlatRatio * sigma[0]);
}

}  // namespace


int ConvexHull::Support(const Vec3& direction) const {
  const int n = static_cast<int>(vertices.size());
  if (n == 0) return -1;
  // small hulls: brute force
  if (n < kBruteForceSupportBelow || vertex_neighbors.size() != vertices.size()) {
    int best = 0;
    Real best_dot = vertices[0].dot(direction);
    for (int v = 1; v < n; ++v) {
      const Real d = vertices[v].dot(direction);
      if (d > best_dot) {
        best_dot = d;
        best = v;
      }
    }
    return best;
  }
  // hill climbing over the edge graph: a local maximum of a linear function on a convex
  // polytope is global; strict improvement guarantees termination
  int best = 0;
  Real best_dot = vertices[0].dot(direction);
  for (bool improved = true; improved;) {
    improved = false;
    for (int w : vertex_neighbors[best]) {
      const Real d = vertices[w].dot(direction);
      if (d > best_dot) {
        best_dot = d;
        best = w;
        improved = true;
      }
    }
  }
  return best;
}


TriangleMesh ConvexHull::AsTriangleMesh() const {
  TriangleMesh mesh;
  mesh.name = name;
  mesh.vertices = vertices;
  // fan from each face's first vertex keeps the counter-clockwise winding
  for (const Face& face : faces) {
    for (int i = 1; i + 1 < face.count; ++i) {
      mesh.triangles.push_back({face_vertices[face.first], face_vertices[face.first + i],
                                face_vertices[face.first + i + 1]});
    }
  }
  return mesh;
}


std::shared_ptr<const ConvexHull> BuildConvexHull(const std::vector<Vec3>& points,
                                                  const std::string& name,
                                                  Diagnostics* diagnostics) {
  const std::string label = HullLabel(name);
  // reject what qhull cannot take: too few, non-finite or flat points
  if (points.size() < 4) {
    diagnostics->Error(name, 0, "",
                       label + " has " + std::to_string(points.size()) +
                           " points (expected at least 4 spanning a volume; zero volume)");
    return nullptr;
  }
  for (size_t i = 0; i < points.size(); ++i) {
    if (!points[i].allFinite()) {
      diagnostics->Error(name, 0, "",
                         label + ": point " + std::to_string(i) + " is not finite (" +
                             std::to_string(points[i].x()) + ", " + std::to_string(points[i].y()) +
                             ", " + std::to_string(points[i].z()) + ")");
      return nullptr;
    }
  }
  Real thickness_ratio = 0;
  if (IsFlat(points, &thickness_ratio)) {
    ReportZeroVolume(name, "the points are coplanar or collinear", diagnostics);
    return nullptr;
  }

  // run qhull; its messages go to a memory stream so a failure can be quoted, never printed
  std::vector<coordT> coordinates(3 * points.size());
  for (size_t i = 0; i < points.size(); ++i) {
    for (int a = 0; a < 3; ++a) coordinates[3 * i + a] = points[i][a];
  }
  char* error_text = nullptr;
  size_t error_size = 0;
  FILE* error_file = open_memstream(&error_text, &error_size);
  qhT qh_storage;
  qhT* qh = &qh_storage;
  qh_zero(qh, error_file);
  char options[] = "qhull C-0";
  const int exit_code = qh_new_qhull(qh, 3, static_cast<int>(points.size()), coordinates.data(),
                                     False, options, nullptr, error_file);

  auto hull = std::make_shared<ConvexHull>();
  hull->name = name;
  if (exit_code == 0) {
    // hull vertices, numbered in input order for determinism
    std::map<int, int> point_to_vertex;
    vertexT* vertex;
    FORALLvertices { point_to_vertex[qh_pointid(qh, vertex->point)] = 0; }
    for (auto& [point, index] : point_to_vertex) {
      index = static_cast<int>(hull->vertices.size());
      hull->vertices.push_back(points[point]);
    }

    // faces: qhull's merged facets, loops ordered by qh_facet3vertex, flipped to be CCW outside
    facetT* facet;
    FORALLfacets {
      const Vec3 normal(facet->normal[0], facet->normal[1], facet->normal[2]);
      setT* loop_set = qh_facet3vertex(qh, facet);
      std::vector<int> loop;
      vertexT** vertexp;
      FOREACHvertex_(loop_set) { loop.push_back(point_to_vertex[qh_pointid(qh, vertex->point)]); }
      qh_settempfree(qh, &loop_set);
      Vec3 newell = Vec3::Zero();
      for (size_t i = 0; i < loop.size(); ++i) {
        newell += hull->vertices[loop[i]].cross(hull->vertices[loop[(i + 1) % loop.size()]]);
      }
      if (newell.dot(normal) < 0) std::reverse(loop.begin(), loop.end());
      // offset: qhull's hyperplane nᵀx + offset = 0, raised to cover the face's own vertices
      Real offset = -facet->offset;
      for (int v : loop) offset = std::max(offset, normal.dot(hull->vertices[v]));
      ConvexHull::Face face;
      face.normal = normal;
      face.offset = offset;
      face.first = static_cast<int>(hull->face_vertices.size());
      face.count = static_cast<int>(loop.size());
      hull->faces.push_back(face);
      hull->face_vertices.insert(hull->face_vertices.end(), loop.begin(), loop.end());
    }
  }
  // release qhull's memory on success and failure alike
  qh_freeqhull(qh, !qh_ALL);
  int current_long = 0;
  int total_long = 0;
  qh_memfreeshort(qh, &current_long, &total_long);
  std::fclose(error_file);
  const std::string qhull_message = error_text != nullptr ? std::string(error_text) : "";
  std::free(error_text);
  if (exit_code != 0) {
    const std::string first_line = qhull_message.substr(0, qhull_message.find('\n'));
    diagnostics->Error(
        name, 0, "",
        label + ": qhull failed with code " + std::to_string(exit_code) + " (" + first_line + ")");
    return nullptr;
  }

  // unique edges and vertex neighbours from the face loops
  const int vertex_count = static_cast<int>(hull->vertices.size());
  hull->vertex_neighbors.assign(vertex_count, {});
  for (const ConvexHull::Face& face : hull->faces) {
    for (int i = 0; i < face.count; ++i) {
      const int a = hull->face_vertices[face.first + i];
      const int b = hull->face_vertices[face.first + (i + 1) % face.count];
      hull->edges.push_back({std::min(a, b), std::max(a, b)});
    }
  }
  std::sort(hull->edges.begin(), hull->edges.end());
  hull->edges.erase(std::unique(hull->edges.begin(), hull->edges.end()), hull->edges.end());
  for (const auto& [a, b] : hull->edges) {
    hull->vertex_neighbors[a].push_back(b);
    hull->vertex_neighbors[b].push_back(a);
  }

  // mass properties: tetrahedra (r, fan triangle), coordinates relative to r for accuracy
  Vec3 reference = Vec3::Zero();
  for (const Vec3& v : hull->vertices) reference += v;
  reference /= vertex_count;
  Real volume = 0;
  Vec3 first_moment = Vec3::Zero();
  Mat3 second_moment = Mat3::Zero();
  for (const ConvexHull::Face& face : hull->faces) {
    const Vec3 a = hull->vertices[hull->face_vertices[face.first]] - reference;
    for (int i = 1; i + 1 < face.count; ++i) {
      const Vec3 b = hull->vertices[hull->face_vertices[face.first + i]] - reference;
      const Vec3 c = hull->vertices[hull->face_vertices[face.first + i + 1]] - reference;
      const Real v = a.dot(b.cross(c)) / 6;  // signed, > 0 for CCW faces seen from outside
      const Vec3 s = a + b + c;              // the fourth vertex is the origin (r)
      volume += v;
      first_moment += v * s / 4;
      second_moment +=
          v / 20 * (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose());
    }
  }
  Vec3 lo = hull->vertices[0];
  Vec3 hi = lo;
  for (const Vec3& v : hull->vertices) {
    lo = lo.cwiseMin(v);
    hi = hi.cwiseMax(v);
  }
  const Real diagonal = (hi - lo).norm();
  // a hull thinner than ~1e-15 of its size is flat to rounding (the pre-check catches most)
  if (!(volume > 1e-15 * diagonal * diagonal * diagonal)) {
    ReportZeroVolume(name, "volume " + std::to_string(volume) + " m³", diagnostics);
    return nullptr;
  }
  const Vec3 centroid = first_moment / volume;
  hull->volume = volume;
  hull->centroid = reference + centroid;
  // covariance about the centroid, then I = tr(C) 1 − C
  const Mat3 covariance = second_moment - volume * centroid * centroid.transpose();
  hull->unit_inertia = covariance.trace() * Mat3::Identity() - covariance;
  return hull;
}

}  // namespace sim
