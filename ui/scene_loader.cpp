// SceneLoader: background loads with progress and cancel in the status bar.
#include "ui/scene_loader.h"

#include <cmath>
#include <utility>

#include <QAction>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QStatusBar>
#include <QStyle>
#include <QToolButton>
#include <QtConcurrent/QtConcurrentRun>

#include "engine/core/load_monitor.h"
#include "engine/io/default_scene.h"

namespace sim::ui {

namespace {

// progress poll period [ms]: smooth enough for a bar, nothing for the GUI thread
constexpr int kPollMs = 100;
// a load shows its progress only after this long [ms]: the default scene loads in less
constexpr int kShowAfterMs = 250;
// steps of the progress bar (tenths of a percent)
constexpr int kBarSteps = 1000;
// widths of the stage text and of the bar [px]: with the simulation, device and frame-rate labels
// they fit a 1280 px window
constexpr int kStageWidth = 230;
constexpr int kBarWidth = 110;

// the load itself, on a thread of Qt's pool; the task shares the monitor, so it outlives the
// loader if the window closes first
SceneLoader::Result RunTask(const SceneLoader::Task& task, std::shared_ptr<LoadMonitor> monitor) {
  return std::make_shared<const Expected<io::Scene>>(task(LoadProgress(monitor.get())));
}

}  // namespace


// one load: what it loads, its shared monitor and how long it has run
struct SceneLoader::Job {
  QString path;
  std::shared_ptr<LoadMonitor> monitor = std::make_shared<LoadMonitor>();
  QElapsedTimer clock;
};


SceneLoader::SceneLoader(QStatusBar* status_bar, QObject* parent) : QObject(parent) {
  cancel_action_ = new QAction(status_bar->style()->standardIcon(QStyle::SP_DialogCancelButton),
                               tr("Cancel"), this);
  cancel_action_->setStatusTip(tr("Stop loading; the running scene stays (Esc)"));
  cancel_action_->setEnabled(false);
  connect(cancel_action_, &QAction::triggered, this, &SceneLoader::Cancel);

  // stage text, bar and Cancel button side by side
  progress_widget_ = new QWidget(status_bar);
  progress_widget_->setObjectName(QStringLiteral("LoadProgress"));
  auto* layout = new QHBoxLayout(progress_widget_);
  layout->setContentsMargins(0, 0, 0, 0);
  stage_label_ = new QLabel(progress_widget_);
  stage_label_->setObjectName(QStringLiteral("LoadStageLabel"));
  stage_label_->setFixedWidth(kStageWidth);
  progress_bar_ = new QProgressBar(progress_widget_);
  progress_bar_->setObjectName(QStringLiteral("LoadProgressBar"));
  progress_bar_->setRange(0, kBarSteps);
  progress_bar_->setFixedWidth(kBarWidth);
  cancel_button_ = new QToolButton(progress_widget_);
  cancel_button_->setObjectName(QStringLiteral("CancelLoadButton"));
  cancel_button_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  cancel_button_->setDefaultAction(cancel_action_);
  layout->addWidget(stage_label_);
  layout->addWidget(progress_bar_);
  layout->addWidget(cancel_button_);
  status_bar->insertPermanentWidget(0, progress_widget_);
  progress_widget_->hide();

  poll_timer_.setInterval(kPollMs);
  connect(&poll_timer_, &QTimer::timeout, this, &SceneLoader::ShowProgress);
}


SceneLoader::~SceneLoader() {
  if (current_) current_->monitor->RequestCancel();
}


void SceneLoader::Load(const QString& path) {
  Load(path, [path](const LoadProgress& progress) -> Expected<io::Scene> {
    if (path.isEmpty()) {
      Diagnostics diagnostics;
      diagnostics.Error("contact-studio", 0, "",
                        "no scene file given and no scenes/default.json found (set "
                        "CONTACT_STUDIO_SCENES to the scenes directory)");
      return diagnostics;
    }
    return io::LoadAnyScene(path.toStdString(), progress);
  });
}


void SceneLoader::Load(const QString& path, Task task) {
  // the newer load wins: the older one stops at its next check and its result is dropped
  if (current_) current_->monitor->RequestCancel();
  auto job = std::make_shared<Job>();
  job->path = path;
  job->clock.start();
  current_ = job;

  // the watcher delivers the result on the GUI thread
  auto* watcher = new QFutureWatcher<Result>(this);
  connect(watcher, &QFutureWatcher<Result>::finished, this, [this, watcher, job] {
    const Result result = watcher->result();
    watcher->deleteLater();
    if (job != current_) return;
    SetIdle();
    if (job->monitor->cancel_requested()) {
      emit Cancelled(job->path);
    } else {
      emit Finished(job->path, result);
    }
  });
  watcher->setFuture(QtConcurrent::run(&RunTask, std::move(task), job->monitor));

  // Esc is taken only while there is something to cancel
  cancel_action_->setEnabled(true);
  cancel_action_->setShortcut(QKeySequence(Qt::Key_Escape));
  progress_bar_->setValue(0);
  poll_timer_.start();
}


void SceneLoader::Cancel() {
  if (!current_) return;
  current_->monitor->RequestCancel();
  ShowProgress();
}


void SceneLoader::ShowProgress() {
  if (!current_ || current_->clock.elapsed() < kShowAfterMs) return;
  const LoadStatus status = current_->monitor->status();
  const QString file = QFileInfo(current_->path).fileName();
  const QString stage = QString::fromStdString(status.stage);
  const QString text = current_->monitor->cancel_requested()
                           ? tr("Cancelling the load of %1…").arg(file)
                           : tr("Loading %1: %2").arg(file, stage);
  // the file and the stage in the label's room, the whole sentence as its tooltip
  const QString shown = current_->monitor->cancel_requested() ? tr("%1: cancelling…").arg(file)
                                                              : tr("%1: %2").arg(file, stage);
  stage_label_->setText(
      stage_label_->fontMetrics().elidedText(shown, Qt::ElideRight, stage_label_->width()));
  stage_label_->setToolTip(text);
  progress_bar_->setToolTip(text);
  progress_bar_->setValue(static_cast<int>(std::lround(status.fraction * kBarSteps)));
  progress_widget_->show();
}


void SceneLoader::SetIdle() {
  current_.reset();
  poll_timer_.stop();
  cancel_action_->setEnabled(false);
  cancel_action_->setShortcut(QKeySequence());
  progress_widget_->hide();
}

}  // namespace sim::ui
