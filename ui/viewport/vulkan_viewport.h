// VulkanViewport: the studio's 3D view. A QVulkanWindow (embedded in the main window with
// QWidget::createWindowContainer) whose renderer draws the latest VisualFrame with
// sim::render::SceneRenderer and the ImGui stats overlay with sim::render::OverlayRenderer, every
// frame (continuous rendering), in the view mode and with the markers of its RenderOptions, which
// the overlay's View panel and the host's menus edit. Mouse: left-drag orbits; right-, middle- or
// shift+left-drag pans; the wheel zooms; F resets the camera; T follows the selected body, A frames
// everything, S the selected body; V cycles the view mode; a click or
// double click asks to pick, ctrl+left-drag to pull with the mouse spring (signals; the main
// window turns them into simulation commands). ImGui gets every event first and keeps the mouse
// when it is over one of its windows.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <QString>
#include <QVulkanWindow>

#include "engine/visual/camera.h"
#include "engine/visual/visual_frame.h"
#include "render/render_options.h"
#include "render/teleop_gizmo.h"
#include "ui/viewport/camera_controller.h"
#include "ui/viewport/imgui_qt_input.h"
#include "ui/viewport/pick_controller.h"
#include "ui/viewport/viewport_stats.h"

namespace sim::ui {

class ViewportRenderer;

class VulkanViewport : public QVulkanWindow {
  Q_OBJECT

 public:
  /// `instance` must be created and outlive the viewport. Asks for 4× MSAA on GPUs that offer it
  /// (none on software rasterizers such as lavapipe, for speed; CONTACT_STUDIO_MSAA=N overrides)
  /// and for an sRGB swapchain (linear shading, correct blending), and keeps GPU resources while
  /// the window is hidden.
  explicit VulkanViewport(QVulkanInstance* instance);
  ~VulkanViewport() override;

  QVulkanWindowRenderer* createRenderer() override;

  /// Publishes the snapshot to draw from now on (latest wins). Thread-safe: a simulation worker may
  /// call it while the GUI thread renders; the viewport keeps the frame alive while drawing it.
  void SetFrame(std::shared_ptr<const VisualFrame> frame);
  /// The newest snapshot (never null: an empty frame before the first SetFrame). Thread-safe.
  std::shared_ptr<const VisualFrame> LatestFrame() const;

  /// Scene title shown in the overlay.
  void SetSceneName(const QString& name);
  /// Makes `camera` the home view (what F and View > Reset Camera return to) and moves there.
  void SetHomeCamera(const OrbitCamera& camera);
  /// Moves the camera back to the home view.
  void ResetCamera();
  /// Moves the camera to `camera` (a named view of the scene); the home view stays.
  void SetView(const OrbitCamera& camera) { camera_.SetView(camera); }
  const OrbitCamera& camera() const { return camera_.camera(); }
  /// The camera follows body `body` from the next frame (kWorldBody: stops); `recentre` moves the
  /// target onto it first. Emits FollowChanged.
  void SetFollowBody(int body, bool recentre);
  int follow_body() const { return camera_.follow(); }
  /// Follows the selected body (key T), or stops when one is followed; false when there is
  /// nothing to follow (no selection).
  bool ToggleFollowSelection();
  /// Fits everything drawn (key A), or the selected body (key S), in view; false when there is
  /// nothing bounded to frame (no selection, a ground alone).
  bool FrameAll();
  bool FrameSelection();

  /// How the scene is drawn: view mode (shaded, strain, contacts), legends, collision geometry,
  /// joint frames, centres of mass, shadows. The overlay's View panel edits the same options and
  /// emits RenderOptionsChanged. GUI thread.
  void SetRenderOptions(const render::RenderOptions& options);
  const render::RenderOptions& render_options() const { return render_options_; }

  void SetOverlayVisible(bool visible) { overlay_visible_ = visible; }
  /// Names drawn over the compared lanes (empty: none). GUI thread.
  void SetLaneLabels(std::vector<LaneLabel> labels) { lane_labels_ = std::move(labels); }
  /// The contact the inspector follows, ringed in the viewport (nullopt: none). GUI thread.
  void SetInspectedContact(std::optional<Vec3> point_W) { inspected_contact_ = point_W; }
  /// Paint mode: left drags paint structure fields (PaintStarted/Moved/Ended) instead of
  /// orbiting; the cursor is a cross.
  void SetPaintMode(bool on);
  bool paint_mode() const { return pick_.paint_mode(); }
  /// Teleop mode: a left press on the gizmo's arrows or rings (drawn on the active end
  /// effector's target, VisualFrame::teleop_targets) drags the target (TeleopPoseDragged) instead
  /// of orbiting; keys go to `key_filter` first, which returns true for those it used (key 0,
  /// released: the viewport lost focus, every held key is up).
  void SetTeleopMode(bool on);
  bool teleop_mode() const { return teleop_mode_; }
  void SetTeleopKeyFilter(std::function<bool(int key, bool pressed, bool auto_repeat)> filter) {
    teleop_key_filter_ = std::move(filter);
  }
  bool overlay_visible() const { return overlay_visible_; }

  /// Frames recorded and handed to the swapchain since the viewport was created.
  std::uint64_t frames_rendered() const { return frames_rendered_; }
  /// Averaged frame rate [1/s] and frame interval [ms].
  double fps() const { return frame_rate_.fps(); }
  double frame_ms() const { return frame_rate_.frame_ms(); }
  /// Physical device name once the device exists, else empty.
  QString device_name() const { return device_name_; }
  /// The last rendering error (empty when none).
  QString render_error() const { return render_error_; }

 signals:
  /// The Vulkan device is up; `device_name` as reported by the driver.
  void DeviceReady(const QString& device_name);
  /// A frame was handed to the swapchain; `count` frames so far. Connect queued when the slot
  /// grabs the window (QVulkanWindow::grab() cannot run inside a frame).
  void FrameRendered(quint64 count);
  /// Creating or using the renderer failed; the viewport keeps clearing to the sky colour.
  void RenderError(const QString& message);
  /// The render options changed (View panel, V key or SetRenderOptions); read render_options().
  void RenderOptionsChanged();
  /// Picking and the mouse spring, at cursor positions in logical pixels (PickController).
  void PickRequested(const QPointF& position);
  void DragStarted(const QPointF& position);
  void DragMoved(const QPointF& position);
  void DragEnded();
  /// A paint stroke in paint mode (SetPaintMode), at cursor positions in logical pixels.
  void PaintStarted(const QPointF& position);
  void PaintMoved(const QPointF& position);
  void PaintEnded();
  /// The gizmo was dragged: the active end effector's new pose target (world).
  void TeleopPoseDragged(const sim::Pose& target);
  /// The followed body changed (SetFollowBody, key T); kWorldBody: none.
  void FollowChanged(int body);

 protected:
  void mousePressEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void keyReleaseEvent(QKeyEvent* event) override;
  void focusOutEvent(QFocusEvent* event) override;
  bool event(QEvent* event) override;

 private:
  friend class ViewportRenderer;

  // called by the renderer on the GUI thread
  void OnDeviceReady(const QString& device_name);
  void OnFrameRendered();
  void OnRenderError(const QString& message);
  StatsOverlayInfo MakeStatsInfo(const VisualFrame& frame) const;
  int ChooseSampleCount();
  void OnRenderOptionsEdited();
  void UpdateCursor();
  void EmitPickAction(PickController::Action action, const QPointF& position);
  // the gizmo handle under the cursor in teleop mode; starts a gizmo drag when one is hit
  bool BeginGizmoDrag(const QPointF& position);
  // frames the bounds of the latest frame (of `body` only when given); false when empty
  bool FrameBody(std::optional<int> body);

  mutable std::mutex frame_mutex_;  // guards latest_frame_ only
  std::shared_ptr<const VisualFrame> latest_frame_;

  CameraController camera_;
  PickController pick_;
  QString scene_name_;
  bool overlay_visible_ = true;
  std::vector<LaneLabel> lane_labels_;
  std::optional<Vec3> inspected_contact_;
  render::RenderOptions render_options_;
  // teleop gizmo drag
  bool teleop_mode_ = false;
  render::GizmoHandle gizmo_handle_ = render::GizmoHandle::kNone;
  Pose gizmo_start_;
  Vec3 gizmo_ray_origin_ = Vec3::Zero(), gizmo_ray_direction_ = -Vec3::UnitZ();
  std::function<bool(int, bool, bool)> teleop_key_filter_;
  double render_cpu_ms_ = 0;  // CPU time of the last startNextFrame's preparing and recording

  ImGuiQtInput imgui_input_;
  FrameRateMeter frame_rate_;
  std::uint64_t frames_rendered_ = 0;
  QString device_name_;
  QString render_error_;
};

}  // namespace sim::ui
