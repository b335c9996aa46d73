#include "engine/geometry/isosurface.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "engine/core/parallel.h"

namespace sim {
namespace {

// Newton projections of a surface-net vertex onto the exact zero level
constexpr int kProjectionSteps = 3;

struct Box3 {
  Vec3 lower = Vec3::Constant(kInfinity);
  Vec3 upper = Vec3::Constant(-kInfinity);
};

Box3 Merge(const Box3& a, const Box3& b) {
  return {a.lower.cwiseMin(b.lower), a.upper.cwiseMax(b.upper)};
}

Box3 Overlap(const Box3& a, const Box3& b) {
  return {a.lower.cwiseMax(b.lower), a.upper.cwiseMin(b.upper)};
}

// box of the 8 corners of the local box [lo, hi] placed by the node pose
Box3 PlacedBox(const SdfNode& node, const Vec3& lo, const Vec3& hi) {
  Box3 box;
  for (int c = 0; c < 8; ++c) {
    const Vec3 corner((c & 1) ? hi.x() : lo.x(), (c & 2) ? hi.y() : lo.y(),
                      (c & 4) ? hi.z() : lo.z());
    const Vec3 p = node.rotation * corner + node.translation;
    box.lower = box.lower.cwiseMin(p);
    box.upper = box.upper.cwiseMax(p);
  }
  return box;
}

// bounds of node `n` of the tree (see AnalyticSdfBounds)
Box3 NodeBounds(const std::vector<SdfNode>& nodes, int n) {
  const SdfNode& node = nodes[n];
  const auto& k = node.params;
  switch (node.type) {
    case SdfNodeType::kSphere:
      return PlacedBox(node, Vec3::Constant(-k[0]), Vec3::Constant(k[0]));
    case SdfNodeType::kBox:
    case SdfNodeType::kRoundedBox:
      return PlacedBox(node, -Vec3(k[0], k[1], k[2]), Vec3(k[0], k[1], k[2]));
    case SdfNodeType::kCapsule:
      return PlacedBox(node, -Vec3(k[0], k[0], k[1] + k[0]), Vec3(k[0], k[0], k[1] + k[0]));
    case SdfNodeType::kCylinder:
      return PlacedBox(node, -Vec3(k[0], k[0], k[1]), Vec3(k[0], k[0], k[1]));
    case SdfNodeType::kCone: {
      // apex at the origin, base disk of radius height·tan θ at z = −height
      const Real radius = k[1] * k[2] / k[3];
      return PlacedBox(node, Vec3(-radius, -radius, -k[1]), Vec3(radius, radius, 0));
    }
    case SdfNodeType::kTorus: {
      const Real outer = k[0] + k[1];
      return PlacedBox(node, -Vec3(outer, outer, k[1]), Vec3(outer, outer, k[1]));
    }
    case SdfNodeType::kHalfSpace:
      return {Vec3::Constant(-kInfinity), Vec3::Constant(kInfinity)};
    case SdfNodeType::kUnion:
      return Merge(NodeBounds(nodes, node.child_a), NodeBounds(nodes, node.child_b));
    case SdfNodeType::kIntersection:
      return Overlap(NodeBounds(nodes, node.child_a), NodeBounds(nodes, node.child_b));
    case SdfNodeType::kDifference:
      return NodeBounds(nodes, node.child_a);
    case SdfNodeType::kSmoothUnion: {
      // the blend only adds material within k of both surfaces
      Box3 box = Merge(NodeBounds(nodes, node.child_a), NodeBounds(nodes, node.child_b));
      box.lower.array() -= k[0];
      box.upper.array() += k[0];
      return box;
    }
    case SdfNodeType::kNone:
      break;
  }
  return {};
}


// φ(a)/(φ(a) − φ(b)) along a sign-changing edge, clamped to the edge
Real Crossing(Real a, Real b) { return std::clamp(a / (a - b), Real(0), Real(1)); }

}  // namespace


bool AnalyticSdfBounds(const AnalyticSdf& field, Vec3* lower, Vec3* upper) {
  if (field.root() < 0 || field.root() >= field.node_count()) {
    *lower = *upper = Vec3::Zero();
    return true;
  }
  const Box3 box = NodeBounds(field.nodes(), field.root());
  // a half-space cut by an intersection leaves its infinite side where the other operand ends
  *lower = box.lower;
  *upper = box.upper;
  return lower->allFinite() && upper->allFinite();
}


Isosurface ExtractIsosurface(const std::function<SdfSample(const Vec3&)>& field, const Vec3& lower,
                             const Vec3& upper, int cells) {
  cells = std::clamp(cells, 4, 512);
  const Vec3 size = (upper - lower).cwiseMax(Real(1e-12));
  const Real h = size.maxCoeff() / cells;
  // nodes per axis: at least two, the box covered by whole cells
  std::array<int, 3> n;
  for (int a = 0; a < 3; ++a) n[a] = std::max(2, static_cast<int>(std::ceil(size(a) / h)) + 1);
  auto node_index = [&](int i, int j, int k) { return (k * n[1] + j) * n[0] + i; };
  auto node_point = [&](int i, int j, int k) -> Vec3 { return lower + h * Vec3(i, j, k); };

  // 1. φ at the nodes, one z-slice per task
  std::vector<Real> phi(static_cast<std::size_t>(n[0]) * n[1] * n[2]);
  ParallelFor(n[2], 1, 8, [&](int begin, int end) {
    for (int k = begin; k < end; ++k) {
      for (int j = 0; j < n[1]; ++j) {
        for (int i = 0; i < n[0]; ++i)
          phi[node_index(i, j, k)] = field(node_point(i, j, k)).distance;
      }
    }
  });
  auto inside = [&](int i, int j, int k) { return phi[node_index(i, j, k)] < 0; };

  // 2. one vertex per sign-changing cell
  const int cx = n[0] - 1, cy = n[1] - 1, cz = n[2] - 1;
  auto cell_index = [&](int i, int j, int k) { return (k * cy + j) * cx + i; };
  std::vector<int> cell_vertex(static_cast<std::size_t>(cx) * cy * cz, -1);
  Isosurface surface;
  static constexpr int kEdges[12][2] = {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {0, 2}, {1, 3},
                                        {4, 6}, {5, 7}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
  for (int k = 0; k < cz; ++k) {
    for (int j = 0; j < cy; ++j) {
      for (int i = 0; i < cx; ++i) {
        Real corner_phi[8];
        int inside_count = 0;
        for (int c = 0; c < 8; ++c) {
          corner_phi[c] = phi[node_index(i + (c & 1), j + ((c >> 1) & 1), k + ((c >> 2) & 1))];
          inside_count += corner_phi[c] < 0;
        }
        if (inside_count == 0 || inside_count == 8) continue;
        Vec3 sum = Vec3::Zero();
        int crossings = 0;
        for (const auto& e : kEdges) {
          const Real a = corner_phi[e[0]], b = corner_phi[e[1]];
          if ((a < 0) == (b < 0)) continue;
          const Vec3 pa(Real(e[0] & 1), Real((e[0] >> 1) & 1), Real((e[0] >> 2) & 1));
          const Vec3 pb(Real(e[1] & 1), Real((e[1] >> 1) & 1), Real((e[1] >> 2) & 1));
          sum += pa + Crossing(a, b) * (pb - pa);
          ++crossings;
        }
        cell_vertex[cell_index(i, j, k)] = surface.mesh.vertex_count();
        surface.mesh.vertices.push_back(node_point(i, j, k) + h * sum / crossings);
      }
    }
  }

  // Newton projection onto φ = 0 (exact fields converge in one step), kept within 1.5 cells
  surface.normals.resize(surface.mesh.vertices.size());
  ParallelFor(surface.mesh.vertex_count(), 256, 512, [&](int begin, int end) {
    for (int v = begin; v < end; ++v) {
      const Vec3 start = surface.mesh.vertices[v];
      Vec3 x = start;
      for (int s = 0; s < kProjectionSteps; ++s) {
        const SdfSample sample = field(x);
        const Vec3 next = x - sample.distance * sample.gradient;
        if ((next - start).norm() > 1.5 * h || !next.allFinite()) break;
        x = next;
      }
      surface.mesh.vertices[v] = x;
      const Vec3 g = field(x).gradient;
      surface.normals[v] = g.norm() > 0 ? Vec3(g.normalized()) : Vec3::UnitZ();
    }
  });

  // 3. a quad around every sign-changing edge whose four cells exist; the cells are listed
  // counter-clockwise about the edge direction, reversed when the edge runs outside → inside
  auto emit = [&](const std::array<int, 4>& cell, bool outward_positive) {
    std::array<int, 4> q;
    for (int c = 0; c < 4; ++c) q[c] = cell_vertex[cell[c]];
    if (!outward_positive) std::swap(q[1], q[3]);
    // split along the shorter diagonal
    const auto& x = surface.mesh.vertices;
    if ((x[q[0]] - x[q[2]]).squaredNorm() <= (x[q[1]] - x[q[3]]).squaredNorm()) {
      surface.mesh.triangles.push_back({q[0], q[1], q[2]});
      surface.mesh.triangles.push_back({q[0], q[2], q[3]});
    } else {
      surface.mesh.triangles.push_back({q[0], q[1], q[3]});
      surface.mesh.triangles.push_back({q[1], q[2], q[3]});
    }
  };
  for (int k = 0; k < n[2]; ++k) {
    for (int j = 0; j < n[1]; ++j) {
      for (int i = 0; i < n[0]; ++i) {
        const bool in = inside(i, j, k);
        // x edge: cells (j−1, k−1), (j, k−1), (j, k), (j−1, k) go counter-clockwise about +x
        if (i < cx && j >= 1 && j < cy && k >= 1 && k < cz && in != inside(i + 1, j, k)) {
          emit({cell_index(i, j - 1, k - 1), cell_index(i, j, k - 1), cell_index(i, j, k),
                cell_index(i, j - 1, k)},
               in);
        }
        // y edge: (z, x) = (k−1, i−1), (k, i−1), (k, i), (k−1, i) about +y
        if (j < cy && i >= 1 && i < cx && k >= 1 && k < cz && in != inside(i, j + 1, k)) {
          emit({cell_index(i - 1, j, k - 1), cell_index(i - 1, j, k), cell_index(i, j, k),
                cell_index(i, j, k - 1)},
               in);
        }
        // z edge: (x, y) = (i−1, j−1), (i, j−1), (i, j), (i−1, j) about +z
        if (k < cz && i >= 1 && i < cx && j >= 1 && j < cy && in != inside(i, j, k + 1)) {
          emit({cell_index(i - 1, j - 1, k), cell_index(i, j - 1, k), cell_index(i, j, k),
                cell_index(i - 1, j, k)},
               in);
        }
      }
    }
  }
  return surface;
}


std::shared_ptr<VisualMesh> BuildSdfVisualMesh(const AnalyticSdf& field, int cells) {
  Vec3 lower, upper;
  AnalyticSdfBounds(field, &lower, &upper);
  // unbounded axes: drawn to kUnboundedDrawExtent from the finite side, or about the origin
  for (int a = 0; a < 3; ++a) {
    const bool low_open = !std::isfinite(lower(a));
    const bool high_open = !std::isfinite(upper(a));
    if (low_open && high_open) {
      lower(a) = -0.5 * kUnboundedDrawExtent;
      upper(a) = 0.5 * kUnboundedDrawExtent;
    } else if (low_open) {
      lower(a) = upper(a) - kUnboundedDrawExtent;
    } else if (high_open) {
      upper(a) = lower(a) + kUnboundedDrawExtent;
    }
  }
  // an empty intersection leaves lower > upper: nothing to draw
  auto visual = std::make_shared<VisualMesh>();
  visual->name = "analytic sdf";
  if ((upper - lower).minCoeff() > 0) {
    const Real margin = 2 * (upper - lower).maxCoeff() / cells;
    lower.array() -= margin;
    upper.array() += margin;
    const Isosurface surface = ExtractIsosurface(
        [&field](const Vec3& x) { return field.Sample(x); }, lower, upper, cells + 4);
    for (int v = 0; v < surface.mesh.vertex_count(); ++v) {
      const Vec3& p = surface.mesh.vertices[v];
      const Vec3& n = surface.normals[v];
      visual->positions.push_back(
          {static_cast<float>(p.x()), static_cast<float>(p.y()), static_cast<float>(p.z())});
      visual->normals.push_back(
          {static_cast<float>(n.x()), static_cast<float>(n.y()), static_cast<float>(n.z())});
    }
    for (const auto& t : surface.mesh.triangles) {
      for (int v : t) visual->indices.push_back(static_cast<std::uint32_t>(v));
    }
  }
  VisualMesh::Part part;
  part.index_count = static_cast<std::uint32_t>(visual->indices.size());
  visual->parts.push_back(part);
  return visual;
}

}  // namespace sim
