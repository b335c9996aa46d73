// Shader module and graphics pipeline creation shared by the scene renderer's pipelines.
#include "render/vk/vk_pipeline.h"

#include <array>

#include "render/vk/vk_check.h"

namespace sim::render {

VkAttachmentDescription MakeAttachment(VkFormat format, VkSampleCountFlagBits samples,
                                       VkAttachmentLoadOp load, VkAttachmentStoreOp store,
                                       VkImageLayout final_layout,
                                       VkAttachmentLoadOp stencil_load) {
  VkAttachmentDescription attachment{};
  attachment.format = format;
  attachment.samples = samples;
  attachment.loadOp = load;
  attachment.storeOp = store;
  attachment.stencilLoadOp = stencil_load;
  attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  attachment.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  attachment.finalLayout = final_layout;
  return attachment;
}


VkShaderModule MakeShaderModule(VkDevice device, const std::uint32_t* code,
                                std::size_t size_bytes) {
  VkShaderModuleCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
  info.codeSize = size_bytes;
  info.pCode = code;
  VkShaderModule module = VK_NULL_HANDLE;
  SIM_VK_CHECK(vkCreateShaderModule(device, &info, nullptr, &module));
  return module;
}


VkPipeline MakeGraphicsPipeline(VkDevice device, VkRenderPass render_pass,
                                VkSampleCountFlagBits samples, VkPipelineLayout layout,
                                const PipelineDesc& desc) {
  // stages: vertex and fragment, both entering at main
  std::array<VkPipelineShaderStageCreateInfo, 2> stages{};
  stages[0].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
  stages[0].module = desc.vertex_shader;
  stages[0].pName = "main";
  stages[1].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
  stages[1].module = desc.fragment_shader;
  stages[1].pName = "main";
  stages[1].pSpecializationInfo = desc.fragment_specialization;
  const bool has_fragment = desc.fragment_shader != VK_NULL_HANDLE;

  // fixed-function state
  VkPipelineVertexInputStateCreateInfo vertex_input{};
  vertex_input.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO;
  vertex_input.vertexBindingDescriptionCount = static_cast<std::uint32_t>(desc.bindings.size());
  vertex_input.pVertexBindingDescriptions = desc.bindings.data();
  vertex_input.vertexAttributeDescriptionCount = static_cast<std::uint32_t>(desc.attributes.size());
  vertex_input.pVertexAttributeDescriptions = desc.attributes.data();

  VkPipelineInputAssemblyStateCreateInfo input_assembly{};

  input_assembly.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO;
  input_assembly.topology = desc.topology;

  VkPipelineViewportStateCreateInfo viewport{};

  viewport.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO;
  viewport.viewportCount = 1;
  viewport.scissorCount = 1;

  VkPipelineRasterizationStateCreateInfo rasterization{};

  rasterization.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO;
  rasterization.polygonMode = VK_POLYGON_MODE_FILL;
  rasterization.cullMode = desc.cull_mode;
  rasterization.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  rasterization.lineWidth = 1.0f;
  if (desc.depth_bias_constant != 0.0f || desc.depth_bias_slope != 0.0f) {
    rasterization.depthBiasEnable = VK_TRUE;
    rasterization.depthBiasConstantFactor = desc.depth_bias_constant;
    rasterization.depthBiasSlopeFactor = desc.depth_bias_slope;
  }

  VkPipelineMultisampleStateCreateInfo multisample{};

  multisample.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO;
  multisample.rasterizationSamples = samples;

  VkPipelineDepthStencilStateCreateInfo depth_stencil{};

  depth_stencil.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO;
  depth_stencil.depthTestEnable = desc.depth_test ? VK_TRUE : VK_FALSE;
  depth_stencil.depthWriteEnable = desc.depth_write ? VK_TRUE : VK_FALSE;
  depth_stencil.depthCompareOp = desc.depth_compare;

  VkPipelineColorBlendAttachmentState blend_attachment{};
  blend_attachment.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
                                    VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
  if (desc.alpha_blend) {
    // "over": c = a·src + (1 − a)·dst, and the same for the stored alpha
    blend_attachment.blendEnable = VK_TRUE;
    blend_attachment.srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA;
    blend_attachment.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
    blend_attachment.colorBlendOp = VK_BLEND_OP_ADD;
    blend_attachment.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
    blend_attachment.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
    blend_attachment.alphaBlendOp = VK_BLEND_OP_ADD;
  }
  VkPipelineColorBlendStateCreateInfo blend{};
  blend.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO;
  blend.attachmentCount = has_fragment ? 1 : 0;
  blend.pAttachments = has_fragment ? &blend_attachment : nullptr;

  // viewport and scissor follow the extent of each frame, so resizes need no new pipeline
  const std::array<VkDynamicState, 2> dynamic_states = {VK_DYNAMIC_STATE_VIEWPORT,
                                                        VK_DYNAMIC_STATE_SCISSOR};
  VkPipelineDynamicStateCreateInfo dynamic{};
  dynamic.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO;
  dynamic.dynamicStateCount = static_cast<std::uint32_t>(dynamic_states.size());
  dynamic.pDynamicStates = dynamic_states.data();

  VkGraphicsPipelineCreateInfo info{};

  info.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO;
  info.stageCount = has_fragment ? 2 : 1;
  info.pStages = stages.data();
  info.pVertexInputState = &vertex_input;
  info.pInputAssemblyState = &input_assembly;
  info.pViewportState = &viewport;
  info.pRasterizationState = &rasterization;
  info.pMultisampleState = &multisample;
  info.pDepthStencilState = &depth_stencil;
  info.pColorBlendState = &blend;
  info.pDynamicState = &dynamic;
  info.layout = layout;
  info.renderPass = render_pass;
  info.subpass = 0;
  VkPipeline pipeline = VK_NULL_HANDLE;
  SIM_VK_CHECK(vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline));
  return pipeline;
}

}  // namespace sim::render
