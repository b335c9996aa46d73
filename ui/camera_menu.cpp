#include "ui/camera_menu.h"

#include <QAction>
#include <QMenu>
#include <QStatusBar>

#include "engine/visual/camera.h"
#include "ui/studio_shortcuts.h"
#include "ui/viewport/vulkan_viewport.h"

namespace sim::ui {

namespace {

// the viewport binds these keys itself (a bare letter as a window shortcut steals typing): the
// menu only shows them, after a tab
QString WithViewportKey(const QString& text, StudioCommand command) {
  const QList<QKeySequence> keys = ShortcutKeys(command);
  return keys.isEmpty() ? text : text + QLatin1Char('\t') + keys.front().toString();
}

}  // namespace


CameraMenu::CameraMenu(VulkanViewport* viewport, QMenu* view, QStatusBar* status, QObject* parent)
    : QObject(parent), viewport_(viewport), status_(status) {
  follow_ = view->addAction(WithViewportKey(tr("&Follow Selected Body"), StudioCommand::kFollow));
  follow_->setCheckable(true);
  follow_->setStatusTip(tr("Keep the selected body in view as it moves"));
  connect(follow_, &QAction::triggered, this, [this] {
    if (!viewport_->ToggleFollowSelection()) {
      status_->showMessage(tr("Select a body to follow (click it in the viewport)"), 4000);
    }
    follow_->setChecked(viewport_->follow_body() != kWorldBody);
  });
  connect(viewport_, &VulkanViewport::FollowChanged, this,
          [this](int body) { follow_->setChecked(body != kWorldBody); });

  QAction* frame_all = view->addAction(WithViewportKey(tr("Frame &All"), StudioCommand::kFrameAll));
  frame_all->setStatusTip(tr("Fit everything drawn in view"));
  connect(frame_all, &QAction::triggered, this, [this] {
    if (!viewport_->FrameAll()) status_->showMessage(tr("Nothing to frame"), 4000);
  });
  QAction* frame_selection =
      view->addAction(WithViewportKey(tr("Frame &Selection"), StudioCommand::kFrameSelection));
  frame_selection->setStatusTip(tr("Fit the selected body in view"));
  connect(frame_selection, &QAction::triggered, this, [this] {
    if (!viewport_->FrameSelection()) {
      status_->showMessage(tr("Select a body to frame (click it in the viewport)"), 4000);
    }
  });

  cameras_ = view->addMenu(tr("&Cameras"));
  cameras_->setObjectName(QStringLiteral("CamerasMenu"));
  cameras_->setEnabled(false);
}


void CameraMenu::SetScene(const Model& model) {
  cameras_->clear();
  QAction* home = cameras_->addAction(tr("Scene Camera"));
  connect(home, &QAction::triggered, viewport_, &VulkanViewport::ResetCamera);
  for (const NamedCamera& named : model.cameras) {
    QAction* action = cameras_->addAction(QString::fromStdString(named.name));
    const OrbitCamera camera(named.setup, model.options.up);
    const int follow = named.setup.follow_body;
    connect(action, &QAction::triggered, this, [this, camera, follow] {
      viewport_->SetView(camera);
      viewport_->SetFollowBody(follow, false);
    });
  }
  cameras_->setEnabled(!model.cameras.empty());
}

}  // namespace sim::ui
