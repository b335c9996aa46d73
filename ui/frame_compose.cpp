// Side-by-side view of compared lanes.
#include "ui/frame_compose.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "engine/state/state.h"
#include "engine/visual/lane_colors.h"

namespace sim::ui {

namespace {

// a row-major 3×4 pose moved by `offset`
void Translate(const Vec3& offset, std::array<float, 12>* X) {
  for (int r = 0; r < 3; ++r) (*X)[r * 4 + 3] += static_cast<float>(offset[r]);
}

void Translate(const Vec3& offset, std::array<float, 3>* p) {
  for (int i = 0; i < 3; ++i) (*p)[i] += static_cast<float>(offset[i]);
}

}  // namespace


void AppendLaneFrame(const VisualFrame& lane, const Vec3& offset, int lane_index, VisualFrame* view,
                     bool ghost) {
  const std::array<float, 3> rgb = LaneColorLinear(lane_index);
  const std::array<float, 4> ghost_color = {rgb[0], rgb[1], rgb[2], kLaneGhostOpacity};
  for (VisualShape shape : lane.shapes) {
    if (shape.body == kWorldBody && !shape.particle) continue;
    if (ghost && (shape.collision_only || shape.drive_target)) continue;
    Translate(offset, &shape.X_WS);
    if (ghost) {
      shape.lane_ghost = true;
      shape.color = ghost_color;
    }
    view->shapes.push_back(shape);
  }
  // mesh assets: reuse the view's index of a pointer it already has
  for (VisualMeshInstance instance : lane.mesh_instances) {
    if (instance.body == kWorldBody) continue;
    if (instance.mesh < 0 || instance.mesh >= static_cast<int>(lane.meshes.size())) continue;
    const auto& mesh = lane.meshes[instance.mesh];
    const auto found = std::find(view->meshes.begin(), view->meshes.end(), mesh);
    instance.mesh = static_cast<std::int32_t>(found - view->meshes.begin());
    if (found == view->meshes.end()) view->meshes.push_back(mesh);
    Translate(offset, &instance.X_WS);
    if (ghost) {
      if (instance.collision_only || instance.drive_target) continue;
      instance.lane_ghost = true;
      instance.color = ghost_color;
    }
    view->mesh_instances.push_back(instance);
  }
  for (VisualSoftBody soft : lane.soft_bodies) {
    for (auto& p : soft.positions) Translate(offset, &p);
    view->soft_bodies.push_back(std::move(soft));
  }
  for (VisualContact contact : lane.contacts) {
    Translate(offset, &contact.point);
    contact.lane = lane_index;
    view->contacts.push_back(contact);
  }
  // what holds the lane's bodies: joint anchors, attachments and fixed nodes, moved with it
  for (VisualJoint joint : lane.joints) {
    Translate(offset, &joint.X_WJ);
    view->joints.push_back(joint);
  }
  for (VisualAttachment attachment : lane.attachments) {
    Translate(offset, &attachment.particle);
    Translate(offset, &attachment.anchor);
    Translate(offset, &attachment.body_com);
    view->attachments.push_back(attachment);
  }
  for (std::array<float, 3> node : lane.fixed_particles) {
    Translate(offset, &node);
    view->fixed_particles.push_back(node);
  }
  for (VisualStructureGlyph glyph : lane.structure_glyphs) {
    if (glyph.on_world) continue;
    Translate(offset, &glyph.center);
    view->structure_glyphs.push_back(glyph);
  }
}


namespace {

// calls extend(centre, radius) [m] for each moving shape and particle: a lane's moving parts
template <typename Extend>
void ForEachMovingPart(const Model& model, const State& state, Extend&& extend) {
  for (int s = 0; s < model.shape_count(); ++s) {
    const int body = model.shape_body[s];
    if (body == kWorldBody || model.body_static[body] != 0) continue;
    const Pose X_WS = state.body_X_WB[body] * model.shape_X_BS[s];
    // analytic fields have no finite bound: their origin stands for them
    const Real radius = BoundingRadius(model.shape_geometry[s]);
    extend(X_WS.p, std::isfinite(radius) ? radius : 0);
  }
  for (int p = 0; p < model.particle_count(); ++p) {
    extend(state.particle_x_W[p], model.particle_radius[p]);
  }
}

}  // namespace


Vec3 LaneOffset(const Model& model, const State& state, const Vec3& across) {
  Real lower = std::numeric_limits<Real>::infinity();
  Real upper = -lower;
  ForEachMovingPart(model, state, [&](const Vec3& p, Real radius) {
    const Real s = across.dot(p);
    lower = std::min(lower, s - radius);
    upper = std::max(upper, s + radius);
  });
  const Real extent = upper > lower ? upper - lower : 0;
  return across * (extent + std::max(Real(0.5), extent / 3));
}


Vec3 LaneLabelPoint(const Model& model, const State& state) {
  const Vec3& up = model.options.up;
  constexpr Real kInf = std::numeric_limits<Real>::infinity();
  Vec3 lower = Vec3::Constant(kInf), upper = Vec3::Constant(-kInf);
  Real top = -kInf;
  ForEachMovingPart(model, state, [&](const Vec3& p, Real radius) {
    lower = lower.cwiseMin(p);
    upper = upper.cwiseMax(p);
    top = std::max(top, up.dot(p) + radius);
  });
  if (!std::isfinite(top)) return Vec3::Zero();
  // the middle of the parts, raised to their top plus 10 cm
  const Vec3 middle = 0.5 * (lower + upper);
  return middle + (top - up.dot(middle) + Real(0.1)) * up;
}


OrbitCamera CompareCamera(const OrbitCamera& home, const Vec3& offset, int lanes) {
  OrbitCamera camera = home;
  if (lanes < 2) return camera;
  const Vec3 half = 0.5 * (lanes - 1) * offset;
  camera.target += half.cast<float>();
  const float tan_half_fov = std::tan(0.5f * camera.fov_y_deg * static_cast<float>(M_PI) / 180);
  camera.distance += static_cast<float>(half.norm()) / tan_half_fov;
  return camera;
}

}  // namespace sim::ui
