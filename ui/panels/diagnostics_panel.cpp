// DiagnosticsPanel: located load diagnostics in a list.
#include "ui/panels/diagnostics_panel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDesktopServices>
#include <QFileInfo>
#include <QHeaderView>
#include <QStyle>
#include <QTreeWidget>
#include <QUrl>

namespace sim::ui {

namespace {

enum Column { kSeverity = 0, kLocation, kMessage, kColumnCount };

// item data roles holding the source file and line for "open location"
constexpr int kFileRole = Qt::UserRole;
constexpr int kLineRole = Qt::UserRole + 1;

QString SeverityText(Severity severity) {
  switch (severity) {
    case Severity::kNote:
      return QStringLiteral("note");
    case Severity::kWarning:
      return QStringLiteral("warning");
    case Severity::kError:
      return QStringLiteral("error");
  }
  return QStringLiteral("error");
}


QString CountText(int count, const char* singular, const char* plural) {
  return QStringLiteral("%1 %2").arg(count).arg(QLatin1String(count == 1 ? singular : plural));
}


QIcon SeverityIcon(Severity severity) {
  QStyle* style = QApplication::style();
  switch (severity) {
    case Severity::kNote:
      return style->standardIcon(QStyle::SP_MessageBoxInformation);
    case Severity::kWarning:
      return style->standardIcon(QStyle::SP_MessageBoxWarning);
    case Severity::kError:
      return style->standardIcon(QStyle::SP_MessageBoxCritical);
  }
  return {};
}

}  // namespace


DiagnosticsPanel::DiagnosticsPanel(QWidget* parent) : QDockWidget(tr("Diagnostics"), parent) {
  setObjectName(QStringLiteral("DiagnosticsPanel"));
  list_ = new QTreeWidget(this);
  list_->setColumnCount(kColumnCount);
  list_->setHeaderLabels({tr("Severity"), tr("Location"), tr("Message")});
  list_->setRootIsDecorated(false);
  list_->setUniformRowHeights(true);
  list_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  list_->header()->setStretchLastSection(true);
  list_->setWordWrap(false);
  setWidget(list_);

  // double-click opens the file; Ctrl+C and the context menu copy full lines
  connect(list_, &QTreeWidget::itemActivated, this,
          [this](QTreeWidgetItem* item, int) { OpenLocation(item); });
  auto* copy = new QAction(tr("Copy"), list_);
  copy->setShortcut(QKeySequence::Copy);
  copy->setShortcutContext(Qt::WidgetShortcut);
  connect(copy, &QAction::triggered, this, [this] { CopySelection(); });
  list_->addAction(copy);
  list_->setContextMenuPolicy(Qt::ActionsContextMenu);
  UpdateTitle();
}


void DiagnosticsPanel::SetDiagnostics(const Diagnostics& diagnostics) {
  Clear();
  for (const Diagnostic& diagnostic : diagnostics.items()) AddDiagnostic(diagnostic);
  list_->resizeColumnToContents(kSeverity);
  list_->resizeColumnToContents(kLocation);
  UpdateTitle();
}


void DiagnosticsPanel::AddMessage(Severity severity, const QString& message) {
  Diagnostic diagnostic;
  diagnostic.severity = severity;
  diagnostic.message = message.toStdString();
  AddDiagnostic(diagnostic);
  list_->resizeColumnToContents(kSeverity);
  UpdateTitle();
}


void DiagnosticsPanel::AppendDiagnostics(const std::vector<Diagnostic>& diagnostics) {
  for (const Diagnostic& diagnostic : diagnostics) AddDiagnostic(diagnostic);
  list_->resizeColumnToContents(kSeverity);
  list_->resizeColumnToContents(kLocation);
  if (list_->topLevelItemCount() > 0) list_->scrollToBottom();
  UpdateTitle();
}


QStringList DiagnosticsPanel::Rows() const {
  QStringList rows;
  for (int i = 0; i < list_->topLevelItemCount(); ++i) {
    rows << list_->topLevelItem(i)->data(kMessage, Qt::UserRole).toString();
  }
  return rows;
}


void DiagnosticsPanel::Clear() {
  list_->clear();
  error_count_ = 0;
  warning_count_ = 0;
  UpdateTitle();
}


void DiagnosticsPanel::AddDiagnostic(const Diagnostic& diagnostic) {
  auto* item = new QTreeWidgetItem(list_);
  item->setIcon(kSeverity, SeverityIcon(diagnostic.severity));
  item->setText(kSeverity, SeverityText(diagnostic.severity));
  // location as the compilers print it, so it can be pasted into an editor's "go to"
  QString location = QString::fromStdString(diagnostic.source);
  if (diagnostic.line > 0) location += QStringLiteral(":%1").arg(diagnostic.line);
  item->setText(kLocation, location);
  QString message = QString::fromStdString(diagnostic.message);
  if (!diagnostic.element_path.empty()) {
    message += QStringLiteral(" (at %1)").arg(QString::fromStdString(diagnostic.element_path));
  }
  item->setText(kMessage, message);
  item->setToolTip(kMessage, QString::fromStdString(diagnostic.Format()));
  item->setData(kSeverity, kFileRole, QString::fromStdString(diagnostic.source));
  item->setData(kSeverity, kLineRole, diagnostic.line);
  item->setData(kMessage, Qt::UserRole, QString::fromStdString(diagnostic.Format()));
  if (diagnostic.severity == Severity::kError) ++error_count_;
  if (diagnostic.severity == Severity::kWarning) ++warning_count_;
}


void DiagnosticsPanel::UpdateTitle() {
  QString title = tr("Diagnostics");
  if (error_count_ > 0 || warning_count_ > 0) {
    title += QStringLiteral(" (%1, %2)")
                 .arg(CountText(error_count_, "error", "errors"),
                      CountText(warning_count_, "warning", "warnings"));
  }
  setWindowTitle(title);
  emit CountsChanged(error_count_, warning_count_);
}


void DiagnosticsPanel::OpenLocation(QTreeWidgetItem* item) {
  const QString file = item->data(kSeverity, kFileRole).toString();
  if (file.isEmpty() || !QFileInfo::exists(file)) return;
  QDesktopServices::openUrl(QUrl::fromLocalFile(QFileInfo(file).absoluteFilePath()));
}


void DiagnosticsPanel::CopySelection() const {
  QStringList lines;
  for (const QTreeWidgetItem* item : list_->selectedItems()) {
    lines << item->data(kMessage, Qt::UserRole).toString();
  }
  if (!lines.isEmpty()) QApplication::clipboard()->setText(lines.join(QLatin1Char('\n')));
}

}  // namespace sim::ui
