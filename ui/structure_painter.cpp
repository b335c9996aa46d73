#include "ui/structure_painter.h"

#include <algorithm>
#include <cmath>

#include "engine/collision/raycast.h"
#include "engine/io/structure_field_save.h"

namespace sim::ui {

namespace {

// the field under the ray, with the hit point
struct RayPaint {
  std::optional<PaintSpot> spot;
  Vec3 point_W = Vec3::Zero();
};

RayPaint CastPaint(const Model& model, const State& state, const Vec3& origin,
                   const Vec3& direction) {
  RayPaint out;
  const RayHit hit = Raycast(model, state, origin, direction);
  if (!hit.hit) return out;
  out.point_W = hit.point;
  out.spot = LocatePaint(model, state, hit);
  return out;
}

}  // namespace


void StructurePainter::Begin(const Model& model, const State& state, const Vec3& origin,
                             const Vec3& direction, const Brush& brush) {
  End();
  brush_ = brush;
  const RayPaint paint = CastPaint(model, state, origin, direction);
  if (!paint.spot) {
    message_ = "nothing with a structure field under the cursor";
    return;
  }
  field_ = paint.spot->field;
  BakeForPainting(model, field_, paint.spot->uv);
  if (!history_.BeginStroke(model.structure_fields[field_])) {
    message_ = "this structure field cannot be painted";
    return;
  }
  stroke_open_ = true;
  last_W_.reset();
  message_ = std::string(BrushToolName(brush_.tool)) + " on field " + std::to_string(field_);
  DabAlongRay(model, state, origin, direction);
}


void StructurePainter::MoveTo(const Model& model, const State& state, const Vec3& origin,
                              const Vec3& direction) {
  if (!stroke_open_) return;
  const RayPaint paint = CastPaint(model, state, origin, direction);
  if (!paint.spot || paint.spot->field != field_) return;
  // dabs every radius/kDabsPerRadius from the last one, each re-cast from this eye
  const Vec3 to = paint.point_W;
  const Vec3 from = last_W_.value_or(to);
  const Real spacing = brush_.radius / kDabsPerRadius;
  const int dabs =
      std::clamp(static_cast<int>(std::floor((to - from).norm() / spacing)), 0, kMaxDabsPerMove);
  for (int k = 1; k <= dabs; ++k) {
    const Vec3 point = from + (to - from) * (static_cast<Real>(k) / dabs);
    DabAlongRay(model, state, origin, point - origin);
  }
}


void StructurePainter::End() {
  if (!stroke_open_) return;
  history_.EndStroke();
  stroke_open_ = false;
  last_W_.reset();
}


void StructurePainter::Undo() {
  End();
  const PaintChange change = history_.Undo();
  message_ = change.field ? "undone" : "nothing to undo";
}


void StructurePainter::Redo() {
  End();
  const PaintChange change = history_.Redo();
  message_ = change.field ? "redone" : "nothing to redo";
}


void StructurePainter::Save(const Model& model, const std::string& scene_path,
                            Diagnostics* diagnostics) {
  End();
  if (unsaved_.empty()) {
    message_ = "no painted field to save";
    return;
  }
  int saved = 0;
  for (auto it = unsaved_.begin(); it != unsaved_.end();) {
    if (*it < 0 || *it >= static_cast<int>(model.structure_fields.size())) {
      it = unsaved_.erase(it);
      continue;
    }
    Expected<std::string> image = io::SaveStructureField(*model.structure_fields[*it], scene_path);
    diagnostics->Append(image.diagnostics());
    if (image.ok()) {
      message_ = "saved " + image.value();
      ++saved;
      it = unsaved_.erase(it);
    } else {
      message_ = "saving failed: see the diagnostics";
      ++it;
    }
  }
  if (saved > 1) message_ = "saved " + std::to_string(saved) + " fields beside the scene";
}


void StructurePainter::Reset() {
  history_.Clear();
  stroke_open_ = false;
  field_ = -1;
  last_W_.reset();
  unsaved_.clear();
  message_.clear();
}


PaintStatus StructurePainter::status() const {
  PaintStatus status;
  status.undo_depth = history_.undo_depth();
  status.redo_depth = history_.redo_depth();
  status.unsaved_fields = static_cast<int>(unsaved_.size());
  status.message = message_;
  return status;
}


bool StructurePainter::DabAlongRay(const Model& model, const State& state, const Vec3& origin,
                                   const Vec3& direction) {
  const RayPaint paint = CastPaint(model, state, origin, direction);
  if (!paint.spot || paint.spot->field != field_) return false;
  // comb follows the motion since the last dab (none on the first: that dab only marks the start)
  const Vec3 motion = last_W_ ? Vec3(paint.point_W - *last_W_) : Vec3::Zero();
  const FieldDab dab = DabAt(*paint.spot, brush_, motion);
  if (!history_.Dab(brush_, dab).empty()) unsaved_.insert(field_);
  last_W_ = paint.point_W;
  return true;
}

}  // namespace sim::ui
