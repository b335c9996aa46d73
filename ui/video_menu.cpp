#include "ui/video_menu.h"

#include <cstring>
#include <iostream>
#include <string>

#include <QAction>
#include <QActionGroup>
#include <QCoreApplication>
#include <QFile>
#include <QFileDialog>
#include <QImage>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QStatusBar>
#include <QTimer>

#include "ui/main_window.h"
#include "ui/sim_bridge.h"
#include "ui/studio_shortcuts.h"
#include "ui/viewport/vulkan_viewport.h"

namespace sim::ui {

namespace {

// the frame rates offered in the submenu [1/s of simulated time]
constexpr int kFrameRates[] = {24, 30, 60};
// how long the saved-video message stays in the status bar [ms]
constexpr int kMessageMs = 8000;

// a grabbed RGB32 viewport image as the writer's RGBA rows
render::Image ToRgba(const QImage& grabbed) {
  const QImage rgba = grabbed.convertToFormat(QImage::Format_RGBA8888);
  render::Image image;
  image.width = rgba.width();
  image.height = rgba.height();
  image.rgba.resize(static_cast<std::size_t>(image.width) * image.height * 4);
  const std::size_t row = static_cast<std::size_t>(image.width) * 4;
  for (int y = 0; y < image.height; ++y) {
    std::memcpy(image.rgba.data() + y * row, rgba.constScanLine(y), row);
  }
  return image;
}

}  // namespace


VideoMenu::VideoMenu(MainWindow* window, QMenu* file, QObject* parent)
    : QObject(parent), window_(window) {
  record_action_ = file->addAction(tr("Record &Video…"));
  record_action_->setCheckable(true);
  record_action_->setShortcuts(ShortcutKeys(StudioCommand::kRecordVideo));
  record_action_->setStatusTip(
      tr("Record the viewport to an MP4 that plays in simulated real time; again to stop"));
  connect(record_action_, &QAction::triggered, this, &VideoMenu::OnRecordToggled);

  rate_menu_ = file->addMenu(tr("Video Frame &Rate"));
  rate_group_ = new QActionGroup(this);
  for (const int fps : kFrameRates) {
    QAction* action = rate_menu_->addAction(tr("%1 frames per simulated second").arg(fps));
    action->setCheckable(true);
    action->setChecked(fps == kDefaultFps);
    action->setData(fps);
    rate_group_->addAction(action);
  }

  rec_label_ = new QLabel(window);
  rec_label_->setObjectName(QStringLiteral("RecordingLabel"));
  rec_label_->setStyleSheet(QStringLiteral("QLabel { color: #d01818; font-weight: bold; }"));
  rec_label_->hide();
  window->statusBar()->addPermanentWidget(rec_label_);

  // queued: reading the viewport back renders a frame, which cannot happen inside one
  connect(window->viewport(), &VulkanViewport::FrameRendered, this, &VideoMenu::OnFrameRendered,
          Qt::QueuedConnection);
  // the file is complete however the studio ends
  connect(QCoreApplication::instance(), &QCoreApplication::aboutToQuit, this, [this] {
    QString error;
    if (recording_ && !StopRecording(&error)) {
      std::cerr << "contact-studio: error: " << error.toStdString() << std::endl;
    }
  });
}


VideoMenu::~VideoMenu() {
  std::string ignored;
  if (writer_.is_open()) writer_.Finish(&ignored);
}


bool VideoMenu::StartRecording(const QString& path, int fps, QString* error) {
  if (recording_) {
    *error = tr("already recording %1").arg(path_);
    return false;
  }
  // the writer opens at the first frame: find out now whether the file can be written
  QFile probe(path);
  if (!probe.open(QIODevice::WriteOnly)) {
    *error = tr("cannot write %1: %2").arg(path, probe.errorString());
    return false;
  }
  probe.close();
  path_ = path;
  fps_ = fps;
  clock_ = std::make_unique<render::VideoFrameClock>(fps);
  recording_ = true;
  record_action_->setChecked(true);
  rate_menu_->setEnabled(false);
  ShowRecording();
  return true;
}


bool VideoMenu::StopRecording(QString* error) {
  if (!recording_) return true;
  recording_ = false;
  record_action_->setChecked(false);
  rate_menu_->setEnabled(true);
  rec_label_->hide();
  if (!writer_.is_open()) {
    // nothing was rendered while recording: no video, not even an empty file
    QFile::remove(path_);
    std::cout << "video: " << path_.toStdString() << ": no frames" << std::endl;
    window_->statusBar()->showMessage(tr("No video: no frame was rendered"), kMessageMs);
    return true;
  }
  const std::int64_t frames = writer_.frames_written();
  std::string message;
  if (!writer_.Finish(&message)) {
    *error = QString::fromStdString(message);
    return false;
  }
  std::cout << "video: " << path_.toStdString() << ", " << frames << " frames, " << writer_.width()
            << "x" << writer_.height() << ", " << writer_.codec_name() << ", " << writer_.fps()
            << " fps, " << writer_.duration() << " s of video, sim time " << first_time_ << " .. "
            << last_time_ << " s" << std::endl;
  window_->statusBar()->showMessage(
      tr("Saved video %1 (%n frame(s))", nullptr, static_cast<int>(frames)).arg(path_), kMessageMs);
  return true;
}


bool VideoMenu::RecordNextScene(const QString& path, int fps, QString* error) {
  QFile probe(path);
  if (!probe.open(QIODevice::WriteOnly)) {
    *error = tr("cannot write %1: %2").arg(path, probe.errorString());
    return false;
  }
  probe.close();
  auto connection = std::make_shared<QMetaObject::Connection>();
  *connection =
      connect(window_->simulation(), &SimBridge::SceneChanged, this, [this, path, fps, connection] {
        disconnect(*connection);
        QString message;
        if (!StartRecording(path, fps, &message)) {
          std::cerr << "contact-studio: error: --record: " << message.toStdString() << std::endl;
          QCoreApplication::exit(1);
        }
      });
  return true;
}


void VideoMenu::OnRecordToggled(bool on) {
  QString error;
  if (!on) {
    if (!StopRecording(&error)) QMessageBox::warning(window_, tr("Record Video"), error);
    return;
  }
  record_action_->setChecked(false);  // until a file is chosen
  const QString path = QFileDialog::getSaveFileName(
      window_, tr("Record Video"), QStringLiteral("contact-studio.mp4"), tr("MP4 videos (*.mp4)"));
  if (path.isEmpty()) return;
  const int fps = rate_group_->checkedAction() != nullptr
                      ? rate_group_->checkedAction()->data().toInt()
                      : kDefaultFps;
  if (!StartRecording(path, fps, &error)) {
    QMessageBox::warning(window_, tr("Record Video"), error);
  }
}


void VideoMenu::OnFrameRendered() {
  if (!recording_) return;
  const double time = window_->viewport()->LatestFrame()->time;
  const std::int64_t index = clock_->FrameAt(time);
  if (index < 0) return;
  const QImage grabbed = window_->GrabViewportImage();
  if (grabbed.isNull()) return;  // no swapchain yet: the next frame is taken instead
  const render::Image image = ToRgba(grabbed);
  std::string error;
  if (!writer_.is_open()) {
    // the viewport's size, rounded down to even (4:2:0 video); the odd pixel is cropped
    if (!writer_.Open(path_.toStdString(), image.width & ~1, image.height & ~1, fps_, &error)) {
      Abort(QString::fromStdString(error));
      return;
    }
    first_time_ = time;
  }
  if (!writer_.AddFrame(image, index, &error)) {
    Abort(QString::fromStdString(error));
    return;
  }
  last_time_ = time;
  ShowRecording();
}


void VideoMenu::ShowRecording() {
  rec_label_->setText(tr("● REC %1 s").arg(writer_.duration(), 0, 'f', 1));
  rec_label_->show();
}


void VideoMenu::Abort(const QString& message) {
  std::cerr << "contact-studio: error: video: " << message.toStdString() << std::endl;
  QString error;
  StopRecording(&error);
  window_->statusBar()->showMessage(tr("Recording stopped: %1").arg(message));
}

}  // namespace sim::ui
