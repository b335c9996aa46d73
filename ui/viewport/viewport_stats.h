// Viewport statistics: the frame-rate meter (presented frames per second over the last second; a
// per-frame FPS flickers too much to read), the small ImGui stats box drawn at the viewport's
// top-left corner, the compared lanes' labels, and the hint shown while no scene is loaded.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include <QElapsedTimer>

#include "engine/core/math.h"
#include "engine/visual/camera.h"

namespace sim::ui {

/// The studio's one frame-rate figure: presented frames per second over the last second. Every
/// readout (the viewport's stats box, the status bar, the statistics panel, the scripted run's
/// summary) reads this meter. The figure changes only when a frame is presented, so readouts taken
/// between two frames agree exactly.
class FrameRateMeter {
 public:
  /// Length of the window the rate is measured over [s].
  static constexpr double kWindowSeconds = 1.0;

  /// Records one presented frame now (call once per frame, GUI thread).
  void Tick();
  /// Records one presented frame at `seconds` on a steady clock (non-decreasing) [s].
  void TickAt(double seconds);
  /// Frames per second over the last window: the intervals between the frames presented in the
  /// last kWindowSeconds (and the one before them) divided into their span; with frames further
  /// apart than the window, the last interval alone. 0 before the second frame.
  double fps() const { return fps_; }
  /// Mean interval between those frames, 1000 / fps() [ms]; 0 before the second frame.
  double frame_ms() const { return fps_ > 0 ? 1000.0 / fps_ : 0.0; }

 private:
  QElapsedTimer clock_;
  std::deque<double> times_;  // presentation times in the window, oldest first [s]
  double fps_ = 0;
};

/// What the stats box shows besides the frame rate.
struct StatsOverlayInfo {
  std::string scene_name;      ///< "(no scene)" when nothing is loaded
  double fps = 0;              ///< averaged frames per second
  double frame_ms = 0;         ///< averaged frame interval [ms]
  double sim_time = 0;         ///< simulated time of the drawn frame [s]
  std::uint64_t sim_step = 0;  ///< steps taken by the drawn frame
  int shape_count = 0;         ///< shapes in the drawn frame
  int samples = 1;             ///< MSAA samples of the viewport
  // appended for the render views
  int mesh_count = 0;        ///< mesh instances in the drawn frame
  int soft_body_count = 0;   ///< soft bodies in the drawn frame
  int contact_count = 0;     ///< contacts in the drawn frame
  double render_cpu_ms = 0;  ///< CPU time preparing and recording the last frame [ms]
  std::string view;          ///< view mode name ("shaded", ...)
};

/// Draws the stats box with ImGui; call between ImGui::NewFrame() and ImGui::Render().
void DrawStatsOverlay(const StatsOverlayInfo& info);

/// A compared lane's name drawn in the viewport over its scene.
struct LaneLabel {
  std::string text;          ///< the lane's solver label
  Vec3 at_W = Vec3::Zero();  ///< where, world [m] (LaneLabelPoint plus the lane's offset)
  /// the lane failed and stopped: drawn in red, marked "(stopped)" or "(unsupported)"
  bool stopped = false;
  bool unsupported = false;
  std::uint32_t color = 0;  ///< the lane's 0xRRGGBB (LaneColor), a bar under the name
};

/// Draws each label centred above its point as `camera` sees it; same calling rules.
void DrawLaneLabels(const std::vector<LaneLabel>& labels, const OrbitCamera& camera);

/// Draws a centred hint on how to open a scene, for an empty viewport; same calling rules.
void DrawNoSceneHint();

}  // namespace sim::ui
