// CameraController: turns viewport mouse input into OrbitCamera motion, with the "grab the world"
// convention of MuJoCo's simulate and most DCC tools (the scene follows the cursor):
//   left drag: orbit; right, middle or shift+left drag: pan; wheel: zoom; Reset: the home view.
// A press that lands on the ImGui overlay starts no drag, so the camera stays put while the user
// works the overlay. Pure logic on Qt value types: testable without a window or a display.
#pragma once

#include <QPointF>
#include <Qt>

#include "engine/visual/camera.h"

namespace sim::ui {

class CameraController {
 public:
  enum class Drag { kNone = 0, kOrbit, kPan };

  /// Orbit speed [deg per logical pixel]: a full drag across a ~1200 px viewport turns the view by
  /// a bit over half a turn, fine enough for precise framing.
  static constexpr float kOrbitDegreesPerPixel = 0.3f;
  /// Eye distance factor per wheel notch (120 eighths of a degree): 10 % closer per notch.
  static constexpr float kZoomPerNotch = 0.9f;

  /// Makes `camera` the home view and moves there.
  void SetHome(const OrbitCamera& camera);
  /// Back to the home view (key F, View > Reset Camera).
  void Reset() { camera_ = home_; }
  const OrbitCamera& camera() const { return camera_; }
  const OrbitCamera& home() const { return home_; }

  /// A mouse button went down at `position` (logical pixels). Starts an orbit or pan drag unless a
  /// drag is already running or `overlay_has_mouse`. Returns true when a drag started.
  bool Press(Qt::MouseButton button, Qt::KeyboardModifiers modifiers, const QPointF& position,
             bool overlay_has_mouse);
  /// The cursor moved; moves the camera by the motion since the last event while dragging.
  /// `viewport_height`: logical height of the view, which sets the pan scale.
  void Move(const QPointF& position, float viewport_height);
  /// A button went up; ends the drag it started.
  void Release(Qt::MouseButton button);
  /// Wheel turned by `notches` (positive: away from the user, zooms in), unless the overlay has
  /// the mouse.
  void Wheel(float notches, bool overlay_has_mouse);
  /// Ends any drag (focus lost).
  void Cancel();

  Drag drag() const { return drag_; }

 private:
  OrbitCamera camera_;
  OrbitCamera home_;
  Drag drag_ = Drag::kNone;
  Qt::MouseButton drag_button_ = Qt::NoButton;
  QPointF last_position_;
};

}  // namespace sim::ui
