// SceneRenderer: draws a VisualFrame into a host's render pass (pipelines: scene_pipelines.h).
//   shadow   depth of the shapes, meshes and soft bodies from the key light (before the pass);
//   sky      full-screen gradient;
//   opaque   instanced unit meshes (box, sphere, capsule, cylinder), uploaded VisualMeshes per
//            part (colour + texture), soft-body surfaces rewritten every frame, ground planes;
//   markers  arrows and spheres (contacts, joint frames, centres of mass, drag spring);
//   see-through  the bodies in the contacts view and collision geometry over visuals, blended;
//   ghosts   the hidden parts of markers, faint, over whatever hides them.
// Per-instance data live in one host-visible buffer per frame slot, sorted into batches so that
// each (pass, mesh, part) is one instanced draw; soft-body vertices and indices in two more.
#include "render/scene_renderer.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Geometry>
#include <Eigen/LU>

#include "render/gpu_assets.h"
#include "render/meshes.h"
#include "render/scene_markers.h"
#include "render/scene_pipelines.h"
#include "render/shadow_map.h"
#include "render/strain_colors.h"
#include "render/vk/color_format.h"
#include "render/vk/vk_resources.h"

namespace sim::render {

namespace {

// sky colour at the horizon, linear; equal to kSkyHorizon in resources/shaders/common.glsl
constexpr std::array<float, 4> kSkyHorizon = {0.515f, 0.577f, 0.658f, 1.0f};

// tessellation of the curved meshes: 48 segments keep silhouettes smooth at full-screen size;
// arrows are thin, 16 segments suffice
constexpr int kSegments = 48;
constexpr int kSphereRings = 24;
constexpr int kCapsuleRingsPerCap = 12;
constexpr int kArrowSegments = 16;

// smallest per-slot buffers, so that small scenes never reallocate
constexpr std::size_t kMinInstanceCapacity = 64;
constexpr std::size_t kMinSurfaceCapacity = 1024;

// shadow map side [texels]: 2048 keeps a 10 m scene at 5 mm per texel; with the fast trade-offs
// 1024 (a software rasterizer spends a quarter of a 1280x720 frame filling 2048² depth texels)
constexpr std::uint32_t kShadowMapSize = 2048;
constexpr std::uint32_t kFastShadowMapSize = 1024;
// receivers' normal offset in texels against acne (with the casters' slope bias)
constexpr float kShadowNormalOffsetTexels = 1.5f;
// penumbra radius [m] (a soft sun-like edge at object scale), and at least this many texels
constexpr float kShadowPenumbra = 0.02f;
constexpr float kShadowMinPenumbraTexels = 1.5f;

// haze starts at this many camera distances (and never nearer than kMinHazeStart)
constexpr float kHazeStartPerDistance = 5.0f;
constexpr float kMinHazeStart = 25.0f;  // [m]

// contacts view: bodies this opaque, so arrows inside them show; collision geometry over visuals
constexpr float kSeeThroughOpacity = 0.35f;
constexpr std::array<float, 4> kCollisionColor = {1.0f, 0.3f, 0.0f, 0.55f};
// ghosts at the drives' target pose: a faint green, see-through
constexpr std::array<float, 4> kDriveTargetColor = {0.25f, 0.85f, 0.45f, 0.3f};
// hidden parts of markers are drawn this opaque
constexpr float kGhostOpacity = 0.3f;
// uploaded meshes unused for this many frames (beyond those in flight) are released
constexpr std::uint64_t kMeshKeepFrames = 240;

// unit meshes in the shared vertex/index buffers
enum MeshKind {
  kBoxMesh = 0,
  kSphereMesh,
  kCapsuleMesh,
  kCylinderMesh,
  kArrowMesh,
  kMeshKindCount
};

// what an instance is drawn in: opaque; see-through (the contacts view's bodies); markers (opaque,
// then their hidden parts as ghosts); collision geometry over visuals (see-through, no shadow)
constexpr int kOpaquePass = 0;
constexpr int kSeeThroughPass = 1;
constexpr int kMarkerPass = 2;
constexpr int kCollisionPass = 3;
constexpr int kPassCount = 4;

// where one mesh lives in the shared buffers
struct MeshRange {
  std::uint32_t first_index = 0;
  std::uint32_t index_count = 0;
  std::int32_t vertex_offset = 0;
};

// level-of-detail choice: an uploaded mesh draws the finest level with at most this many
// triangles per pixel of its bounding sphere's projected disc (about 4 pixels per visible
// triangle, its back half culled); the shadow pass one level coarser
constexpr float kTrianglesPerPixel = 0.5f;

// one instanced indexed draw
struct Batch {
  VkBuffer vertices = VK_NULL_HANDLE;
  VkBuffer indices = VK_NULL_HANDLE;
  std::uint32_t first_index = 0;
  std::uint32_t index_count = 0;
  std::uint32_t shadow_first_index = 0;  // the shadow pass's (coarser) level of the same part
  std::uint32_t shadow_index_count = 0;
  std::int32_t vertex_offset = 0;
  std::uint32_t first_instance = 0;
  std::uint32_t instance_count = 0;
  VkDescriptorSet texture = VK_NULL_HANDLE;
  std::array<float, 4> draw = {1, 1, 1, 1};  // FrameConstants::draw
  bool two_sided = false;                    // an uploaded mesh
};

// one soft body's range in the slot's surface buffers
struct SurfaceDraw {
  std::uint32_t first_index = 0;
  std::uint32_t index_count = 0;
  std::int32_t vertex_offset = 0;
  bool see_through = false;
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


template <typename Array>
bool AllFinite(const Array& values) {
  return std::all_of(values.begin(), values.end(), [](float v) { return std::isfinite(v); });
}


// a shape is drawn only when its transform, size and colour are finite
bool IsDrawable(const VisualShape& shape) {
  return AllFinite(shape.X_WS) && AllFinite(shape.size) && AllFinite(shape.color);
}


InstanceData MakeInstance(const std::array<float, 12>& X_WS, const std::array<float, 4>& scale,
                          const std::array<float, 4>& color,
                          const std::array<float, 4>& params = {0, 0, 0, 0}) {
  InstanceData instance;
  std::copy(X_WS.begin(), X_WS.end(), instance.rows);
  std::copy(scale.begin(), scale.end(), instance.scale);
  std::copy(color.begin(), color.end(), instance.color);
  std::copy(params.begin(), params.end(), instance.params);
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


Eigen::Vector3f Translation(const std::array<float, 12>& X) { return {X[3], X[7], X[11]}; }


// the albedo the shader's desaturation would give, for soft bodies (coloured on the CPU)
std::array<float, 3> Desaturate(const std::array<float, 4>& color) {
  const float luminance = 0.2126f * color[0] + 0.7152f * color[1] + 0.0722f * color[2];
  const float grey = 0.15f + 0.7f * luminance;
  return {grey, grey, grey};
}

// shadow data of a frame without a shadow map: the light matrix sends every point to map
// coordinates (2, 2), outside the map, where the shaders see full light (a flag tested in the
// shaders instead would be a branch on a uniform alone; see resources/shaders/common.glsl)
ShadowData NoShadow() {
  ShadowData shadow{};
  Eigen::Matrix4f outside = Eigen::Matrix4f::Zero();
  outside(0, 3) = 3.0f;
  outside(1, 3) = 3.0f;
  outside(3, 3) = 1.0f;
  std::memcpy(shadow.light_matrix, outside.data(), sizeof(shadow.light_matrix));
  return shadow;
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
    Buffer surface_vertices;            // host-visible, SurfaceVertex[]
    Buffer surface_indices;             // host-visible, std::uint32_t[]
    std::vector<InstanceData> scratch;  // CPU-side copies, kept to avoid reallocation
    std::vector<SurfaceVertex> surface_scratch;
    std::vector<std::uint32_t> index_scratch;
    std::array<std::vector<Batch>, kPassCount> batches;  // by pass
    std::vector<SurfaceDraw> surfaces;
    std::uint32_t first_plane = 0;
    std::uint32_t plane_count = 0;
    FrameConstants scene_constants{};
    FrameConstants sky_constants{};
    FrameConstants shadow_constants{};  // matrix: the key light's view-projection
    bool has_casters = false;
    // what the casters and the light fit were (CasterDigest), and what the slot's map holds:
    // equal digests mean nothing moved and the map is drawn already
    std::uint64_t caster_digest = 0;
    std::uint64_t map_digest = 0;
    bool map_valid = false;
    Buffer shadow_data;      // host-visible ShadowData
    ShadowData shadow_on{};  // the key light's, copied to shadow_data by RecordShadowPass
    VkDescriptorSet descriptor_set = VK_NULL_HANDLE;
    VkExtent2D extent{0, 0};
    bool prepared = false;
  };
  ~Impl();
  void Create(const DeviceContext& context);
  void CreateDescriptors();
  void CreateMeshes();
  const GpuAssets::Mesh& GpuMesh(const VisualFrame& frame, int mesh);
  void CollectInstances(const VisualFrame& frame, const RenderOptions& options,
                        const OrbitCamera& camera, VkExtent2D extent, Slot* slot);
  void CollectSurfaces(const VisualFrame& frame, const RenderOptions& options, Slot* slot);
  void Upload(Slot* slot);
  void DrawBatches(VkCommandBuffer cmd, const Slot& slot, const std::vector<Batch>& batches,
                   int two_sided, float opacity, bool shadow = false) const;
  void DrawSurfaces(VkCommandBuffer cmd, const Slot& slot, int see_through) const;
  // digest of everything the slot's shadow pass draws: the light's matrix, the casters' batches
  // with their instances' poses and scales, the soft-body surfaces
  std::uint64_t CasterDigest(const Slot& slot) const;

  DeviceContext context;
  std::unique_ptr<ShadowMaps> shadow_maps;
  ScenePipelines pipelines;
  std::unique_ptr<GpuAssets> assets;
  VkDescriptorPool descriptor_pool = VK_NULL_HANDLE;
  Buffer vertices;
  Buffer indices;
  std::array<MeshRange, kMeshKindCount> meshes{};
  std::vector<Slot> slots;
  std::uint64_t frame_number = 0;

  // Prepare's working sets, kept to avoid reallocation
  std::array<std::vector<InstanceData>, kPassCount * kMeshKindCount> unit_buckets;
  // [(mesh · kPassCount + pass) · kLodCount + level]
  std::vector<std::vector<InstanceData>> mesh_buckets;
  std::vector<const GpuAssets::Mesh*> gpu_meshes;  // per frame mesh, null until needed
  std::vector<Marker> markers;
  std::vector<CasterBounds> casters;
  StableLightFit light_fit;
  std::vector<InstanceData> planes;
};


SceneRenderer::Impl::~Impl() {
  if (context.device == VK_NULL_HANDLE) return;
  // the host may still have frames in flight that use our pipelines and buffers
  vkDeviceWaitIdle(context.device);
  assets.reset();
  pipelines.Destroy(context.device);
  // the pool frees its sets
  if (descriptor_pool != VK_NULL_HANDLE) {
    vkDestroyDescriptorPool(context.device, descriptor_pool, nullptr);
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
  shadow_maps = std::make_unique<ShadowMaps>(
      context.physical_device, context.device, context.queue, context.queue_family,
      context.frames_in_flight, UsesFastQuality(context) ? kFastShadowMapSize : kShadowMapSize);
  pipelines.Create(context, shadow_maps->render_pass());
  assets = std::make_unique<GpuAssets>(context, pipelines.texture_set_layout);
  CreateDescriptors();
  CreateMeshes();
}


void SceneRenderer::Impl::CreateDescriptors() {
  // one set 0 per slot: its shadow data block and shadow map
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
    const ShadowData disabled = NoShadow();
    std::memcpy(slot.shadow_data.mapped(), &disabled, sizeof(disabled));

    VkDescriptorSetAllocateInfo allocate_info{};
    allocate_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
    allocate_info.descriptorPool = descriptor_pool;
    allocate_info.descriptorSetCount = 1;
    allocate_info.pSetLayouts = &pipelines.shadow_set_layout;
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


void SceneRenderer::Impl::CreateMeshes() {
  // all unit meshes in one vertex and one index buffer, in MeshKind order
  const std::array<MeshData, kMeshKindCount> mesh_data = {
      MakeBoxMesh(), MakeSphereMesh(kSegments, kSphereRings),
      MakeCapsuleMesh(kSegments, kCapsuleRingsPerCap), MakeCylinderMesh(kSegments),
      MakeArrowMesh(kArrowSegments)};
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


const GpuAssets::Mesh& SceneRenderer::Impl::GpuMesh(const VisualFrame& frame, int mesh) {
  if (gpu_meshes[mesh] == nullptr)
    gpu_meshes[mesh] = &assets->Get(frame.meshes[mesh], frame_number);
  return *gpu_meshes[mesh];
}


void SceneRenderer::Impl::CollectInstances(const VisualFrame& frame, const RenderOptions& options,
                                           const OrbitCamera& camera, VkExtent2D extent,
                                           Slot* slot) {
  for (auto& bucket : unit_buckets) bucket.clear();
  mesh_buckets.resize(std::max(mesh_buckets.size(), frame.meshes.size() * kPassCount * kLodCount));
  for (auto& bucket : mesh_buckets) bucket.clear();
  gpu_meshes.assign(frame.meshes.size(), nullptr);
  casters.clear();
  slot->scratch.clear();

  // the view decides the pass of scene geometry and how much it recedes
  const bool see_through = options.view == ViewMode::kContacts;
  const float desaturation = options.view == ViewMode::kShaded ? 0.0f : 1.0f;
  const float opacity = see_through ? kSeeThroughOpacity : 1.0f;
  const auto highlight = [&](int body) {
    return body != kWorldBody && body == frame.selected_body ? 1.0f : 0.0f;
  };
  // pixels per metre at unit distance, for the level of detail
  const Eigen::Vector3f eye = camera.Eye();
  const float pixels_per_radian = 0.5f * static_cast<float>(extent.height) /
                                  std::tan(0.5f * camera.fov_y_deg * 3.14159265358979f / 180.0f);
  const auto level_of_detail = [&](const GpuAssets::Mesh& mesh, const Eigen::Vector3f& centre) {
    const float distance = std::max((centre - eye).norm(), camera.near_plane);
    const float radius_px = mesh.bounding_radius / distance * pixels_per_radian;
    const float budget = kTrianglesPerPixel * 3.14159265f * radius_px * radius_px;
    int level = 0;
    while (level + 1 < kLodCount && static_cast<float>(mesh.triangle_count[level]) > budget) {
      ++level;
    }
    return level;
  };

  // primitive shapes; planes go to the grid
  planes.clear();
  for (const VisualShape& shape : frame.shapes) {
    if (!IsDrawable(shape)) continue;
    const std::array<float, 4> scale = MeshScale(shape.type, shape.size);
    if (shape.type == ShapeType::kPlane) {
      // the drawn square stays under the camera's target (its local x, y), in whole major cells
      const std::array<float, 12>& X = shape.X_WS;
      const Eigen::Vector3f d = camera.target - Eigen::Vector3f(X[3], X[7], X[11]);
      const float major = 10.0f * std::max(scale[3], 1e-3f);
      std::array<float, 4> square = scale;
      for (int axis = 0; axis < 2; ++axis) {
        const float along = X[axis] * d.x() + X[4 + axis] * d.y() + X[8 + axis] * d.z();
        square[1 + axis] = std::isfinite(along) ? major * std::round(along / major) : 0.0f;
      }
      planes.push_back(MakeInstance(shape.X_WS, square, shape.color));
      continue;
    }
    const int kind = MeshKindOf(shape.type);
    if (kind == kMeshKindCount) continue;
    if (shape.drive_target) {
      if (!options.show_drive_targets) continue;
      unit_buckets[kSeeThroughPass * kMeshKindCount + kind].push_back(
          MakeInstance(shape.X_WS, scale, kDriveTargetColor));
      continue;
    }
    if (shape.lane_ghost) {
      unit_buckets[kSeeThroughPass * kMeshKindCount + kind].push_back(
          MakeInstance(shape.X_WS, scale, shape.color));
      continue;
    }
    if (shape.collision_only) {
      if (!options.show_collision) continue;
      unit_buckets[kCollisionPass * kMeshKindCount + kind].push_back(
          MakeInstance(shape.X_WS, scale, kCollisionColor, {0, highlight(shape.body), 0, 0}));
      continue;
    }
    const std::array<float, 4> color = {shape.color[0], shape.color[1], shape.color[2], opacity};
    const int pass = see_through ? kSeeThroughPass : kOpaquePass;
    unit_buckets[pass * kMeshKindCount + kind].push_back(
        MakeInstance(shape.X_WS, scale, color, {0, highlight(shape.body), desaturation, 0}));
    casters.push_back({Translation(shape.X_WS), BoundingRadius(shape)});
  }

  // uploaded meshes: their own materials (alpha 0) or one colour
  for (const VisualMeshInstance& instance : frame.mesh_instances) {
    if (instance.mesh < 0 || instance.mesh >= static_cast<int>(frame.meshes.size()) ||
        !frame.meshes[instance.mesh] || !AllFinite(instance.X_WS) || !AllFinite(instance.color)) {
      continue;
    }
    int pass = see_through ? kSeeThroughPass : kOpaquePass;
    std::array<float, 4> color = {instance.color[0], instance.color[1], instance.color[2], opacity};
    std::array<float, 4> params = {instance.color[3] <= 0 ? 1.0f : 0.0f, highlight(instance.body),
                                   desaturation, 0};
    if (instance.collision_only) {
      if (!options.show_collision) continue;
      pass = kCollisionPass;
      color = kCollisionColor;
      params = {0, params[1], 0, 0};
    }
    if (instance.drive_target) {
      if (!options.show_drive_targets) continue;
      pass = kSeeThroughPass;
      color = kDriveTargetColor;
      params = {0, 0, 0, 0};
    }
    if (instance.lane_ghost) {
      pass = kSeeThroughPass;
      color = instance.color;
      params = {0, 0, 0, 0};
    }
    const GpuAssets::Mesh& mesh = GpuMesh(frame, instance.mesh);
    const int level = level_of_detail(mesh, Translation(instance.X_WS));
    mesh_buckets[(instance.mesh * kPassCount + pass) * kLodCount + level].push_back(
        MakeInstance(instance.X_WS, {1, 1, 1, 0}, color, params));
    if (pass != kCollisionPass && !instance.drive_target && !instance.lane_ghost)
      casters.push_back({Translation(instance.X_WS), mesh.bounding_radius});
  }

  // markers sized to the view
  markers.clear();
  const Eigen::Matrix4f view_projection =
      camera.ProjectionMatrix(static_cast<float>(extent.width) /
                              static_cast<float>(std::max(extent.height, 1u))) *
      camera.ViewMatrix();
  BuildMarkers(frame, options, ViewHeightAtTarget(camera), &markers, &view_projection);
  for (const Marker& marker : markers) {
    const int kind = marker.mesh == MarkerMesh::kArrow    ? kArrowMesh
                     : marker.mesh == MarkerMesh::kSphere ? kSphereMesh
                                                          : kBoxMesh;
    // markers that are not ghosted are hidden like the scene (and lit, never desaturated)
    const int pass = marker.ghost ? kMarkerPass : kOpaquePass;
    unit_buckets[pass * kMeshKindCount + kind].push_back(
        MakeInstance(marker.X_WM, marker.scale, marker.color));
  }

  // buckets into the slot's instance list, one batch per (pass, mesh, part)
  const VkDescriptorSet white = assets->white_texture();
  for (int pass = 0; pass < kPassCount; ++pass) {
    std::vector<Batch>& batches = slot->batches[pass];
    batches.clear();
    for (int kind = 0; kind < kMeshKindCount; ++kind) {
      const std::vector<InstanceData>& bucket = unit_buckets[pass * kMeshKindCount + kind];
      if (bucket.empty()) continue;
      Batch batch;
      batch.vertices = vertices.handle();
      batch.indices = indices.handle();
      batch.first_index = meshes[kind].first_index;
      batch.index_count = meshes[kind].index_count;
      batch.vertex_offset = meshes[kind].vertex_offset;
      batch.shadow_first_index = batch.first_index;
      batch.shadow_index_count = batch.index_count;
      batch.first_instance = static_cast<std::uint32_t>(slot->scratch.size());
      batch.instance_count = static_cast<std::uint32_t>(bucket.size());
      batch.texture = white;
      batches.push_back(batch);
      slot->scratch.insert(slot->scratch.end(), bucket.begin(), bucket.end());
    }
    for (std::size_t m = 0; m < frame.meshes.size(); ++m) {
      for (int level = 0; level < kLodCount; ++level) {
        const std::vector<InstanceData>& bucket =
            mesh_buckets[(m * kPassCount + pass) * kLodCount + level];
        if (bucket.empty()) continue;
        const GpuAssets::Mesh& mesh = *gpu_meshes[m];
        const int shadow_level = std::min(level + 1, kLodCount - 1);
        const auto first = static_cast<std::uint32_t>(slot->scratch.size());
        slot->scratch.insert(slot->scratch.end(), bucket.begin(), bucket.end());
        for (const GpuAssets::Part& part : mesh.parts) {
          Batch batch;
          batch.vertices = mesh.vertices.handle();
          batch.indices = mesh.indices.handle();
          batch.first_index = part.lods[level].first;
          batch.index_count = part.lods[level].count;
          batch.shadow_first_index = part.lods[shadow_level].first;
          batch.shadow_index_count = part.lods[shadow_level].count;
          batch.first_instance = first;
          batch.instance_count = static_cast<std::uint32_t>(bucket.size());
          batch.texture = part.texture;
          batch.draw = {part.color[0], part.color[1], part.color[2], 1.0f};
          batch.two_sided = true;
          batches.push_back(batch);
        }
      }
    }
  }
  slot->first_plane = static_cast<std::uint32_t>(slot->scratch.size());
  slot->plane_count = static_cast<std::uint32_t>(planes.size());
  slot->scratch.insert(slot->scratch.end(), planes.begin(), planes.end());
}


void SceneRenderer::Impl::CollectSurfaces(const VisualFrame& frame, const RenderOptions& options,
                                          Slot* slot) {
  slot->surface_scratch.clear();
  slot->index_scratch.clear();
  slot->surfaces.clear();
  const bool strain = options.view == ViewMode::kStrain;
  const bool see_through = options.view == ViewMode::kContacts;
  const bool grey = options.view == ViewMode::kStructure;
  const StrainLegend legend = strain ? ComputeStrainLegend(frame, options) : StrainLegend{};
  for (const VisualSoftBody& body : frame.soft_bodies) {
    const std::size_t n = body.positions.size();
    const std::vector<float>& field =
        options.strain_field == StrainField::kVolumetric ? body.volumetric_strain : body.von_mises;
    // a body with inconsistent arrays is skipped rather than read out of bounds
    const bool consistent = body.normals.size() == n && (!strain || field.size() == n) &&
                            std::all_of(body.indices.begin(), body.indices.end(),
                                        [n](std::uint32_t i) { return i < n; });
    if (!consistent || body.indices.empty()) continue;
    SurfaceDraw draw;
    draw.first_index = static_cast<std::uint32_t>(slot->index_scratch.size());
    draw.index_count = static_cast<std::uint32_t>(body.indices.size() / 3 * 3);
    draw.vertex_offset = static_cast<std::int32_t>(slot->surface_scratch.size());
    draw.see_through = see_through;
    slot->index_scratch.insert(slot->index_scratch.end(), body.indices.begin(),
                               body.indices.begin() + draw.index_count);
    // vertices: material colour, strain colour, or receding see-through grey
    std::array<float, 4> color = body.color;
    if (see_through || grey) {
      const std::array<float, 3> rgb = Desaturate(body.color);
      color = {rgb[0], rgb[1], rgb[2], see_through ? kSeeThroughOpacity : 1.0f};
    }
    Eigen::AlignedBox3f bounds;
    for (std::size_t i = 0; i < n; ++i) {
      SurfaceVertex vertex;
      std::copy(body.positions[i].begin(), body.positions[i].end(), vertex.position);
      std::copy(body.normals[i].begin(), body.normals[i].end(), vertex.normal);
      if (strain) {
        const std::array<float, 3> rgb = StrainColor(field[i], legend);
        color = {rgb[0], rgb[1], rgb[2], 1.0f};
      }
      std::copy(color.begin(), color.end(), vertex.color);
      slot->surface_scratch.push_back(vertex);
      const Eigen::Vector3f p(vertex.position[0], vertex.position[1], vertex.position[2]);
      if (p.allFinite()) bounds.extend(p);
    }
    slot->surfaces.push_back(draw);
    if (!bounds.isEmpty()) casters.push_back({bounds.center(), 0.5f * bounds.diagonal().norm()});
  }
}


void SceneRenderer::Impl::Upload(Slot* slot) {
  // each buffer grows geometrically; the slot's previous frame has completed (Prepare's
  // precondition), so replacing it is safe
  const auto fill = [&](Buffer* buffer, const void* data, std::size_t bytes, std::size_t minimum,
                        VkBufferUsageFlags usage) {
    if (bytes == 0) return;
    if (buffer->handle() == VK_NULL_HANDLE || buffer->size() < bytes) {
      const std::size_t capacity =
          std::max({bytes, 2 * static_cast<std::size_t>(buffer->size()), minimum});
      *buffer = Buffer(context.physical_device, context.device, capacity, usage,
                       VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    }
    std::memcpy(buffer->mapped(), data, bytes);
  };
  fill(&slot->instances, slot->scratch.data(), slot->scratch.size() * sizeof(InstanceData),
       kMinInstanceCapacity * sizeof(InstanceData), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
  fill(&slot->surface_vertices, slot->surface_scratch.data(),
       slot->surface_scratch.size() * sizeof(SurfaceVertex),
       kMinSurfaceCapacity * sizeof(SurfaceVertex), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
  fill(&slot->surface_indices, slot->index_scratch.data(),
       slot->index_scratch.size() * sizeof(std::uint32_t),
       3 * kMinSurfaceCapacity * sizeof(std::uint32_t), VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
}


std::uint64_t SceneRenderer::Impl::CasterDigest(const Slot& slot) const {
  // FNV-1a over 32-bit words
  std::uint64_t digest = 14695981039346656037ull;
  const auto add = [&digest](const void* data, std::size_t bytes) {
    const auto* bytes_in = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i + 4 <= bytes; i += 4) {
      std::uint32_t word;
      std::memcpy(&word, bytes_in + i, sizeof(word));
      digest = (digest ^ word) * 1099511628211ull;
    }
  };
  add(slot.shadow_constants.matrix, sizeof(slot.shadow_constants.matrix));
  for (const int pass : {kOpaquePass, kSeeThroughPass}) {
    for (const Batch& batch : slot.batches[pass]) {
      const std::array<std::uint64_t, 2> buffers = {reinterpret_cast<std::uint64_t>(batch.vertices),
                                                    reinterpret_cast<std::uint64_t>(batch.indices)};
      const std::array<std::uint32_t, 5> draw = {batch.shadow_first_index, batch.shadow_index_count,
                                                 static_cast<std::uint32_t>(batch.vertex_offset),
                                                 batch.instance_count, batch.two_sided ? 1u : 0u};
      add(buffers.data(), sizeof(buffers));
      add(draw.data(), sizeof(draw));
      for (std::uint32_t i = 0; i < batch.instance_count; ++i) {
        const InstanceData& instance = slot.scratch[batch.first_instance + i];
        add(instance.rows, sizeof(instance.rows));
        add(instance.scale, sizeof(instance.scale));
      }
    }
  }
  for (const SurfaceDraw& surface : slot.surfaces) {
    const std::array<std::uint32_t, 3> draw = {surface.first_index, surface.index_count,
                                               static_cast<std::uint32_t>(surface.vertex_offset)};
    add(draw.data(), sizeof(draw));
  }
  for (const SurfaceVertex& vertex : slot.surface_scratch)
    add(vertex.position, sizeof(vertex.position));
  add(slot.index_scratch.data(), slot.index_scratch.size() * sizeof(std::uint32_t));
  return digest;
}


SceneRenderer::SceneRenderer(const DeviceContext& context) : impl_(std::make_unique<Impl>()) {
  // on a throw, impl_ is destroyed and releases whatever was created
  impl_->Create(context);
}


SceneRenderer::~SceneRenderer() = default;


void SceneRenderer::Prepare(std::uint32_t frame_slot, const VisualFrame& frame,
                            const OrbitCamera& camera, VkExtent2D extent,
                            const RenderOptions& options) {
  if (frame_slot >= impl_->slots.size()) {
    throw std::out_of_range("SceneRenderer::Prepare: frame_slot " + std::to_string(frame_slot) +
                            " >= frames_in_flight " + std::to_string(impl_->slots.size()));
  }
  Impl& r = *impl_;
  Impl::Slot& slot = r.slots[frame_slot];
  slot.extent = extent;
  slot.prepared = true;
  // meshes no frame in flight can still use are released
  ++r.frame_number;
  r.assets->Evict(r.frame_number, r.context.frames_in_flight + kMeshKeepFrames);

  // instances, soft-body surfaces and shadow casters of this frame, into the slot's buffers
  r.CollectInstances(frame, options, camera, extent, &slot);
  r.CollectSurfaces(frame, options, &slot);
  r.Upload(&slot);

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
  std::fill(std::begin(scene.draw), std::end(scene.draw), 1.0f);

  // the sky rebuilds view rays with the inverse view-projection
  slot.sky_constants = scene;
  const Eigen::Matrix4f inverse = view_projection.inverse();
  std::memcpy(slot.sky_constants.matrix, inverse.data(), sizeof(scene.matrix));

  // key light frustum around the casters (planes and markers receive shadows, never cast them)
  std::erase_if(r.casters, [](const CasterBounds& c) {
    return !c.centre.allFinite() || !std::isfinite(c.radius);
  });
  slot.has_casters = options.shadows && !r.casters.empty();
  if (slot.has_casters) {
    ShadowData& shadow = slot.shadow_on;
    float texel_size = 0.0f;
    r.light_fit.Update(to_light, r.casters);
    const Eigen::Matrix4f light =
        LightViewProjection(to_light, r.light_fit.box(), r.shadow_maps->size(), &texel_size);
    slot.shadow_constants = scene;
    std::memcpy(slot.shadow_constants.matrix, light.data(), sizeof(scene.matrix));
    std::memcpy(shadow.light_matrix, light.data(), sizeof(shadow.light_matrix));
    shadow.params[1] = kShadowNormalOffsetTexels * texel_size;
    const float map_span = texel_size * static_cast<float>(r.shadow_maps->size());
    shadow.params[2] = std::max(kShadowPenumbra, kShadowMinPenumbraTexels * texel_size) / map_span;
    slot.caster_digest = r.CasterDigest(slot);
  }
  // no shadows until RecordShadowPass fills the map
  const ShadowData disabled = NoShadow();
  std::memcpy(slot.shadow_data.mapped(), &disabled, sizeof(disabled));
}


void SceneRenderer::Impl::DrawBatches(VkCommandBuffer cmd, const Slot& slot,
                                      const std::vector<Batch>& batches, int two_sided,
                                      float opacity, bool shadow) const {
  // `two_sided`: 0 draws the culled batches, 1 the uploaded meshes, −1 all of them; `shadow`
  // draws each batch's shadow level
  const VkShaderStageFlags stages = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
  VkBuffer bound_vertices = VK_NULL_HANDLE;
  VkDescriptorSet bound_texture = VK_NULL_HANDLE;
  std::array<float, 4> pushed_draw = {-1, -1, -1, -1};
  for (const Batch& batch : batches) {
    if (two_sided >= 0 && batch.two_sided != (two_sided == 1)) continue;
    // the mesh at binding 0, the slot's instances at binding 1
    if (batch.vertices != bound_vertices) {
      const std::array<VkBuffer, 2> buffers = {batch.vertices, slot.instances.handle()};
      const std::array<VkDeviceSize, 2> offsets = {0, 0};
      vkCmdBindVertexBuffers(cmd, 0, 2, buffers.data(), offsets.data());
      vkCmdBindIndexBuffer(cmd, batch.indices, 0, VK_INDEX_TYPE_UINT32);
      bound_vertices = batch.vertices;
    }
    if (batch.texture != bound_texture) {
      vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines.layout, 1, 1,
                              &batch.texture, 0, nullptr);
      bound_texture = batch.texture;
    }
    const std::array<float, 4> draw = {batch.draw[0], batch.draw[1], batch.draw[2],
                                       batch.draw[3] * opacity};
    if (draw != pushed_draw) {
      vkCmdPushConstants(cmd, pipelines.layout, stages, offsetof(FrameConstants, draw),
                         sizeof(draw), draw.data());
      pushed_draw = draw;
    }
    vkCmdDrawIndexed(cmd, shadow ? batch.shadow_index_count : batch.index_count,
                     batch.instance_count, shadow ? batch.shadow_first_index : batch.first_index,
                     batch.vertex_offset, batch.first_instance);
  }
}


void SceneRenderer::Impl::DrawSurfaces(VkCommandBuffer cmd, const Slot& slot,
                                       int see_through) const {
  // `see_through`: 0 the opaque surfaces, 1 the see-through ones, −1 all
  bool bound = false;
  for (const SurfaceDraw& surface : slot.surfaces) {
    if (see_through >= 0 && surface.see_through != (see_through == 1)) continue;
    if (!bound) {
      // the surfaces' own colours: no part colour, full opacity factor
      const std::array<float, 4> draw = {1, 1, 1, 1};
      vkCmdPushConstants(cmd, pipelines.layout,
                         VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT,
                         offsetof(FrameConstants, draw), sizeof(draw), draw.data());
      const VkBuffer buffer = slot.surface_vertices.handle();
      const VkDeviceSize offset = 0;
      vkCmdBindVertexBuffers(cmd, 0, 1, &buffer, &offset);
      vkCmdBindIndexBuffer(cmd, slot.surface_indices.handle(), 0, VK_INDEX_TYPE_UINT32);
      bound = true;
    }
    vkCmdDrawIndexed(cmd, surface.index_count, 1, surface.first_index, surface.vertex_offset, 0);
  }
}


void SceneRenderer::RecordShadowPass(VkCommandBuffer cmd, std::uint32_t frame_slot) {
  if (frame_slot >= impl_->slots.size()) {
    throw std::out_of_range("SceneRenderer::RecordShadowPass: frame_slot " +
                            std::to_string(frame_slot) + " >= frames_in_flight " +
                            std::to_string(impl_->slots.size()));
  }
  Impl& r = *impl_;
  Impl::Slot& slot = r.slots[frame_slot];
  if (!slot.prepared || !slot.has_casters) return;

  // the map of this frame will hold the casters: let the shaders use it (the host's submit
  // makes this host write visible)
  std::memcpy(slot.shadow_data.mapped(), &slot.shadow_on, sizeof(slot.shadow_on));

  // nothing moved since the slot's map was drawn (a paused or resting scene): it holds them
  if (slot.map_valid && slot.map_digest == slot.caster_digest) return;
  slot.map_digest = slot.caster_digest;
  slot.map_valid = true;

  // depth of the shapes, meshes and soft bodies seen from the key light
  r.shadow_maps->BeginPass(cmd, frame_slot);
  vkCmdPushConstants(cmd, r.pipelines.layout,
                     VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                     sizeof(FrameConstants), &slot.shadow_constants);
  for (const int pass : {kOpaquePass, kSeeThroughPass}) {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, r.pipelines.shadow_shape);
    r.DrawBatches(cmd, slot, slot.batches[pass], 0, 1.0f, true);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, r.pipelines.shadow_shape_two_sided);
    r.DrawBatches(cmd, slot, slot.batches[pass], 1, 1.0f, true);
  }
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, r.pipelines.shadow_surface);
  r.DrawSurfaces(cmd, slot, -1);
  vkCmdEndRenderPass(cmd);
}


void SceneRenderer::Record(VkCommandBuffer cmd, std::uint32_t frame_slot) const {
  if (frame_slot >= impl_->slots.size()) {
    throw std::out_of_range("SceneRenderer::Record: frame_slot " + std::to_string(frame_slot) +
                            " >= frames_in_flight " + std::to_string(impl_->slots.size()));
  }
  const Impl& r = *impl_;
  const Impl::Slot& slot = r.slots[frame_slot];
  if (!slot.prepared || slot.extent.width == 0 || slot.extent.height == 0) return;
  const VkShaderStageFlags stages = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
  const auto bind = [&](VkPipeline pipeline) {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  };

  // full-extent viewport (depth 0..1) and scissor
  const VkViewport viewport{
      0.0f, 0.0f, static_cast<float>(slot.extent.width), static_cast<float>(slot.extent.height),
      0.0f, 1.0f};
  const VkRect2D scissor{{0, 0}, slot.extent};
  vkCmdSetViewport(cmd, 0, 1, &viewport);
  vkCmdSetScissor(cmd, 0, 1, &scissor);

  // the sky where nothing opaque covers the far plane (after the opaque geometry)
  const auto draw_sky = [&] {
    bind(r.pipelines.sky);
    vkCmdPushConstants(cmd, r.pipelines.layout, stages, 0, sizeof(FrameConstants),
                       &slot.sky_constants);
    vkCmdDraw(cmd, 3, 1, 0, 0);
  };
  if (slot.scratch.empty() && slot.surfaces.empty()) {
    draw_sky();
    return;
  }

  // the scene constants, this slot's shadow map and a white texture
  vkCmdPushConstants(cmd, r.pipelines.layout, stages, 0, sizeof(FrameConstants),
                     &slot.scene_constants);
  const std::array<VkDescriptorSet, 2> sets = {slot.descriptor_set, r.assets->white_texture()};
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, r.pipelines.layout, 0, 2,
                          sets.data(), 0, nullptr);

  // opaque geometry: shapes, uploaded meshes, soft bodies, then the planes
  bind(r.pipelines.shape);
  r.DrawBatches(cmd, slot, slot.batches[kOpaquePass], 0, 1.0f);
  bind(r.pipelines.shape_two_sided);
  r.DrawBatches(cmd, slot, slot.batches[kOpaquePass], 1, 1.0f);
  bind(r.pipelines.surface);
  r.DrawSurfaces(cmd, slot, 0);
  if (slot.plane_count > 0) {
    // six generated vertices per plane; its instances at binding 1
    bind(r.pipelines.grid);
    const VkBuffer instances = slot.instances.handle();
    const VkDeviceSize offset = 0;
    vkCmdBindVertexBuffers(cmd, 1, 1, &instances, &offset);
    vkCmdDraw(cmd, 6, slot.plane_count, 0, slot.first_plane);
  }

  draw_sky();
  vkCmdPushConstants(cmd, r.pipelines.layout, stages, 0, sizeof(FrameConstants),
                     &slot.scene_constants);

  // markers, opaque where nothing hides them
  bind(r.pipelines.shape);
  r.DrawBatches(cmd, slot, slot.batches[kMarkerPass], -1, 1.0f);

  // see-through bodies and collision geometry, over everything opaque
  bind(r.pipelines.shape_transparent);
  r.DrawBatches(cmd, slot, slot.batches[kSeeThroughPass], -1, 1.0f);
  r.DrawBatches(cmd, slot, slot.batches[kCollisionPass], -1, 1.0f);
  bind(r.pipelines.surface_transparent);
  r.DrawSurfaces(cmd, slot, 1);

  // the hidden parts of markers, faintly
  bind(r.pipelines.shape_ghost);
  r.DrawBatches(cmd, slot, slot.batches[kMarkerPass], -1, kGhostOpacity);
}

}  // namespace sim::render
