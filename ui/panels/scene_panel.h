// ScenePanel: a dock listing what the loaded scene is made of: the static world shapes and every
// body with its shapes, each with its type, size and world position.
#pragma once

#include <memory>

#include <QDockWidget>

class QLabel;
class QTreeWidget;

namespace sim {
struct Model;
struct VisualFrame;
}  // namespace sim

namespace sim::ui {

class ScenePanel : public QDockWidget {
  Q_OBJECT

 public:
  explicit ScenePanel(QWidget* parent = nullptr);

  /// Shows `model` (null: no scene). `frame` gives the shapes' world poses; it must come from the
  /// same model (one VisualShape per model shape, in order).
  void SetScene(std::shared_ptr<const Model> model, const VisualFrame& frame);

 private:
  QLabel* title_ = nullptr;
  QTreeWidget* tree_ = nullptr;
  std::shared_ptr<const Model> model_;
};

}  // namespace sim::ui
