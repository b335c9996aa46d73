// StructurePainter: the studio's paint mode on the simulation worker (no Qt). A stroke is a press,
// moves and a release of the mouse in the viewport, each turned by the GUI into a world ray from
// the camera. The painter casts the ray at the scene (Raycast), finds the structure field under
// it (LocatePaint), bakes a procedural field into texels on its first paint, and lays dabs of the
// brush along the stroke (engine/edit/structure_paint.h), recorded for undo (PaintHistory). Between
// two mouse positions it lays a dab every quarter radius along the segment, re-cast from the same
// eye, so a fast stroke leaves no gaps. It runs between steps (the painting contract of
// structure_field.h): the next step's contacts, and the next published frame's structure glyphs,
// use the paint. Saving writes every painted field as a PNG beside the scene and points the scene
// at it (io::SaveStructureField); the scene file is rewritten only there.
#pragma once

#include <memory>
#include <optional>
#include <set>
#include <string>

#include "engine/core/diagnostics.h"
#include "engine/edit/paint_history.h"
#include "engine/edit/structure_paint.h"
#include "engine/model/model.h"
#include "engine/state/state.h"

namespace sim::ui {

/// What the paint panel shows of the painter.
struct PaintStatus {
  int undo_depth = 0;
  int redo_depth = 0;
  int unsaved_fields = 0;  ///< fields painted since the last save
  std::string message;     ///< the last stroke's or save's outcome, for the status line
};

class StructurePainter {
 public:
  /// Dabs per brush radius along a stroke.
  static constexpr Real kDabsPerRadius = 4;
  /// Most dabs laid between two mouse positions.
  static constexpr int kMaxDabsPerMove = 256;

  /// Starts a stroke of `brush` where the ray (world, from the eye) hits; a ray that hits no
  /// surface with a structure field starts nothing and says so in the status.
  void Begin(const Model& model, const State& state, const Vec3& origin, const Vec3& direction,
             const Brush& brush);
  /// Continues the stroke to where this ray hits.
  void MoveTo(const Model& model, const State& state, const Vec3& origin, const Vec3& direction);
  void End();
  /// Undoes or redoes the newest stroke (any field).
  void Undo();
  void Redo();
  /// Saves every field painted since the last save beside `scene_path` (the scene file is updated
  /// to reference the images); errors go to `diagnostics`.
  void Save(const Model& model, const std::string& scene_path, Diagnostics* diagnostics);
  /// Forgets strokes and unsaved marks (a new scene).
  void Reset();

  bool stroke_open() const { return stroke_open_; }
  PaintStatus status() const;

 private:
  // one dab where the ray hits, if it lands on the stroke's field
  bool DabAlongRay(const Model& model, const State& state, const Vec3& origin,
                   const Vec3& direction);

  PaintHistory history_;
  Brush brush_;
  bool stroke_open_ = false;
  int field_ = -1;              // the stroke's field
  std::optional<Vec3> last_W_;  // the last dab's point [m]
  std::set<int> unsaved_;       // fields painted since the last save
  std::string message_;
};

}  // namespace sim::ui
