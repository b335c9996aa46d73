// OverlayRenderer: draws a Dear ImGui overlay (stats, debug controls) on top of the scene, inside
// the host's render pass. It wraps Dear ImGui's Vulkan backend (1.86 API) and owns what the backend
// needs from us: its descriptor pool and the one-shot font upload. The ImGui context itself (and
// the platform side: display size, input) belongs to the host, which is why there is no Qt here.
#pragma once

#include <memory>

#include <vulkan/vulkan.h>

#include "render/scene_renderer.h"

struct ImGuiContext;
struct ImDrawData;

namespace sim::render {

/// Vulkan renderer of one ImGui context. Single-threaded: use it on the thread that records the
/// host's command buffers and that owns the ImGui context. Only one OverlayRenderer may exist per
/// ImGui context (the backend keeps its state in the context's IO).
class OverlayRenderer {
 public:
  /// Initialises the backend for `imgui` (which must outlive this object) with the host's device,
  /// render pass (subpass 0), sample count and frames in flight, then uploads the font atlas
  /// through a one-shot command buffer on `context.queue` and waits for it. Add fonts to the
  /// context before.
  /// @throws DeviceError when a Vulkan call fails.
  OverlayRenderer(const DeviceContext& context, ImGuiContext* imgui);
  /// Waits for nothing: the host must have finished all frames that used the overlay.
  ~OverlayRenderer();
  OverlayRenderer(const OverlayRenderer&) = delete;
  OverlayRenderer& operator=(const OverlayRenderer&) = delete;

  /// Backend half of a new ImGui frame; call before ImGui::NewFrame().
  void NewFrame();

  /// Records `draw_data` (from ImGui::Render()) into `cmd` inside the active render pass. Call at
  /// most once per host frame: vertex buffers rotate over `frames_in_flight` slots, so a slot is
  /// reused only after the host has waited for the frame that last used it. When the colour target
  /// is sRGB, vertex colours (which ImGui specifies in sRGB) are converted to linear first so the
  /// overlay looks the same as on a UNORM target. Leaves the scissor set to the full framebuffer.
  void Record(ImDrawData* draw_data, VkCommandBuffer cmd);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sim::render
