// The renderer's PNG files through the engine's libpng reader and writer (engine/io/png_file.h).
#include "render/png_io.h"

#include <utility>

#include "engine/io/png_file.h"

namespace sim::render {

bool WritePng(const std::string& path, const Image& image, std::string* error,
              const std::map<std::string, std::string>& text) {
  return io::WritePng(path, image.width, image.height, image.rgba, error, text);
}


bool ReadPng(const std::string& path, Image* image, std::string* error,
             std::map<std::string, std::string>* text) {
  io::PngImage png;
  if (!io::ReadPng(path, &png, error, text)) return false;
  image->width = png.width;
  image->height = png.height;
  image->rgba = std::move(png.rgba);
  return true;
}

}  // namespace sim::render
