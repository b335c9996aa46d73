// LaneMenu: the Simulation menu's compared lanes, changed while the simulation runs: Add Lane
// (a solver config from the scene's start), Branch Lane (a solver config from another lane's
// current state and inputs) and Remove Lane, each lane listed by its label in its lane colour's
// order; Overlay Lanes as Ghosts draws every lane on lane 0 (see-through in its colour) instead of
// side by side. A config is what --compare takes for one lane: NAME or NAME:KEY=VALUE;KEY=VALUE.
#pragma once

#include <string>
#include <vector>

#include <QObject>

class QAction;
class QMenu;
class QWidget;

namespace sim::ui {

class SimBridge;
struct SimSnapshot;

class LaneMenu : public QObject {
  Q_OBJECT

 public:
  /// Adds a Lanes submenu to `menu`; its dialogs open over `dialog_parent`.
  LaneMenu(QMenu* menu, SimBridge* bridge, QWidget* dialog_parent, QObject* parent = nullptr);

  /// Checks (or clears) Overlay Lanes as Ghosts, which tells the worker.
  void SetOverlaid(bool overlaid);

  /// Lists the snapshot's lanes in the Branch and Remove submenus (when they changed).
  void ShowSnapshot(const SimSnapshot& snapshot);

 private:
  /// Asks for a solver config (pre-filled with `suggestion`); empty when cancelled.
  std::string AskConfig(const QString& title, const std::string& suggestion);

  SimBridge* bridge_;
  QWidget* dialog_parent_;
  QMenu* branch_menu_ = nullptr;
  QMenu* remove_menu_ = nullptr;
  QAction* overlay_ = nullptr;
  std::vector<std::string> shown_;
};

}  // namespace sim::ui
