// InspectorPanel: the numbers of what the user picked (MuJoCo simulate's selection info, Drake's
// contact results): the selected body's pose, velocity, mass, inertia and contacts, and the
// contact clicked in the contacts view (its two sides and shapes, point, normal, gap, normal and
// friction force, friction cone, stick or slip), both as of the last published step. The picked
// contact is followed from step to step (the same pair of sides, nearest its last point) until it
// ends.
#pragma once

#include <cstdint>
#include <optional>

#include <QDockWidget>
#include <QElapsedTimer>
#include <QStringList>

#include "engine/visual/visual_frame.h"

class QTreeWidget;
class QTreeWidgetItem;

namespace sim::ui {

struct SimSnapshot;

class InspectorPanel : public QDockWidget {
  Q_OBJECT

 public:
  explicit InspectorPanel(QWidget* parent = nullptr);

  /// Shows the snapshot's selected body and the followed contact (refreshed at most every
  /// kRefreshMs while the panel is visible).
  void ShowSnapshot(const SimSnapshot& snapshot);
  /// Follows `contact` (one of `snapshot.frame.contacts`) from now on and shows it at once.
  void SelectContact(const SimSnapshot& snapshot, const VisualContact& contact);
  /// Stops following a contact.
  void ClearContact();
  bool has_contact() const { return has_contact_; }
  /// Where the followed contact is, world [m]; nullopt when none is followed or it ended.
  std::optional<Vec3> inspected_point() const;

  /// The rows shown, "section: figure = value" (for the studio's scripted summary).
  QStringList Rows() const;

  static constexpr int kRefreshMs = 250;
  /// A followed contact whose pair's nearest contact moved farther than this ended [m].
  static constexpr float kFollowDistance = 0.05f;

 private:
  void Refresh(const SimSnapshot& snapshot);
  // the followed contact in `frame`, or null when it ended
  const VisualContact* FindFollowed(const VisualFrame& frame) const;

  QTreeWidget* table_ = nullptr;
  QTreeWidgetItem* body_item_ = nullptr;
  QTreeWidgetItem* contact_item_ = nullptr;
  QElapsedTimer since_refresh_;
  int shown_body_ = -1;  // the selected body shown
  bool has_contact_ = false;
  bool contact_ended_ = false;
  VisualContact followed_;  // the followed contact as last seen
  double followed_time_ = 0;
  std::uint64_t followed_step_ = 0;
};

}  // namespace sim::ui
