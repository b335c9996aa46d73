// VideoMenu: the File menu's Record Video… (a key from the shortcut table toggles it) and its
// Video Frame Rate submenu. While recording, every rendered viewport frame whose simulated time
// has passed the next 1/fps boundary is read back as screenshots are (MainWindow::
// GrabViewportImage) and encoded into an MP4 (render::VideoWriter), so the video plays in
// simulated real time whatever the studio's frame rate; the status bar shows "● REC". The file
// is finished when recording stops, and when the application quits.
#pragma once

#include <cstdint>
#include <memory>

#include <QObject>
#include <QString>

#include "render/video_writer.h"

class QAction;
class QActionGroup;
class QLabel;
class QMenu;

namespace sim::ui {

class MainWindow;

class VideoMenu : public QObject {
  Q_OBJECT

 public:
  /// Video frames per second of simulated time unless chosen otherwise.
  static constexpr int kDefaultFps = 30;

  /// Adds the entries to `file` and the REC label to `window`'s status bar.
  VideoMenu(MainWindow* window, QMenu* file, QObject* parent = nullptr);
  /// Finishes a recording still running.
  ~VideoMenu() override;

  /// Records the viewport into `path` (MP4) at `fps` frames per second of simulated time from the
  /// next rendered frame on. The video takes the viewport's size at its first frame (rounded down
  /// to even). Returns false and sets `error` when `path` cannot be written or a recording runs.
  bool StartRecording(const QString& path, int fps, QString* error);
  /// Stops, finishes the file and prints "video: PATH, N frames, WxH, CODEC, F fps, T s of video,
  /// sim time A .. B s" on stdout. Returns false and sets `error` when the file could not be
  /// finished.
  bool StopRecording(QString* error);
  /// `--record`: checks now that `path` can be written, then starts recording when the next scene
  /// has loaded, so that its first frame opens the video. Returns false and sets `error`.
  bool RecordNextScene(const QString& path, int fps, QString* error);

  bool recording() const { return recording_; }
  QAction* record_action() const { return record_action_; }

 private:
  void OnRecordToggled(bool on);
  void OnFrameRendered();
  void ShowRecording();
  // a recording that cannot go on: stopped, said on stderr and in the status bar
  void Abort(const QString& message);

  MainWindow* window_;
  QAction* record_action_ = nullptr;
  QMenu* rate_menu_ = nullptr;
  QActionGroup* rate_group_ = nullptr;
  QLabel* rec_label_ = nullptr;

  bool recording_ = false;
  QString path_;
  int fps_ = kDefaultFps;
  std::unique_ptr<render::VideoFrameClock> clock_;
  render::VideoWriter writer_;  // opened at the first frame, when the viewport's size is known
  double first_time_ = 0;       // [s] simulated time of the first and the last frame
  double last_time_ = 0;
};

}  // namespace sim::ui
