// PickController and the cursor ray.
#include "ui/viewport/pick_controller.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include <Eigen/LU>

namespace sim::ui {

PickController::Action PickController::Press(Qt::MouseButton button,
                                             Qt::KeyboardModifiers modifiers,
                                             const QPointF& position, bool overlay_has_mouse) {
  click_candidate_ = false;
  if (overlay_has_mouse || dragging_ || painting_ || button != Qt::LeftButton) {
    return Action::kNone;
  }
  if (modifiers.testFlag(Qt::ControlModifier)) {
    dragging_ = true;
    return Action::kBeginDrag;
  }
  if (paint_mode_ && !modifiers.testFlag(Qt::AltModifier) &&
      !modifiers.testFlag(Qt::ShiftModifier)) {
    painting_ = true;
    return Action::kBeginPaint;
  }
  click_candidate_ = true;
  press_position_ = position;
  return Action::kNone;
}


PickController::Action PickController::Move(const QPointF& position) {
  if (dragging_) return Action::kMoveDrag;
  if (painting_) return Action::kMovePaint;
  // a press that travels is an orbit or a pan, not a click
  const QPointF travel = position - press_position_;
  if (click_candidate_ && std::hypot(travel.x(), travel.y()) > kClickSlop) {
    click_candidate_ = false;
  }
  return Action::kNone;
}


PickController::Action PickController::Release(Qt::MouseButton button, const QPointF& position) {
  if (button != Qt::LeftButton) return Action::kNone;
  if (dragging_) {
    dragging_ = false;
    return Action::kEndDrag;
  }
  if (painting_) {
    painting_ = false;
    return Action::kEndPaint;
  }
  const QPointF travel = position - press_position_;
  const bool click = click_candidate_ && std::hypot(travel.x(), travel.y()) <= kClickSlop;
  click_candidate_ = false;
  return click ? Action::kPick : Action::kNone;
}


PickController::Action PickController::DoubleClick(Qt::MouseButton button, bool overlay_has_mouse) {
  return button == Qt::LeftButton && !overlay_has_mouse && !dragging_ && !paint_mode_
             ? Action::kPick
             : Action::kNone;
}


PickController::Action PickController::Cancel() {
  click_candidate_ = false;
  if (painting_) {
    painting_ = false;
    return Action::kEndPaint;
  }
  if (!dragging_) return Action::kNone;
  dragging_ = false;
  return Action::kEndDrag;
}


void PixelRay(const OrbitCamera& camera, const QPointF& position, const QSizeF& size, Vec3* origin,
              Vec3* direction) {
  const double width = std::max(1.0, size.width());
  const double height = std::max(1.0, size.height());
  // pixel → NDC as in OrbitCamera::ProjectToPixel (Vulkan: (−1, −1) is the top-left corner),
  // then back through projection and view at the near and far depths (0 and 1)
  const double x_ndc = 2 * position.x() / width - 1;
  const double y_ndc = 2 * position.y() / height - 1;
  const Eigen::Matrix4d clip_from_world =
      (camera.ProjectionMatrix(static_cast<float>(width / height)) * camera.ViewMatrix())
          .cast<double>();
  const Eigen::Matrix4d world_from_clip = clip_from_world.inverse();
  auto unproject = [&](double depth) {
    const Eigen::Vector4d p = world_from_clip * Eigen::Vector4d(x_ndc, y_ndc, depth, 1);
    return Vec3(p.head<3>() / p.w());
  };
  const Vec3 near_point = unproject(0);
  const Vec3 far_point = unproject(1);
  *origin = camera.Eye().cast<double>();
  *direction = (far_point - near_point).normalized();
}


int PickContact(const VisualFrame& frame, const OrbitCamera& camera, const QPointF& position,
                const QSizeF& size, double radius) {
  const int width = std::max(1, static_cast<int>(std::lround(size.width())));
  const int height = std::max(1, static_cast<int>(std::lround(size.height())));
  int best = -1;
  double best_distance = radius;
  for (int i = 0; i < static_cast<int>(frame.contacts.size()); ++i) {
    const auto& p = frame.contacts[i].point;
    const std::optional<Eigen::Vector2f> pixel =
        camera.ProjectToPixel(Vec3(p[0], p[1], p[2]), width, height);
    if (!pixel) continue;
    const double distance = std::hypot(pixel->x() - position.x(), pixel->y() - position.y());
    if (distance <= best_distance) {
      best_distance = distance;
      best = i;
    }
  }
  return best;
}


Vec3 ViewDirection(const OrbitCamera& camera) {
  return (camera.target - camera.Eye()).cast<double>().normalized();
}

}  // namespace sim::ui
