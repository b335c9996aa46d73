#include "ui/key_frame_menu.h"

#include <QAction>
#include <QMenu>

#include "ui/sim_bridge.h"
#include "ui/studio_shortcuts.h"

namespace sim::ui {


KeyFrameMenu::KeyFrameMenu(QMenu* menu, SimBridge* bridge, QObject* parent)
    : QObject(parent), bridge_(bridge) {
  save_action_ = menu->addAction(tr("Save &Key Frame"));
  save_action_->setShortcuts(ShortcutKeys(StudioCommand::kSaveKeyFrame));
  save_action_->setStatusTip(tr("Save the state and the drive targets as a key frame"));
  connect(save_action_, &QAction::triggered, this,
          [this] { bridge_->Send(command::SaveKeyFrame{}); });

  restore_last_action_ = menu->addAction(tr("Restore &Last Key Frame"));
  restore_last_action_->setShortcuts(ShortcutKeys(StudioCommand::kRestoreKeyFrame));
  restore_last_action_->setEnabled(false);
  connect(restore_last_action_, &QAction::triggered, this, [this] {
    if (!shown_.empty())
      bridge_->Send(command::RestoreKeyFrame{static_cast<int>(shown_.size()) - 1});
  });

  restore_menu_ = menu->addMenu(tr("Restore Key &Frame"));
  restore_menu_->setEnabled(false);
}


void KeyFrameMenu::ShowSnapshot(const SimSnapshot& snapshot) {
  if (snapshot.key_frames == shown_) return;
  shown_ = snapshot.key_frames;
  restore_menu_->clear();
  for (int i = 0; i < static_cast<int>(shown_.size()); ++i) {
    QAction* action =
        restore_menu_->addAction(tr("&%1  %2").arg(i + 1).arg(QString::fromStdString(shown_[i])));
    connect(action, &QAction::triggered, this,
            [this, i] { bridge_->Send(command::RestoreKeyFrame{i}); });
  }
  restore_menu_->setEnabled(!shown_.empty());
  restore_last_action_->setEnabled(!shown_.empty());
}

}  // namespace sim::ui
