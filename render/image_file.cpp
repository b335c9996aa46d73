#include "render/image_file.h"

#include <csetjmp>
#include <cstdio>
#include <memory>
#include <vector>

// jpeglib.h needs FILE and size_t declared before it
#include <jpeglib.h>

#include "render/png_io.h"

namespace sim::render {

namespace {

// libjpeg reports fatal errors through error_exit, which must not return: jump back out of the
// decoder with the library's message
struct JpegError {
  jpeg_error_mgr manager;
  std::jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
};


void OnJpegError(j_common_ptr info) {
  auto* error = reinterpret_cast<JpegError*>(info->err);
  info->err->format_message(info, error->message);
  std::longjmp(error->jump, 1);
}


struct FileCloser {
  void operator()(std::FILE* file) const { std::fclose(file); }
};

}  // namespace


bool ReadJpeg(const std::string& path, Image* image, std::string* error) {
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
  if (!file) {
    *error = "cannot open the file";
    return false;
  }
  // everything the decoder touches after setjmp lives outside the jump's reach
  jpeg_decompress_struct info{};
  JpegError jpeg_error{};
  std::vector<std::uint8_t> rgb;
  info.err = jpeg_std_error(&jpeg_error.manager);
  jpeg_error.manager.error_exit = OnJpegError;
  if (setjmp(jpeg_error.jump) != 0) {
    jpeg_destroy_decompress(&info);
    *error = std::string("not a readable JPEG: ") + jpeg_error.message;
    return false;
  }
  jpeg_create_decompress(&info);
  jpeg_stdio_src(&info, file.get());
  jpeg_read_header(&info, TRUE);
  info.out_color_space = JCS_RGB;  // the library converts greyscale, YCbCr and CMYK
  jpeg_start_decompress(&info);
  const int width = static_cast<int>(info.output_width);
  const int height = static_cast<int>(info.output_height);
  rgb.resize(static_cast<std::size_t>(width) * height * 3);
  while (info.output_scanline < info.output_height) {
    JSAMPROW row = rgb.data() + static_cast<std::size_t>(info.output_scanline) * width * 3;
    jpeg_read_scanlines(&info, &row, 1);
  }
  jpeg_finish_decompress(&info);
  jpeg_destroy_decompress(&info);

  image->width = width;
  image->height = height;
  image->rgba.resize(static_cast<std::size_t>(width) * height * 4);
  for (std::size_t i = 0, n = static_cast<std::size_t>(width) * height; i < n; ++i) {
    image->rgba[4 * i] = rgb[3 * i];
    image->rgba[4 * i + 1] = rgb[3 * i + 1];
    image->rgba[4 * i + 2] = rgb[3 * i + 2];
    image->rgba[4 * i + 3] = 255;
  }
  return true;
}


bool ReadImageFile(const std::string& path, Image* image, std::string* error) {
  // the signature decides: PNG starts with 0x89 'P' 'N' 'G', JPEG with 0xFF 0xD8 0xFF
  unsigned char magic[4] = {0, 0, 0, 0};
  {
    std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
    if (!file) {
      *error = "cannot open the file";
      return false;
    }
    if (std::fread(magic, 1, sizeof(magic), file.get()) != sizeof(magic)) {
      *error = "file too short to be an image";
      return false;
    }
  }
  if (magic[0] == 0x89 && magic[1] == 'P' && magic[2] == 'N' && magic[3] == 'G') {
    return ReadPng(path, image, error);
  }
  if (magic[0] == 0xFF && magic[1] == 0xD8 && magic[2] == 0xFF) return ReadJpeg(path, image, error);
  *error = "unsupported image format (PNG and JPEG are read)";
  return false;
}

}  // namespace sim::render
