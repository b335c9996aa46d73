// PNG read/write with libpng. libpng reports errors by longjmp; C++ forbids jumping over live
// objects with destructors, so every setjmp sits in a small function whose frame holds only plain
// data (the Png*Stage functions below), and the C++ callers do all allocation outside them.
// Reading expands every PNG flavour (palette, grey, 16-bit, no alpha, interlaced) to RGBA8 and
// says what the file held (PngFormat), so a reader that needs one flavour can refuse the others.
#include "engine/io/png_file.h"

#include <png.h>

#include <cerrno>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

namespace sim::io {

namespace {

constexpr png_uint_32 kMaxSide = kPngMaxSide;

// libpng's error callback target: the message of the error that aborted the current stage
struct PngError {
  char message[256] = "";
};


[[noreturn]] void OnPngError(png_structp png, png_const_charp message) {
  auto* error = static_cast<PngError*>(png_get_error_ptr(png));
  std::snprintf(error->message, sizeof(error->message), "%s", message);
  png_longjmp(png, 1);
}


// warnings (e.g. a bad CRC in an ancillary chunk) do not stop reading or writing
void OnPngWarning(png_structp, png_const_charp) {}


// closes the FILE on every path out of WritePng/ReadPng
struct FileCloser {
  void operator()(std::FILE* file) const {
    if (file != nullptr) std::fclose(file);
  }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;


// write stage: all libpng calls of a write; only plain data lives in this frame
bool PngWriteStage(std::FILE* file, png_uint_32 width, png_uint_32 height, png_bytepp rows,
                   png_textp texts, int text_count, PngError* error) {
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, error, OnPngError, OnPngWarning);
  if (png == nullptr) {
    std::snprintf(error->message, sizeof(error->message), "libpng: out of memory");
    return false;
  }
  png_infop info = png_create_info_struct(png);
  if (info == nullptr) {
    png_destroy_write_struct(&png, nullptr);
    std::snprintf(error->message, sizeof(error->message), "libpng: out of memory");
    return false;
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    return false;
  }
  png_init_io(png, file);
  png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  // the pixels are sRGB-encoded: say so, so viewers do not guess
  png_set_sRGB_gAMA_and_cHRM(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
  if (text_count > 0) png_set_text(png, info, texts, text_count);
  png_write_info(png, info);
  png_write_image(png, rows);
  png_write_end(png, info);
  png_destroy_write_struct(&png, &info);
  return true;
}


// what the header stage of a read leaves for the pixel stage
struct PngReadHeader {
  png_structp png = nullptr;
  png_infop info = nullptr;
  png_uint_32 width = 0;
  png_uint_32 height = 0;
  png_size_t row_bytes = 0;
  PngFormat format;
};


// read stage 1: header and transformations to RGBA8 (the signature was read by the caller)
bool PngReadHeaderStage(std::FILE* file, PngReadHeader* header, PngError* error) {
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, error, OnPngError, OnPngWarning);
  if (png == nullptr) {
    std::snprintf(error->message, sizeof(error->message), "libpng: out of memory");
    return false;
  }
  png_infop info = png_create_info_struct(png);
  if (info == nullptr) {
    png_destroy_read_struct(&png, nullptr, nullptr);
    std::snprintf(error->message, sizeof(error->message), "libpng: out of memory");
    return false;
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, &info, nullptr);
    return false;
  }
  png_init_io(png, file);
  png_set_sig_bytes(png, 8);
  png_set_user_limits(png, kMaxSide, kMaxSide);
  png_read_info(png, info);

  // expand everything to 8-bit RGBA: palette -> RGB, low-bit grey -> 8 bit, tRNS -> alpha,
  // 16 -> 8 bit (rounded), grey -> RGB, opaque alpha where the file has none
  const png_byte color_type = png_get_color_type(png, info);
  const png_byte bit_depth = png_get_bit_depth(png, info);
  const bool has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
  header->format.bit_depth = bit_depth;
  header->format.color = color_type == PNG_COLOR_TYPE_PALETTE      ? PngColor::kPalette
                         : color_type == PNG_COLOR_TYPE_GRAY       ? PngColor::kGray
                         : color_type == PNG_COLOR_TYPE_GRAY_ALPHA ? PngColor::kGrayAlpha
                         : color_type == PNG_COLOR_TYPE_RGB        ? PngColor::kRgb
                                                                   : PngColor::kRgba;
  if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
  if (has_trns) png_set_tRNS_to_alpha(png);
  if (bit_depth == 16) png_set_scale_16(png);
  if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) {
    png_set_gray_to_rgb(png);
  }
  if (!(color_type & PNG_COLOR_MASK_ALPHA) && !has_trns) {
    png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
  }
  png_set_interlace_handling(png);
  png_read_update_info(png, info);

  header->png = png;
  header->info = info;
  header->width = png_get_image_width(png, info);
  header->height = png_get_image_height(png, info);
  header->row_bytes = png_get_rowbytes(png, info);
  return true;
}


// read stage 2: pixels into `rows`, then the chunks after the image data (late tEXt)
bool PngReadPixelsStage(const PngReadHeader* header, png_bytepp rows) {
  if (setjmp(png_jmpbuf(header->png))) return false;
  png_read_image(header->png, rows);
  png_read_end(header->png, header->info);
  return true;
}


// tEXt keywords: 1 to 79 Latin-1 characters without leading, trailing or double spaces
// (PNG specification, 11.3.4.3)
bool IsValidKeyword(const std::string& key) {
  if (key.empty() || key.size() > 79) return false;
  if (key.front() == ' ' || key.back() == ' ' || key.find("  ") != std::string::npos) return false;
  for (const unsigned char c : key) {
    if (c < 32 || (c > 126 && c < 161)) return false;
  }
  return true;
}

}  // namespace


const char* PngColorName(PngColor color) {
  switch (color) {
    case PngColor::kGray:
      return "greyscale";
    case PngColor::kGrayAlpha:
      return "greyscale with alpha";
    case PngColor::kRgb:
      return "RGB";
    case PngColor::kRgba:
      return "RGBA";
    case PngColor::kPalette:
      return "palette";
  }
  return "unknown";
}


bool WritePng(const std::string& path, int width, int height, const std::vector<std::uint8_t>& rgba,
              std::string* error, const std::map<std::string, std::string>& text) {
  std::string ignored;
  std::string& message = error != nullptr ? *error : ignored;

  // the image must be consistent before anything touches the file
  if (width <= 0 || height <= 0 || static_cast<png_uint_32>(width) > kMaxSide ||
      static_cast<png_uint_32>(height) > kMaxSide) {
    message = "cannot write a " + std::to_string(width) + "x" + std::to_string(height) +
              " image (sides must be 1.." + std::to_string(kMaxSide) + ")";
    return false;
  }
  const std::size_t row_bytes = static_cast<std::size_t>(width) * 4;
  if (rgba.size() != row_bytes * static_cast<std::size_t>(height)) {
    message = "image data has " + std::to_string(rgba.size()) + " bytes, expected " +
              std::to_string(row_bytes * height) + " for RGBA8";
    return false;
  }
  for (const auto& [key, value] : text) {
    if (!IsValidKeyword(key)) {
      message = "invalid PNG text keyword '" + key + "' (1-79 printable characters)";
      return false;
    }
  }

  // row pointers and text chunks, prepared outside the setjmp frame
  std::vector<png_bytep> rows(static_cast<std::size_t>(height));
  for (int y = 0; y < height; ++y) {
    rows[y] = const_cast<png_bytep>(rgba.data() + y * row_bytes);
  }
  std::vector<png_text> texts;
  for (const auto& [key, value] : text) {
    png_text chunk{};
    chunk.compression = PNG_TEXT_COMPRESSION_NONE;
    chunk.key = const_cast<png_charp>(key.c_str());
    chunk.text = const_cast<png_charp>(value.c_str());
    chunk.text_length = value.size();
    texts.push_back(chunk);
  }

  FilePtr file(std::fopen(path.c_str(), "wb"));
  if (file == nullptr) {
    message = std::string("cannot open for writing: ") + std::strerror(errno);
    return false;
  }
  PngError png_error;
  bool ok =
      PngWriteStage(file.get(), static_cast<png_uint_32>(width), static_cast<png_uint_32>(height),
                    rows.data(), texts.data(), static_cast<int>(texts.size()), &png_error);
  if (!ok) message = std::string("libpng: ") + png_error.message;
  // a full disk may only show when the buffered data is flushed
  if (std::fclose(file.release()) != 0 && ok) {
    message = std::string("cannot finish writing: ") + std::strerror(errno);
    ok = false;
  }
  if (!ok) std::remove(path.c_str());
  return ok;
}


bool ReadPng(const std::string& path, PngImage* image, std::string* error,
             std::map<std::string, std::string>* text, PngFormat* format, int max_side) {
  std::string ignored;
  std::string& message = error != nullptr ? *error : ignored;

  FilePtr file(std::fopen(path.c_str(), "rb"));
  if (file == nullptr) {
    message = std::string("cannot open: ") + std::strerror(errno);
    return false;
  }
  // signature first, for a clear message on non-PNG files
  png_byte signature[8] = {};
  if (std::fread(signature, 1, sizeof(signature), file.get()) != sizeof(signature) ||
      png_sig_cmp(signature, 0, sizeof(signature)) != 0) {
    message = "not a PNG file";
    return false;
  }

  PngError png_error;
  PngReadHeader header;
  if (!PngReadHeaderStage(file.get(), &header, &png_error)) {
    message = std::string("libpng: ") + png_error.message;
    return false;
  }
  if (format != nullptr) *format = header.format;
  // a side past the caller's limit is refused before the pixels take memory
  if (header.width > static_cast<png_uint_32>(max_side) ||
      header.height > static_cast<png_uint_32>(max_side)) {
    png_destroy_read_struct(&header.png, &header.info, nullptr);
    message = "the image is " + std::to_string(header.width) + "x" + std::to_string(header.height) +
              " pixels, larger than " + std::to_string(max_side) + "x" + std::to_string(max_side);
    return false;
  }
  if (header.row_bytes != static_cast<png_size_t>(header.width) * 4) {
    png_destroy_read_struct(&header.png, &header.info, nullptr);
    message = "unsupported PNG layout (" + std::to_string(header.row_bytes) +
              " bytes per row after conversion to RGBA8)";
    return false;
  }

  // pixels straight into the output image
  PngImage result;
  result.width = static_cast<int>(header.width);
  result.height = static_cast<int>(header.height);
  result.rgba.resize(header.row_bytes * header.height);
  std::vector<png_bytep> rows(header.height);
  for (png_uint_32 y = 0; y < header.height; ++y) {
    rows[y] = result.rgba.data() + y * header.row_bytes;
  }
  if (!PngReadPixelsStage(&header, rows.data())) {
    png_destroy_read_struct(&header.png, &header.info, nullptr);
    message = std::string("libpng: ") + png_error.message;
    return false;
  }

  // text chunks from before and after the image data (the getter never longjmps)
  if (text != nullptr) {
    text->clear();
    png_textp chunks = nullptr;
    int count = 0;
    png_get_text(header.png, header.info, &chunks, &count);
    for (int i = 0; i < count; ++i) {
      (*text)[chunks[i].key] = chunks[i].text != nullptr ? chunks[i].text : "";
    }
  }
  png_destroy_read_struct(&header.png, &header.info, nullptr);
  *image = std::move(result);
  return true;
}

}  // namespace sim::io
