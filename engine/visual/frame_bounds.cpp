// Bounds of a frame's shapes: a primitive adds the corners of its local box (a capsule's box
// includes its caps), a mesh its vertices, both placed by their 3×4 world transforms.
#include "engine/visual/frame_bounds.h"

#include <array>

namespace sim {

namespace {

Eigen::Vector3f Apply(const std::array<float, 12>& X, const Eigen::Vector3f& p) {
  Eigen::Vector3f out;
  for (int r = 0; r < 3; ++r) {
    out(r) = X[r * 4] * p.x() + X[r * 4 + 1] * p.y() + X[r * 4 + 2] * p.z() + X[r * 4 + 3];
  }
  return out;
}


// half extents of a primitive's local box; false for planes and unknown types
bool HalfExtents(const VisualShape& shape, Eigen::Vector3f* half) {
  const float r = shape.size[0];
  switch (shape.type) {
    case ShapeType::kBox:
      *half = Eigen::Vector3f(shape.size[0], shape.size[1], shape.size[2]);
      return true;
    case ShapeType::kSphere:
      *half = Eigen::Vector3f::Constant(r);
      return true;
    case ShapeType::kCapsule:
      *half = Eigen::Vector3f(r, r, shape.size[1] + r);
      return true;
    case ShapeType::kCylinder:
      *half = Eigen::Vector3f(r, r, shape.size[1]);
      return true;
    default:
      return false;
  }
}

}  // namespace


std::optional<Box3f> FrameBounds(const VisualFrame& frame, std::optional<int> body,
                                 bool with_collision) {
  Box3f box;
  const auto wanted = [&](int owner, bool collision_only) {
    return (!body || owner == *body) && (with_collision || !collision_only);
  };
  for (const VisualShape& shape : frame.shapes) {
    Eigen::Vector3f half;
    if (!wanted(shape.body, shape.collision_only) || !HalfExtents(shape, &half)) continue;
    for (int c = 0; c < 8; ++c) {
      const Eigen::Vector3f corner((c & 1) ? half.x() : -half.x(), (c & 2) ? half.y() : -half.y(),
                                   (c & 4) ? half.z() : -half.z());
      box.Add(Apply(shape.X_WS, corner));
    }
  }
  for (const VisualMeshInstance& instance : frame.mesh_instances) {
    if (!wanted(instance.body, instance.collision_only)) continue;
    if (instance.mesh < 0 || instance.mesh >= static_cast<int>(frame.meshes.size())) continue;
    const VisualMesh* mesh = frame.meshes[instance.mesh].get();
    if (mesh == nullptr) continue;
    for (const std::array<float, 3>& p : mesh->positions) {
      box.Add(Apply(instance.X_WS, Eigen::Vector3f(p[0], p[1], p[2])));
    }
  }
  if (!body) {
    for (const VisualSoftBody& soft : frame.soft_bodies) {
      for (const std::array<float, 3>& p : soft.positions) box.Add({p[0], p[1], p[2]});
    }
  }
  if (box.empty() || !box.lower.allFinite() || !box.upper.allFinite()) return std::nullopt;
  return box;
}

}  // namespace sim
