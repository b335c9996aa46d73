// Shadow maps of the key light: depth images per frame slot, their depth-only render pass and
// comparison sampler, and the fit of the light's orthographic projection around the casters.
#include "render/shadow_map.h"

#include <algorithm>
#include <array>
#include <limits>

#include <Eigen/Geometry>

#include "render/vk/vk_check.h"
#include "render/vk/vk_pipeline.h"

namespace sim::render {

namespace {

// margin around the casters so that filtering taps at the rim still read inside the map
constexpr float kFitMargin = 1.05f;

// light frame: u, v across the light, w towards the light (unit, right-handed)
void LightFrame(const Eigen::Vector3f& to_light, Eigen::Vector3f* u, Eigen::Vector3f* v,
                Eigen::Vector3f* w) {
  *w = to_light.normalized();
  *u = w->unitOrthogonal();
  *v = w->cross(*u);
}

}  // namespace


ShadowMaps::ShadowMaps(VkPhysicalDevice physical_device, VkDevice device, VkQueue queue,
                       std::uint32_t queue_family, std::uint32_t slot_count, std::uint32_t size)
    : device_(device), size_(size) {
  // depth format that can be rendered and sampled (D16 always can, by the specification)
  VkFormatFeatureFlags filter = 0;
  for (VkFormat format : {VK_FORMAT_D32_SFLOAT, VK_FORMAT_D16_UNORM}) {
    VkFormatProperties properties;
    vkGetPhysicalDeviceFormatProperties(physical_device, format, &properties);
    const VkFormatFeatureFlags needed =
        VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT;
    if ((properties.optimalTilingFeatures & needed) == needed) {
      format_ = format;
      filter = properties.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
      break;
    }
  }
  if (format_ == VK_FORMAT_UNDEFINED) throw DeviceError("no depth format can be sampled");

  // render pass: clear, draw casters, leave the map readable by fragment shaders
  const VkAttachmentDescription attachment =
      MakeAttachment(format_, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_CLEAR,
                     VK_ATTACHMENT_STORE_OP_STORE, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
  const VkAttachmentReference depth_ref{0, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.pDepthStencilAttachment = &depth_ref;
  // in: earlier frames' shadow lookups finish before the map is overwritten;
  // out: depth writes are visible to the lookups of the frame that follows
  std::array<VkSubpassDependency, 2> dependencies{};
  dependencies[0].srcSubpass = VK_SUBPASS_EXTERNAL;
  dependencies[0].dstSubpass = 0;
  dependencies[0].srcStageMask = VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT;
  dependencies[0].srcAccessMask = 0;
  dependencies[0].dstStageMask =
      VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
  dependencies[0].dstAccessMask =
      VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
  dependencies[1].srcSubpass = 0;
  dependencies[1].dstSubpass = VK_SUBPASS_EXTERNAL;
  dependencies[1].srcStageMask = VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
  dependencies[1].srcAccessMask = VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
  dependencies[1].dstStageMask = VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT;
  dependencies[1].dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
  VkRenderPassCreateInfo pass_info{};
  pass_info.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO;
  pass_info.attachmentCount = 1;
  pass_info.pAttachments = &attachment;
  pass_info.subpassCount = 1;
  pass_info.pSubpasses = &subpass;
  pass_info.dependencyCount = static_cast<std::uint32_t>(dependencies.size());
  pass_info.pDependencies = dependencies.data();

  // from here on the destructor does not run on a throw, so release by hand
  try {
    SIM_VK_CHECK(vkCreateRenderPass(device, &pass_info, nullptr, &render_pass_));

    // one map and framebuffer per slot
    for (std::uint32_t slot = 0; slot < slot_count; ++slot) {
      maps_.emplace_back(physical_device, device, VkExtent2D{size, size}, format_,
                         VK_SAMPLE_COUNT_1_BIT,
                         VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
                         VK_IMAGE_ASPECT_DEPTH_BIT);
      const VkImageView view = maps_.back().view();
      VkFramebufferCreateInfo framebuffer_info{};
      framebuffer_info.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO;
      framebuffer_info.renderPass = render_pass_;
      framebuffer_info.attachmentCount = 1;
      framebuffer_info.pAttachments = &view;
      framebuffer_info.width = size;
      framebuffer_info.height = size;
      framebuffer_info.layers = 1;
      VkFramebuffer framebuffer = VK_NULL_HANDLE;
      SIM_VK_CHECK(vkCreateFramebuffer(device, &framebuffer_info, nullptr, &framebuffer));
      framebuffers_.push_back(framebuffer);
    }

    // comparison sampler; the white border compares as lit outside the map
    VkSamplerCreateInfo sampler_info{};
    sampler_info.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO;
    sampler_info.magFilter = filter ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
    sampler_info.minFilter = sampler_info.magFilter;
    sampler_info.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
    sampler_info.addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
    sampler_info.addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
    sampler_info.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
    sampler_info.borderColor = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
    sampler_info.compareEnable = VK_TRUE;
    sampler_info.compareOp = VK_COMPARE_OP_LESS_OR_EQUAL;
    sampler_info.maxLod = 0.0f;
    SIM_VK_CHECK(vkCreateSampler(device, &sampler_info, nullptr, &sampler_));

    // clear every map once, leaving it in the layout the descriptors promise
    RunOneTimeCommands(device, queue, queue_family, [&](VkCommandBuffer cmd) {
      for (std::uint32_t slot = 0; slot < slot_count; ++slot) {
        BeginPass(cmd, slot);
        vkCmdEndRenderPass(cmd);
      }
    });
  } catch (...) {
    Release();
    throw;
  }
}


ShadowMaps::~ShadowMaps() { Release(); }


void ShadowMaps::Release() {
  if (device_ == VK_NULL_HANDLE) return;
  if (sampler_ != VK_NULL_HANDLE) vkDestroySampler(device_, sampler_, nullptr);
  for (VkFramebuffer framebuffer : framebuffers_) {
    vkDestroyFramebuffer(device_, framebuffer, nullptr);
  }
  framebuffers_.clear();
  maps_.clear();
  if (render_pass_ != VK_NULL_HANDLE) vkDestroyRenderPass(device_, render_pass_, nullptr);
  device_ = VK_NULL_HANDLE;
}


void ShadowMaps::BeginPass(VkCommandBuffer cmd, std::uint32_t slot) const {
  VkClearValue clear{};
  clear.depthStencil = {1.0f, 0};
  VkRenderPassBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO;
  begin.renderPass = render_pass_;
  begin.framebuffer = framebuffers_[slot];
  begin.renderArea = {{0, 0}, {size_, size_}};
  begin.clearValueCount = 1;
  begin.pClearValues = &clear;
  vkCmdBeginRenderPass(cmd, &begin, VK_SUBPASS_CONTENTS_INLINE);
  const VkViewport viewport{0.0f, 0.0f, static_cast<float>(size_), static_cast<float>(size_),
                            0.0f, 1.0f};
  const VkRect2D scissor{{0, 0}, {size_, size_}};
  vkCmdSetViewport(cmd, 0, 1, &viewport);
  vkCmdSetScissor(cmd, 0, 1, &scissor);
}


LightBox CasterLightBox(const Eigen::Vector3f& to_light, const std::vector<CasterBounds>& casters) {
  // light frame: u, v across the light, w towards the light
  Eigen::Vector3f u, v, w;
  LightFrame(to_light, &u, &v, &w);
  constexpr float kInf = std::numeric_limits<float>::infinity();
  LightBox box{Eigen::Vector3f(kInf, kInf, kInf), Eigen::Vector3f(-kInf, -kInf, -kInf)};
  for (const CasterBounds& caster : casters) {
    const Eigen::Vector3f p(u.dot(caster.centre), v.dot(caster.centre), w.dot(caster.centre));
    box.low = box.low.cwiseMin(p - Eigen::Vector3f::Constant(caster.radius));
    box.high = box.high.cwiseMax(p + Eigen::Vector3f::Constant(caster.radius));
  }
  return box;
}


Eigen::Matrix4f LightViewProjection(const Eigen::Vector3f& to_light, const LightBox& box,
                                    std::uint32_t map_size, float* texel_size) {
  Eigen::Vector3f u, v, w;
  LightFrame(to_light, &u, &v, &w);
  const Eigen::Vector3f& low = box.low;
  const Eigen::Vector3f& high = box.high;

  // square texels: one span for u and v around the centre of the bounds
  const Eigen::Vector3f centre = 0.5f * (low + high);
  const float half_span =
      std::max(0.5f * kFitMargin * std::max(high.x() - low.x(), high.y() - low.y()), 1e-3f);
  const float depth_low = centre.z() - kFitMargin * 0.5f * (high.z() - low.z()) - 1e-3f;
  const float depth_high = centre.z() + kFitMargin * 0.5f * (high.z() - low.z()) + 1e-3f;
  *texel_size = 2.0f * half_span / static_cast<float>(map_size);

  // rows: x = (u - cu) / s, y = (cv - v) / s, depth = (w_high - w) / (w_high - w_low); y is
  // flipped as in OrbitCamera::ProjectionMatrix, so triangles keep the winding they have on
  // screen and the shadow pipeline's culling picks the faces turned away from the light
  Eigen::Matrix4f matrix = Eigen::Matrix4f::Zero();
  matrix.block<1, 3>(0, 0) = u.transpose() / half_span;
  matrix(0, 3) = -centre.x() / half_span;
  matrix.block<1, 3>(1, 0) = -v.transpose() / half_span;
  matrix(1, 3) = centre.y() / half_span;
  const float depth_span = depth_high - depth_low;
  matrix.block<1, 3>(2, 0) = -w.transpose() / depth_span;
  matrix(2, 3) = depth_high / depth_span;
  matrix(3, 3) = 1.0f;
  return matrix;
}


Eigen::Matrix4f FitLightViewProjection(const Eigen::Vector3f& to_light,
                                       const std::vector<CasterBounds>& casters,
                                       std::uint32_t map_size, float* texel_size) {
  return LightViewProjection(to_light, CasterLightBox(to_light, casters), map_size, texel_size);
}


bool StableLightFit::Update(const Eigen::Vector3f& to_light,
                            const std::vector<CasterBounds>& casters) {
  const LightBox tight = CasterLightBox(to_light, casters);
  const auto across = [](const LightBox& box) {
    return std::max(box.high.x() - box.low.x(), box.high.y() - box.low.y());
  };
  const bool inside = (tight.low.array() >= box_.low.array()).all() &&
                      (tight.high.array() <= box_.high.array()).all();
  if (valid_ && to_light == to_light_ && inside && across(tight) >= kShrink * across(box_)) {
    return false;
  }
  // grow the tight box by the slack on every side (depth too, for casters rising or sinking)
  const Eigen::Vector3f slack = Eigen::Vector3f::Constant(kSlack * std::max(across(tight), 1e-3f));
  box_ = {tight.low - slack, tight.high + slack};
  to_light_ = to_light;
  valid_ = true;
  return true;
}

}  // namespace sim::render
