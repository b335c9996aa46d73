// KeyFrameMenu: the Simulation menu's key frames (MuJoCo simulate's keyframes): Save Key Frame,
// Restore Last Key Frame (keys from the shortcut table) and a Restore Key Frame submenu listing
// the scene file's key frames and those saved since, numbered 1, 2, … in the worker's order.
#pragma once

#include <string>
#include <vector>

#include <QObject>

class QAction;
class QMenu;

namespace sim::ui {

class SimBridge;
struct SimSnapshot;

class KeyFrameMenu : public QObject {
  Q_OBJECT

 public:
  /// Adds its actions to `menu`; they send their commands through `bridge`.
  KeyFrameMenu(QMenu* menu, SimBridge* bridge, QObject* parent = nullptr);

  /// Lists the snapshot's key frames in the submenu (when they changed).
  void ShowSnapshot(const SimSnapshot& snapshot);

 private:
  SimBridge* bridge_;
  QAction* save_action_ = nullptr;
  QAction* restore_last_action_ = nullptr;
  QMenu* restore_menu_ = nullptr;
  std::vector<std::string> shown_;
};

}  // namespace sim::ui
