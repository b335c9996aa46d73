// PaintPanel: the structure-field paint mode (issue 18). A checkable "Paint" mode (the viewport's
// left drags then paint, see PickController), the brush (tool, radius on the surface in metres,
// opacity, hardness of the falloff, the angle of "set angle", the strength that comb, set angle
// and strength paint), undo and redo of strokes, and saving the painted fields as PNGs beside the
// scene (the scene file then references them). It shows the painter's state from the worker's
// snapshot: what the last stroke or save did, the undo and redo depth, unsaved fields.
#pragma once

#include <QDockWidget>

#include "engine/edit/structure_paint.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;

namespace sim::ui {

struct SimSnapshot;

class PaintPanel : public QDockWidget {
  Q_OBJECT

 public:
  explicit PaintPanel(QWidget* parent = nullptr);

  /// The brush as set in the panel (angle in radians).
  Brush brush() const;
  /// Sets the tool by name (BrushToolName: "comb", "set angle", ...); false when unknown.
  bool SetTool(const QString& name);
  void SetRadius(double metres);
  void SetAngleDegrees(double degrees);
  bool paint_mode() const;
  void SetPaintMode(bool on);

  /// Shows the painter's state (undo depth, unsaved fields, last message).
  void ShowSnapshot(const SimSnapshot& snapshot);

 signals:
  void PaintModeToggled(bool on);
  void UndoRequested();
  void RedoRequested();
  void SaveRequested();

 private:
  QCheckBox* mode_ = nullptr;
  QComboBox* tool_ = nullptr;
  QDoubleSpinBox* radius_ = nullptr;
  QDoubleSpinBox* opacity_ = nullptr;
  QDoubleSpinBox* hardness_ = nullptr;
  QDoubleSpinBox* angle_ = nullptr;
  QDoubleSpinBox* strength_ = nullptr;
  QPushButton* undo_ = nullptr;
  QPushButton* redo_ = nullptr;
  QPushButton* save_ = nullptr;
  QLabel* status_ = nullptr;
};

}  // namespace sim::ui
