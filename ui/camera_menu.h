// CameraMenu: the View menu's camera entries. Follow Selected Body (T in the viewport), Frame All
// (A), Frame Selection (S), and a Cameras submenu with the scene's camera and its named views
// (scene `cameras`); picking a view also follows the body it names (`follow`).
#pragma once

#include <vector>

#include <QObject>

#include "engine/model/model.h"

class QAction;
class QMenu;
class QStatusBar;

namespace sim::ui {

class VulkanViewport;

class CameraMenu : public QObject {
  Q_OBJECT

 public:
  /// Adds the entries to `view`; `status` shows why an entry did nothing (no selection).
  CameraMenu(VulkanViewport* viewport, QMenu* view, QStatusBar* status, QObject* parent = nullptr);

  /// Lists `model`'s named views under Cameras (none: the submenu is disabled).
  void SetScene(const Model& model);

  QAction* follow_action() const { return follow_; }
  QMenu* cameras_menu() const { return cameras_; }

 private:
  VulkanViewport* viewport_;
  QStatusBar* status_;
  QAction* follow_ = nullptr;
  QMenu* cameras_ = nullptr;
};

}  // namespace sim::ui
