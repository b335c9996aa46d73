// Texture images from files: PNG (libpng, see png_io.h) and JPEG (libjpeg-turbo), told apart by
// their first bytes rather than the file name, into 8-bit sRGB RGBA.
#pragma once

#include <string>

#include "render/offscreen_renderer.h"

namespace sim::render {

/// Reads a PNG or JPEG file into RGBA8 (JPEG: alpha 255). Returns false and sets `error` for a
/// missing, unreadable, corrupt or unsupported file.
bool ReadImageFile(const std::string& path, Image* image, std::string* error);

/// Reads a baseline or progressive JPEG (greyscale, RGB or CMYK files are converted to RGB).
bool ReadJpeg(const std::string& path, Image* image, std::string* error);

}  // namespace sim::render
