// PNG read/write (libpng) for screenshots, `contact-sim render` output and the image tests.
#pragma once

#include <map>
#include <string>

#include "render/offscreen_renderer.h"

namespace sim::render {

/// Writes `image` as 8-bit RGBA PNG with optional tEXt chunks. Returns false and sets `error`.
bool WritePng(const std::string& path, const Image& image, std::string* error,
              const std::map<std::string, std::string>& text = {});
/// Reads any 8-bit/16-bit PNG into RGBA8; tEXt chunks go to `text` when given.
bool ReadPng(const std::string& path, Image* image, std::string* error,
             std::map<std::string, std::string>* text = nullptr);

}  // namespace sim::render
