#include "engine/visual/visual_frame.h"

#include "engine/state/state.h"

namespace sim {

VisualFrame MakeVisualFrame(const Model& model, const State& state) {
  VisualFrame frame;
  frame.time = state.time;
  frame.step = state.step;
  for (int i = 0; i < 3; ++i) frame.up[i] = static_cast<float>(model.options.up[i]);
  frame.shapes.reserve(model.shape_count());
  for (int s = 0; s < model.shape_count(); ++s) {
    const ShapeGeometry& geometry = model.shape_geometry[s];
    const int body = model.shape_body[s];
    // world pose of the shape: body pose (if any) times the shape's local pose
    const Pose X_WS =
        body == kWorldBody ? model.shape_X_BS[s] : state.body_X_WB[body] * model.shape_X_BS[s];
    VisualShape shape;
    shape.type = geometry.type;
    shape.body = body;
    switch (geometry.type) {
      case ShapeType::kBox:
        for (int i = 0; i < 3; ++i) shape.size[i] = static_cast<float>(geometry.half_extents[i]);
        break;
      case ShapeType::kSphere:
        shape.size[0] = static_cast<float>(geometry.radius);
        break;
      case ShapeType::kCapsule:
      case ShapeType::kCylinder:
        shape.size[0] = static_cast<float>(geometry.radius);
        shape.size[1] = static_cast<float>(geometry.half_length);
        break;
      case ShapeType::kPlane:
        shape.size[0] = kPlaneDrawHalfSize;
        shape.size[1] = kPlaneGridCell;
        break;
      case ShapeType::kConvexHull:  // drawn from their own triangles (not a unit mesh)
      case ShapeType::kMesh:
      case ShapeType::kSdf:
      case ShapeType::kNone:
        break;
    }
    const Mat3 R = X_WS.q.toRotationMatrix();
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) shape.X_WS[r * 4 + c] = static_cast<float>(R(r, c));
      shape.X_WS[r * 4 + 3] = static_cast<float>(X_WS.p[r]);
    }
    const auto& color = model.shape_color[s];
    shape.color = {color[0], color[1], color[2], 1.0f};
    frame.shapes.push_back(shape);
  }
  return frame;
}

}  // namespace sim
