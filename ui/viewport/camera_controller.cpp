// CameraController: mouse drags and wheel -> OrbitCamera.
#include "ui/viewport/camera_controller.h"

#include <algorithm>
#include <cmath>

namespace sim::ui {

void CameraController::SetHome(const OrbitCamera& camera) {
  home_ = camera;
  camera_ = camera;
}


bool CameraController::Press(Qt::MouseButton button, Qt::KeyboardModifiers modifiers,
                             const QPointF& position, bool overlay_has_mouse) {
  last_position_ = position;
  // one drag at a time; a press on the overlay belongs to the overlay until it is released
  if (drag_ != Drag::kNone || overlay_has_mouse) return false;
  if (button == Qt::LeftButton) {
    drag_ = modifiers.testFlag(Qt::ShiftModifier) ? Drag::kPan : Drag::kOrbit;
  } else if (button == Qt::RightButton || button == Qt::MiddleButton) {
    drag_ = Drag::kPan;
  }
  if (drag_ == Drag::kNone) return false;
  drag_button_ = button;
  return true;
}


void CameraController::Move(const QPointF& position, float viewport_height) {
  const QPointF delta = position - last_position_;
  last_position_ = position;
  const float dx = static_cast<float>(delta.x());
  const float dy = static_cast<float>(delta.y());
  if (drag_ == Drag::kOrbit) {
    // dragging right swings the near side of the scene right (the eye goes left), dragging down
    // tilts the top of the scene towards the viewer (the eye goes up)
    camera_.Orbit(-dx * kOrbitDegreesPerPixel, dy * kOrbitDegreesPerPixel);
  } else if (drag_ == Drag::kPan) {
    // one viewport height of motion pans one view height at the target: points at the target's
    // depth stay under the cursor (screen y grows downwards, the camera's dy upwards)
    const float height = std::max(1.0f, viewport_height);
    camera_.Pan(dx / height, -dy / height);
  }
}


void CameraController::Release(Qt::MouseButton button) {
  if (button != drag_button_) return;
  drag_ = Drag::kNone;
  drag_button_ = Qt::NoButton;
}


void CameraController::Wheel(float notches, bool overlay_has_mouse) {
  if (overlay_has_mouse || notches == 0.0f) return;
  camera_.Zoom(std::pow(kZoomPerNotch, notches));
}


void CameraController::Cancel() {
  drag_ = Drag::kNone;
  drag_button_ = Qt::NoButton;
}


void CameraController::Reset() {
  camera_ = home_;
  if (follow_ != kWorldBody) recentre_ = true;
}


void CameraController::SetFollow(int body, bool recentre) {
  follow_ = body;
  recentre_ = recentre;
  followed_at_.reset();
}


void CameraController::Track(const VisualFrame& frame) {
  if (follow_ < 0 || follow_ >= static_cast<int>(frame.bodies.size())) return;
  const std::array<float, 12>& X = frame.bodies[follow_].X_WB;
  const Eigen::Vector3f com(X[3], X[7], X[11]);
  if (!com.allFinite()) return;
  // MuJoCo's tracking camera: the view keeps its offset from the body
  if (recentre_) {
    camera_.target = com;
    recentre_ = false;
  } else if (followed_at_) {
    camera_.target += com - *followed_at_;
  }
  followed_at_ = com;
}

}  // namespace sim::ui
