// PickController: turns viewport mouse input into picking and mouse-spring actions, beside the
// CameraController (MuJoCo simulate conventions):
//   a click (left press and release without moving), or a double click: select what is under the
//   cursor (nothing: clear the selection);
//   ctrl + left drag: grab what is under the cursor with the spring and pull it to the cursor;
//   in paint mode, a left drag without ctrl paints a stroke (the camera orbits with alt + left).
// Pure logic on Qt value types, testable without a window; PixelRay turns a cursor position into
// the world ray the simulation worker casts.
#pragma once

#include <QPointF>
#include <QSizeF>
#include <Qt>

#include "engine/core/math.h"
#include "engine/visual/camera.h"
#include "engine/visual/visual_frame.h"

namespace sim::ui {

class PickController {
 public:
  /// Cursor travel [logical px] below which a press and release still count as a click.
  static constexpr double kClickSlop = 4.0;

  enum class Action {
    kNone = 0,
    kPick,
    kBeginDrag,
    kMoveDrag,
    kEndDrag,
    kBeginPaint,
    kMovePaint,
    kEndPaint
  };

  /// A button went down. Returns kBeginDrag for ctrl+left, kBeginPaint for a plain left press in
  /// paint mode (then the camera must not see the press); otherwise remembers a left press as a
  /// possible click and returns kNone.
  Action Press(Qt::MouseButton button, Qt::KeyboardModifiers modifiers, const QPointF& position,
               bool overlay_has_mouse);
  /// The cursor moved: kMoveDrag while the spring is held, kMovePaint while painting.
  Action Move(const QPointF& position);
  /// A button went up: kEndDrag when it ends the spring, kEndPaint a stroke, kPick a click.
  Action Release(Qt::MouseButton button, const QPointF& position);
  /// A double click: kPick unless the overlay has the mouse.
  Action DoubleClick(Qt::MouseButton button, bool overlay_has_mouse);
  /// Ends everything (focus lost): kEndDrag when the spring was held, kEndPaint when painting.
  Action Cancel();

  /// Paint mode: left drags paint instead of orbiting and clicks do not select.
  void SetPaintMode(bool on) { paint_mode_ = on; }
  bool paint_mode() const { return paint_mode_; }
  bool dragging() const { return dragging_; }
  bool painting() const { return painting_; }

 private:
  bool paint_mode_ = false;
  bool painting_ = false;
  bool dragging_ = false;
  bool click_candidate_ = false;
  QPointF press_position_;
};

/// The world ray through the cursor at `position` in a view of `size` (both logical pixels, origin
/// top-left) seen by `camera`: from the eye through the pixel, unit direction.
void PixelRay(const OrbitCamera& camera, const QPointF& position, const QSizeF& size, Vec3* origin,
              Vec3* direction);

/// Cursor distance [logical px] within which a click picks a drawn contact point.
inline constexpr double kContactPickRadius = 10.0;

/// The index in `frame.contacts` of the contact drawn nearest the cursor at `position` in a view of
/// `size` (logical pixels, origin top-left) seen by `camera`, within `radius` pixels; −1 when
/// none is.
int PickContact(const VisualFrame& frame, const OrbitCamera& camera, const QPointF& position,
                const QSizeF& size, double radius = kContactPickRadius);

/// The camera's forward axis (eye towards target), unit.
Vec3 ViewDirection(const OrbitCamera& camera);

}  // namespace sim::ui
