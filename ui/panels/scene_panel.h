// ScenePanel: a dock listing what the loaded scene is made of (the static world shapes and every
// body with its shapes, each with its type, size and world position) and its joints with their
// live values and, for driven joints, a slider for the drive target (MuJoCo's Joint and Control
// sections, Drake's JointSliders). Clicking a body selects it in the viewport and a body picked in
// the viewport is selected here.
#pragma once

#include <memory>
#include <vector>

#include <QDockWidget>
#include <QElapsedTimer>

class QLabel;
class QSlider;
class QTreeWidget;
class QTreeWidgetItem;

namespace sim {
struct Model;
struct VisualFrame;
}  // namespace sim

namespace sim::ui {

struct SimSnapshot;

class ScenePanel : public QDockWidget {
  Q_OBJECT

 public:
  explicit ScenePanel(QWidget* parent = nullptr);

  /// Shows `model` (null: no scene). `frame` gives the shapes' world poses; it must come from the
  /// same model (one VisualShape per model shape, in order).
  void SetScene(std::shared_ptr<const Model> model, const VisualFrame& frame);

  /// Follows the simulation: rebuilds for a new scene, else refreshes the joint values and the
  /// selection (joint values at most every kRefreshMs).
  void ShowSnapshot(const SimSnapshot& snapshot);

  static constexpr int kRefreshMs = 100;
  /// Positions of a target slider.
  static constexpr int kSliderSteps = 1000;

  /// Moves joint `name`'s slider to `target` [rad or m] as a user's drag would (pressed, moved,
  /// released), for scripted runs; false when no driven joint has that name.
  bool DragJointSlider(const QString& name, double target);

 signals:
  /// The user selected a body in the tree (kWorldBody: none).
  void BodySelected(int body);
  /// The user moved joint `joint`'s drive target slider to `target` [rad or m].
  void JointTargetChanged(int joint, double target);
  /// The user took joint `joint`'s target over from the script (`taken`) or handed it back.
  void JointTakenChanged(int joint, bool taken);

 private:
  struct JointRow {
    int joint = -1;
    QTreeWidgetItem* item = nullptr;
    QSlider* slider = nullptr;
    double lower = 0, upper = 0;  // slider range [rad or m]
    bool angular = true;
    bool scripted = false;  // the scene's script drives its target
  };

  void BuildJoints();
  void SelectBodyRow(int body);

  QLabel* title_ = nullptr;
  QTreeWidget* tree_ = nullptr;
  QTreeWidget* joints_ = nullptr;
  std::shared_ptr<const Model> model_;
  std::vector<JointRow> joint_rows_;
  std::uint64_t shown_generation_ = 0;
  int shown_selection_ = -2;
  QElapsedTimer since_refresh_;
};

}  // namespace sim::ui
