#include "engine/geometry/sdf_grid.h"

#include <limits>
#include <string>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "engine/geometry/bvh.h"
#include "engine/geometry/mesh_topology.h"

namespace sim {
namespace {

// relative rounding of a double stored as float (round to nearest): 2⁻²⁴
constexpr Real kFloatRounding = 5.9604644775390625e-8;

// smallest useful resolution: the default padding alone takes 6 cells
constexpr int kMinResolution = 8;


// pseudonormal of the feature of triangle t on which barycentric coordinates b lie (exact zeros
// from ClosestPointOnTriangle's region tests)
Vec3 FeatureNormal(const MeshTopology& topo, int t, const Vec3& b) {
  int zeros = 0;
  int zero = -1;
  int nonzero = -1;
  for (int i = 0; i < 3; ++i) {
    if (b[i] == 0) {
      ++zeros;
      zero = i;
    } else {
      nonzero = i;
    }
  }
  if (zeros == 2) return topo.vertex_normals[topo.triangles[t][nonzero]];
  if (zeros == 1) {
    const int e = topo.triangle_edges[t][(zero + 1) % 3];
    if (e >= 0) return topo.edge_normals[e];
  }
  return topo.face_normals[t];
}

}  // namespace


void SdfGrid::Finish() {
  cell_size_ = (upper_ - lower_).cwiseQuotient((dims_ - Index3::Ones()).cast<Real>());
  inv_cell_size_ = cell_size_.cwiseInverse();
  Real max_abs = 0;
  for (float v : values_) max_abs = std::max(max_abs, static_cast<Real>(std::abs(v)));
  // half the cell diagonal (interpolation of a 1-Lipschitz field) + float rounding of the nodes
  error_bound_ = 0.5 * cell_size_.norm() + kFloatRounding * max_abs;
}


std::shared_ptr<const SdfGrid> SdfGrid::FromFunction(const Vec3& lower, const Vec3& upper,
                                                     const Index3& dims,
                                                     const std::function<Real(const Vec3&)>& phi) {
  auto grid = std::shared_ptr<SdfGrid>(new SdfGrid());
  grid->lower_ = lower;
  grid->upper_ = upper;
  grid->dims_ = dims.cwiseMax(2);
  const Vec3 h = (upper - lower).cwiseQuotient((grid->dims_ - Index3::Ones()).cast<Real>());
  grid->values_.resize(static_cast<size_t>(grid->dims_.prod()));
  // sample every node, x fastest
  for (int k = 0; k < grid->dims_.z(); ++k) {
    for (int j = 0; j < grid->dims_.y(); ++j) {
      for (int i = 0; i < grid->dims_.x(); ++i) {
        const Vec3 x = lower + Vec3(i, j, k).cwiseProduct(h);
        grid->values_[grid->NodeIndex(i, j, k)] = static_cast<float>(phi(x));
      }
    }
  }
  grid->Finish();
  return grid;
}


std::shared_ptr<const SdfGrid> SdfGrid::FromMesh(const TriangleMesh& mesh,
                                                 const SdfGridOptions& options,
                                                 Diagnostics* diagnostics) {
  // the mesh must be valid and closed (the sign is undefined otherwise)
  const std::string label = "mesh '" + mesh.name + "'";
  Diagnostics validation;
  if (!ValidateMesh(mesh, mesh.name, &validation)) {
    diagnostics->Append(validation);
    return nullptr;
  }
  const MeshTopology topo = BuildMeshTopology(mesh);
  if (!topo.closed) {
    diagnostics->Error(mesh.name, 0, "",
                       label + " is not closed (" + std::to_string(topo.boundary_edges) +
                           " boundary edges, " + std::to_string(topo.nonmanifold_edges) +
                           " non-manifold edges, " + std::to_string(topo.inconsistent_edges) +
                           " inconsistently oriented edges): a signed distance field needs a "
                           "closed, consistently oriented surface");
    return nullptr;
  }
  if (options.resolution < kMinResolution) {
    diagnostics->Error(mesh.name, 0, "",
                       label + ": SDF resolution " + std::to_string(options.resolution) +
                           " is too small (expected at least " + std::to_string(kMinResolution) +
                           ")");
    return nullptr;
  }

  // padded bounds with cubic cells: `resolution` cells along the longest padded axis
  Vec3 lo = mesh.vertices[0];
  Vec3 hi = lo;
  for (const Vec3& v : mesh.vertices) {
    lo = lo.cwiseMin(v);
    hi = hi.cwiseMax(v);
  }
  const Vec3 extent = hi - lo;
  const Real longest = extent.maxCoeff();
  const Real diagonal = extent.norm();
  const int n = options.resolution;
  Real padding = options.padding;
  Real h = 0;
  if (padding >= 0) {
    h = (longest + 2 * padding) / n;
  } else {
    // default: 3 cells (h = L / (n − 6)) unless 5 % of the diagonal is larger
    h = longest / (n - 6);
    padding = 3 * h;
    if (0.05 * diagonal > padding) {
      padding = 0.05 * diagonal;
      h = (longest + 2 * padding) / n;
    }
  }
  if (!(h > 0) || !std::isfinite(h)) {
    diagnostics->Error(mesh.name, 0, "", label + " has zero extent; no SDF can be sampled");
    return nullptr;
  }
  auto grid = std::shared_ptr<SdfGrid>(new SdfGrid());
  const Vec3 center = 0.5 * (lo + hi);
  for (int a = 0; a < 3; ++a) {
    grid->dims_[a] = static_cast<int>(std::ceil((extent[a] + 2 * padding) / h - 1e-9)) + 1;
    grid->dims_[a] = std::max(grid->dims_[a], 2);
  }
  grid->lower_ = center - 0.5 * h * (grid->dims_ - Index3::Ones()).cast<Real>();
  grid->upper_ = center + 0.5 * h * (grid->dims_ - Index3::Ones()).cast<Real>();
  const Index3 dims = grid->dims_;
  grid->values_.resize(static_cast<size_t>(dims.prod()));

  // exact unsigned distance by BVH, row by row: the previous node's triangle is the hint that
  // makes the search radius tight at once
  TriangleBvh bvh;
  bvh.Build(mesh.vertices, mesh.triangles);
  const Vec3 lower = grid->lower_;
  const int rows = dims.y() * dims.z();
  tbb::parallel_for(tbb::blocked_range<int>(0, rows), [&](const tbb::blocked_range<int>& range) {
    for (int row = range.begin(); row != range.end(); ++row) {
      const int j = row % dims.y();
      const int k = row / dims.y();
      int hint = -1;
      for (int i = 0; i < dims.x(); ++i) {
        const Vec3 x = lower + h * Vec3(i, j, k);
        const TriangleBvh::Hit hit = bvh.Closest(x, std::numeric_limits<Real>::infinity(), hint);
        hint = hit.triangle;
        // sign from the pseudonormal of the closest feature (Bærentzen & Aanæs theorem 1)
        const Real d = std::sqrt(hit.distance_squared);
        const Vec3 normal = FeatureNormal(topo, hit.triangle, hit.barycentric);
        const Real phi = (x - hit.point).dot(normal) < 0 ? -d : d;
        grid->values_[grid->NodeIndex(i, j, k)] = static_cast<float>(phi);
      }
    }
  });
  grid->Finish();
  return grid;
}

}  // namespace sim
