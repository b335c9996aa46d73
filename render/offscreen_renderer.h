// OffscreenRenderer: a headless Vulkan device (no window, no surface extension; works with Mesa
// lavapipe and no display) that renders VisualFrames into an image and reads it back.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/visual/camera.h"
#include "engine/visual/visual_frame.h"
#include "render/render_options.h"

namespace sim::render {

/// 8-bit RGBA image, rows top to bottom, sRGB-encoded.
struct Image {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgba;  ///< width·height·4 bytes
};

class OffscreenRenderer {
 public:
  /// Creates the device and targets. `samples`: MSAA count (1, 2, 4, 8; clamped to what the device
  /// supports). `shader_srgb_encoding`: render into a UNORM target so that the shaders encode sRGB
  /// themselves, as they do on QVulkanWindow's default swapchain (tests compare both paths);
  /// otherwise an sRGB target is preferred and the hardware encodes. `quality`: kFull for pictures;
  /// kAuto renders as the studio does (benchmarks). Throws DeviceError with a message naming what
  /// is missing (loader, ICD, device); std::invalid_argument for a size < 1.
  OffscreenRenderer(int width, int height, int samples = 4, bool shader_srgb_encoding = false,
                    RenderQuality quality = RenderQuality::kFull);
  ~OffscreenRenderer();
  OffscreenRenderer(const OffscreenRenderer&) = delete;
  OffscreenRenderer& operator=(const OffscreenRenderer&) = delete;

  /// Draws `frame` seen by `camera` (aspect = width/height) over the sky as `options` asks, with
  /// the view's legend (strain colour bar, contact legend) drawn by Dear ImGui when
  /// options.show_legend, and reads it back. Blocks until the GPU is done. Throws DeviceError on
  /// device failure (e.g. device lost).
  Image Render(const VisualFrame& frame, const OrbitCamera& camera,
               const RenderOptions& options = RenderOptions());
  /// Text drawn in a box at the top-left corner of every frame rendered from now on (e.g. a video
  /// frame's simulated time); empty: none.
  void SetCaption(std::string caption);
  /// Physical device name, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)".
  std::string device_name() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sim::render
