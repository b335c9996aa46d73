// GPU copies of the scene's mesh assets and their textures, uploaded once and kept while in use:
// each mesh with coarser levels of detail made by meshoptimizer's edge-collapse simplification
// (robot CAD meshes put several triangles on every pixel; a software rasterizer pays for each);
// a VisualMesh is keyed on its pointer (VisualFrame hands the same shared pointers every frame) and
// held by the cache, so a pointer cannot be reused for another mesh while its entry lives;
// textures are keyed on their path. Meshes unused for a while are released (a reloaded scene's old
// meshes); textures stay (scenes are reloaded with the same files).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <vulkan/vulkan.h>

#include "engine/geometry/visual_mesh.h"
#include "render/offscreen_renderer.h"
#include "render/scene_renderer.h"
#include "render/vk/vk_resources.h"

namespace sim::render {

/// Longest side of an uploaded texture [texels]: larger files are box-filtered down (a robot
/// link covers a few hundred pixels of the view; 2048² atlases would cost 16 MiB each).
inline constexpr int kMaxTextureSize = 1024;

/// The mip chain of `image` (sRGB RGBA8): level 0 no larger than `max_size` on either side, each
/// next level half as large (2×2 box filter in linear light), down to 1×1.
std::vector<Image> MakeMipChain(const Image& image, int max_size = kMaxTextureSize);

/// Levels of detail per mesh: 0 the file's triangles, each next one about a quarter of the
/// previous (fewer when the simplification error bound stops it first).
inline constexpr int kLodCount = 3;

/// Levels of detail of `indices` (triangles over `positions` with unit `normals`): level 0 the
/// indices themselves, level l simplified towards 4^−l of the triangles within a geometric error
/// bound that grows with l (relative to the mesh's extent), on the surface welded by position;
/// each corner of a simplified triangle takes the vertex at its position whose normal best fits
/// the triangle. Every level is reordered for the vertex cache.
std::array<std::vector<std::uint32_t>, kLodCount> MakeLods(
    const std::vector<std::array<float, 3>>& positions,
    const std::vector<std::array<float, 3>>& normals, const std::vector<std::uint32_t>& indices);

class GpuAssets {
 public:
  /// A run of indices in the mesh's index buffer.
  struct IndexRange {
    std::uint32_t first = 0;
    std::uint32_t count = 0;
  };
  /// A part of the mesh with its material and its indices at each level of detail.
  struct Part {
    std::array<IndexRange, kLodCount> lods;
    std::array<float, 4> color = {1, 1, 1, 1};  ///< linear RGBA
    VkDescriptorSet texture = VK_NULL_HANDLE;   ///< set 1 of the scene pipelines
  };
  struct Mesh {
    Buffer vertices;  ///< MeshVertex[]
    Buffer indices;   ///< std::uint32_t[], every level of every part
    std::vector<Part> parts;
    std::array<std::uint32_t, kLodCount> triangle_count{};  ///< per level, all parts
    float bounding_radius = 0;                              ///< around the mesh origin [m]
  };

  /// `texture_layout`: the layout of set 1 (one combined image sampler, fragment stage).
  GpuAssets(const DeviceContext& context, VkDescriptorSetLayout texture_layout);
  ~GpuAssets();
  GpuAssets(const GpuAssets&) = delete;
  GpuAssets& operator=(const GpuAssets&) = delete;

  /// The uploaded copy of `mesh`, uploading it (and its textures) on first use; marks it used at
  /// `frame_number`. A mesh with inconsistent arrays has no parts (nothing is drawn) and is
  /// reported once on stderr, as is a texture that cannot be read (drawn white).
  const Mesh& Get(const std::shared_ptr<const VisualMesh>& mesh, std::uint64_t frame_number);
  /// Releases meshes last used before `frame_number − keep_frames` (the GPU must be done with
  /// every frame older than that).
  void Evict(std::uint64_t frame_number, std::uint64_t keep_frames);
  /// Set 1 with a white 1×1 texture, for everything without a texture.
  VkDescriptorSet white_texture() const { return white_.set; }
  std::size_t mesh_count() const { return meshes_.size(); }

 private:
  struct Texture {
    DeviceImage image;
    VkDescriptorSet set = VK_NULL_HANDLE;
  };
  struct Entry {
    std::shared_ptr<const VisualMesh> source;  // keeps the pointer from being reused
    Mesh mesh;
    std::uint64_t last_used = 0;
  };

  // destroys everything (the device must be done with it)
  void Release();
  Texture Upload(const std::vector<Image>& levels);
  VkDescriptorSet TextureFor(const std::string& path);
  VkDescriptorSet AllocateSet();
  Mesh UploadMesh(const VisualMesh& mesh);

  DeviceContext context_;
  VkDescriptorSetLayout texture_layout_ = VK_NULL_HANDLE;
  VkSampler sampler_ = VK_NULL_HANDLE;
  std::vector<VkDescriptorPool> pools_;
  std::uint32_t sets_left_in_pool_ = 0;
  Texture white_;
  std::map<std::string, Texture> textures_;
  std::unordered_map<const VisualMesh*, Entry> meshes_;
};

}  // namespace sim::render
