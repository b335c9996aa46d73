// SceneRenderer: draws a VisualFrame into a host's render pass. Four pipelines share one layout
// (per-frame push constants + one descriptor set with the key light's shadow map):
//   shadow depth-only pass of the closed shapes from the key light (before the host's pass);
//   sky    full-screen triangle, horizon-to-zenith gradient, no depth;
//   shape  instanced unit meshes (box, sphere, capsule, cylinder) scaled per instance, culled;
//   grid   planes as lit quads with a procedural anti-aliased grid, not culled.
// Per-instance data (3x4 transform, scale, colour) live in one host-visible buffer per frame slot,
// sorted by mesh so that each mesh is one instanced draw.
#include "render/scene_renderer.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Geometry>
#include <Eigen/LU>

#include "render/meshes.h"
#include "render/shadow_map.h"
#include "render/vk/color_format.h"
#include "render/vk/vk_pipeline.h"
#include "render/vk/vk_resources.h"

namespace sim::render {

namespace {

// SPIR-V compiled from resources/shaders at build time (cmake/Shaders.cmake)
const std::uint32_t kShapeVertSpv[] =
#include "shape.vert.spv.inc"
    ;
const std::uint32_t kShapeFragSpv[] =
#include "shape.frag.spv.inc"
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
const std::uint32_t kShadowVertSpv[] =
#include "shadow.vert.spv.inc"
    ;

// sky colour at the horizon, linear; equal to kSkyHorizon in resources/shaders/common.glsl
constexpr std::array<float, 4> kSkyHorizon = {0.515f, 0.577f, 0.658f, 1.0f};

// tessellation of the curved meshes: 48 segments keep silhouettes smooth at full-screen size
constexpr int kSegments = 48;
constexpr int kSphereRings = 24;
constexpr int kCapsuleRingsPerCap = 12;

// smallest instance buffer, in instances, so that small scenes never reallocate
constexpr std::size_t kMinInstanceCapacity = 64;

// shadow map side [texels]: 2048 keeps a 10 m scene at 5 mm per texel
constexpr std::uint32_t kShadowMapSize = 2048;
// slope-scaled depth bias of the shadow pass, and the receivers' normal offset in texels: both
// against self-shadowing acne (the values of common practice, checked on the default scene)
constexpr float kShadowBiasConstant = 1.25f;
constexpr float kShadowBiasSlope = 1.75f;
constexpr float kShadowNormalOffsetTexels = 1.5f;
// penumbra radius [m] (a soft sun-like edge at object scale), and at least this many texels
constexpr float kShadowPenumbra = 0.02f;
constexpr float kShadowMinPenumbraTexels = 1.5f;

// haze starts at this many camera distances (and never nearer than kMinHazeStart)
constexpr float kHazeStartPerDistance = 5.0f;
constexpr float kMinHazeStart = 25.0f;  // [m]

// push constants; layout of FrameConstants in resources/shaders/common.glsl
struct FrameConstants {
  float matrix[16];
  float eye[4];
  float up[4];
  float light_dir[4];
};
static_assert(sizeof(FrameConstants) == 112, "must match common.glsl and stay within 128 bytes");

// uniform block ShadowData of resources/shaders/common.glsl (std140)
struct ShadowData {
  float light_matrix[16];
  float params[4];  // enabled, normal offset [m], penumbra radius in map coordinates, unused
};
static_assert(sizeof(ShadowData) == 80);

// one shape instance; layout of vertex attributes 3..7 of shape.vert and grid.vert
struct InstanceData {
  float rows[12];  // row-major 3x4 shape-to-world transform
  float scale[4];  // MeshScale()
  float color[4];  // linear RGBA
};
static_assert(sizeof(InstanceData) == 80);

// meshes in the shared vertex/index buffers, in the order instances are sorted
enum MeshKind { kBoxMesh = 0, kSphereMesh, kCapsuleMesh, kCylinderMesh, kMeshKindCount };

// where one mesh lives in the shared buffers
struct MeshRange {
  std::uint32_t first_index = 0;
  std::uint32_t index_count = 0;
  std::int32_t vertex_offset = 0;
};

// a contiguous run of instances in a slot's instance buffer
struct InstanceRange {
  std::uint32_t first = 0;
  std::uint32_t count = 0;
};

// mesh that draws `type`, or kMeshKindCount for planes and unknown types
int MeshKindOf(ShapeType type) {
  switch (type) {
    case ShapeType::kBox:
      return kBoxMesh;
    case ShapeType::kSphere:
      return kSphereMesh;
    case ShapeType::kCapsule:
      return kCapsuleMesh;
    case ShapeType::kCylinder:
      return kCylinderMesh;
    default:
      return kMeshKindCount;
  }
}


// a shape is drawn only when its transform, size and colour are finite
bool IsDrawable(const VisualShape& shape) {
  const auto finite = [](const auto& values) {
    return std::all_of(values.begin(), values.end(), [](float v) { return std::isfinite(v); });
  };
  return finite(shape.X_WS) && finite(shape.size) && finite(shape.color);
}


InstanceData MakeInstance(const VisualShape& shape) {
  InstanceData instance;
  std::copy(shape.X_WS.begin(), shape.X_WS.end(), instance.rows);
  const std::array<float, 4> scale = MeshScale(shape.type, shape.size);
  std::copy(scale.begin(), scale.end(), instance.scale);
  std::copy(shape.color.begin(), shape.color.end(), instance.color);
  return instance;
}


void CopyVector3(const Eigen::Vector3f& v, float w, float* out) {
  out[0] = v.x();
  out[1] = v.y();
  out[2] = v.z();
  out[3] = w;
}


// unit direction towards the key light, fixed in the world: high (53 degrees) so shadows stay
// close to their casters, from azimuth 135 degrees (between -e1 and e2 of the orbit camera's
// horizontal axes) so that the default view (yaw 35) sees a lit and a shaded side face and the
// shadows falling sideways
Eigen::Vector3f KeyLightDirection(const Eigen::Vector3f& up) {
  const Eigen::Vector3f seed =
      std::abs(up.x()) < 0.9f ? Eigen::Vector3f::UnitX() : Eigen::Vector3f::UnitY();
  const Eigen::Vector3f e1 = (seed - seed.dot(up) * up).normalized();
  const Eigen::Vector3f e2 = up.cross(e1);
  return (-0.45f * e1 + 0.45f * e2 + 0.85f * up).normalized();
}


// radius of a sphere around the shape's origin that holds the whole shape [m]
float BoundingRadius(const VisualShape& shape) {
  const std::array<float, 3>& size = shape.size;
  switch (shape.type) {
    case ShapeType::kBox:
      return std::sqrt(size[0] * size[0] + size[1] * size[1] + size[2] * size[2]);
    case ShapeType::kSphere:
      return size[0];
    case ShapeType::kCapsule:
      return size[0] + size[1];
    case ShapeType::kCylinder:
      return std::hypot(size[0], size[1]);
    default:
      return 0.0f;
  }
}

}  // namespace


std::array<float, 4> ClearColor() { return kSkyHorizon; }


VkClearColorValue SkyClearValue(VkFormat color_format) {
  // a clear is stored as given, so it follows the shaders' encoding rule
  const bool encode = NeedsShaderSrgbEncoding(color_format);
  VkClearColorValue value{};
  for (int c = 0; c < 3; ++c)
    value.float32[c] = encode ? EncodeSrgb(kSkyHorizon[c]) : kSkyHorizon[c];
  value.float32[3] = kSkyHorizon[3];
  return value;
}


struct SceneRenderer::Impl {
  // what one frame slot draws; written by Prepare, read by Record
  struct Slot {
    Buffer instances;                   // host-visible, InstanceData[]
    std::vector<InstanceData> scratch;  // CPU-side sort buffer, kept to avoid reallocation
    std::array<InstanceRange, kMeshKindCount> mesh_instances;
    InstanceRange plane_instances;
    FrameConstants scene_constants{};
    FrameConstants sky_constants{};
    FrameConstants shadow_constants{};  // matrix: the key light's view-projection
    bool has_casters = false;
    Buffer shadow_data;  // host-visible ShadowData
    VkDescriptorSet descriptor_set = VK_NULL_HANDLE;
    VkExtent2D extent{0, 0};
    bool prepared = false;
  };

  ~Impl();
  void Create(const DeviceContext& context);
  void CreateDescriptors();
  void CreatePipelines();
  void CreateMeshes();
  void EnsureInstanceCapacity(Slot* slot, std::size_t instance_count);
  void DrawMeshes(VkCommandBuffer cmd, const Slot& slot) const;

  DeviceContext context;
  std::unique_ptr<ShadowMaps> shadow_maps;
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VkDescriptorPool descriptor_pool = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline shadow_pipeline = VK_NULL_HANDLE;
  VkPipeline sky_pipeline = VK_NULL_HANDLE;
  VkPipeline shape_pipeline = VK_NULL_HANDLE;
  VkPipeline grid_pipeline = VK_NULL_HANDLE;
  Buffer vertices;
  Buffer indices;
  std::array<MeshRange, kMeshKindCount> meshes{};
  std::vector<Slot> slots;
};


SceneRenderer::Impl::~Impl() {
  if (context.device == VK_NULL_HANDLE) return;
  // the host may still have frames in flight that use our pipelines and buffers
  vkDeviceWaitIdle(context.device);
  for (VkPipeline pipeline : {shadow_pipeline, sky_pipeline, shape_pipeline, grid_pipeline}) {
    if (pipeline != VK_NULL_HANDLE) vkDestroyPipeline(context.device, pipeline, nullptr);
  }
  if (layout != VK_NULL_HANDLE) vkDestroyPipelineLayout(context.device, layout, nullptr);
  // the pool frees its sets
  if (descriptor_pool != VK_NULL_HANDLE) {
    vkDestroyDescriptorPool(context.device, descriptor_pool, nullptr);
  }
  if (set_layout != VK_NULL_HANDLE) {
    vkDestroyDescriptorSetLayout(context.device, set_layout, nullptr);
  }
  // buffers and shadow maps release themselves after this body, with the device idle
}


void SceneRenderer::Impl::Create(const DeviceContext& host_context) {
  // the host's objects must exist; without them nothing can be created
  if (host_context.device == VK_NULL_HANDLE || host_context.physical_device == VK_NULL_HANDLE ||
      host_context.queue == VK_NULL_HANDLE || host_context.render_pass == VK_NULL_HANDLE) {
    throw DeviceError(
        "SceneRenderer: DeviceContext needs a device, physical device, queue and render pass");
  }
  if (host_context.frames_in_flight == 0) {
    throw DeviceError("SceneRenderer: DeviceContext::frames_in_flight must be at least 1");
  }
  context = host_context;
  slots.resize(context.frames_in_flight);
  shadow_maps =
      std::make_unique<ShadowMaps>(context.physical_device, context.device, context.queue,
                                   context.queue_family, context.frames_in_flight, kShadowMapSize);
  CreateDescriptors();
  CreatePipelines();
  CreateMeshes();
}


void SceneRenderer::Impl::CreateDescriptors() {
  // set 0: the shadow data block and the shadow map, read by the fragment shaders
  std::array<VkDescriptorSetLayoutBinding, 2> bindings{};
  bindings[0].binding = 0;
  bindings[0].descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
  bindings[0].descriptorCount = 1;
  bindings[0].stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT;
  bindings[1].binding = 1;
  bindings[1].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  bindings[1].descriptorCount = 1;
  bindings[1].stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT;
  VkDescriptorSetLayoutCreateInfo layout_info{};
  layout_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
  layout_info.bindingCount = static_cast<std::uint32_t>(bindings.size());
  layout_info.pBindings = bindings.data();
  SIM_VK_CHECK(vkCreateDescriptorSetLayout(context.device, &layout_info, nullptr, &set_layout));

  // one set per slot
  const std::uint32_t slot_count = context.frames_in_flight;
  const std::array<VkDescriptorPoolSize, 2> pool_sizes = {{
      {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, slot_count},
      {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, slot_count},
  }};
  VkDescriptorPoolCreateInfo pool_info{};
  pool_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
  pool_info.maxSets = slot_count;
  pool_info.poolSizeCount = static_cast<std::uint32_t>(pool_sizes.size());
  pool_info.pPoolSizes = pool_sizes.data();
  SIM_VK_CHECK(vkCreateDescriptorPool(context.device, &pool_info, nullptr, &descriptor_pool));

  for (std::uint32_t i = 0; i < slot_count; ++i) {
    Slot& slot = slots[i];
    slot.shadow_data =
        Buffer(context.physical_device, context.device, sizeof(ShadowData),
               VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
               VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    const ShadowData disabled{};
    std::memcpy(slot.shadow_data.mapped(), &disabled, sizeof(disabled));

    VkDescriptorSetAllocateInfo allocate_info{};
    allocate_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
    allocate_info.descriptorPool = descriptor_pool;
    allocate_info.descriptorSetCount = 1;
    allocate_info.pSetLayouts = &set_layout;
    SIM_VK_CHECK(vkAllocateDescriptorSets(context.device, &allocate_info, &slot.descriptor_set));

    const VkDescriptorBufferInfo buffer_info{slot.shadow_data.handle(), 0, sizeof(ShadowData)};
    const VkDescriptorImageInfo image_info{shadow_maps->sampler(), shadow_maps->view(i),
                                           VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    std::array<VkWriteDescriptorSet, 2> writes{};
    for (auto& write : writes) {
      write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
      write.dstSet = slot.descriptor_set;
      write.descriptorCount = 1;
    }
    writes[0].dstBinding = 0;
    writes[0].descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    writes[0].pBufferInfo = &buffer_info;
    writes[1].dstBinding = 1;
    writes[1].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    writes[1].pImageInfo = &image_info;
    vkUpdateDescriptorSets(context.device, static_cast<std::uint32_t>(writes.size()), writes.data(),
                           0, nullptr);
  }
}


void SceneRenderer::Impl::CreatePipelines() {
  // one layout for all pipelines: the frame constants, visible to both stages
  VkPushConstantRange push_range{};
  push_range.stageFlags = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
  push_range.size = sizeof(FrameConstants);
  VkPipelineLayoutCreateInfo layout_info{};
  layout_info.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &set_layout;
  layout_info.pushConstantRangeCount = 1;
  layout_info.pPushConstantRanges = &push_range;
  SIM_VK_CHECK(vkCreatePipelineLayout(context.device, &layout_info, nullptr, &layout));

  // specialization constant 0 of every fragment shader: encode sRGB in the shader
  const VkBool32 encode_srgb = NeedsShaderSrgbEncoding(context.color_format) ? VK_TRUE : VK_FALSE;
  const VkSpecializationMapEntry encode_entry{0, 0, sizeof(VkBool32)};
  VkSpecializationInfo specialization{};
  specialization.mapEntryCount = 1;
  specialization.pMapEntries = &encode_entry;
  specialization.dataSize = sizeof(VkBool32);
  specialization.pData = &encode_srgb;

  // shader modules live only while the pipelines are built
  std::vector<VkShaderModule> modules;
  const auto module = [&](const std::uint32_t* code, std::size_t size) {
    modules.push_back(MakeShaderModule(context.device, code, size));
    return modules.back();
  };
  const auto release_modules = [&] {
    for (VkShaderModule m : modules) vkDestroyShaderModule(context.device, m, nullptr);
  };

  try {
    // per-instance attributes 3..7 shared by the shape and grid pipelines
    const VkVertexInputBindingDescription instance_binding{1, sizeof(InstanceData),
                                                           VK_VERTEX_INPUT_RATE_INSTANCE};
    const std::vector<VkVertexInputAttributeDescription> instance_attributes = {
        {3, 1, VK_FORMAT_R32G32B32A32_SFLOAT, offsetof(InstanceData, rows)},
        {4, 1, VK_FORMAT_R32G32B32A32_SFLOAT, offsetof(InstanceData, rows) + 16},
        {5, 1, VK_FORMAT_R32G32B32A32_SFLOAT, offsetof(InstanceData, rows) + 32},
        {6, 1, VK_FORMAT_R32G32B32A32_SFLOAT, offsetof(InstanceData, scale)},
        {7, 1, VK_FORMAT_R32G32B32A32_SFLOAT, offsetof(InstanceData, color)},
    };

    // shadow casters: depth only, back faces (the far side from the light) with a slope bias,
    // so lit faces never shadow themselves
    PipelineDesc shadow;
    shadow.vertex_shader = module(kShadowVertSpv, sizeof(kShadowVertSpv));
    shadow.bindings = {{0, sizeof(MeshVertex), VK_VERTEX_INPUT_RATE_VERTEX}, instance_binding};
    shadow.attributes = {
        {0, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(MeshVertex, position)},
        {2, 0, VK_FORMAT_R32_SFLOAT, offsetof(MeshVertex, cap_sign)},
    };
    shadow.attributes.insert(shadow.attributes.end(), instance_attributes.begin(),
                             instance_attributes.end() - 1);
    shadow.cull_mode = VK_CULL_MODE_FRONT_BIT;
    shadow.depth_bias_constant = kShadowBiasConstant;
    shadow.depth_bias_slope = kShadowBiasSlope;
    shadow_pipeline = MakeGraphicsPipeline(context.device, shadow_maps->render_pass(),
                                           VK_SAMPLE_COUNT_1_BIT, layout, shadow);

    // sky: behind everything, so no depth test or write
    PipelineDesc sky;
    sky.vertex_shader = module(kSkyVertSpv, sizeof(kSkyVertSpv));
    sky.fragment_shader = module(kSkyFragSpv, sizeof(kSkyFragSpv));
    sky.fragment_specialization = &specialization;
    sky.cull_mode = VK_CULL_MODE_NONE;
    sky.depth_test = false;
    sky.depth_write = false;
    sky_pipeline =
        MakeGraphicsPipeline(context.device, context.render_pass, context.samples, layout, sky);

    // shapes: closed meshes, back faces culled
    PipelineDesc shape;
    shape.vertex_shader = module(kShapeVertSpv, sizeof(kShapeVertSpv));
    shape.fragment_shader = module(kShapeFragSpv, sizeof(kShapeFragSpv));
    shape.fragment_specialization = &specialization;
    shape.bindings = {{0, sizeof(MeshVertex), VK_VERTEX_INPUT_RATE_VERTEX}, instance_binding};
    shape.attributes = {
        {0, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(MeshVertex, position)},
        {1, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(MeshVertex, normal)},
        {2, 0, VK_FORMAT_R32_SFLOAT, offsetof(MeshVertex, cap_sign)},
    };
    shape.attributes.insert(shape.attributes.end(), instance_attributes.begin(),
                            instance_attributes.end());
    shape_pipeline =
        MakeGraphicsPipeline(context.device, context.render_pass, context.samples, layout, shape);

    // planes: one-sided geometry seen from both sides, so no culling
    PipelineDesc grid;
    grid.vertex_shader = module(kGridVertSpv, sizeof(kGridVertSpv));
    grid.fragment_shader = module(kGridFragSpv, sizeof(kGridFragSpv));
    grid.fragment_specialization = &specialization;
    grid.bindings = {instance_binding};
    grid.attributes = instance_attributes;
    grid.cull_mode = VK_CULL_MODE_NONE;
    grid_pipeline =
        MakeGraphicsPipeline(context.device, context.render_pass, context.samples, layout, grid);
  } catch (...) {
    release_modules();
    throw;
  }
  release_modules();
}


void SceneRenderer::Impl::CreateMeshes() {
  // all unit meshes in one vertex and one index buffer, in MeshKind order
  const std::array<MeshData, kMeshKindCount> mesh_data = {
      MakeBoxMesh(), MakeSphereMesh(kSegments, kSphereRings),
      MakeCapsuleMesh(kSegments, kCapsuleRingsPerCap), MakeCylinderMesh(kSegments)};
  std::vector<MeshVertex> all_vertices;
  std::vector<std::uint32_t> all_indices;
  for (int kind = 0; kind < kMeshKindCount; ++kind) {
    meshes[kind].first_index = static_cast<std::uint32_t>(all_indices.size());
    meshes[kind].index_count = static_cast<std::uint32_t>(mesh_data[kind].indices.size());
    meshes[kind].vertex_offset = static_cast<std::int32_t>(all_vertices.size());
    all_vertices.insert(all_vertices.end(), mesh_data[kind].vertices.begin(),
                        mesh_data[kind].vertices.end());
    all_indices.insert(all_indices.end(), mesh_data[kind].indices.begin(),
                       mesh_data[kind].indices.end());
  }
  vertices = MakeDeviceLocalBuffer(context.physical_device, context.device, context.queue,
                                   context.queue_family, all_vertices.data(),
                                   all_vertices.size() * sizeof(MeshVertex),
                                   VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
  indices = MakeDeviceLocalBuffer(context.physical_device, context.device, context.queue,
                                  context.queue_family, all_indices.data(),
                                  all_indices.size() * sizeof(std::uint32_t),
                                  VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
}


void SceneRenderer::Impl::EnsureInstanceCapacity(Slot* slot, std::size_t instance_count) {
  const VkDeviceSize needed = instance_count * sizeof(InstanceData);
  if (slot->instances.handle() != VK_NULL_HANDLE && slot->instances.size() >= needed) return;
  // grow geometrically; the slot's previous frame has completed (Prepare's precondition)
  const std::size_t old_capacity = slot->instances.size() / sizeof(InstanceData);
  const std::size_t capacity = std::max({instance_count, 2 * old_capacity, kMinInstanceCapacity});
  slot->instances =
      Buffer(context.physical_device, context.device, capacity * sizeof(InstanceData),
             VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
             VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
}


SceneRenderer::SceneRenderer(const DeviceContext& context) : impl_(std::make_unique<Impl>()) {
  // on a throw, impl_ is destroyed and releases whatever was created
  impl_->Create(context);
}


SceneRenderer::~SceneRenderer() = default;


void SceneRenderer::Prepare(std::uint32_t frame_slot, const VisualFrame& frame,
                            const OrbitCamera& camera, VkExtent2D extent) {
  if (frame_slot >= impl_->slots.size()) {
    throw std::out_of_range("SceneRenderer::Prepare: frame_slot " + std::to_string(frame_slot) +
                            " >= frames_in_flight " + std::to_string(impl_->slots.size()));
  }
  Impl::Slot& slot = impl_->slots[frame_slot];
  slot.extent = extent;
  slot.prepared = true;

  // instances sorted by mesh (boxes, spheres, capsules, cylinders), then planes
  slot.scratch.clear();
  for (int kind = 0; kind <= kMeshKindCount; ++kind) {
    const auto first = static_cast<std::uint32_t>(slot.scratch.size());
    for (const VisualShape& shape : frame.shapes) {
      const bool wanted =
          kind == kMeshKindCount ? shape.type == ShapeType::kPlane : MeshKindOf(shape.type) == kind;
      if (wanted && IsDrawable(shape)) slot.scratch.push_back(MakeInstance(shape));
    }
    const InstanceRange range{first, static_cast<std::uint32_t>(slot.scratch.size()) - first};
    if (kind == kMeshKindCount) {
      slot.plane_instances = range;
    } else {
      slot.mesh_instances[kind] = range;
    }
  }
  if (!slot.scratch.empty()) {
    impl_->EnsureInstanceCapacity(&slot, slot.scratch.size());
    std::memcpy(slot.instances.mapped(), slot.scratch.data(),
                slot.scratch.size() * sizeof(InstanceData));
  }

  // camera: the host's extent decides the aspect ratio
  const float aspect = extent.height > 0
                           ? static_cast<float>(extent.width) / static_cast<float>(extent.height)
                           : 1.0f;
  const Eigen::Matrix4f view_projection = camera.ProjectionMatrix(aspect) * camera.ViewMatrix();
  Eigen::Vector3f up(frame.up[0], frame.up[1], frame.up[2]);
  up = up.squaredNorm() > 1e-12f ? up.normalized() : Eigen::Vector3f::UnitZ();
  const float haze_start = std::max(kMinHazeStart, kHazeStartPerDistance * camera.distance);

  // scene constants (Eigen is column-major like GLSL's mat4)
  FrameConstants& scene = slot.scene_constants;
  std::memcpy(scene.matrix, view_projection.data(), sizeof(scene.matrix));
  CopyVector3(camera.Eye(), 1.0f, scene.eye);
  CopyVector3(up, 0.0f, scene.up);
  const Eigen::Vector3f to_light = KeyLightDirection(up);
  CopyVector3(to_light, haze_start, scene.light_dir);

  // the sky rebuilds view rays with the inverse view-projection
  slot.sky_constants = scene;
  const Eigen::Matrix4f inverse = view_projection.inverse();
  std::memcpy(slot.sky_constants.matrix, inverse.data(), sizeof(scene.matrix));

  // key light frustum around the closed shapes (planes receive shadows, never cast them)
  std::vector<CasterBounds> casters;
  for (const VisualShape& shape : frame.shapes) {
    if (MeshKindOf(shape.type) == kMeshKindCount || !IsDrawable(shape)) continue;
    casters.push_back(
        {Eigen::Vector3f(shape.X_WS[3], shape.X_WS[7], shape.X_WS[11]), BoundingRadius(shape)});
  }
  slot.has_casters = !casters.empty();
  ShadowData shadow{};  // disabled until RecordShadowPass fills the map
  if (slot.has_casters) {
    float texel_size = 0.0f;
    const Eigen::Matrix4f light =
        FitLightViewProjection(to_light, casters, impl_->shadow_maps->size(), &texel_size);
    slot.shadow_constants = scene;
    std::memcpy(slot.shadow_constants.matrix, light.data(), sizeof(scene.matrix));
    std::memcpy(shadow.light_matrix, light.data(), sizeof(shadow.light_matrix));
    shadow.params[1] = kShadowNormalOffsetTexels * texel_size;
    const float map_span = texel_size * static_cast<float>(impl_->shadow_maps->size());
    shadow.params[2] = std::max(kShadowPenumbra, kShadowMinPenumbraTexels * texel_size) / map_span;
  }
  std::memcpy(slot.shadow_data.mapped(), &shadow, sizeof(shadow));
}


void SceneRenderer::Impl::DrawMeshes(VkCommandBuffer cmd, const Slot& slot) const {
  // unit meshes at binding 0, instances at binding 1; one instanced draw per mesh
  const std::array<VkBuffer, 2> buffers = {vertices.handle(), slot.instances.handle()};
  const std::array<VkDeviceSize, 2> offsets = {0, 0};
  vkCmdBindVertexBuffers(cmd, 0, 2, buffers.data(), offsets.data());
  vkCmdBindIndexBuffer(cmd, indices.handle(), 0, VK_INDEX_TYPE_UINT32);
  for (int kind = 0; kind < kMeshKindCount; ++kind) {
    const InstanceRange& range = slot.mesh_instances[kind];
    if (range.count == 0) continue;
    const MeshRange& mesh = meshes[kind];
    vkCmdDrawIndexed(cmd, mesh.index_count, range.count, mesh.first_index, mesh.vertex_offset,
                     range.first);
  }
}


void SceneRenderer::RecordShadowPass(VkCommandBuffer cmd, std::uint32_t frame_slot) {
  if (frame_slot >= impl_->slots.size()) {
    throw std::out_of_range("SceneRenderer::RecordShadowPass: frame_slot " +
                            std::to_string(frame_slot) + " >= frames_in_flight " +
                            std::to_string(impl_->slots.size()));
  }
  Impl::Slot& slot = impl_->slots[frame_slot];
  if (!slot.prepared || !slot.has_casters) return;

  // the map of this frame will hold the casters: let the shaders use it (the host's submit
  // makes this host write visible)
  const float enabled = 1.0f;
  std::memcpy(static_cast<char*>(slot.shadow_data.mapped()) + offsetof(ShadowData, params),
              &enabled, sizeof(enabled));

  // depth of the closed shapes seen from the key light
  impl_->shadow_maps->BeginPass(cmd, frame_slot);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, impl_->shadow_pipeline);
  vkCmdPushConstants(cmd, impl_->layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT,
                     0, sizeof(FrameConstants), &slot.shadow_constants);
  impl_->DrawMeshes(cmd, slot);
  vkCmdEndRenderPass(cmd);
}


void SceneRenderer::Record(VkCommandBuffer cmd, std::uint32_t frame_slot) const {
  if (frame_slot >= impl_->slots.size()) {
    throw std::out_of_range("SceneRenderer::Record: frame_slot " + std::to_string(frame_slot) +
                            " >= frames_in_flight " + std::to_string(impl_->slots.size()));
  }
  const Impl::Slot& slot = impl_->slots[frame_slot];
  if (!slot.prepared || slot.extent.width == 0 || slot.extent.height == 0) return;
  const VkShaderStageFlags stages = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;

  // full-extent viewport (depth 0..1) and scissor
  const VkViewport viewport{
      0.0f, 0.0f, static_cast<float>(slot.extent.width), static_cast<float>(slot.extent.height),
      0.0f, 1.0f};
  const VkRect2D scissor{{0, 0}, slot.extent};
  vkCmdSetViewport(cmd, 0, 1, &viewport);
  vkCmdSetScissor(cmd, 0, 1, &scissor);

  // sky first: it writes no depth, so everything after draws over it
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, impl_->sky_pipeline);
  vkCmdPushConstants(cmd, impl_->layout, stages, 0, sizeof(FrameConstants), &slot.sky_constants);
  vkCmdDraw(cmd, 3, 1, 0, 0);
  if (slot.scratch.empty()) return;

  // shapes, with the scene constants and the shadow map of this slot
  vkCmdPushConstants(cmd, impl_->layout, stages, 0, sizeof(FrameConstants), &slot.scene_constants);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, impl_->layout, 0, 1,
                          &slot.descriptor_set, 0, nullptr);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, impl_->shape_pipeline);
  impl_->DrawMeshes(cmd, slot);

  // planes last: six generated vertices per instance, same bindings and constants
  if (slot.plane_instances.count > 0) {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, impl_->grid_pipeline);
    vkCmdDraw(cmd, 6, slot.plane_instances.count, 0, slot.plane_instances.first);
  }
}

}  // namespace sim::render
