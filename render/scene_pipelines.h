// The scene renderer's GPU interface: push constants, per-instance and soft-body vertex layouts,
// descriptor set layouts and the graphics pipelines built from resources/shaders. Internal to
// the render library (SceneRenderer owns one).
//
//   set 0   shadow data block + the key light's shadow map (fragment)
//   set 1   diffuse texture of the mesh part being drawn (fragment; white 1×1 when none)
//   push    FrameConstants (128 bytes, vertex + fragment)
#pragma once

#include <cstdint>

#include <vulkan/vulkan.h>

#include "render/scene_renderer.h"

namespace sim::render {

/// Push constants; layout of FrameConstants in resources/shaders/common.glsl.
struct FrameConstants {
  float matrix[16];
  float eye[4];
  float up[4];
  float light_dir[4];
  float draw[4];  ///< rgb: the mesh part's colour; a: opacity factor of the pass
};
static_assert(sizeof(FrameConstants) == 128, "must match common.glsl and stay within 128 bytes");

/// Uniform block ShadowData of resources/shaders/common.glsl (std140).
struct ShadowData {
  float light_matrix[16];
  float params[4];  ///< unused, normal offset [m], penumbra radius in map coordinates, unused
};
static_assert(sizeof(ShadowData) == 80);

/// One mesh instance; vertex attributes 3..7 and 9 of shape.vert (3..7 of grid.vert).
struct InstanceData {
  float rows[12];   ///< row-major 3x4 mesh-to-world transform
  float scale[4];   ///< MeshScale(); (1, 1, 1, 0) for uploaded meshes
  float color[4];   ///< linear RGB albedo (unless params[0]), alpha = opacity
  float params[4];  ///< part material (1/0), highlight [0, 1], desaturation [0, 1], unused
};
static_assert(sizeof(InstanceData) == 96);

/// One soft-body surface vertex; attributes 0..2 of surface.vert.
struct SurfaceVertex {
  float position[3];  ///< world [m]
  float normal[3];    ///< unit
  float color[4];     ///< linear RGB albedo, alpha = opacity
};
static_assert(sizeof(SurfaceVertex) == 40);

/// True when `context` asks for the fast trade-offs: RenderQuality::kFast, or kAuto on a software
/// rasterizer (VK_PHYSICAL_DEVICE_TYPE_CPU).
bool UsesFastQuality(const DeviceContext& context);

struct ScenePipelines {
  /// Creates layouts and pipelines for `context.render_pass` and the depth-only `shadow_pass`.
  /// Throws DeviceError (after releasing what it made).
  void Create(const DeviceContext& context, VkRenderPass shadow_pass);
  /// Destroys everything (the device must be done with it).
  void Destroy(VkDevice device);

  VkDescriptorSetLayout shadow_set_layout = VK_NULL_HANDLE;
  VkDescriptorSetLayout texture_set_layout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline sky = VK_NULL_HANDLE;                // full-screen gradient, no depth
  VkPipeline grid = VK_NULL_HANDLE;               // planes, both sides
  VkPipeline shape = VK_NULL_HANDLE;              // closed meshes, back faces culled
  VkPipeline shape_two_sided = VK_NULL_HANDLE;    // uploaded meshes (may be open), no culling
  VkPipeline shape_transparent = VK_NULL_HANDLE;  // blended, depth tested but not written
  VkPipeline shape_ghost = VK_NULL_HANDLE;        // blended where hidden (depth test GREATER)
  VkPipeline surface = VK_NULL_HANDLE;            // soft bodies
  VkPipeline surface_transparent = VK_NULL_HANDLE;
  VkPipeline shadow_shape = VK_NULL_HANDLE;  // depth of closed meshes, front faces culled
  VkPipeline shadow_shape_two_sided = VK_NULL_HANDLE;
  VkPipeline shadow_surface = VK_NULL_HANDLE;
};

}  // namespace sim::render
