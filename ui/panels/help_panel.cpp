#include "ui/panels/help_panel.h"

#include <QHeaderView>
#include <QMainWindow>
#include <QStringList>
#include <QTableWidget>

#include "ui/studio_shortcuts.h"

namespace sim::ui {

namespace {

constexpr int kWidth = 560;  // the panel's width when shown [logical px]

}  // namespace


HelpPanel::HelpPanel(QWidget* parent)
    : QDockWidget(tr("Keys and Mouse"), parent), table_(new QTableWidget(this)) {
  setObjectName(QStringLiteral("help_panel"));
  table_->setColumnCount(3);
  table_->setHorizontalHeaderLabels({tr("Group"), tr("Keys"), tr("Does")});
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSelectionMode(QAbstractItemView::NoSelection);
  table_->setWordWrap(false);
  setWidget(table_);
  Fill();
}


void HelpPanel::SetTeleopKeys(std::vector<std::pair<QString, QString>> keys) {
  teleop_keys_ = std::move(keys);
  Fill();
}


int HelpPanel::row_count() const { return table_->rowCount(); }


void HelpPanel::Fill() {
  table_->setRowCount(0);
  const auto add = [this](const QString& group, const QString& keys, const QString& what) {
    const int row = table_->rowCount();
    table_->insertRow(row);
    table_->setItem(row, 0, new QTableWidgetItem(group));
    table_->setItem(row, 1, new QTableWidgetItem(keys));
    table_->setItem(row, 2, new QTableWidgetItem(what));
  };
  for (const StudioShortcut& shortcut : StudioShortcuts()) {
    QStringList keys;
    for (const QKeySequence& key : shortcut.keys) keys << key.toString(QKeySequence::NativeText);
    add(tr(shortcut.group), keys.join(tr(" or ")), tr(shortcut.what));
  }
  for (const MouseGesture& gesture : StudioMouseGestures()) {
    add(tr("Mouse"), tr(gesture.gesture), tr(gesture.what));
  }
  for (const auto& [key, what] : teleop_keys_) add(tr("Teleop"), key, what);
  table_->resizeColumnsToContents();
  table_->resizeRowsToContents();
}


void HelpPanel::Toggle() {
  if (isVisible()) {
    hide();
    return;
  }
  show();
  raise();
  // wide enough for the three columns
  if (auto* window = qobject_cast<QMainWindow*>(parentWidget())) {
    window->resizeDocks({this}, {kWidth}, Qt::Horizontal);
  }
}

}  // namespace sim::ui
