// Shadow maps of the scene's key light: one depth image per frame slot, the depth-only render pass
// that fills them, a comparison sampler, and the orthographic light projection fitted around the
// shadow casters. Used by SceneRenderer; the maps stay in SHADER_READ_ONLY_OPTIMAL layout between
// passes, so a frame that skips the shadow pass still samples a valid (empty) map.
#pragma once

#include <cstdint>
#include <vector>

#include <vulkan/vulkan.h>
#include <Eigen/Core>

#include "render/vk/vk_resources.h"

namespace sim::render {

/// Depth images, framebuffers, render pass and sampler of the shadow maps.
class ShadowMaps {
 public:
  /// Creates `slot_count` maps of `size`×`size` texels and clears them once on `queue` (so they
  /// are in SHADER_READ_ONLY_OPTIMAL layout). Throws DeviceError.
  ShadowMaps(VkPhysicalDevice physical_device, VkDevice device, VkQueue queue,
             std::uint32_t queue_family, std::uint32_t slot_count, std::uint32_t size);
  ~ShadowMaps();
  ShadowMaps(const ShadowMaps&) = delete;
  ShadowMaps& operator=(const ShadowMaps&) = delete;

  /// Begins the depth-only pass of `slot` (clears to 1) and sets viewport and scissor; the pass
  /// ends with the map readable by fragment shaders.
  void BeginPass(VkCommandBuffer cmd, std::uint32_t slot) const;

  VkRenderPass render_pass() const { return render_pass_; }
  VkImageView view(std::uint32_t slot) const { return maps_[slot].view(); }
  /// Comparison sampler (LESS_OR_EQUAL; outside the map compares as lit).
  VkSampler sampler() const { return sampler_; }
  std::uint32_t size() const { return size_; }

 private:
  // destroys everything created so far (the device must be idle)
  void Release();

  VkDevice device_ = VK_NULL_HANDLE;
  std::uint32_t size_ = 0;
  VkFormat format_ = VK_FORMAT_UNDEFINED;
  std::vector<DeviceImage> maps_;
  std::vector<VkFramebuffer> framebuffers_;
  VkRenderPass render_pass_ = VK_NULL_HANDLE;
  VkSampler sampler_ = VK_NULL_HANDLE;
};

/// A sphere that encloses one shadow caster: centre [m] and radius [m].
struct CasterBounds {
  Eigen::Vector3f centre;
  float radius;
};

/// Orthographic view-projection of a directional light shining along -`to_light` (unit) that
/// encloses all `casters`: world -> Vulkan clip (x, y in [-1, 1] over the map, depth 0 nearest the
/// light, 1 at the far side of the casters). Sets `texel_size` to the world size of one texel of
/// a `map_size` map [m]. `casters` must not be empty.
Eigen::Matrix4f FitLightViewProjection(const Eigen::Vector3f& to_light,
                                       const std::vector<CasterBounds>& casters,
                                       std::uint32_t map_size, float* texel_size);

}  // namespace sim::render
