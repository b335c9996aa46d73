// ScriptedRun: frames, screenshot, exit.
#include "ui/scripted_run.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <utility>

#include <QApplication>
#include <QCoreApplication>
#include <QDropEvent>
#include <QEventLoop>
#include <QFileInfo>
#include <QKeySequence>
#include <QLabel>
#include <QMimeData>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>
#include <QTextDocumentFragment>
#include <QToolButton>
#include <QUrl>
#include <QWindow>
#include <QtTest/QTest>

#include "engine/model/model.h"
#include "ui/import_dialog.h"
#include "ui/main_window.h"
#include "ui/panels/diagnostics_panel.h"
#include "ui/panels/help_panel.h"
#include "ui/panels/inspector_panel.h"
#include "ui/panels/paint_panel.h"
#include "ui/panels/scene_panel.h"
#include "ui/scene_loader.h"
#include "ui/sim_bridge.h"
#include "ui/teleop_station.h"
#include "ui/viewport/vulkan_viewport.h"

namespace sim::ui {

namespace {

// resident set size of this process [kB] (VmRSS in /proc/self/status), or −1 where there is none
long ResidentKb() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  }
  return -1;
}

// the sim time of lane 0 in the latest snapshot [s] (0 before the first scene)
double LaneZeroTime(const SimSnapshot& snapshot) {
  return snapshot.lanes.empty() ? 0.0 : snapshot.lanes[0].time;
}

}  // namespace


ScriptedRun::ScriptedRun(MainWindow* window, ScriptedRunOptions options, QObject* parent)
    : QObject(parent), window_(window), options_(std::move(options)) {
  options_.frames = std::max(1, options_.frames);
  connect(window_, &MainWindow::SceneLoadFinished, this, &ScriptedRun::OnSceneLoadFinished);
  connect(window_, &MainWindow::ImportDialogOpened, this, &ScriptedRun::DriveImportDialog);
  // queued: the screenshot renders a frame of its own, which cannot happen inside a frame
  connect(window_->viewport(), &VulkanViewport::FrameRendered, this, &ScriptedRun::OnFrameRendered,
          Qt::QueuedConnection);
  // a window that never renders (no surface, lost device) must not hang an unattended run
  if (options_.exit) {
    stall_timer_.setSingleShot(true);
    connect(&stall_timer_, &QTimer::timeout, this, &ScriptedRun::OnStalled);
    stall_timer_.start(options_.stall_timeout_ms);
  }
}


void ScriptedRun::OnSceneLoadFinished(bool ok, const QString& path) {
  // a later load (--open-after) is only told; the first one (the command line's) starts the count
  if (counting_ || done_) {
    // a dropped file's scene is drawn for a few frames before the run ends
    constexpr quint64 kFramesAfterDrop = 10;
    if (dropped_) {
      target_frame_ =
          std::max(target_frame_, window_->viewport()->frames_rendered() + kFramesAfterDrop);
    }
    const auto& snapshot = *window_->simulation()->latest();
    const char* outcome = window_->last_load_cancelled() ? "cancelled" : ok ? "ok" : "failed";
    std::cout << "load: " << outcome << " " << path.toStdString() << " at sim time "
              << LaneZeroTime(snapshot) << " s\n"
              << "status: " << window_->statusBar()->currentMessage().toStdString() << std::endl;
    return;
  }
  load_failed_ = !ok;
  counting_ = true;
  start_frame_ = window_->viewport()->frames_rendered();
  target_frame_ = start_frame_ + static_cast<quint64>(options_.frames);
  frame_clock_.start();
  if (options_.memory_log_every > 0) LogMemory(0);
}


void ScriptedRun::OnFrameRendered(quint64 count) {
  if (options_.exit) stall_timer_.start(options_.stall_timeout_ms);
  if (!counting_ || done_) return;
  frame_ms_.push_back(frame_clock_.nsecsElapsed() * 1e-6);
  frame_clock_.restart();
  const quint64 frame = count - start_frame_;
  if (options_.memory_log_every > 0 && frame > 0 && frame % options_.memory_log_every == 0) {
    LogMemory(frame);
  }
  if (!options_.cancel_load_screenshot.isEmpty()) CancelLoadWhenShown();
  if (options_.screenshot_every > 0 && !options_.screenshot.isEmpty() && frame > 0 &&
      frame % static_cast<quint64>(options_.screenshot_every) == 0) {
    SaveNumberedScreenshot(frame);
  }
  // the frames are done once a load the script started has ended too, and the click (after the
  // steps, which a loaded machine may take longer than the frames) is made
  const bool loading = window_->scene_loader()->loading() || window_->import_dialog() != nullptr;
  if (count < target_frame_ || ((opened_after_ || dropped_) && loading) || !ReplayOver() ||
      (options_.click && !clicked_)) {
    PlayScript(frame);
    return;
  }
  Act();
}


QPoint ScriptedRun::InViewport(const QPointF& position) const {
  // a point outside the viewport gets no event (QTest drops it): a release lost there would leave
  // a stroke or drag open, so the script's points are kept inside
  const QSize size = window_->viewport()->size();
  return QPoint(std::clamp(static_cast<int>(std::lround(position.x())), 0, size.width() - 1),
                std::clamp(static_cast<int>(std::lround(position.y())), 0, size.height() - 1));
}


void ScriptedRun::PlayScript(quint64 frame) {
  const quint64 frames = static_cast<quint64>(options_.frames);
  VulkanViewport* viewport = window_->viewport();
  if (options_.teleop && !teleop_on_) {
    teleop_on_ = true;
    window_->teleop()->SetTeleopMode(true);
    const auto& snapshot = *window_->simulation()->latest();
    if (!options_.teleop_body.isEmpty() && snapshot.model != nullptr) {
      const int body = snapshot.model->FindBody(options_.teleop_body.toStdString());
      std::cout << "teleop body: " << options_.teleop_body.toStdString() << " (" << body << ")"
                << std::endl;
      if (body >= 0) window_->teleop()->TeleoperateBody(body);
    }
  }
  if (!options_.follow.isEmpty() && !follow_started_) {
    follow_started_ = true;
    const auto& snapshot = *window_->simulation()->latest();
    const int body = snapshot.model != nullptr
                         ? snapshot.model->FindBody(options_.follow.toStdString())
                         : kWorldBody;
    std::cout << "follow: " << options_.follow.toStdString() << " (" << body << ")" << std::endl;
    if (body >= 0) {
      viewport->SetFollowBody(body, true);
    } else {
      std::cerr << "contact-studio: error: --follow: the scene has no body '"
                << options_.follow.toStdString() << "'" << std::endl;
      load_failed_ = true;
    }
  }
  if (!options_.record_teleop.isEmpty() && !recording_started_) {
    recording_started_ = true;
    window_->teleop()->StartRecording();
  }
  if (!options_.replay.isEmpty() && !replay_started_) {
    replay_started_ = true;
    if (!window_->teleop()->Replay(options_.replay)) load_failed_ = true;
  }
  // the joint's slider dragged once the panel lists the scene's joints (a few frames at most)
  if (!options_.drag_joint.isEmpty() && !joint_dragged_) {
    if (window_->scene_panel()->DragJointSlider(options_.drag_joint, options_.drag_joint_target)) {
      joint_dragged_ = true;
      const auto& snapshot = *window_->simulation()->latest();
      std::cout << "drag joint: " << options_.drag_joint.toStdString() << " to "
                << options_.drag_joint_target << " at frame " << frame << ", sim time "
                << LaneZeroTime(snapshot) << " s" << std::endl;
    } else if (frame >= std::max<quint64>(1, frames / 4)) {
      joint_dragged_ = true;
      std::cerr << "contact-studio: error: --drag-joint: no driven joint '"
                << options_.drag_joint.toStdString() << "'" << std::endl;
      load_failed_ = true;
    }
  }
  if (options_.drag && !drag_released_) {
    // press at 10 %, move over the next 10 %, release 5 frames before the end (a paint stroke:
    // two frames after the move)
    const quint64 press = std::max<quint64>(1, frames / 10);
    const quint64 moved = press + std::max<quint64>(1, frames / 10);
    const quint64 release =
        options_.paint || options_.gizmo ? moved + 2 : (frames > 5 ? frames - 5 : frames - 1);
    if (!drag_pressed_ && frame >= press) {
      if (options_.paint) window_->paint_panel()->SetPaintMode(true);
      QTest::mousePress(viewport, Qt::LeftButton,
                        options_.paint || options_.gizmo ? Qt::NoModifier : Qt::ControlModifier,
                        InViewport(options_.drag_from));
      drag_pressed_ = true;
    } else if (drag_pressed_ && frame >= release) {
      QTest::mouseRelease(viewport, Qt::LeftButton, Qt::NoModifier, InViewport(options_.drag_to));
      drag_released_ = true;
    } else if (drag_pressed_ && frame <= moved) {
      const double t = static_cast<double>(frame - press) / static_cast<double>(moved - press);
      const QPointF p = options_.drag_from + t * (options_.drag_to - options_.drag_from);
      QTest::mouseMove(viewport, InViewport(p));
    }
  }
  // the painted fields saved a few frames after the stroke
  if (options_.save_paint && drag_released_ && !paint_saved_) {
    paint_saved_ = true;
    window_->SavePaintedFields();
  }
  // once at a quarter of the frames, or every keys_every frames
  const bool keys_due = options_.keys_every > 0 ? frame > 0 && frame % options_.keys_every == 0
                                                : !keys_pressed_ && frame >= frames / 4;
  if (!options_.keys.isEmpty() && keys_due) {
    // once: said with the sim time it was pressed at, as the drag is
    if (options_.keys_every <= 0) {
      const auto& snapshot = *window_->simulation()->latest();
      std::cout << "keys: " << options_.keys.join(',').toStdString() << " at frame " << frame
                << ", sim time " << LaneZeroTime(snapshot) << " s" << std::endl;
    }
    keys_pressed_ = true;
    PressKeys(options_.keys);
  }
  // exactly `steps` steps from the initial state: paused, reset, stepped
  if (options_.steps > 0 && !steps_sent_) {
    steps_sent_ = true;
    window_->simulation()->Send(command::Pause{});
    window_->simulation()->Send(command::Reset{});
    window_->simulation()->Send(command::StepOnce{options_.steps});
  }
  if (options_.click && !clicked_) ClickWhenDue(frame);
  if (options_.pause_after > 0 && !paused_ && frame >= static_cast<quint64>(options_.pause_after)) {
    paused_ = true;
    PressKeys({QStringLiteral("Space")});
  }
  if (!options_.open_after.isEmpty() && !opened_after_ && frame >= frames / 2) {
    opened_after_ = true;
    const auto& snapshot = *window_->simulation()->latest();
    std::cout << "open-after: " << options_.open_after.toStdString() << " at sim time "
              << LaneZeroTime(snapshot) << " s" << std::endl;
    window_->OpenScene(options_.open_after);
  }
  if (!options_.drop.isEmpty() && !dropped_ && frame >= frames / 2) {
    dropped_ = true;
    DropFile(options_.drop);
  }
}


void ScriptedRun::DropFile(const QString& file) {
  // at the 3D view's centre, into the window as the windowing system delivers a drag
  QMimeData mime;
  mime.setUrls({QUrl::fromLocalFile(QFileInfo(file).absoluteFilePath())});
  const QWidget* view = window_->centralWidget();
  const QPointF at = view->mapTo(window_, view->rect().center());
  QWindow* target = window_->windowHandle();
  QDragEnterEvent enter(at.toPoint(), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QCoreApplication::sendEvent(target, &enter);
  QDropEvent drop(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QCoreApplication::sendEvent(target, &drop);
  std::cout << "drop: " << file.toStdString() << " " << (drop.isAccepted() ? "accepted" : "refused")
            << ", status: " << window_->statusBar()->currentMessage().toStdString() << std::endl;
}


void ScriptedRun::DriveImportDialog(ImportDialog* dialog) {
  auto plain = [](const QLabel* label) {
    return QTextDocumentFragment::fromHtml(label->text()).toPlainText().toStdString();
  };
  std::cout << "import dialog: " << plain(dialog->mass_label()) << " | "
            << plain(dialog->size_label()) << std::endl;
  // once it shows, as a person would click
  QPointer<ImportDialog> open(dialog);
  QTimer::singleShot(100, this, [open, plain] {
    if (!open) return;
    QTest::mouseClick(open->save_path().isEmpty() ? open->import_button() : open->save_button(),
                      Qt::LeftButton);
    if (open && open->isVisible()) {
      std::cout << "import error: " << open->error_label()->text().toStdString() << std::endl;
      QTest::mouseClick(open->cancel_button(), Qt::LeftButton);
    }
  });
}


// the --click-world click waits at most this many times the frames for its steps
constexpr quint64 kClickWaitFactor = 20;


void ScriptedRun::ClickWhenDue(quint64 frame) {
  // after the steps (the latest snapshot paused at that step), else at half of the frames
  const std::shared_ptr<const SimSnapshot>& snapshot = window_->simulation()->latest();
  const bool stepped = snapshot != nullptr && !snapshot->lanes.empty() && !snapshot->running &&
                       snapshot->lanes[0].step == static_cast<std::uint64_t>(options_.steps);
  const quint64 frames = static_cast<quint64>(options_.frames);
  if (options_.steps > 0 ? !stepped : frame < frames / 2) {
    // steps that never end (a lane that stopped on a failed step) end the run instead of hanging it
    if (frame > kClickWaitFactor * frames) {
      std::cerr << "contact-studio: error: --click-world: the " << options_.steps
                << " steps were not taken within " << frame << " frames" << std::endl;
      clicked_ = true;
      load_failed_ = true;
    }
    return;
  }
  clicked_ = true;
  VulkanViewport* viewport = window_->viewport();
  const Vec3 point(options_.click_world[0], options_.click_world[1], options_.click_world[2]);
  const std::optional<Eigen::Vector2f> pixel =
      viewport->camera().ProjectToPixel(point, viewport->width(), viewport->height());
  if (!pixel) {
    std::cerr << "contact-studio: error: --click-world: the point is behind the camera"
              << std::endl;
    load_failed_ = true;
    return;
  }
  const QPoint at = InViewport(QPointF(pixel->x(), pixel->y()));
  std::cout << "click at " << at.x() << " " << at.y() << " px (world " << point.x() << " "
            << point.y() << " " << point.z() << ") at step "
            << (snapshot != nullptr && !snapshot->lanes.empty() ? snapshot->lanes[0].step : 0)
            << std::endl;
  QTest::mouseClick(viewport, Qt::LeftButton, Qt::NoModifier, at);
}


void ScriptedRun::CancelLoadWhenShown() {
  const SceneLoader& loader = *window_->scene_loader();
  if (!opened_after_ || cancel_clicked_ || !loader.progress_widget()->isVisible() ||
      loader.progress_bar()->value() <= 0) {
    return;
  }
  cancel_clicked_ = true;
  // the bar's place in the window too, so that tests can find it in the screenshot
  const QProgressBar& bar = *loader.progress_bar();
  const QPoint at = bar.mapTo(window_, QPoint(0, 0));
  std::cout << "load progress: " << bar.value() * 100.0 / bar.maximum() << " % ("
            << loader.stage_label()->toolTip().toStdString() << ") bar at " << at.x() << " "
            << at.y() << " " << bar.width() << " " << bar.height() << std::endl;
  // the window as the user sees it while loading, then the click a user would make
  QString error;
  if (window_->SaveScreenshot(options_.cancel_load_screenshot, &error)) {
    std::cout << "loading screenshot: " << options_.cancel_load_screenshot.toStdString()
              << std::endl;
  } else {
    std::cerr << "contact-studio: error: screenshot: " << error.toStdString() << std::endl;
  }
  QTest::mouseClick(loader.cancel_button(), Qt::LeftButton);
}


void ScriptedRun::PressKeys(const QStringList& names) {
  // window shortcuts fire in the active window; Xvfb has no window manager to activate it
  QApplication::setActiveWindow(window_);
  for (const QString& name : names) {
    const QKeySequence sequence = QKeySequence::fromString(name);
    if (sequence.isEmpty()) continue;
    const QKeyCombination key = sequence[0];
    std::cout << "key: " << name.toStdString() << std::endl;
    // into the 3D view, where the focus is after a click in it
    QTest::keyClick(window_->viewport(), key.key(), key.keyboardModifiers());
  }
}


void ScriptedRun::SaveNumberedScreenshot(quint64 frame) {
  QString path = options_.screenshot;
  const QString number = QStringLiteral("-%1").arg(frame, 4, 10, QLatin1Char('0'));
  const qsizetype dot = path.lastIndexOf(QLatin1Char('.'));
  path.insert(dot > path.lastIndexOf(QLatin1Char('/')) ? dot : path.size(), number);
  const auto& snapshot = *window_->simulation()->latest();
  QString error;
  if (!window_->SaveScreenshot(path, &error)) {
    std::cerr << "contact-studio: error: screenshot: " << error.toStdString() << std::endl;
    load_failed_ = true;
    return;
  }
  std::cout << "screenshot at frame " << frame << ": " << path.toStdString() << " sim time "
            << LaneZeroTime(snapshot) << " s" << std::endl;
}


void ScriptedRun::LogMemory(quint64 frame) const {
  // with lane 0's step, so that readers can tell frames of the running scene from loading ones
  const SimSnapshot& snapshot = *window_->simulation()->latest();
  const long long step =
      snapshot.lanes.empty() ? 0 : static_cast<long long>(snapshot.lanes[0].step);
  std::cout << "memory: frame " << frame << " rss " << ResidentKb() << " kB step " << step
            << std::endl;
}


void ScriptedRun::PrintSummary() const {
  const SimSnapshot& s = *window_->simulation()->latest();
  // enough digits that time = steps · dt can be checked
  const std::streamsize precision = std::cout.precision(12);
  auto median = [](std::vector<double> values) {
    if (values.empty()) return 0.0;
    std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
    return values[values.size() / 2];
  };
  if (s.lanes.empty()) {
    std::cout << "sim: no scene" << std::endl;
  } else {
    std::vector<double> step_ms;
    for (const StepSample& sample : s.lanes[0].history) step_ms.push_back(sample.total_ms);
    const double frame = median(frame_ms_);
    std::cout << "sim: time " << s.lanes[0].time << " s, steps " << s.lanes[0].step << ", "
              << (s.running ? "running" : "paused") << "\n"
              << "lanes:";
    for (std::size_t k = 0; k < s.lanes.size(); ++k) {
      std::cout << (k == 0 ? " " : " | ") << s.lanes[k].label;
    }
    std::cout << "\n"
              << "frame rate: " << QString::number(window_->viewport()->fps(), 'f', 1).toStdString()
              << " fps\n"
              << "frame time: median " << frame << " ms; step time: median " << median(step_ms)
              << " ms\n";
  }
  if (s.model != nullptr) {
    const Model& model = *s.model;
    std::cout << "scene: " << model.name << "\n"
              << "view: " << render::ViewModeName(window_->viewport()->render_options().view)
              << "\n";
    for (int i = 0; i < model.shape_count() && i < static_cast<int>(s.frame.shapes.size()); ++i) {
      const auto& X = s.frame.shapes[i].X_WS;
      std::cout << "shape " << model.shape_name[i] << " " << X[3] << " " << X[7] << " " << X[11]
                << "\n";
    }
    // soft bodies by the mean of their nodes
    for (const VisualSoftBody& body : s.frame.soft_bodies) {
      if (body.soft_body < 0 || body.positions.empty()) continue;
      double centre[3] = {0, 0, 0};
      for (const auto& p : body.positions) {
        for (int c = 0; c < 3; ++c) centre[c] += p[c];
      }
      const double n = static_cast<double>(body.positions.size());
      std::cout << "soft " << model.soft_bodies[body.soft_body].name << " " << centre[0] / n << " "
                << centre[1] / n << " " << centre[2] / n << "\n";
    }
  }
  // teleop: each end effector's target and where it is
  for (const TeleopTargetStatus& target : s.teleop.targets) {
    if (!target.has_pose) continue;
    std::cout << "teleop " << target.name << " target " << target.target.p.x() << " "
              << target.target.p.y() << " " << target.target.p.z() << " actual "
              << target.actual.p.x() << " " << target.actual.p.y() << " " << target.actual.p.z()
              << " error " << 1e3 * target.position_error << " mm\n";
  }
  if (s.teleop.available) {
    std::cout << "teleop latency: last " << s.teleop.latency_last_ms << " ms, mean "
              << s.teleop.latency_mean_ms << " ms, max " << s.teleop.latency_max_ms << " ms, steps "
              << s.teleop.latency_max_steps << ", samples " << s.teleop.latency_samples << "\n";
    if (!s.teleop.message.empty()) std::cout << "teleop status: " << s.teleop.message << "\n";
  }
  const OrbitCamera& camera = window_->viewport()->camera();
  std::cout << "camera: target " << camera.target.x() << " " << camera.target.y() << " "
            << camera.target.z() << " distance " << camera.distance << " follow "
            << window_->viewport()->follow_body() << "\n";
  if (window_->inspector_panel()->isVisible()) {
    for (const QString& row : window_->inspector_panel()->Rows()) {
      std::cout << "inspector: " << row.toStdString() << "\n";
    }
  }
  if (window_->help_panel()->isVisible()) {
    std::cout << "help: visible, " << window_->help_panel()->row_count() << " rows\n";
  }
  if (options_.paint) {
    std::cout << "paint: undo " << s.paint.undo_depth << ", unsaved " << s.paint.unsaved_fields
              << ", " << s.paint.message << "\n";
  }
  // each lane's state and what went wrong in it since the load or reset
  for (const LaneSnapshot& lane : s.lanes) {
    std::cout << "lane " << lane.label << ": hash " << lane.state_hash << ", max speed "
              << lane.max_body_speed << " m/s, non-finite "
              << lane.status_counts[StepStatusIndex(kStepNonFinite)] << ", runaway "
              << lane.status_counts[StepStatusIndex(kStepRunaway)] << ", "
              << (lane.stopped ? "stopped" : "stepping") << "\n";
  }
  if (!options_.drag_joint.isEmpty() && s.model != nullptr && !s.lanes.empty()) {
    const int j = s.model->FindJoint(options_.drag_joint.toStdString());
    const LaneSnapshot& lane = s.lanes[0];
    auto at = [&](const std::vector<Real>& values) {
      return j < static_cast<int>(values.size()) && std::isfinite(values[j])
                 ? values[j]
                 : s.model->joint_drive[j].target_position;
    };
    if (j >= 0 && j < static_cast<int>(lane.joint_positions.size())) {
      std::cout << "joint " << options_.drag_joint.toStdString() << ": position "
                << lane.joint_positions[j] << ", target " << at(lane.joint_targets) << ", drive "
                << at(lane.drive_targets) << ", taken "
                << (j < static_cast<int>(lane.joint_taken.size()) ? int{lane.joint_taken[j]} : 0)
                << "\n";
    }
  }
  const DiagnosticsPanel& diagnostics = *window_->diagnostics_panel();
  std::cout << "diagnostics: " << diagnostics.error_count() << " errors, "
            << diagnostics.warning_count() << " warnings\n"
            << "load widgets: "
            << (window_->scene_loader()->progress_widget()->isVisible() ? "visible" : "hidden")
            << std::endl;
  std::cout.precision(precision);
}


void ScriptedRun::OnStalled() {
  if (done_) return;
  done_ = true;
  std::cerr << "contact-studio: error: the viewport rendered no frame for "
            << options_.stall_timeout_ms / 1000
            << " s (Vulkan could not present to this window; see the messages above)" << std::endl;
  emit Finished(1);
}


bool ScriptedRun::ReplayOver() const {
  if (options_.replay.isEmpty()) return true;
  if (!replay_started_ || load_failed_) return replay_started_;
  const TeleopStatus& teleop = window_->simulation()->latest()->teleop;
  return !teleop.replaying && teleop.message.rfind("replay", 0) == 0 &&
         teleop.message != "replaying";
}


void ScriptedRun::WaitForWorker(const std::function<bool(const SimSnapshot&)>& done) {
  // the worker applies commands between steps and publishes after: poll its snapshots (10 s at
  // most, a loaded machine's worst)
  QElapsedTimer waited;
  waited.start();
  while (waited.elapsed() < 10000 && !done(*window_->simulation()->latest())) {
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
  }
}


void ScriptedRun::SaveRecording() {
  window_->teleop()->StopRecording(options_.record_teleop);
  WaitForWorker([](const SimSnapshot& s) { return !s.teleop.recording; });
}


void ScriptedRun::Act() {
  done_ = true;
  stall_timer_.stop();
  if (drag_pressed_ && !drag_released_) {
    QTest::mouseRelease(window_->viewport(), Qt::LeftButton, Qt::NoModifier,
                        InViewport(options_.drag_to));
  }
  if (recording_started_) SaveRecording();
  // the painted fields are written by the worker: wait until it says none is unsaved
  if (paint_saved_) {
    WaitForWorker(
        [](const SimSnapshot& s) { return s.paint.unsaved_fields == 0 && s.paint.undo_depth > 0; });
  }
  PrintSummary();
  int exit_code = load_failed_ || window_->render_failed() ? 1 : 0;
  if (!options_.screenshot.isEmpty()) {
    QString error;
    if (window_->SaveScreenshot(options_.screenshot, &error)) {
      std::cout << "screenshot: " << options_.screenshot.toStdString() << std::endl;
    } else {
      std::cerr << "contact-studio: error: screenshot: " << error.toStdString() << std::endl;
      exit_code = 1;
    }
  }
  emit Finished(exit_code);
}

}  // namespace sim::ui
