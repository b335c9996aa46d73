// ScriptedRun: the studio's unattended mode (`--frames N --screenshot FILE.png --exit`), used by
// the GUI smoke tests and to make README screenshots. After the first scene load finishes it counts
// N rendered frames, then saves the screenshot and/or quits with an exit code that says whether the
// load, the rendering and the screenshot all worked. On the way it can play a ctrl+drag on the
// viewport with QTest mouse events (`--drag X0,Y0,X1,Y1`), press keys (`--keys Space,Right`),
// open another file halfway (`--open-after FILE`) and cancel that load once it shows its progress
// (`--cancel-load SHOT.png`: the window saved, then the Cancel button clicked with QTest); it
// acts only once a load it started has ended. It can log its resident memory every few frames
// (`--memory-log N`: "memory: frame F rss R kB step S", VmRSS from /proc/self/status and lane 0's
// step) for soak tests. It drops a file on the 3D view halfway (`--drop FILE`: a drag-enter and a
// drop event with the file's URL, through the window's own drop handling), and clicks an import
// dialog's Import button (Save as Scene… when its presets name a `save` file) once it shows,
// Cancel when the save fails. On the way and at the end it prints what happened on stdout:
//   load: ok|failed|cancelled PATH at sim time T s    (each load after the first)
//   status: MESSAGE                                   (the status bar's message then)
//   drop: FILE accepted|refused, status: MESSAGE      (--drop)
//   import dialog: MASS TEXT | SIZE TEXT              (each import dialog, as it shows)
//   import error: MESSAGE                             (a failed save in the dialog)
//   sim: time T s, steps N, running|paused
//   lanes: LABEL | LABEL ...
//   frame rate: R fps           (the viewport's figure: presented frames per second, last second)
//   frame time: median F ms; step time: median S ms
//   scene: NAME
//   shape NAME x y z            (lane 0's shapes, world positions [m])
//   diagnostics: E errors, W warnings
//   load widgets: hidden|visible
//   teleop NAME target X Y Z actual X Y Z error E mm   (lane 0's end effectors, teleop scenes)
//   teleop latency: last L ms, mean M ms, max X ms, steps S, samples N
//   teleop status: MESSAGE          (the last record/replay outcome, e.g. the replay's hash)
//   help: visible, N rows           (the F1 keys panel, when shown)
//   paint: undo U, unsaved N, MESSAGE  (with --paint: the painter's state and last outcome)
//   camera: target X Y Z distance D follow BODY   (BODY −1: none)
//   screenshot at frame F: PATH sim time T s      (each --screenshot-every shot)
// With `follow` the camera follows that body from the first frame (as key T with it selected).
//   lane LABEL: hash H, max speed S m/s, non-finite N, runaway R, stepping|stopped
//   joint NAME: position P, target T, drive D, taken 0|1   (with --drag-joint)
//   click at X Y px (world X Y Z)                      (with --click-world)
//   inspector: SECTION: FIGURE = VALUE                 (the inspector panel's rows, when shown)
#pragma once

#include <array>
#include <functional>
#include <vector>

#include <QElapsedTimer>
#include <QObject>
#include <QPoint>
#include <QPointF>
#include <QString>
#include <QStringList>
#include <QTimer>

namespace sim::ui {

class ImportDialog;
class MainWindow;
struct SimSnapshot;

struct ScriptedRunOptions {
  int frames = 0;      ///< frames to render after the scene load before acting (>= 1)
  QString screenshot;  ///< PNG to write then; empty: none
  /// > 0: with `screenshot`, also write STEM-FFFF.png (F the frame) every this many frames
  int screenshot_every = 0;
  /// non-empty: the camera follows this body (a name of the scene) from the first frame
  QString follow;
  bool exit = false;             ///< quit after acting
  int stall_timeout_ms = 60000;  ///< with `exit`: give up when no frame arrives for this long
  /// ctrl+drag on the viewport from `drag_from` to `drag_to` (logical pixels): pressed at 10 % of
  /// the frames, moved there over the next 10 % and held until the end; off when `drag` is false
  bool drag = false;
  QPointF drag_from, drag_to;
  /// the same drag without ctrl in paint mode (a paint stroke with the paint panel's brush),
  /// released when the move ends (20 % of the frames), then, with `save_paint`, the painted
  /// fields saved beside the scene (as Ctrl+S)
  bool paint = false;
  bool save_paint = false;
  /// the same drag without ctrl in teleop mode (grabbing the gizmo), released two frames after
  /// the move
  bool gizmo = false;
  /// teleop mode on from the first frame (the teleop panel's first end effector)
  bool teleop = false;
  /// non-empty: this body of the scene becomes the active end effector at the first frame
  QString teleop_body;
  /// non-empty: record the teleop session from the first frame (the scene reset to its initial
  /// state) and write it here at the end
  QString record_teleop;
  /// non-empty: replay this recording (its scene opened) from the first frame; the run ends
  /// once the replay has, and not before the frames are done
  QString replay;
  QString open_after;  ///< file to open at half the frames; empty: none
  QString drop;        ///< file dropped on the 3D view at half the frames; empty: none
  /// non-empty: once the `open_after` load shows a progress value, save the window here and click
  /// the Cancel button
  QString cancel_load_screenshot;
  /// non-empty: at the first frame that lists it, this joint's drive target slider is dragged to
  /// `drag_joint_target` [rad or m] (ScenePanel::DragJointSlider)
  QString drag_joint;
  double drag_joint_target = 0;
  /// keys pressed on the main window at a quarter of the frames, in order (e.g. Space, Right)
  QStringList keys;
  /// > 0: press `keys` every this many frames instead (e.g. V cycles the views)
  int keys_every = 0;
  /// > 0: pause the simulation (Space) after this many frames, so later frames draw one state
  int pause_after = 0;
  /// > 0: at the first frame, pause and take this many steps (as the Right key), so later frames
  /// draw the state after exactly that many steps
  int steps = 0;
  /// a left click at the pixel where world point `click_world` [m] is seen, once `steps` are
  /// taken (else at half of the frames); off when `click` is false
  bool click = false;
  std::array<double, 3> click_world = {0, 0, 0};
  /// > 0: print the resident memory when counting starts and every this many frames
  int memory_log_every = 0;
};

class ScriptedRun : public QObject {
  Q_OBJECT

 public:
  /// Watches `window` (which must outlive this object) from now on.
  ScriptedRun(MainWindow* window, ScriptedRunOptions options, QObject* parent = nullptr);

 signals:
  /// The run is over; with `exit` set, quit the application with `exit_code` (0: all went well,
  /// 1: the scene failed to load, rendering failed or the screenshot could not be written).
  void Finished(int exit_code);

 private:
  void OnSceneLoadFinished(bool ok, const QString& path);
  void OnFrameRendered(quint64 count);
  void OnStalled();
  void Act();
  void PlayScript(quint64 frame);
  void PressKeys(const QStringList& names);
  void CancelLoadWhenShown();
  // the --click-world click, once it is due
  void ClickWhenDue(quint64 frame);
  // drops `file` on the viewport as a file manager's drag would
  void DropFile(const QString& file);
  // prints the import dialog's mass and size, then clicks Import or Save as Scene…
  void DriveImportDialog(ImportDialog* dialog);
  void LogMemory(quint64 frame) const;
  // the --screenshot-every shot of `frame`
  void SaveNumberedScreenshot(quint64 frame);
  void PrintSummary() const;
  // `position` [logical px] clamped into the viewport
  QPoint InViewport(const QPointF& position) const;
  // the replay (--replay) has run to its end, or cannot
  bool ReplayOver() const;
  // stops the recording (--record-teleop) and waits for the worker to write it
  void SaveRecording();
  // processes events until the worker's latest snapshot satisfies `done` (10 s at most)
  void WaitForWorker(const std::function<bool(const SimSnapshot&)>& done);

  MainWindow* window_;
  ScriptedRunOptions options_;
  QTimer stall_timer_;
  bool counting_ = false;
  bool done_ = false;
  bool load_failed_ = false;
  quint64 target_frame_ = 0;
  quint64 start_frame_ = 0;
  bool drag_pressed_ = false;
  bool drag_released_ = false;
  bool paint_saved_ = false;
  bool opened_after_ = false;
  bool dropped_ = false;
  bool cancel_clicked_ = false;
  bool keys_pressed_ = false;
  bool joint_dragged_ = false;
  bool paused_ = false;
  bool steps_sent_ = false;
  bool clicked_ = false;
  bool teleop_on_ = false;
  bool recording_started_ = false;
  bool replay_started_ = false;
  bool follow_started_ = false;
  QElapsedTimer frame_clock_;
  std::vector<double> frame_ms_;  // intervals between rendered frames after the load
};

}  // namespace sim::ui
