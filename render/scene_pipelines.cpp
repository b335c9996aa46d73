// Pipelines of the scene renderer, all sharing one layout (sets 0 and 1, 128 bytes of push
// constants) and the shaders of resources/shaders, compiled to SPIR-V at build time.
#include "render/scene_pipelines.h"

#include <array>
#include <cstddef>
#include <vector>

#include "render/meshes.h"
#include "render/vk/color_format.h"
#include "render/vk/vk_pipeline.h"

namespace sim::render {

namespace {

// SPIR-V compiled from resources/shaders at build time (cmake/Shaders.cmake)
const std::uint32_t kShapeVertSpv[] =
#include "shape.vert.spv.inc"
    ;
const std::uint32_t kShapeFragSpv[] =
#include "shape.frag.spv.inc"
    ;
const std::uint32_t kSurfaceVertSpv[] =
#include "surface.vert.spv.inc"
    ;
const std::uint32_t kGridVertSpv[] =
#include "grid.vert.spv.inc"
    ;
const std::uint32_t kGridFragSpv[] =
#include "grid.frag.spv.inc"
    ;
const std::uint32_t kSkyVertSpv[] =
#include "sky.vert.spv.inc"
    ;
const std::uint32_t kSkyFragSpv[] =
#include "sky.frag.spv.inc"
    ;

// slope-scaled depth bias of the shadow pass against self-shadowing acne (the values of common
// practice, checked on the default scene)
constexpr float kShadowBiasConstant = 1.25f;
constexpr float kShadowBiasSlope = 1.75f;
// Poisson taps of the shadow filter besides the centre one (common.glsl): a soft penumbra at full
// quality; none when fast (a software rasterizer pays about 1 ms of a 1280x720 frame per tap)
constexpr std::int32_t kShadowTaps = 12;
constexpr std::int32_t kFastShadowTaps = 0;


VkDescriptorSetLayout MakeSetLayout(VkDevice device,
                                    const std::vector<VkDescriptorSetLayoutBinding>& bindings) {
  VkDescriptorSetLayoutCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
  info.bindingCount = static_cast<std::uint32_t>(bindings.size());
  info.pBindings = bindings.data();
  VkDescriptorSetLayout layout = VK_NULL_HANDLE;
  SIM_VK_CHECK(vkCreateDescriptorSetLayout(device, &info, nullptr, &layout));
  return layout;
}

}  // namespace


bool UsesFastQuality(const DeviceContext& context) {
  if (context.quality != RenderQuality::kAuto) return context.quality == RenderQuality::kFast;
  VkPhysicalDeviceProperties properties{};
  vkGetPhysicalDeviceProperties(context.physical_device, &properties);
  return properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
}


void ScenePipelines::Create(const DeviceContext& context, VkRenderPass shadow_pass) {
  VkDevice device = context.device;
  try {
    // set 0: shadow data and map; set 1: the part's texture
    shadow_set_layout = MakeSetLayout(
        device,
        {{0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr},
         {1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr}});
    texture_set_layout = MakeSetLayout(device, {{0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1,
                                                 VK_SHADER_STAGE_FRAGMENT_BIT, nullptr}});
    const std::array<VkDescriptorSetLayout, 2> set_layouts = {shadow_set_layout,
                                                              texture_set_layout};
    VkPushConstantRange push_range{};
    push_range.stageFlags = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
    push_range.size = sizeof(FrameConstants);
    VkPipelineLayoutCreateInfo layout_info{};
    layout_info.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
    layout_info.setLayoutCount = static_cast<std::uint32_t>(set_layouts.size());
    layout_info.pSetLayouts = set_layouts.data();
    layout_info.pushConstantRangeCount = 1;
    layout_info.pPushConstantRanges = &push_range;
    SIM_VK_CHECK(vkCreatePipelineLayout(device, &layout_info, nullptr, &layout));
  } catch (...) {
    Destroy(device);
    throw;
  }

  // specialization constants of the fragment shaders: 0 encode sRGB in the shader; 1 extra
  // shadow taps (see common.glsl and DeviceContext::quality)
  struct Constants {
    VkBool32 encode_srgb;
    std::int32_t shadow_taps;
  };
  const Constants constants = {NeedsShaderSrgbEncoding(context.color_format) ? VK_TRUE : VK_FALSE,
                               UsesFastQuality(context) ? kFastShadowTaps : kShadowTaps};
  const std::array<VkSpecializationMapEntry, 2> entries = {{
      {0, offsetof(Constants, encode_srgb), sizeof(VkBool32)},
      {1, offsetof(Constants, shadow_taps), sizeof(std::int32_t)},
  }};
  VkSpecializationInfo specialization{};
  specialization.mapEntryCount = static_cast<std::uint32_t>(entries.size());
  specialization.pMapEntries = entries.data();
  specialization.dataSize = sizeof(constants);
  specialization.pData = &constants;

  // shader modules live only while the pipelines are built
  std::vector<VkShaderModule> modules;
  const auto module = [&](const std::uint32_t* code, std::size_t size) {
    modules.push_back(MakeShaderModule(device, code, size));
    return modules.back();
  };
  const auto release_modules = [&] {
    for (VkShaderModule m : modules) vkDestroyShaderModule(device, m, nullptr);
  };
  const auto make = [&](VkRenderPass pass, VkSampleCountFlagBits samples,
                        const PipelineDesc& desc) {
    return MakeGraphicsPipeline(device, pass, samples, layout, desc);
  };

  try {
    // instanced meshes: vertex (binding 0) and instance (binding 1) attributes of shape.vert
    const VkVertexInputBindingDescription instance_binding{1, sizeof(InstanceData),
                                                           VK_VERTEX_INPUT_RATE_INSTANCE};
    const std::vector<VkVertexInputAttributeDescription> instance_attributes = {
        {3, 1, VK_FORMAT_R32G32B32A32_SFLOAT, offsetof(InstanceData, rows)},
        {4, 1, VK_FORMAT_R32G32B32A32_SFLOAT, offsetof(InstanceData, rows) + 16},
        {5, 1, VK_FORMAT_R32G32B32A32_SFLOAT, offsetof(InstanceData, rows) + 32},
        {6, 1, VK_FORMAT_R32G32B32A32_SFLOAT, offsetof(InstanceData, scale)},
        {7, 1, VK_FORMAT_R32G32B32A32_SFLOAT, offsetof(InstanceData, color)},
    };
    PipelineDesc shape_desc;
    shape_desc.vertex_shader = module(kShapeVertSpv, sizeof(kShapeVertSpv));
    shape_desc.fragment_shader = module(kShapeFragSpv, sizeof(kShapeFragSpv));
    shape_desc.fragment_specialization = &specialization;
    shape_desc.bindings = {{0, sizeof(MeshVertex), VK_VERTEX_INPUT_RATE_VERTEX}, instance_binding};
    shape_desc.attributes = {
        {0, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(MeshVertex, position)},
        {1, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(MeshVertex, normal)},
        {2, 0, VK_FORMAT_R32_SFLOAT, offsetof(MeshVertex, cap_sign)},
        {8, 0, VK_FORMAT_R32G32_SFLOAT, offsetof(MeshVertex, uv)},
        {9, 1, VK_FORMAT_R32G32B32A32_SFLOAT, offsetof(InstanceData, params)},
    };
    shape_desc.attributes.insert(shape_desc.attributes.end(), instance_attributes.begin(),
                                 instance_attributes.end());

    // soft-body surfaces: one vertex binding, same fragment shader
    PipelineDesc surface_desc = shape_desc;
    surface_desc.vertex_shader = module(kSurfaceVertSpv, sizeof(kSurfaceVertSpv));
    surface_desc.bindings = {{0, sizeof(SurfaceVertex), VK_VERTEX_INPUT_RATE_VERTEX}};
    surface_desc.attributes = {
        {0, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(SurfaceVertex, position)},
        {1, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(SurfaceVertex, normal)},
        {2, 0, VK_FORMAT_R32G32B32A32_SFLOAT, offsetof(SurfaceVertex, color)},
    };

    // opaque: closed shapes and surfaces culled, uploaded meshes two-sided
    shape = make(context.render_pass, context.samples, shape_desc);
    surface = make(context.render_pass, context.samples, surface_desc);
    PipelineDesc two_sided = shape_desc;
    two_sided.cull_mode = VK_CULL_MODE_NONE;
    shape_two_sided = make(context.render_pass, context.samples, two_sided);

    // see-through: blended over what is behind, without hiding what comes later
    const auto see_through = [](PipelineDesc desc) {
      desc.alpha_blend = true;
      desc.depth_write = false;
      return desc;
    };
    const PipelineDesc transparent = see_through(shape_desc);
    shape_transparent = make(context.render_pass, context.samples, transparent);
    surface_transparent = make(context.render_pass, context.samples, see_through(surface_desc));

    // ghosts: the hidden parts of markers, faintly, where something is in front of them
    PipelineDesc ghost = transparent;
    ghost.depth_compare = VK_COMPARE_OP_GREATER;
    shape_ghost = make(context.render_pass, context.samples, ghost);

    // shadow casters: depth only, back faces (the far side from the light) with a slope bias
    // so lit faces never shadow themselves; open meshes from both sides
    const auto depth_only = [](PipelineDesc desc, VkCullModeFlags cull_mode) {
      desc.fragment_shader = VK_NULL_HANDLE;
      desc.fragment_specialization = nullptr;
      desc.cull_mode = cull_mode;
      desc.depth_bias_constant = kShadowBiasConstant;
      desc.depth_bias_slope = kShadowBiasSlope;
      return desc;
    };
    shadow_shape =
        make(shadow_pass, VK_SAMPLE_COUNT_1_BIT, depth_only(shape_desc, VK_CULL_MODE_FRONT_BIT));
    shadow_shape_two_sided =
        make(shadow_pass, VK_SAMPLE_COUNT_1_BIT, depth_only(shape_desc, VK_CULL_MODE_NONE));
    shadow_surface =
        make(shadow_pass, VK_SAMPLE_COUNT_1_BIT, depth_only(surface_desc, VK_CULL_MODE_FRONT_BIT));

    // sky: at the far plane, drawn after the opaque geometry where nothing covered the clear
    // depth (1.0), so covered pixels never run its shader
    PipelineDesc sky_desc;
    sky_desc.vertex_shader = module(kSkyVertSpv, sizeof(kSkyVertSpv));
    sky_desc.fragment_shader = module(kSkyFragSpv, sizeof(kSkyFragSpv));
    sky_desc.fragment_specialization = &specialization;
    sky_desc.cull_mode = VK_CULL_MODE_NONE;
    sky_desc.depth_write = false;
    sky = make(context.render_pass, context.samples, sky_desc);

    // planes: one-sided geometry seen from both sides, generated vertices, instance attributes
    PipelineDesc grid_desc;
    grid_desc.vertex_shader = module(kGridVertSpv, sizeof(kGridVertSpv));
    grid_desc.fragment_shader = module(kGridFragSpv, sizeof(kGridFragSpv));
    grid_desc.fragment_specialization = &specialization;
    grid_desc.bindings = {instance_binding};
    grid_desc.attributes = instance_attributes;
    grid_desc.cull_mode = VK_CULL_MODE_NONE;
    grid = make(context.render_pass, context.samples, grid_desc);
  } catch (...) {
    release_modules();
    Destroy(device);
    throw;
  }
  release_modules();
}


void ScenePipelines::Destroy(VkDevice device) {
  for (VkPipeline* pipeline :
       {&sky, &grid, &shape, &shape_two_sided, &shape_transparent, &shape_ghost, &surface,
        &surface_transparent, &shadow_shape, &shadow_shape_two_sided, &shadow_surface}) {
    if (*pipeline != VK_NULL_HANDLE) vkDestroyPipeline(device, *pipeline, nullptr);
    *pipeline = VK_NULL_HANDLE;
  }
  if (layout != VK_NULL_HANDLE) vkDestroyPipelineLayout(device, layout, nullptr);
  layout = VK_NULL_HANDLE;
  for (VkDescriptorSetLayout* set : {&shadow_set_layout, &texture_set_layout}) {
    if (*set != VK_NULL_HANDLE) vkDestroyDescriptorSetLayout(device, *set, nullptr);
    *set = VK_NULL_HANDLE;
  }
}

}  // namespace sim::render
