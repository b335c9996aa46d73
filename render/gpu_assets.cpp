#include "render/gpu_assets.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include <Eigen/Core>

#include <meshoptimizer.h>

#include "render/image_file.h"
#include "render/meshes.h"
#include "render/vk/vk_check.h"

namespace sim::render {

namespace {

// descriptor sets per pool; a new pool is made when one runs out
constexpr std::uint32_t kSetsPerPool = 64;

// simplification error bounds of the levels, relative to the mesh's extent: 0.5 % keeps
// silhouettes where a level is used (the object a few hundred pixels tall), 2 % for level 2
// (under a hundred pixels)
constexpr std::array<float, kLodCount> kLodErrors = {0.0f, 0.005f, 0.02f};
// parts smaller than this are not simplified [triangles]
constexpr std::size_t kMinSimplifiedTriangles = 64;


// 8-bit sRGB <-> linear light, for the box filter
float DecodeSrgb(std::uint8_t c8) {
  const float c = static_cast<float>(c8) / 255.0f;
  return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f);
}


std::uint8_t EncodeSrgb8(float linear) {
  linear = std::clamp(linear, 0.0f, 1.0f);
  const float c =
      linear <= 0.0031308f ? 12.92f * linear : 1.055f * std::pow(linear, 1.0f / 2.4f) - 0.055f;
  return static_cast<std::uint8_t>(std::lround(255.0f * c));
}


// the next smaller level: each texel the mean of (up to) 2×2 texels in linear light; alpha linear
Image HalveImage(const Image& image, const std::array<float, 256>& decode) {
  Image half;
  half.width = std::max(1, image.width / 2);
  half.height = std::max(1, image.height / 2);
  half.rgba.resize(static_cast<std::size_t>(half.width) * half.height * 4);
  for (int y = 0; y < half.height; ++y) {
    for (int x = 0; x < half.width; ++x) {
      std::array<float, 4> sum = {0, 0, 0, 0};
      for (int dy = 0; dy < 2; ++dy) {
        for (int dx = 0; dx < 2; ++dx) {
          const int sx = std::min(2 * x + dx, image.width - 1);
          const int sy = std::min(2 * y + dy, image.height - 1);
          const std::uint8_t* texel =
              &image.rgba[(static_cast<std::size_t>(sy) * image.width + sx) * 4];
          for (int c = 0; c < 3; ++c) sum[c] += decode[texel[c]];
          sum[3] += static_cast<float>(texel[3]) / 255.0f;
        }
      }
      std::uint8_t* out = &half.rgba[(static_cast<std::size_t>(y) * half.width + x) * 4];
      for (int c = 0; c < 3; ++c) out[c] = EncodeSrgb8(0.25f * sum[c]);
      out[3] = static_cast<std::uint8_t>(std::lround(255.0f * 0.25f * sum[3]));
    }
  }
  return half;
}


// the mesh's arrays agree with each other (sizes, index range, parts inside the indices)
bool IsConsistent(const VisualMesh& mesh, std::string* problem) {
  const std::size_t n = mesh.positions.size();
  if (mesh.normals.size() != n) {
    *problem = "normals and positions differ in count";
    return false;
  }
  if (!mesh.uvs.empty() && mesh.uvs.size() != n) {
    *problem = "uvs and positions differ in count";
    return false;
  }
  if (mesh.indices.size() % 3 != 0) {
    *problem = "index count is not a multiple of 3";
    return false;
  }
  for (std::uint32_t i : mesh.indices) {
    if (i >= n) {
      *problem = "an index is out of range";
      return false;
    }
  }
  for (const VisualMesh::Part& part : mesh.parts) {
    if (static_cast<std::size_t>(part.first_index) + part.index_count > mesh.indices.size()) {
      *problem = "a part runs past the indices";
      return false;
    }
  }
  return true;
}

}  // namespace


std::array<std::vector<std::uint32_t>, kLodCount> MakeLods(
    const std::vector<std::array<float, 3>>& positions,
    const std::vector<std::array<float, 3>>& normals, const std::vector<std::uint32_t>& indices) {
  std::array<std::vector<std::uint32_t>, kLodCount> lods;
  const std::size_t vertex_count = positions.size();
  lods[0].resize(indices.size());
  meshopt_optimizeVertexCache(lods[0].data(), indices.data(), indices.size(), vertex_count);
  if (indices.size() / 3 < kMinSimplifiedTriangles) {
    for (int level = 1; level < kLodCount; ++level) lods[level] = lods[0];
    return lods;
  }

  // file meshes split vertices at every uv and normal seam, which edge collapse treats as borders
  // it must keep: simplify the surface welded by position, over a compact buffer of the unique
  // positions (simplification treats any two vertices at one position as a seam) ...
  std::vector<std::uint32_t> remap(vertex_count);
  const std::size_t unique_count =
      meshopt_generateVertexRemap(remap.data(), indices.data(), indices.size(), positions.data(),
                                  vertex_count, sizeof(std::array<float, 3>));
  std::vector<std::array<float, 3>> unique_positions(unique_count);
  meshopt_remapVertexBuffer(unique_positions.data(), positions.data(), vertex_count,
                            sizeof(std::array<float, 3>), remap.data());
  // ... remembering every vertex at each position (CSR lists by unique id) ...
  std::vector<std::uint32_t> split_start(unique_count + 1, 0), split_vertices;
  for (std::size_t v = 0; v < vertex_count; ++v) {
    if (remap[v] != ~0u) ++split_start[remap[v] + 1];  // ~0u: unused by the indices
  }
  for (std::size_t u = 0; u < unique_count; ++u) split_start[u + 1] += split_start[u];
  split_vertices.resize(split_start.back());
  std::vector<std::uint32_t> fill(split_start.begin(), split_start.end() - 1);
  for (std::size_t v = 0; v < vertex_count; ++v) {
    if (remap[v] != ~0u) split_vertices[fill[remap[v]]++] = static_cast<std::uint32_t>(v);
  }
  std::vector<std::uint32_t> finer(indices.size());
  for (std::size_t i = 0; i < indices.size(); ++i) finer[i] = remap[indices[i]];

  const float* xyz = unique_positions[0].data();
  for (int level = 1; level < kLodCount; ++level) {
    // a quarter of the finer level's triangles, within the level's error bound
    const std::size_t target = finer.size() / 4 / 3 * 3;
    std::vector<std::uint32_t> coarser(finer.size());
    const std::size_t count =
        meshopt_simplify(coarser.data(), finer.data(), finer.size(), xyz, unique_count,
                         sizeof(std::array<float, 3>), target, kLodErrors[level]);
    // a level that collapses a part entirely would make it vanish: keep the finer one
    if (count > 0) {
      coarser.resize(count);
      finer = coarser;
    }
    // ... and give each corner back the split vertex whose normal best fits its triangle, so
    // creases keep their shading (and mostly their uv island)
    std::vector<std::uint32_t> corners(finer.size());
    for (std::size_t t = 0; t < finer.size(); t += 3) {
      const Eigen::Vector3f a(unique_positions[finer[t]].data());
      const Eigen::Vector3f b(unique_positions[finer[t + 1]].data());
      const Eigen::Vector3f c(unique_positions[finer[t + 2]].data());
      const Eigen::Vector3f face = (b - a).cross(c - a);
      for (int k = 0; k < 3; ++k) {
        const std::uint32_t u = finer[t + k];
        std::uint32_t best = split_vertices[split_start[u]];
        float best_fit = -std::numeric_limits<float>::infinity();
        for (std::uint32_t s = split_start[u]; s < split_start[u + 1]; ++s) {
          const Eigen::Vector3f n(normals[split_vertices[s]].data());
          const float fit = n.dot(face);
          if (fit > best_fit) {
            best_fit = fit;
            best = split_vertices[s];
          }
        }
        corners[t + k] = best;
      }
    }
    lods[level].resize(corners.size());
    meshopt_optimizeVertexCache(lods[level].data(), corners.data(), corners.size(), vertex_count);
  }
  return lods;
}


std::vector<Image> MakeMipChain(const Image& image, int max_size) {
  std::array<float, 256> decode;
  for (int i = 0; i < 256; ++i) decode[i] = DecodeSrgb(static_cast<std::uint8_t>(i));
  std::vector<Image> levels;
  Image level = image;
  // down to the size limit first; those levels are not kept
  while (level.width > max_size || level.height > max_size) level = HalveImage(level, decode);
  levels.push_back(level);
  while (levels.back().width > 1 || levels.back().height > 1) {
    levels.push_back(HalveImage(levels.back(), decode));
  }
  return levels;
}


GpuAssets::GpuAssets(const DeviceContext& context, VkDescriptorSetLayout texture_layout)
    : context_(context), texture_layout_(texture_layout) {
  // bilinear in the nearest mip level (trilinear doubles a software rasterizer's texel reads for
  // little visible gain), repeating (mesh uvs may run past [0, 1])
  VkSamplerCreateInfo sampler_info{};
  sampler_info.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO;
  sampler_info.magFilter = VK_FILTER_LINEAR;
  sampler_info.minFilter = VK_FILTER_LINEAR;
  sampler_info.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  sampler_info.addressModeU = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  sampler_info.addressModeV = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  sampler_info.addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  sampler_info.maxLod = VK_LOD_CLAMP_NONE;
  SIM_VK_CHECK(vkCreateSampler(context_.device, &sampler_info, nullptr, &sampler_));
  try {
    Image white;
    white.width = white.height = 1;
    white.rgba = {255, 255, 255, 255};
    white_ = Upload({white});
  } catch (...) {
    Release();
    throw;
  }
}


GpuAssets::~GpuAssets() { Release(); }


void GpuAssets::Release() {
  meshes_.clear();
  textures_.clear();
  white_.image.Reset();
  // the pools free their sets
  for (VkDescriptorPool pool : pools_) vkDestroyDescriptorPool(context_.device, pool, nullptr);
  pools_.clear();
  if (sampler_ != VK_NULL_HANDLE) vkDestroySampler(context_.device, sampler_, nullptr);
  sampler_ = VK_NULL_HANDLE;
}


VkDescriptorSet GpuAssets::AllocateSet() {
  if (sets_left_in_pool_ == 0) {
    const VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, kSetsPerPool};
    VkDescriptorPoolCreateInfo pool_info{};
    pool_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
    pool_info.maxSets = kSetsPerPool;
    pool_info.poolSizeCount = 1;
    pool_info.pPoolSizes = &size;
    VkDescriptorPool pool = VK_NULL_HANDLE;
    SIM_VK_CHECK(vkCreateDescriptorPool(context_.device, &pool_info, nullptr, &pool));
    pools_.push_back(pool);
    sets_left_in_pool_ = kSetsPerPool;
  }
  VkDescriptorSetAllocateInfo allocate_info{};
  allocate_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
  allocate_info.descriptorPool = pools_.back();
  allocate_info.descriptorSetCount = 1;
  allocate_info.pSetLayouts = &texture_layout_;
  VkDescriptorSet set = VK_NULL_HANDLE;
  SIM_VK_CHECK(vkAllocateDescriptorSets(context_.device, &allocate_info, &set));
  --sets_left_in_pool_;
  return set;
}


GpuAssets::Texture GpuAssets::Upload(const std::vector<Image>& levels) {
  // all levels in one staging buffer, copied with one region per level
  std::size_t bytes = 0;
  for (const Image& level : levels) bytes += level.rgba.size();
  Buffer staging(context_.physical_device, context_.device, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                 VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  std::vector<VkBufferImageCopy> regions;
  std::size_t offset = 0;
  for (std::size_t i = 0; i < levels.size(); ++i) {
    std::memcpy(static_cast<char*>(staging.mapped()) + offset, levels[i].rgba.data(),
                levels[i].rgba.size());
    VkBufferImageCopy region{};
    region.bufferOffset = offset;
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, static_cast<std::uint32_t>(i), 0, 1};
    region.imageExtent = {static_cast<std::uint32_t>(levels[i].width),
                          static_cast<std::uint32_t>(levels[i].height), 1};
    regions.push_back(region);
    offset += levels[i].rgba.size();
  }
  const auto mip_levels = static_cast<std::uint32_t>(levels.size());
  Texture texture;
  // sRGB format: the sampler decodes to linear light
  texture.image = DeviceImage(
      context_.physical_device, context_.device,
      {static_cast<std::uint32_t>(levels[0].width), static_cast<std::uint32_t>(levels[0].height)},
      VK_FORMAT_R8G8B8A8_SRGB, VK_SAMPLE_COUNT_1_BIT,
      VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT, VK_IMAGE_ASPECT_COLOR_BIT,
      mip_levels);
  RunOneTimeCommands(
      context_.device, context_.queue, context_.queue_family, [&](VkCommandBuffer cmd) {
        VkImageMemoryBarrier barrier{};
        barrier.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER;
        barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        barrier.image = texture.image.image();
        barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, mip_levels, 0, 1};
        // undefined -> transfer destination, copy, -> shader read
        barrier.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
        barrier.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
        barrier.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                             0, 0, nullptr, 0, nullptr, 1, &barrier);
        vkCmdCopyBufferToImage(cmd, staging.handle(), texture.image.image(),
                               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                               static_cast<std::uint32_t>(regions.size()), regions.data());
        barrier.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
        barrier.newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
        barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                             VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, 0, 0, nullptr, 0, nullptr, 1,
                             &barrier);
      });

  // its descriptor set
  texture.set = AllocateSet();
  const VkDescriptorImageInfo image_info{sampler_, texture.image.view(),
                                         VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
  VkWriteDescriptorSet write{};
  write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
  write.dstSet = texture.set;
  write.dstBinding = 0;
  write.descriptorCount = 1;
  write.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  write.pImageInfo = &image_info;
  vkUpdateDescriptorSets(context_.device, 1, &write, 0, nullptr);
  return texture;
}


VkDescriptorSet GpuAssets::TextureFor(const std::string& path) {
  if (path.empty()) return white_.set;
  const auto found = textures_.find(path);
  if (found != textures_.end()) return found->second.set;
  // a file that cannot be read is drawn white, and said once
  Image image;
  std::string error;
  if (!ReadImageFile(path, &image, &error)) {
    std::fprintf(stderr, "%s: warning: texture not loaded (%s); drawn without it\n", path.c_str(),
                 error.c_str());
    textures_.emplace(path, Texture{DeviceImage(), white_.set});
    return white_.set;
  }
  return textures_.emplace(path, Upload(MakeMipChain(image))).first->second.set;
}


GpuAssets::Mesh GpuAssets::UploadMesh(const VisualMesh& source) {
  Mesh mesh;
  std::string problem;
  if (!IsConsistent(source, &problem)) {
    std::fprintf(stderr, "%s: warning: visual mesh not drawn: %s\n", source.name.c_str(),
                 problem.c_str());
    return mesh;
  }
  if (source.indices.empty()) return mesh;
  // vertices in the shader's layout; the bounding radius for the shadow frustum
  std::vector<MeshVertex> vertices(source.positions.size());
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    vertices[i].position = source.positions[i];
    vertices[i].normal = source.normals[i];
    vertices[i].cap_sign = 0.0f;
    if (!source.uvs.empty()) vertices[i].uv = source.uvs[i];
    const auto& p = source.positions[i];
    mesh.bounding_radius =
        std::max(mesh.bounding_radius, std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]));
  }
  mesh.vertices = MakeDeviceLocalBuffer(
      context_.physical_device, context_.device, context_.queue, context_.queue_family,
      vertices.data(), vertices.size() * sizeof(MeshVertex), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
  // parts with their colour, texture and levels of detail, all in one index buffer; a mesh
  // without parts is one grey part
  std::vector<VisualMesh::Part> parts = source.parts;
  if (parts.empty()) {
    parts.resize(1);
    parts[0].index_count = static_cast<std::uint32_t>(source.indices.size());
  }
  std::vector<std::uint32_t> indices;
  for (const VisualMesh::Part& part : parts) {
    const std::uint32_t count = part.index_count / 3 * 3;
    if (count == 0) continue;
    const std::vector<std::uint32_t> part_indices(
        source.indices.begin() + part.first_index,
        source.indices.begin() + part.first_index + count);
    const auto lods = MakeLods(source.positions, source.normals, part_indices);
    Part gpu;
    for (int level = 0; level < kLodCount; ++level) {
      gpu.lods[level] = {static_cast<std::uint32_t>(indices.size()),
                         static_cast<std::uint32_t>(lods[level].size())};
      mesh.triangle_count[level] += static_cast<std::uint32_t>(lods[level].size() / 3);
      indices.insert(indices.end(), lods[level].begin(), lods[level].end());
    }
    gpu.color = part.color;
    // a texture only makes sense with uvs
    gpu.texture = source.uvs.empty() ? white_.set : TextureFor(part.texture);
    mesh.parts.push_back(gpu);
  }
  if (indices.empty()) return mesh;
  mesh.indices = MakeDeviceLocalBuffer(
      context_.physical_device, context_.device, context_.queue, context_.queue_family,
      indices.data(), indices.size() * sizeof(std::uint32_t), VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
  return mesh;
}


const GpuAssets::Mesh& GpuAssets::Get(const std::shared_ptr<const VisualMesh>& mesh,
                                      std::uint64_t frame_number) {
  auto found = meshes_.find(mesh.get());
  if (found == meshes_.end()) {
    Entry entry;
    entry.source = mesh;
    entry.mesh = UploadMesh(*mesh);
    found = meshes_.emplace(mesh.get(), std::move(entry)).first;
  }
  found->second.last_used = frame_number;
  return found->second.mesh;
}


void GpuAssets::Evict(std::uint64_t frame_number, std::uint64_t keep_frames) {
  if (frame_number < keep_frames) return;
  const std::uint64_t oldest = frame_number - keep_frames;
  std::erase_if(meshes_, [oldest](const auto& item) { return item.second.last_used < oldest; });
}

}  // namespace sim::render
