// Undo and redo of paint strokes by saved texel blocks (paint_history.h).
#include "engine/edit/paint_history.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace sim {

namespace {

// the texel rectangle of block `index` in a width × height field
TexelRect BlockRect(int index, int width, int height) {
  const int across = (width + PaintHistory::kBlockSide - 1) / PaintHistory::kBlockSide;
  const int column = index % across * PaintHistory::kBlockSide;
  const int row = index / across * PaintHistory::kBlockSide;
  return {column, row, std::min(PaintHistory::kBlockSide, width - column),
          std::min(PaintHistory::kBlockSide, height - row)};
}

// copies the texels of `rect` out of a field's texels, or back into them
void CopyOut(const std::vector<StructureTexel>& texels, int width, const TexelRect& rect,
             std::vector<StructureTexel>* out) {
  out->resize(static_cast<std::size_t>(rect.width) * rect.height);
  for (int r = 0; r < rect.height; ++r) {
    const auto first = texels.begin() + static_cast<std::ptrdiff_t>(rect.row + r) * width;
    std::copy_n(first + rect.column, rect.width,
                out->begin() + static_cast<std::ptrdiff_t>(r) * rect.width);
  }
}

void CopyIn(const std::vector<StructureTexel>& block, int width, const TexelRect& rect,
            std::vector<StructureTexel>* texels) {
  for (int r = 0; r < rect.height; ++r) {
    std::copy_n(block.begin() + static_cast<std::ptrdiff_t>(r) * rect.width, rect.width,
                texels->begin() + static_cast<std::ptrdiff_t>(rect.row + r) * width + rect.column);
  }
}

// the union of two rectangles (either may be empty)
TexelRect Union(const TexelRect& a, const TexelRect& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  const int column = std::min(a.column, b.column), row = std::min(a.row, b.row);
  return {column, row, std::max(a.column + a.width, b.column + b.width) - column,
          std::max(a.row + a.height, b.row + b.height) - row};
}

}  // namespace


std::size_t PaintHistory::Stroke::bytes() const {
  std::size_t texels = 0;
  for (const Block& block : blocks) texels += block.before.size() + block.after.size();
  return texels * sizeof(StructureTexel);
}


bool PaintHistory::BeginStroke(std::shared_ptr<StructureField> field) {
  EndStroke();
  if (field == nullptr || !field->has_texels()) return false;
  undone_.clear();
  open_ = Stroke{field, field->width(), field->height(), {}};
  const int across = (field->width() + kBlockSide - 1) / kBlockSide;
  const int down = (field->height() + kBlockSide - 1) / kBlockSide;
  open_slot_.assign(static_cast<std::size_t>(across) * down, -1);
  open_field_ = std::move(field);
  return true;
}


DirtyTexels PaintHistory::Dab(const Brush& brush, const FieldDab& dab) {
  if (open_field_ == nullptr) return {};
  StructureField& field = *open_field_;
  // save every block the dab may write that this stroke has not saved yet
  const int across = (field.width() + kBlockSide - 1) / kBlockSide;
  const DirtyTexels may_write = DabTexels(field, dab);
  for (int i = 0; i < may_write.count; ++i) {
    const TexelRect& rect = may_write.rects[i];
    for (int by = rect.row / kBlockSide; by <= (rect.row + rect.height - 1) / kBlockSide; ++by) {
      for (int bx = rect.column / kBlockSide; bx <= (rect.column + rect.width - 1) / kBlockSide;
           ++bx) {
        const int index = by * across + bx;
        if (open_slot_[index] >= 0) continue;
        open_slot_[index] = static_cast<int>(open_.blocks.size());
        Block& block = open_.blocks.emplace_back();
        block.index = index;
        CopyOut(field.texels(), field.width(), BlockRect(index, field.width(), field.height()),
                &block.before);
      }
    }
  }
  return ApplyDab(&field, brush, dab);
}


void PaintHistory::EndStroke() {
  if (open_field_ == nullptr) return;
  const StructureField& field = *open_field_;
  // the after texels of each saved block; blocks the stroke left unchanged are dropped
  std::vector<Block> changed;
  for (Block& block : open_.blocks) {
    CopyOut(field.texels(), field.width(), BlockRect(block.index, field.width(), field.height()),
            &block.after);
    if (std::memcmp(block.before.data(), block.after.data(),
                    block.before.size() * sizeof(StructureTexel)) != 0) {
      changed.push_back(std::move(block));
    }
  }
  open_.blocks = std::move(changed);
  if (!open_.blocks.empty()) done_.push_back(std::move(open_));
  open_ = Stroke{};
  open_field_.reset();
  open_slot_.clear();
  Trim();
}


bool PaintHistory::Restore(const Stroke& stroke, bool after, PaintChange* change) {
  std::shared_ptr<StructureField> field = stroke.field.lock();
  if (field == nullptr || field->width() != stroke.width || field->height() != stroke.height) {
    return false;
  }
  change->bounds = {};
  for (const Block& block : stroke.blocks) {
    const TexelRect rect = BlockRect(block.index, stroke.width, stroke.height);
    CopyIn(after ? block.after : block.before, stroke.width, rect, &field->mutable_texels());
    change->bounds = Union(change->bounds, rect);
  }
  field->MarkChanged();
  change->field = std::move(field);
  return true;
}


PaintChange PaintHistory::Replay(std::deque<Stroke>* from, std::deque<Stroke>* to, bool after) {
  EndStroke();
  PaintChange change;
  // the newest stroke whose field still exists (the others are dropped on the way)
  while (!from->empty()) {
    Stroke stroke = std::move(from->back());
    from->pop_back();
    if (Restore(stroke, after, &change)) {
      to->push_back(std::move(stroke));
      break;
    }
  }
  return change;
}


PaintChange PaintHistory::Undo() { return Replay(&done_, &undone_, false); }


PaintChange PaintHistory::Redo() { return Replay(&undone_, &done_, true); }


std::size_t PaintHistory::memory_bytes() const {
  std::size_t bytes = open_.bytes();
  for (const Stroke& stroke : done_) bytes += stroke.bytes();
  for (const Stroke& stroke : undone_) bytes += stroke.bytes();
  return bytes;
}


void PaintHistory::Clear() {
  EndStroke();
  done_.clear();
  undone_.clear();
}


void PaintHistory::Trim() {
  while (!done_.empty() && (static_cast<int>(done_.size()) > limits_.max_strokes ||
                            memory_bytes() > limits_.max_bytes)) {
    done_.pop_front();
  }
}

}  // namespace sim
