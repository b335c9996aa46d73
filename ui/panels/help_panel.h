// HelpPanel: the keys and mouse gestures of the studio (F1, Help > Keys and Mouse), as a table:
// the shortcut table the actions bind from (studio_shortcuts.h), the viewport's mouse gestures,
// and the teleop keys of the loaded mapping file. F1 shows and hides it.
#pragma once

#include <utility>
#include <vector>

#include <QDockWidget>
#include <QString>

class QTableWidget;

namespace sim::ui {

class HelpPanel : public QDockWidget {
  Q_OBJECT

 public:
  explicit HelpPanel(QWidget* parent = nullptr);

  /// The teleop keys (key, what it does) listed under "Teleop".
  void SetTeleopKeys(std::vector<std::pair<QString, QString>> keys);
  /// Shows and raises the panel, or hides it when shown.
  void Toggle();
  /// Rows in the table.
  int row_count() const;

 private:
  void Fill();

  QTableWidget* table_;
  std::vector<std::pair<QString, QString>> teleop_keys_;
};

}  // namespace sim::ui
