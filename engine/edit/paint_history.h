// Undo and redo of structure-field paint strokes (structure_paint.h). A stroke is the dabs between
// BeginStroke and EndStroke on one field. It keeps the texels it changed in blocks of
// kBlockSide² texels: a block's texels before the stroke are copied when a dab is first about to
// write into it, and its texels after the stroke at EndStroke (blocks the stroke left as they
// were are dropped then), so undo and redo write back exactly that stroke's texels, bit for bit,
// and nothing else. A stroke costs 2 × 12 bytes per texel of each block it changed: 24 KiB per
// 32 × 32 block, 24 MiB for a stroke over a whole 1024² field.
//
// Depth: the history keeps the newest strokes within both limits of Limits (bytes of all kept
// strokes, undoable and redoable, and the number of undoable strokes; by default 256 MiB and 100
// strokes), forgetting the oldest first; a stroke larger than the byte limit by itself cannot be
// undone. A new stroke clears the redo list. Baking a field for painting is not a stroke:
// undoing the first stroke on a baked field restores the baked texels.
//
// Fields are held weakly: a stroke on a field that no longer exists (the scene was reloaded) or
// whose texel array changed size is dropped when undo or redo reaches it. Like painting, the
// history runs on the simulation worker between steps.
#pragma once

#include <cstddef>
#include <deque>
#include <memory>
#include <vector>

#include "engine/edit/structure_paint.h"

namespace sim {

/// What an undo or redo changed: the field (null: nothing to undo or redo) and the bounding
/// rectangle of the texels it wrote.
struct PaintChange {
  std::shared_ptr<StructureField> field;
  TexelRect bounds;
};

class PaintHistory {
 public:
  /// Side of the blocks a stroke saves [texels].
  static constexpr int kBlockSide = 32;

  struct Limits {
    std::size_t max_bytes = std::size_t{256} << 20;  ///< all kept strokes [bytes]
    int max_strokes = 100;                           ///< undoable strokes
  };

  explicit PaintHistory(Limits limits) : limits_(limits) {}
  PaintHistory() : PaintHistory(Limits{}) {}

  /// Starts a stroke on `field`, ending an open one first, and clears the redo list. False, and
  /// no stroke, when the field has no texels (BakeForPainting first).
  bool BeginStroke(std::shared_ptr<StructureField> field);
  /// One dab of the open stroke (ApplyDab on its field), after saving the blocks it may write.
  /// Nothing without an open stroke.
  DirtyTexels Dab(const Brush& brush, const FieldDab& dab);
  /// Ends the open stroke; it is kept for undo if it changed a texel.
  void EndStroke();
  bool stroke_open() const { return open_field_ != nullptr; }

  /// Restores the texels of the newest stroke's field as they were before it (and calls the
  /// field's MarkChanged()); ends an open stroke first.
  PaintChange Undo();
  /// Paints the newest undone stroke again: its texels as they were after it.
  PaintChange Redo();

  int undo_depth() const { return static_cast<int>(done_.size()); }
  int redo_depth() const { return static_cast<int>(undone_.size()); }
  /// Bytes held by the kept strokes, undoable and redoable.
  std::size_t memory_bytes() const;
  /// Forgets every stroke (an open one is ended and forgotten too).
  void Clear();

 private:
  // a block's texels before and after its stroke; `index` = block row · blocks across + column
  struct Block {
    int index = 0;
    std::vector<StructureTexel> before, after;
  };
  struct Stroke {
    std::weak_ptr<StructureField> field;
    int width = 0, height = 0;
    std::vector<Block> blocks;
    std::size_t bytes() const;
  };

  // writes `stroke`'s before or after texels into its field, or false when the field is gone
  // or resized
  static bool Restore(const Stroke& stroke, bool after, PaintChange* change);
  // moves the newest stroke of `from` whose field still exists to `to`, writing its texels
  // before (undo) or after (redo) it; strokes whose field is gone are dropped
  PaintChange Replay(std::deque<Stroke>* from, std::deque<Stroke>* to, bool after);
  // forgets the oldest strokes until the limits hold
  void Trim();

  Limits limits_;
  std::deque<Stroke> done_;    // undoable, oldest first
  std::deque<Stroke> undone_;  // redoable, newest undo last
  Stroke open_;
  std::shared_ptr<StructureField> open_field_;
  std::vector<int> open_slot_;  // per block of the open field: its index in open_.blocks, or −1
};

}  // namespace sim
