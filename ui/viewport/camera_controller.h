// CameraController: turns viewport mouse input into OrbitCamera motion, with the "grab the world"
// convention of MuJoCo's simulate and most DCC tools (the scene follows the cursor):
//   left drag: orbit; right, middle or shift+left drag: pan; wheel: zoom; Reset: the home view.
// It can follow a body (Track moves the target with the body's centre of mass, so orbit, pan and
// zoom keep working around it) and frame a box (frame all, frame the selection).
// A press that lands on the ImGui overlay starts no drag, so the camera stays put while the user
// works the overlay. Pure logic on Qt value types: testable without a window or a display.
#pragma once

#include <QPointF>
#include <Qt>

#include <optional>

#include <Eigen/Core>

#include "engine/visual/camera.h"
#include "engine/visual/frame_bounds.h"
#include "engine/visual/visual_frame.h"

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
  /// Back to the home view (key F, View > Reset Camera); a followed body stays followed, the
  /// target recentred on it at the next Track.
  void Reset();
  /// Moves to `camera` (a named view); the home view stays.
  void SetView(const OrbitCamera& camera) { camera_ = camera; }
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

  /// Follows body `body` of the frames given to Track (kWorldBody: follows nothing). `recentre`:
  /// the target jumps to the body's centre of mass at the next Track; else it keeps its offset.
  void SetFollow(int body, bool recentre);
  /// The followed body, or kWorldBody.
  int follow() const { return follow_; }
  /// Moves the target, and so the eye, by the followed body's motion since the last Track (its
  /// centre of mass in `frame.bodies`); a frame without that body changes nothing.
  void Track(const VisualFrame& frame);
  /// Frames `box` in an image of width/height `aspect` (OrbitCamera::FrameBox).
  void Frame(const Box3f& box, float aspect) { camera_.FrameBox(box.lower, box.upper, aspect); }

  Drag drag() const { return drag_; }

 private:
  OrbitCamera camera_;
  OrbitCamera home_;
  Drag drag_ = Drag::kNone;
  Qt::MouseButton drag_button_ = Qt::NoButton;
  QPointF last_position_;
  int follow_ = kWorldBody;
  bool recentre_ = false;
  std::optional<Eigen::Vector3f> followed_at_;  // the body's centre of mass at the last Track
};

}  // namespace sim::ui
