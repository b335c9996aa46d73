#include "ui/lane_menu.h"

#include <QAction>
#include <QInputDialog>
#include <QMenu>

#include "ui/sim_bridge.h"

namespace sim::ui {

LaneMenu::LaneMenu(QMenu* menu, SimBridge* bridge, QWidget* dialog_parent, QObject* parent)
    : QObject(parent), bridge_(bridge), dialog_parent_(dialog_parent) {
  QMenu* lanes = menu->addMenu(tr("&Lanes"));
  lanes->setObjectName(QStringLiteral("LanesMenu"));
  QAction* add = lanes->addAction(tr("&Add Lane…"));
  add->setStatusTip(tr("Compare another solver config, started from the scene's start"));
  connect(add, &QAction::triggered, this, [this] {
    const std::string config = AskConfig(tr("Add lane from the start"), "pgs");
    if (!config.empty()) bridge_->Send(command::AddLane{config, -1});
  });
  branch_menu_ = lanes->addMenu(tr("&Branch Lane"));
  branch_menu_->setStatusTip(tr("A new lane from another lane's current state"));
  remove_menu_ = lanes->addMenu(tr("&Remove Lane"));
  lanes->addSeparator();
  overlay_ = lanes->addAction(tr("&Overlay Lanes as Ghosts"));
  overlay_->setObjectName(QStringLiteral("OverlayLanes"));
  overlay_->setCheckable(true);
  overlay_->setStatusTip(
      tr("Draw every compared lane where lane 1 is, see-through in its colour, instead of side "
         "by side"));
  connect(overlay_, &QAction::toggled, this,
          [this](bool on) { bridge_->Send(command::SetLaneLayout{on}); });
}


void LaneMenu::SetOverlaid(bool overlaid) {
  if (overlay_->isChecked() == overlaid) {
    bridge_->Send(command::SetLaneLayout{overlaid});
  } else {
    overlay_->setChecked(overlaid);
  }
}


std::string LaneMenu::AskConfig(const QString& title, const std::string& suggestion) {
  bool ok = false;
  const QString text = QInputDialog::getText(
      dialog_parent_, title,
      tr("Solver config (as --compare takes one: NAME or NAME:KEY=VALUE;KEY=VALUE)"),
      QLineEdit::Normal, QString::fromStdString(suggestion), &ok);
  return ok ? text.trimmed().toStdString() : std::string();
}


void LaneMenu::ShowSnapshot(const SimSnapshot& snapshot) {
  std::vector<std::string> labels;
  for (const LaneSnapshot& lane : snapshot.lanes) labels.push_back(lane.label);
  if (labels == shown_) return;
  shown_ = labels;
  branch_menu_->clear();
  remove_menu_->clear();
  for (int k = 0; k < static_cast<int>(labels.size()); ++k) {
    const QString name = tr("&%1  %2").arg(k + 1).arg(QString::fromStdString(labels[k]));
    connect(branch_menu_->addAction(name), &QAction::triggered, this, [this, k] {
      // the source's solver without its branch mark as the suggestion
      std::string suggestion = shown_[k].substr(0, shown_[k].find(" @"));
      const std::string config = AskConfig(tr("Branch lane %1").arg(k + 1), suggestion);
      if (!config.empty()) bridge_->Send(command::AddLane{config, k});
    });
    QAction* remove = remove_menu_->addAction(name);
    remove->setEnabled(labels.size() > 1);
    connect(remove, &QAction::triggered, this,
            [this, k] { bridge_->Send(command::RemoveLane{k}); });
  }
}

}  // namespace sim::ui
