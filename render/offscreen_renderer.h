// OffscreenRenderer: a headless Vulkan device (no window, no surface extension; works with Mesa
// lavapipe and no display) that renders VisualFrames into an image and reads it back.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/visual/camera.h"
#include "engine/visual/visual_frame.h"

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
  /// supports). Throws DeviceError with a message naming what is missing (loader, ICD, device).
  OffscreenRenderer(int width, int height, int samples = 4);
  ~OffscreenRenderer();

  Image Render(const VisualFrame& frame, const OrbitCamera& camera);
  /// Physical device name, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)".
  std::string device_name() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sim::render
