// SceneLoader: the studio's scene loads, off the GUI thread (Qt's pool), one at a time: a new
// Load cancels the one running and drops its result. While a load runs, the status bar shows
// what it does, a progress bar and a Cancel button (also Esc); all three are hidden while idle
// and during the first moments of a load, so quick loads do not flash them. The progress comes
// from the engine's LoadMonitor (engine/core/load_monitor.h), polled on the GUI thread at 10 Hz;
// Cancel asks the background work to stop at its next check (an object, a mesh file, a slab of
// an SDF grid; TetGen runs to its end). Results are never applied here: Finished hands them on.
#pragma once

#include <functional>
#include <memory>

#include <QObject>
#include <QString>
#include <QTimer>

#include "engine/core/diagnostics.h"
#include "engine/core/load_monitor.h"
#include "engine/io/scene_file.h"

class QAction;
class QLabel;
class QProgressBar;
class QStatusBar;
class QToolButton;
class QWidget;

namespace sim::ui {

class SceneLoader : public QObject {
  Q_OBJECT

 public:
  using Result = std::shared_ptr<const Expected<io::Scene>>;
  /// A load's work, run off the GUI thread with the load's progress.
  using Task = std::function<Expected<io::Scene>(const LoadProgress& progress)>;

  /// Adds its widgets to `status_bar` (permanent widgets at the left of the others, so status
  /// messages do not hide them), hidden until a load runs.
  explicit SceneLoader(QStatusBar* status_bar, QObject* parent = nullptr);
  /// Cancels a running load; its task ends on its own (Qt's pool waits for it at exit).
  ~SceneLoader() override;

  /// Loads the scene, URDF or mesh at `path` (io::LoadAnyScene); an empty `path` fails with a
  /// diagnostic saying that no scene was found. A load still running is cancelled silently.
  void Load(const QString& path);
  /// Loads the scene `task` makes (an import's), reported as the load of `path`.
  void Load(const QString& path, Task task);
  /// Asks the running load to stop; it ends with Cancelled (nothing when idle).
  void Cancel();

  bool loading() const { return current_ != nullptr; }
  /// Triggers Cancel; Esc while a load runs, disabled while idle. The window adds it so that
  /// its shortcut works anywhere in the window.
  QAction* cancel_action() const { return cancel_action_; }
  QToolButton* cancel_button() const { return cancel_button_; }
  QProgressBar* progress_bar() const { return progress_bar_; }
  QLabel* stage_label() const { return stage_label_; }
  /// The label, bar and button together (visible while a load shows its progress).
  QWidget* progress_widget() const { return progress_widget_; }

 signals:
  /// The newest load ended on its own: `result` holds the scene or the diagnostics of a failure.
  void Finished(const QString& path, const sim::ui::SceneLoader::Result& result);
  /// The newest load ended after Cancel; the scene it was loading is dropped.
  void Cancelled(const QString& path);

 private:
  struct Job;
  void ShowProgress();
  void SetIdle();

  std::shared_ptr<Job> current_;  // the load whose result counts, null while idle
  QTimer poll_timer_;
  QAction* cancel_action_ = nullptr;
  QWidget* progress_widget_ = nullptr;
  QLabel* stage_label_ = nullptr;
  QProgressBar* progress_bar_ = nullptr;
  QToolButton* cancel_button_ = nullptr;
};

}  // namespace sim::ui
