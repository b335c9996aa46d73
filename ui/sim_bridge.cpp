// SimBridge: snapshots from the worker to the viewport and the panels.
#include "ui/sim_bridge.h"

#include <utility>

#include "ui/viewport/vulkan_viewport.h"

namespace sim::ui {

namespace {

// polling period while the viewport renders no frames (hidden, minimized) [ms]
constexpr int kIdlePollMs = 50;

}  // namespace


SimBridge::SimBridge(VulkanViewport* viewport, QObject* parent)
    : QObject(parent), viewport_(viewport), latest_(std::make_shared<const SimSnapshot>()) {
  // once per rendered frame (queued: not inside the viewport's frame callback), so the next frame
  // draws the newest snapshot; and on a timer for when nothing renders
  connect(viewport_, &VulkanViewport::FrameRendered, this, &SimBridge::Poll, Qt::QueuedConnection);
  connect(&timer_, &QTimer::timeout, this, &SimBridge::Poll);
  timer_.start(kIdlePollMs);
  worker_.Start();
}


SimBridge::~SimBridge() { worker_.Stop(); }


void SimBridge::Poll() {
  std::vector<Diagnostic> diagnostics = worker_.TakeDiagnostics();
  if (!diagnostics.empty()) emit DiagnosticsRaised(diagnostics);
  SimSnapshot* taken = worker_.TakeLatest();
  if (taken == nullptr) return;
  // the slot is ours until the next TakeLatest: move it out instead of copying
  auto snapshot = std::make_shared<SimSnapshot>(std::move(*taken));
  const bool new_scene = snapshot->scene_generation != latest_->scene_generation;
  latest_ = snapshot;
  // the viewport keeps the whole snapshot alive while it draws its frame
  viewport_->SetFrame(std::shared_ptr<const VisualFrame>(latest_, &latest_->frame));
  if (new_scene) emit SceneChanged(latest_);
  emit SnapshotReady(latest_);
}

}  // namespace sim::ui
