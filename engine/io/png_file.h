// PNG read/write (libpng) for the engine's image inputs (structure fields) and, through
// render/png_io.h, for screenshots, `contact-sim render` output and the image tests.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace sim::io {

/// Largest image side read or written by default [px]; bounds memory for hostile files (1 GiB of
/// RGBA8 at most).
inline constexpr int kPngMaxSide = 16384;

/// 8-bit RGBA pixels, rows from the top.
struct PngImage {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgba;  ///< width·height·4 bytes
};

/// Colour layout of a PNG file as stored (before ReadPng's conversion to RGBA8).
enum class PngColor { kGray = 0, kGrayAlpha, kRgb, kRgba, kPalette };

const char* PngColorName(PngColor color);  ///< "greyscale", "RGB", ...

struct PngFormat {
  PngColor color = PngColor::kRgba;
  int bit_depth = 8;  ///< bits per channel (per index for palettes)
};

/// Writes width×height 8-bit RGBA pixels (rows from the top) as PNG (tagged sRGB) with optional
/// tEXt chunks. Returns false and sets `error`.
bool WritePng(const std::string& path, int width, int height, const std::vector<std::uint8_t>& rgba,
              std::string* error, const std::map<std::string, std::string>& text = {});

/// Reads any 8-bit/16-bit PNG into RGBA8; tEXt chunks go to `text` and the file's own layout to
/// `format` when given. Images with a side over `max_side` [px] are refused before decoding.
bool ReadPng(const std::string& path, PngImage* image, std::string* error,
             std::map<std::string, std::string>* text = nullptr, PngFormat* format = nullptr,
             int max_side = kPngMaxSide);

}  // namespace sim::io
