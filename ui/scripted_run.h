// ScriptedRun: the studio's unattended mode (`--frames N --screenshot FILE.png --exit`), used by
// the GUI smoke tests and to make README screenshots. After the first scene load finishes it counts
// N rendered frames, then saves the screenshot and/or quits with an exit code that says whether the
// load, the rendering and the screenshot all worked.
#pragma once

#include <QObject>
#include <QString>
#include <QTimer>

namespace sim::ui {

class MainWindow;

struct ScriptedRunOptions {
  int frames = 0;                ///< frames to render after the scene load before acting (>= 1)
  QString screenshot;            ///< PNG to write then; empty: none
  bool exit = false;             ///< quit after acting
  int stall_timeout_ms = 60000;  ///< with `exit`: give up when no frame arrives for this long
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
  void OnSceneLoadFinished(bool ok);
  void OnFrameRendered(quint64 count);
  void OnStalled();
  void Act();

  MainWindow* window_;
  ScriptedRunOptions options_;
  QTimer stall_timer_;
  bool counting_ = false;
  bool done_ = false;
  bool load_failed_ = false;
  quint64 target_frame_ = 0;
};

}  // namespace sim::ui
