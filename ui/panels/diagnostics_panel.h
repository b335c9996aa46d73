// DiagnosticsPanel: a dock listing the errors and warnings of the last scene load, and what the
// simulation and the renderer reported since, one row per diagnostic in the compilers'
// `file:line: error: message` form. Double-clicking a row opens the file; the context menu copies
// rows.
#pragma once

#include <vector>

#include <QDockWidget>
#include <QString>
#include <QStringList>

#include "engine/core/diagnostics.h"

class QTreeWidget;
class QTreeWidgetItem;

namespace sim::ui {

class DiagnosticsPanel : public QDockWidget {
  Q_OBJECT

 public:
  explicit DiagnosticsPanel(QWidget* parent = nullptr);

  /// Replaces the list with `diagnostics` (the result of one load).
  void SetDiagnostics(const Diagnostics& diagnostics);
  /// Appends one message that has no file (e.g. a Vulkan failure).
  void AddMessage(Severity severity, const QString& message);
  /// Appends diagnostics raised later (the simulation's step status, a rejected setting).
  void AppendDiagnostics(const std::vector<Diagnostic>& diagnostics);
  /// Formatted rows, in order (tests, scripted runs).
  QStringList Rows() const;
  void Clear();

  int error_count() const { return error_count_; }
  int warning_count() const { return warning_count_; }

 signals:
  /// The counts changed (for the dock title and the status bar).
  void CountsChanged(int errors, int warnings);

 private:
  void AddDiagnostic(const Diagnostic& diagnostic);
  void UpdateTitle();
  void OpenLocation(QTreeWidgetItem* item);
  void CopySelection() const;

  QTreeWidget* list_ = nullptr;
  int error_count_ = 0;
  int warning_count_ = 0;
};

}  // namespace sim::ui
