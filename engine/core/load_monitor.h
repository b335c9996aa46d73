// Progress and cancellation of a long load (a scene with meshes, SDFs and tetrahedralizations),
// shared between the thread that loads and the one that shows it. The watcher (the studio's GUI)
// polls the status and may ask the load to stop; the loaders report what they do and check for
// the request between units of work (an object, a mesh, a slab of an SDF grid), then return the
// usual diagnostics with one error, kLoadCancelledMessage. Work that cannot be interrupted
// (TetGen, assimp) is checked before and after.
#pragma once

#include <algorithm>
#include <atomic>
#include <mutex>
#include <string>
#include <string_view>

#include "engine/core/diagnostics.h"

namespace sim {

/// Message of the error a cancelled load returns.
inline constexpr std::string_view kLoadCancelledMessage = "load cancelled";

/// The diagnostics a cancelled load returns: the one kLoadCancelledMessage error, about `source`.
inline Diagnostics CancelledLoad(const std::string& source) {
  Diagnostics diagnostics;
  diagnostics.Error(source, 0, "", std::string(kLoadCancelledMessage));
  return diagnostics;
}

/// What a load is doing and how far along it is.
struct LoadStatus {
  std::string stage;    ///< e.g. "loading mesh foo.dae", "building SDF of foo.dae"
  double fraction = 0;  ///< of the whole load, in [0, 1], never decreasing
};

/// The shared state of one load. Thread-safe; the loader and the watcher both hold it.
class LoadMonitor {
 public:
  /// Asks the load to stop at its next check (any thread).
  void RequestCancel() { cancel_requested_.store(true, std::memory_order_relaxed); }
  bool cancel_requested() const { return cancel_requested_.load(std::memory_order_relaxed); }

  /// A copy of the current status.
  LoadStatus status() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return status_;
  }

  /// Names the stage (unless `stage` is empty) and raises the fraction to `fraction`; a lower
  /// value is ignored, so work done in parallel cannot move the bar back.
  void Report(double fraction, std::string_view stage) {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (!stage.empty()) status_.stage = stage;
    status_.fraction = std::max(status_.fraction, std::clamp(fraction, 0.0, 1.0));
  }

 private:
  std::atomic<bool> cancel_requested_{false};
  mutable std::mutex mutex_;
  LoadStatus status_;
};

/// The part [begin, end] of a monitored load's fraction that one piece of work covers, handed
/// down the loaders by value (parallel tasks each get their own). A default-constructed one
/// watches nothing: it never reports and is never cancelled, so a loader called without one runs
/// as before.
class LoadProgress {
 public:
  LoadProgress() = default;
  /// The whole of `monitor`'s load (may be null: unmonitored).
  explicit LoadProgress(LoadMonitor* monitor) : monitor_(monitor) {}

  /// The sub-part [from, to] of this part, both in [0, 1] of it.
  LoadProgress Part(double from, double to) const {
    LoadProgress part = *this;
    part.begin_ = begin_ + (end_ - begin_) * from;
    part.end_ = begin_ + (end_ - begin_) * to;
    return part;
  }
  /// The `index`-th of `count` equal sub-parts.
  LoadProgress Share(int index, int count) const {
    return count > 0
               ? Part(static_cast<double>(index) / count, static_cast<double>(index + 1) / count)
               : *this;
  }
  /// Names stages and sees a cancel like this part, but leaves the fraction alone: for tasks run
  /// in parallel whose share their caller reports as each one ends.
  LoadProgress Silent() const {
    LoadProgress part = *this;
    part.begin_ = part.end_ = 0;  // 0 is below any fraction reported: the monitor ignores it
    return part;
  }

  /// This part is `fraction` (in [0, 1]) done; `stage` names what it is doing (empty: unchanged).
  void Report(double fraction, std::string_view stage = {}) const {
    if (monitor_ != nullptr) monitor_->Report(begin_ + (end_ - begin_) * fraction, stage);
  }
  /// Names what this part does, at its start.
  void Stage(std::string_view stage) const { Report(0, stage); }

  /// The watcher asked the load to stop.
  bool cancelled() const { return monitor_ != nullptr && monitor_->cancel_requested(); }
  /// cancelled(), and then the kLoadCancelledMessage error about `source` in `*diagnostics`: for
  /// the places where a loader gives up.
  bool CheckCancelled(const std::string& source, Diagnostics* diagnostics) const {
    if (!cancelled()) return false;
    diagnostics->Error(source, 0, "", std::string(kLoadCancelledMessage));
    return true;
  }

 private:
  LoadMonitor* monitor_ = nullptr;
  double begin_ = 0;
  double end_ = 1;
};

}  // namespace sim
