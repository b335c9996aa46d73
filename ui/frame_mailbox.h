// FrameMailbox: a lock-free triple buffer between one writer thread (the simulation worker) and
// one reader thread (the GUI), latest wins (style anchors §3.10). The writer fills the back slot
// and publishes it with one atomic exchange; the reader takes the newest published slot with one
// atomic exchange. Neither ever waits for the other: a slow reader skips frames, a slow writer
// leaves the reader with the last frame. Slots are swapped, never copied.
//
//   slots:   back (writer only) · middle (shared, atomic index + "fresh" bit) · front (reader only)
//   Publish: back  ⇄ middle, mark fresh          TakeLatest: if fresh, front ⇄ middle
#pragma once

#include <array>
#include <atomic>

namespace sim::ui {

template <typename T>
class FrameMailbox {
 public:
  FrameMailbox() = default;
  FrameMailbox(const FrameMailbox&) = delete;
  FrameMailbox& operator=(const FrameMailbox&) = delete;

  /// Writer: the slot to fill. Stays the writer's until Publish().
  T& back() { return slots_[back_]; }

  /// Writer: makes the back slot the newest frame and takes the previous middle slot (an old or
  /// already read frame) as the new back slot, whose contents are stale.
  void Publish() { back_ = middle_.exchange(back_ | kFresh, std::memory_order_acq_rel) & kIndex; }

  /// Reader: the newest frame published since the last call, or null when there is none. The
  /// returned slot stays the reader's (it may move out of it) until the next call.
  T* TakeLatest() {
    if ((middle_.load(std::memory_order_relaxed) & kFresh) == 0) return nullptr;
    front_ = middle_.exchange(front_, std::memory_order_acq_rel) & kIndex;
    return &slots_[front_];
  }

  /// Reader: whether a frame newer than the last taken one is waiting (a hint; may be stale).
  bool has_new() const { return (middle_.load(std::memory_order_relaxed) & kFresh) != 0; }

 private:
  static constexpr unsigned kIndex = 3u;
  static constexpr unsigned kFresh = 4u;

  std::array<T, 3> slots_{};
  // the three indices are on separate cache lines: the writer and the reader never share one
  alignas(64) std::atomic<unsigned> middle_{1};
  alignas(64) unsigned back_ = 0;
  alignas(64) unsigned front_ = 2;
};

}  // namespace sim::ui
