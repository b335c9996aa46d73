// PNG I/O: RGBA8 round trip with tEXt chunks, expansion of every other PNG flavour (grey, 16-bit,
// palette, RGB without alpha) to RGBA8, and clean errors for missing, foreign and truncated files.
// Fixtures in other flavours are written with libpng's simplified API.
#include <png.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "render/png_io.h"

namespace sim::render {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string TempPath(const std::string& name) {
  return ::testing::TempDir() + "/png_io_test_" + name;
}


// a small RGBA gradient with varying alpha, so every channel of every pixel is distinct
Image MakeGradient(int width, int height) {
  Image image;
  image.width = width;
  image.height = height;
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      image.rgba.push_back(static_cast<std::uint8_t>(x * 255 / (width - 1)));
      image.rgba.push_back(static_cast<std::uint8_t>(y * 255 / (height - 1)));
      image.rgba.push_back(static_cast<std::uint8_t>((x + y) % 256));
      image.rgba.push_back(static_cast<std::uint8_t>(255 - x));
    }
  }
  return image;
}


// writes `pixels` in `format` (PNG_FORMAT_*) with libpng's simplified API
void WriteFixture(const std::string& path, png_uint_32 format, int width, int height,
                  const void* pixels, const void* colormap = nullptr, int colormap_entries = 0) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  image.format = format;
  image.width = static_cast<png_uint_32>(width);
  image.height = static_cast<png_uint_32>(height);
  image.colormap_entries = static_cast<png_uint_32>(colormap_entries);
  ASSERT_TRUE(png_image_write_to_file(&image, path.c_str(), 0, pixels, 0, colormap))
      << image.message;
}


// bit depth and colour type from the IHDR chunk, to prove what a fixture really is
std::pair<int, int> HeaderDepthAndType(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(file)), {});
  return bytes.size() > 25 ? std::pair<int, int>{bytes[24], bytes[25]}
                           : std::pair<int, int>{-1, -1};
}


std::array<int, 4> Pixel(const Image& image, int x, int y) {
  const std::size_t i = (static_cast<std::size_t>(y) * image.width + x) * 4;
  return {image.rgba[i], image.rgba[i + 1], image.rgba[i + 2], image.rgba[i + 3]};
}


TEST(PngIo, RoundTripKeepsPixelsAndTextChunks) {
  const std::string path = TempPath("round_trip.png");
  const Image written = MakeGradient(37, 21);
  const std::map<std::string, std::string> text = {{"Software", "contact-sim render"},
                                                   {"Scene", "scenes/default.json"}};
  std::string error;
  ASSERT_TRUE(WritePng(path, written, &error, text)) << error;
  EXPECT_EQ(HeaderDepthAndType(path), (std::pair<int, int>{8, PNG_COLOR_TYPE_RGBA}));

  Image read;
  std::map<std::string, std::string> read_text;
  ASSERT_TRUE(ReadPng(path, &read, &error, &read_text)) << error;
  EXPECT_EQ(read.width, written.width);
  EXPECT_EQ(read.height, written.height);
  EXPECT_EQ(read.rgba, written.rgba);
  EXPECT_EQ(read_text, text);
  std::remove(path.c_str());
}


TEST(PngIo, GreyWithoutAlphaExpandsToOpaqueRgba) {
  const std::string path = TempPath("grey.png");
  const std::vector<std::uint8_t> grey = {0, 100, 200, 255};
  WriteFixture(path, PNG_FORMAT_GRAY, 2, 2, grey.data());
  EXPECT_EQ(HeaderDepthAndType(path), (std::pair<int, int>{8, PNG_COLOR_TYPE_GRAY}));
  Image image;
  std::string error;
  ASSERT_TRUE(ReadPng(path, &image, &error)) << error;
  EXPECT_EQ(Pixel(image, 1, 0), (std::array<int, 4>{100, 100, 100, 255}));
  EXPECT_EQ(Pixel(image, 0, 1), (std::array<int, 4>{200, 200, 200, 255}));
  std::remove(path.c_str());
}


TEST(PngIo, SixteenBitScalesToEightBit) {
  const std::string path = TempPath("grey16.png");
  const std::vector<std::uint16_t> grey = {0, 0x8080, 0xFFFF};
  WriteFixture(path, PNG_FORMAT_LINEAR_Y, 3, 1, grey.data());
  EXPECT_EQ(HeaderDepthAndType(path).first, 16);
  Image image;
  std::string error;
  ASSERT_TRUE(ReadPng(path, &image, &error)) << error;
  EXPECT_EQ(Pixel(image, 0, 0), (std::array<int, 4>{0, 0, 0, 255}));
  EXPECT_EQ(Pixel(image, 1, 0), (std::array<int, 4>{128, 128, 128, 255}));
  EXPECT_EQ(Pixel(image, 2, 0), (std::array<int, 4>{255, 255, 255, 255}));
  std::remove(path.c_str());
}


TEST(PngIo, PaletteExpandsToRgba) {
  const std::string path = TempPath("palette.png");
  const std::vector<std::uint8_t> colormap = {255, 0, 0, 0, 128, 255, 10, 20, 30};
  const std::vector<std::uint8_t> indices = {0, 1, 2, 1};
  WriteFixture(path, PNG_FORMAT_RGB_COLORMAP, 4, 1, indices.data(), colormap.data(), 3);
  EXPECT_EQ(HeaderDepthAndType(path).second, PNG_COLOR_TYPE_PALETTE);
  Image image;
  std::string error;
  ASSERT_TRUE(ReadPng(path, &image, &error)) << error;
  ASSERT_EQ(image.width, 4);
  EXPECT_EQ(Pixel(image, 0, 0), (std::array<int, 4>{255, 0, 0, 255}));
  EXPECT_EQ(Pixel(image, 1, 0), (std::array<int, 4>{0, 128, 255, 255}));
  EXPECT_EQ(Pixel(image, 2, 0), (std::array<int, 4>{10, 20, 30, 255}));
  std::remove(path.c_str());
}


TEST(PngIo, RgbWithoutAlphaGetsOpaqueAlpha) {
  const std::string path = TempPath("rgb.png");
  const std::vector<std::uint8_t> rgb = {1, 2, 3, 250, 251, 252};
  WriteFixture(path, PNG_FORMAT_RGB, 2, 1, rgb.data());
  EXPECT_EQ(HeaderDepthAndType(path), (std::pair<int, int>{8, PNG_COLOR_TYPE_RGB}));
  Image image;
  std::string error;
  ASSERT_TRUE(ReadPng(path, &image, &error)) << error;
  EXPECT_EQ(Pixel(image, 0, 0), (std::array<int, 4>{1, 2, 3, 255}));
  EXPECT_EQ(Pixel(image, 1, 0), (std::array<int, 4>{250, 251, 252, 255}));
  std::remove(path.c_str());
}


TEST(PngIo, ReadErrorsAreMessagesNotCrashes) {
  Image image;
  std::string error;
  EXPECT_FALSE(ReadPng(TempPath("does_not_exist.png"), &image, &error));
  EXPECT_THAT(error, HasSubstr("cannot open"));

  const std::string text_file = TempPath("not_a_png.png");
  std::ofstream(text_file) << "hello, this is text";
  EXPECT_FALSE(ReadPng(text_file, &image, &error));
  EXPECT_EQ(error, "not a PNG file");
  std::remove(text_file.c_str());

  // a valid PNG cut in half: libpng's error comes back as a message
  const std::string full = TempPath("full.png");
  ASSERT_TRUE(WritePng(full, MakeGradient(64, 64), &error));
  std::ifstream in(full, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), {});
  const std::string truncated = TempPath("truncated.png");
  std::ofstream(truncated, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  EXPECT_FALSE(ReadPng(truncated, &image, &error));
  EXPECT_THAT(error, StartsWith("libpng: "));
  EXPECT_FALSE(ReadPng(truncated, &image, nullptr)) << "no error string is needed";
  std::remove(full.c_str());
  std::remove(truncated.c_str());
}


TEST(PngIo, WriteErrorsAreMessages) {
  std::string error;
  EXPECT_FALSE(WritePng("/nonexistent_dir/x.png", MakeGradient(4, 4), &error));
  EXPECT_THAT(error, HasSubstr("cannot open for writing"));

  Image inconsistent = MakeGradient(4, 4);
  inconsistent.rgba.pop_back();
  EXPECT_FALSE(WritePng(TempPath("bad.png"), inconsistent, &error));
  EXPECT_THAT(error, HasSubstr("expected 64"));

  EXPECT_FALSE(WritePng(TempPath("bad.png"), Image{}, &error));
  EXPECT_THAT(error, HasSubstr("0x0"));

  EXPECT_FALSE(WritePng(TempPath("bad.png"), MakeGradient(4, 4), &error, {{" padded", "x"}}));
  EXPECT_THAT(error, HasSubstr("keyword"));
}

}  // namespace
}  // namespace sim::render
