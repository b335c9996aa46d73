#include "engine/geometry/sdf_grid.h"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <string>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "engine/geometry/bvh.h"
#include "engine/geometry/closest_point.h"
#include "engine/geometry/mesh_topology.h"

namespace sim {
namespace {

// relative rounding of a double stored as float (round to nearest): 2⁻²⁴
constexpr Real kFloatRounding = 5.9604644775390625e-8;

// half-width of the exactly computed band [cells]: every cell with a point within 3 − √3 ≈ 1.27
// cells of the surface has exact corners (the proven error bound holds there), and it exceeds the
// √3-cell neighbour step the sign argument of the sweeps needs
constexpr Real kBandCells = 3;

// smallest useful resolution: the default padding alone takes 6 cells
constexpr int kMinResolution = 8;

// band nodes solved between two progress reports and cancel checks: milliseconds of BVH queries
constexpr size_t kBandNodesPerReport = 65536;

// shares of the build's progress: band marking, exact band, sweeps, boundary layers
constexpr double kBandMarked = 0.05;
constexpr double kBandSolved = 0.45;
constexpr double kSwept = 0.95;


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

// The grid FromMesh samples a mesh with bounds [lo, hi] on: cubic cells of size h, `resolution`
// cells along the longest padded axis, `dims` nodes per axis centred on the bounds. h is 0 when
// the bounds have no extent.
struct GridLayout {
  Real h = 0;
  Eigen::Vector3i dims = Eigen::Vector3i::Constant(2);
  Vec3 lower = Vec3::Zero();
  Vec3 upper = Vec3::Zero();
};

GridLayout LayOutGrid(const Vec3& lo, const Vec3& hi, const SdfGridOptions& options) {
  const Vec3 extent = hi - lo;
  const Real longest = extent.maxCoeff();
  const Real diagonal = extent.norm();
  const int n = options.resolution;
  Real padding = options.padding;
  GridLayout layout;
  if (padding >= 0) {
    layout.h = (longest + 2 * padding) / n;
  } else {
    // default: 3 cells (h = L / (n − 6)) unless 5 % of the diagonal is larger
    layout.h = longest / (n - 6);
    padding = 3 * layout.h;
    if (0.05 * diagonal > padding) {
      padding = 0.05 * diagonal;
      layout.h = (longest + 2 * padding) / n;
    }
  }
  if (!(layout.h > 0) || !std::isfinite(layout.h)) return GridLayout{};
  for (int a = 0; a < 3; ++a) {
    layout.dims[a] = static_cast<int>(std::ceil((extent[a] + 2 * padding) / layout.h - 1e-9)) + 1;
    layout.dims[a] = std::max(layout.dims[a], 2);
  }
  const Vec3 center = 0.5 * (lo + hi);
  const Vec3 half = 0.5 * layout.h * (layout.dims - Eigen::Vector3i::Ones()).cast<Real>();
  layout.lower = center - half;
  layout.upper = center + half;
  return layout;
}

// the node range [first, last] per axis of triangle t's bounds grown by `band` cells
void NodeRange(const TriangleMesh& mesh, int t, const GridLayout& layout, Real band,
               Eigen::Vector3i* first, Eigen::Vector3i* last) {
  const Vec3& a = mesh.vertices[mesh.triangles[t][0]];
  const Vec3& b = mesh.vertices[mesh.triangles[t][1]];
  const Vec3& c = mesh.vertices[mesh.triangles[t][2]];
  const Vec3 lo = (a.cwiseMin(b).cwiseMin(c) - layout.lower).array() - band * layout.h;
  const Vec3 hi = (a.cwiseMax(b).cwiseMax(c) - layout.lower).array() + band * layout.h;
  for (int d = 0; d < 3; ++d) {
    (*first)[d] = std::max(0, static_cast<int>(std::ceil(lo[d] / layout.h)));
    (*last)[d] = std::min(layout.dims[d] - 1, static_cast<int>(std::floor(hi[d] / layout.h)));
  }
}

// pairs of a triangle and a grid node inside its bounds: the closest-triangle query of a band
// node tests at least every triangle whose bounds hold it
double TriangleNodePairs(const TriangleMesh& mesh, const GridLayout& layout) {
  double pairs = 0;
  for (int t = 0; t < static_cast<int>(mesh.triangles.size()); ++t) {
    Eigen::Vector3i first, last;
    NodeRange(mesh, t, layout, 0, &first, &last);
    pairs += std::max(1.0, (last - first + Eigen::Vector3i::Ones()).cast<double>().prod());
  }
  return pairs;
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


bool SdfGrid::FillFromMesh(const TriangleMesh& mesh, const MeshTopology& topo, Real h,
                           const LoadProgress& progress, SdfGrid* grid) {
  const Index3 dims = grid->dims_;
  const Vec3 lower = grid->lower_;
  const size_t node_count = grid->values_.size();
  auto position = [&](int i, int j, int k) { return Vec3(lower + h * Vec3(i, j, k)); };

  // band: nodes in a triangle's bounds grown by kBandCells h, a superset of the nodes within that
  // distance of the surface (> √3 h, the longest neighbour step of the sweeps below)
  std::vector<char> in_band(node_count, 0);
  const GridLayout layout{.h = h, .dims = dims, .lower = lower, .upper = grid->upper_};
  const LoadProgress marking = progress.Part(0, kBandMarked);
  for (int t = 0; t < static_cast<int>(mesh.triangles.size()); ++t) {
    // a large triangle marks many nodes: checked per triangle
    if (progress.cancelled()) return false;
    if (t % 1024 == 0) marking.Report(static_cast<double>(t) / mesh.triangles.size());
    Index3 first;
    Index3 last;
    NodeRange(mesh, t, layout, kBandCells, &first, &last);
    for (int k = first.z(); k <= last.z(); ++k) {
      for (int j = first.y(); j <= last.y(); ++j) {
        for (int i = first.x(); i <= last.x(); ++i) in_band[grid->NodeIndex(i, j, k)] = 1;
      }
    }
  }
  std::vector<int> band_nodes;
  for (size_t n = 0; n < node_count; ++n) {
    if (in_band[n]) band_nodes.push_back(static_cast<int>(n));
  }

  // exact distance and sign in the band: BVH closest point (the previous node's triangle as the
  // hint tightens the radius at once), sign from the pseudonormal of the closest feature
  // (Bærentzen & Aanæs theorem 1)
  TriangleBvh bvh;
  bvh.Build(mesh.vertices, mesh.triangles);
  std::vector<int> closest(node_count, -1);
  std::vector<float>& distance = grid->values_;  // unsigned until the sign is applied
  std::fill(distance.begin(), distance.end(), std::numeric_limits<float>::infinity());
  std::vector<signed char> sign(node_count, 0);
  const int sx = dims.x();
  const int sxy = dims.x() * dims.y();
  // in blocks, each solved in parallel, with a report and a cancel check between them
  const LoadProgress solving = progress.Part(kBandMarked, kBandSolved);
  for (size_t first = 0; first < band_nodes.size(); first += kBandNodesPerReport) {
    if (progress.cancelled()) return false;
    solving.Report(static_cast<double>(first) / band_nodes.size());
    const size_t last = std::min(band_nodes.size(), first + kBandNodesPerReport);
    tbb::parallel_for(tbb::blocked_range<size_t>(first, last, 1024),
                      [&](const tbb::blocked_range<size_t>& range) {
                        int hint = -1;
                        for (size_t b = range.begin(); b != range.end(); ++b) {
                          const int n = band_nodes[b];
                          const Vec3 x = position(n % sx, (n / sx) % dims.y(), n / sxy);
                          const TriangleBvh::Hit hit =
                              bvh.Closest(x, std::numeric_limits<Real>::infinity(), hint);
                          hint = hit.triangle;
                          closest[n] = hit.triangle;
                          distance[n] = static_cast<float>(std::sqrt(hit.distance_squared));
                          const Vec3 normal = FeatureNormal(topo, hit.triangle, hit.barycentric);
                          sign[n] = (x - hit.point).dot(normal) < 0 ? -1 : 1;
                        }
                      });
  }

  // fast sweeping (Batty's SDFGen, after Zhao 2005): in 8 orderings, each node outside the band
  // tries the closest triangles of its 7 upwind neighbours with exact point–triangle distances.
  // Values are distances to actual triangles (never below φ), exact wherever the closest
  // triangle's Voronoi region reaches the node through the grid (else a few % of a cell high). The
  // sign is copied from the neighbour: two nodes ≤ √3 h apart on different sides of the surface
  // would both lie within √3 h < kBandCells h of it, i.e. in the band, so a non-band node's
  // neighbours share its sign.
  // triangle corners packed contiguously: the sweeps read them in random order
  std::vector<std::array<Vec3, 3>> corners(mesh.triangles.size());
  for (size_t t = 0; t < corners.size(); ++t) {
    for (int c = 0; c < 3; ++c) corners[t][c] = mesh.vertices[mesh.triangles[t][c]];
  }
  auto triangle_distance_squared = [&corners](const Vec3& x, int t) {
    const auto& c = corners[t];
    return (x - ClosestPointOnTriangle(x, c[0], c[1], c[2])).squaredNorm();
  };
  // one pass of 8 sweeps: SDFGen's second pass changed no node of the test meshes
  constexpr int kPasses = 1;
  const LoadProgress sweeping = progress.Part(kBandSolved, kSwept);
  for (int pass = 0; pass < kPasses; ++pass) {
    for (int octant = 0; octant < 8; ++octant) {
      const LoadProgress sweep = sweeping.Share(pass * 8 + octant, kPasses * 8);
      const int di = (octant & 1) ? -1 : 1;
      const int dj = (octant & 2) ? -1 : 1;
      const int dk = (octant & 4) ? -1 : 1;
      const int i0 = di > 0 ? 1 : dims.x() - 2;
      const int j0 = dj > 0 ? 1 : dims.y() - 2;
      const int k0 = dk > 0 ? 1 : dims.z() - 2;
      // upwind neighbour offsets in the flat array: all nonempty subsets of the three steps back
      const int step[3] = {-di, -dj * sx, -dk * sxy};
      int offsets[7];
      for (int m = 1; m < 8; ++m) {
        offsets[m - 1] =
            ((m & 1) ? step[0] : 0) + ((m & 2) ? step[1] : 0) + ((m & 4) ? step[2] : 0);
      }
      for (int k = k0; k >= 0 && k < dims.z(); k += dk) {
        // one slab of nodes between checks
        if (progress.cancelled()) return false;
        sweep.Report(static_cast<double>(dk > 0 ? k : dims.z() - 1 - k) / dims.z());
        for (int j = j0; j >= 0 && j < dims.y(); j += dj) {
          for (int i = i0; i >= 0 && i < dims.x(); i += di) {
            const int n = i + sx * j + sxy * k;
            if (in_band[n]) continue;
            // each distinct neighbour triangle once (neighbours mostly share a few)
            int tried[8];
            int tried_count = 0;
            tried[tried_count++] = closest[n];
            const Vec3 x = position(i, j, k);
            const Real current = distance[n];
            Real best2 = current * current;
            for (int offset : offsets) {
              const int t = closest[n + offset];
              if (t < 0 || std::find(tried, tried + tried_count, t) != tried + tried_count) {
                continue;
              }
              tried[tried_count++] = t;
              const Real d2 = triangle_distance_squared(x, t);
              if (d2 < best2) {
                best2 = d2;
                distance[n] = static_cast<float>(std::sqrt(d2));
                closest[n] = t;
                sign[n] = sign[n + offset];
              }
            }
          }
        }
      }
    }
  }

  // boundary layers the sweeps start past (index 0 or dims − 1 on some axis) take their values
  // from an exact query when not in the band
  tbb::parallel_for(tbb::blocked_range<int>(0, dims.z()), [&](const tbb::blocked_range<int>& r) {
    for (int k = r.begin(); k != r.end(); ++k) {
      if (progress.cancelled()) return;
      for (int j = 0; j < dims.y(); ++j) {
        for (int i = 0; i < dims.x(); ++i) {
          const int n = i + sx * j + sxy * k;
          if (in_band[n] || closest[n] >= 0) continue;
          const Vec3 x = position(i, j, k);
          const TriangleBvh::Hit hit = bvh.Closest(x, std::numeric_limits<Real>::infinity());
          distance[n] = static_cast<float>(std::sqrt(hit.distance_squared));
          const Vec3 normal = FeatureNormal(topo, hit.triangle, hit.barycentric);
          sign[n] = (x - hit.point).dot(normal) < 0 ? -1 : 1;
        }
      }
    }
  });

  if (progress.cancelled()) return false;

  // apply the sign
  for (size_t n = 0; n < node_count; ++n) {
    if (sign[n] < 0) distance[n] = -distance[n];
  }
  progress.Report(1);
  return true;
}


std::shared_ptr<const SdfGrid> SdfGrid::FromMesh(const TriangleMesh& mesh,
                                                 const SdfGridOptions& options,
                                                 Diagnostics* diagnostics,
                                                 const LoadProgress& progress) {
  // the mesh must be valid and closed (the sign is undefined otherwise); validation warnings,
  // e.g. degenerate triangles, are passed on
  const std::string label = "mesh '" + mesh.name + "'";
  if (!ValidateMesh(mesh, mesh.name, diagnostics)) return nullptr;
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
  // a closed mesh wound clockwise from outside is consistent but inside out: φ would flip sign
  Real signed_volume = 0;
  for (const auto& t : mesh.triangles) {
    signed_volume += mesh.vertices[t[0]].dot(mesh.vertices[t[1]].cross(mesh.vertices[t[2]])) / 6;
  }
  if (!(signed_volume > 0)) {
    diagnostics->Error(mesh.name, 0, "",
                       label + " is inside out (enclosed volume " + std::to_string(signed_volume) +
                           " m³; expected triangles counter-clockwise seen from outside)");
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
  const GridLayout layout = LayOutGrid(lo, hi, options);
  if (layout.h == 0) {
    diagnostics->Error(mesh.name, 0, "", label + " has zero extent; no SDF can be sampled");
    return nullptr;
  }
  // large, overlapping triangles make every closest-triangle query of the band test many of
  // them: that work is bounded before anything is allocated
  const double pairs = TriangleNodePairs(mesh, layout);
  if (pairs > kMaxSdfTriangleNodePairs) {
    int fits = kMinResolution - 1;  // largest resolution within the bound, by bisection
    for (int step = 1 << 14; step > 0; step /= 2) {
      SdfGridOptions smaller = options;
      smaller.resolution = fits + step;
      if (smaller.resolution < options.resolution &&
          TriangleNodePairs(mesh, LayOutGrid(lo, hi, smaller)) <= kMaxSdfTriangleNodePairs) {
        fits = smaller.resolution;
      }
    }
    diagnostics->Error(
        mesh.name, 0, "",
        label + ": at SDF resolution " + std::to_string(options.resolution) + " its " +
            std::to_string(mesh.triangle_count()) + " triangles span " +
            std::to_string(static_cast<long long>(pairs)) + " grid nodes (at most " +
            std::to_string(static_cast<long long>(kMaxSdfTriangleNodePairs)) +
            ", each a distance test); " +
            (fits >= kMinResolution ? "the largest resolution that fits is " + std::to_string(fits)
                                    : std::string("no resolution fits")));
    return nullptr;
  }
  auto grid = std::shared_ptr<SdfGrid>(new SdfGrid());
  grid->dims_ = layout.dims;
  grid->lower_ = layout.lower;
  grid->upper_ = layout.upper;
  const Real h = layout.h;
  grid->values_.resize(static_cast<size_t>(layout.dims.prod()));

  progress.Stage("building SDF of " + std::filesystem::path(mesh.name).filename().string() + " (" +
                 std::to_string(layout.dims.x()) + "×" + std::to_string(layout.dims.y()) + "×" +
                 std::to_string(layout.dims.z()) + ")");
  if (!FillFromMesh(mesh, topo, h, progress, grid.get())) {
    progress.CheckCancelled(mesh.name, diagnostics);
    return nullptr;
  }
  grid->Finish();
  return grid;
}

}  // namespace sim
