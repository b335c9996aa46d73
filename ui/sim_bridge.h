// SimBridge: the Qt side of the simulation worker (architecture §4). It owns the SimWorker, polls
// its snapshot mailbox on the GUI thread once per rendered viewport frame (and on a timer while the
// viewport does not render), hands each new snapshot's VisualFrame to the viewport without copying
// it, and tells the panels. Diagnostics raised by the worker arrive as a signal. Nothing here
// waits for the worker.
#pragma once

#include <memory>
#include <vector>

#include <QObject>
#include <QTimer>

#include "engine/core/diagnostics.h"
#include "ui/sim_worker.h"

namespace sim::ui {

class VulkanViewport;

class SimBridge : public QObject {
  Q_OBJECT

 public:
  /// Starts the worker. `viewport` (which must outlive this object) draws the snapshots.
  explicit SimBridge(VulkanViewport* viewport, QObject* parent = nullptr);
  ~SimBridge() override;  ///< stops the worker

  /// Queues a command for the worker.
  void Send(SimCommand command) { worker_.Send(std::move(command)); }

  /// The newest snapshot taken so far (an empty one before the first).
  const std::shared_ptr<const SimSnapshot>& latest() const { return latest_; }

 signals:
  /// A new snapshot arrived (GUI thread). Panels throttle their own updates.
  void SnapshotReady(const std::shared_ptr<const SimSnapshot>& snapshot);
  /// The worker applied a new scene (its first snapshot; emitted before SnapshotReady).
  void SceneChanged(const std::shared_ptr<const SimSnapshot>& snapshot);
  /// The worker reported problems (failed commands, step status).
  void DiagnosticsRaised(const std::vector<sim::Diagnostic>& diagnostics);

 public slots:
  /// Takes the newest snapshot and diagnostics, if any.
  void Poll();

 private:
  VulkanViewport* viewport_;
  SimWorker worker_;
  QTimer timer_;
  std::shared_ptr<const SimSnapshot> latest_;
};

}  // namespace sim::ui
