// SceneRenderer: draws a VisualFrame (ground grid, primitive shapes, textured meshes, deformed soft
// bodies, markers) with Vulkan into a render pass owned by a host: the offscreen renderer (PNG
// output, tests, `contact-sim render`) or the studio's Qt Vulkan window, in the view mode and with
// the markers of a RenderOptions. It reads snapshots only, never Model/State.
#pragma once

#include <array>
#include <cstdint>
#include <memory>

#include <vulkan/vulkan.h>

#include "engine/visual/camera.h"
#include "engine/visual/visual_frame.h"
#include "render/render_options.h"
#include "render/vk/vk_check.h"

namespace sim::render {

/// Vulkan objects the renderer draws with; all owned by the host and alive longer than the
/// renderer.
struct DeviceContext {
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;  ///< graphics queue (used for one-time uploads)
  std::uint32_t queue_family = 0;
  VkRenderPass render_pass = VK_NULL_HANDLE;  ///< colour (+ depth) pass the draws are recorded in
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
  /// Format of the colour attachment. With a *_SRGB format the hardware encodes the shaders'
  /// linear output; with a UNORM format (QVulkanWindow's default) the shaders encode sRGB
  /// themselves; float formats receive linear values.
  VkFormat color_format = VK_FORMAT_B8G8R8A8_UNORM;
  std::uint32_t frames_in_flight = 2;            ///< number of per-frame slots to keep
  RenderQuality quality = RenderQuality::kAuto;  ///< speed trade-offs (see RenderQuality)
};

/// Sky colour at the horizon (linear RGBA).
std::array<float, 4> ClearColor();
/// The value hosts clear a colour attachment of `color_format` with: the horizon colour, encoded
/// the way the shaders encode for that format (see DeviceContext::color_format).
VkClearColorValue SkyClearValue(VkFormat color_format);

class SceneRenderer {
 public:
  /// Creates pipelines and static meshes. Throws DeviceError on failure.
  explicit SceneRenderer(const DeviceContext& context);
  ~SceneRenderer();
  SceneRenderer(const SceneRenderer&) = delete;
  SceneRenderer& operator=(const SceneRenderer&) = delete;

  /// Uploads camera, instance and soft-body data of `frame` drawn as `options` asks into slot
  /// `frame_slot` (< frames_in_flight). Mesh assets new to the renderer are uploaded here once
  /// (blocking on one-time copies) and kept while frames use them. Call outside the render pass,
  /// after the slot's previous use has completed on the GPU.
  void Prepare(std::uint32_t frame_slot, const VisualFrame& frame, const OrbitCamera& camera,
               VkExtent2D extent, const RenderOptions& options = RenderOptions());
  /// Records the key light's shadow map pass of slot `frame_slot` into `cmd`: after Prepare and
  /// OUTSIDE any render pass, before the host begins the pass that Record draws in (same command
  /// buffer, or an earlier submission on the same queue). Optional: when it is not called, Record
  /// draws the frame without shadows. Records nothing when the slot's map already holds this
  /// frame's casters (nothing moved since it was drawn and the light's fit stayed, see
  /// StableLightFit): a paused or resting scene pays for its shadows once per slot.
  void RecordShadowPass(VkCommandBuffer cmd, std::uint32_t frame_slot);
  /// Records the draws of slot `frame_slot` into `cmd` inside the active render pass; sets its own
  /// viewport and scissor to the extent given to Prepare.
  void Record(VkCommandBuffer cmd, std::uint32_t frame_slot) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sim::render
