// ScriptedRun: frames, screenshot, exit.
#include "ui/scripted_run.h"

#include <algorithm>
#include <iostream>
#include <utility>

#include "ui/main_window.h"
#include "ui/viewport/vulkan_viewport.h"

namespace sim::ui {

ScriptedRun::ScriptedRun(MainWindow* window, ScriptedRunOptions options, QObject* parent)
    : QObject(parent), window_(window), options_(std::move(options)) {
  options_.frames = std::max(1, options_.frames);
  connect(window_, &MainWindow::SceneLoadFinished, this,
          [this](bool ok, const QString&) { OnSceneLoadFinished(ok); });
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


void ScriptedRun::OnSceneLoadFinished(bool ok) {
  // only the first load (the one from the command line) starts the count
  if (counting_ || done_) return;
  load_failed_ = !ok;
  counting_ = true;
  target_frame_ = window_->viewport()->frames_rendered() + static_cast<quint64>(options_.frames);
}


void ScriptedRun::OnFrameRendered(quint64 count) {
  if (options_.exit) stall_timer_.start(options_.stall_timeout_ms);
  if (!counting_ || done_ || count < target_frame_) return;
  Act();
}


void ScriptedRun::OnStalled() {
  if (done_) return;
  done_ = true;
  std::cerr << "contact-studio: error: the viewport rendered no frame for "
            << options_.stall_timeout_ms / 1000
            << " s (Vulkan could not present to this window; see the messages above)" << std::endl;
  emit Finished(1);
}


void ScriptedRun::Act() {
  done_ = true;
  stall_timer_.stop();
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
