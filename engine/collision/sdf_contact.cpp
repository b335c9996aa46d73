// Non-template parts of the chapter-6 SDF contact kernels (see sdf_contact.h).
#include "engine/collision/sdf_contact.h"

#include <algorithm>
#include <unordered_map>

namespace sim {

TriangleFeature ClassifyBarycentric(const Vec3& b, Real tolerance) {
  // count the weights that vanish within the tolerance
  int zero_count = 0;
  int nonzero = 0, zero = 0;
  for (int k = 0; k < 3; ++k) {
    if (b(k) <= tolerance) {
      ++zero_count;
      zero = k;
    } else {
      nonzero = k;
    }
  }
  if (zero_count >= 2) return {TriangleFeatureKind::kVertex, nonzero};
  // the edge opposite vertex `zero` joins (zero+1) and (zero+2): local edge (zero+1) mod 3
  if (zero_count == 1) return {TriangleFeatureKind::kEdge, (zero + 1) % 3};
  return {TriangleFeatureKind::kFace, 0};
}


const char* EmbeddingStatusName(EmbeddingStatus status) {
  switch (status) {
    case EmbeddingStatus::kOk:
      return "ok";
    case EmbeddingStatus::kDegenerateRest:
      return "degenerate rest tet";
    case EmbeddingStatus::kIllConditioned:
      return "ill-conditioned deformed tet";
    case EmbeddingStatus::kInverted:
      return "inverted deformed tet";
  }
  return "unknown";
}


Real TetQuality(const Mat3& edges) {
  const Real scale = edges.col(0).norm() * edges.col(1).norm() * edges.col(2).norm();
  // a zero-length edge is the flattest tet there is
  if (!(scale > 0)) return 0;
  return edges.determinant() / scale;
}


std::vector<std::array<int, 2>> CollectUniqueEdges(const TriangleMesh& mesh) {
  std::vector<std::array<int, 2>> edges;
  edges.reserve(mesh.triangles.size() * 3 / 2 + 3);
  std::unordered_map<long long, int> seen;
  seen.reserve(mesh.triangles.size() * 3);
  for (const auto& tri : mesh.triangles) {
    for (int k = 0; k < 3; ++k) {
      const int a = std::min(tri[k], tri[(k + 1) % 3]);
      const int b = std::max(tri[k], tri[(k + 1) % 3]);
      const long long key = (static_cast<long long>(a) << 32) | static_cast<unsigned>(b);
      if (seen.emplace(key, static_cast<int>(edges.size())).second) edges.push_back({a, b});
    }
  }
  return edges;
}

}  // namespace sim
