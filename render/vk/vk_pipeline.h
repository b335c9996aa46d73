// Shader modules and graphics pipelines for a host-owned render pass: one colour and one depth
// attachment, any sample count, dynamic viewport and scissor.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <vulkan/vulkan.h>

namespace sim::render {

/// Creates a shader module from SPIR-V words (`size_bytes` a multiple of 4); throws DeviceError.
VkShaderModule MakeShaderModule(VkDevice device, const std::uint32_t* code, std::size_t size_bytes);

/// A render-pass attachment that starts undefined (its old contents are never kept);
/// `stencil_load` matters only for formats with stencil.
VkAttachmentDescription MakeAttachment(
    VkFormat format, VkSampleCountFlagBits samples, VkAttachmentLoadOp load,
    VkAttachmentStoreOp store, VkImageLayout final_layout,
    VkAttachmentLoadOp stencil_load = VK_ATTACHMENT_LOAD_OP_DONT_CARE);

/// What differs between the renderer's pipelines; everything else is shared (fill mode, dynamic
/// viewport/scissor, subpass 0).
struct PipelineDesc {
  VkShaderModule vertex_shader = VK_NULL_HANDLE;
  /// May be null for depth-only passes (then the subpass must have no colour attachment).
  VkShaderModule fragment_shader = VK_NULL_HANDLE;
  /// Specialization constants of the fragment shader (may be null).
  const VkSpecializationInfo* fragment_specialization = nullptr;
  std::vector<VkVertexInputBindingDescription> bindings;
  std::vector<VkVertexInputAttributeDescription> attributes;
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkCullModeFlags cull_mode = VK_CULL_MODE_BACK_BIT;  ///< front faces wind counter-clockwise
  bool depth_test = true;
  bool depth_write = true;
  VkCompareOp depth_compare = VK_COMPARE_OP_LESS_OR_EQUAL;
  /// Blends the fragment's colour over the target by its alpha (see-through geometry).
  bool alpha_blend = false;
  /// Depth bias (shadow maps): constant [depth units] and slope factor; both 0 disables it.
  float depth_bias_constant = 0.0f;
  float depth_bias_slope = 0.0f;
};

/// Creates a graphics pipeline for subpass 0 of `render_pass` with `samples` rasterization
/// samples; throws DeviceError.
VkPipeline MakeGraphicsPipeline(VkDevice device, VkRenderPass render_pass,
                                VkSampleCountFlagBits samples, VkPipelineLayout layout,
                                const PipelineDesc& desc);

}  // namespace sim::render
