// Shadow maps of the scene's key light: one depth image per frame slot, the depth-only render pass
// that fills them, a comparison sampler, and the orthographic light projection fitted around the
// shadow casters (a stable fit, so that a map stays valid while nothing moves). Used by
// SceneRenderer; the maps stay in SHADER_READ_ONLY_OPTIMAL layout between passes, so a frame that
// skips the shadow pass still samples a valid (empty) map.
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

/// Box in the frame of a directional light: u, v across the light, w towards it [m].
struct LightBox {
  Eigen::Vector3f low = Eigen::Vector3f::Zero();
  Eigen::Vector3f high = Eigen::Vector3f::Zero();
};

/// The light-frame box around all `casters` of a light shining along -`to_light` (unit).
/// `casters` must not be empty.
LightBox CasterLightBox(const Eigen::Vector3f& to_light, const std::vector<CasterBounds>& casters);

/// Orthographic view-projection of a directional light shining along -`to_light` (unit) that
/// encloses `box` (a light-frame box of that light): world -> Vulkan clip (x, y in [-1, 1] over
/// the map, depth 0 nearest the light, 1 at the far side of the box). Sets `texel_size` to the
/// world size of one texel of a `map_size` map [m].
Eigen::Matrix4f LightViewProjection(const Eigen::Vector3f& to_light, const LightBox& box,
                                    std::uint32_t map_size, float* texel_size);

/// LightViewProjection around CasterLightBox(to_light, casters). `casters` must not be empty.
Eigen::Matrix4f FitLightViewProjection(const Eigen::Vector3f& to_light,
                                       const std::vector<CasterBounds>& casters,
                                       std::uint32_t map_size, float* texel_size);

/// A light fit that stays put while the casters move inside it, so that a shadow map drawn once
/// stays valid (the map's texels do not swim either): refitted, with slack, only when a caster
/// leaves the box, when the casters take up much less of it than they did, or when the light
/// turns.
class StableLightFit {
 public:
  /// Slack added on every side at a refit, as a fraction of the box's largest extent across the
  /// light [-]: casters may move this far before the next refit, for texels this much larger.
  static constexpr float kSlack = 0.08f;
  /// Refit when the casters' extent across the light falls below this fraction of the fit's [-].
  static constexpr float kShrink = 0.6f;

  /// The box to draw the map of `casters` (non-empty) in; true when it changed since the last
  /// call.
  bool Update(const Eigen::Vector3f& to_light, const std::vector<CasterBounds>& casters);
  const LightBox& box() const { return box_; }

 private:
  bool valid_ = false;
  Eigen::Vector3f to_light_ = Eigen::Vector3f::Zero();
  LightBox box_;
};

}  // namespace sim::render
