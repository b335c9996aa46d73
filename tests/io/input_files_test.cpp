// Inputs that would crash or hang a loader get located errors instead (issue 24): JSON nested
// 20 000 levels deep (a stack overflow in a recursive parser), a UTF-8 byte-order mark, and paths
// that are a device, a pipe, a directory or a file over the input limit (read forever, block
// forever, or exhaust memory).
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engine/io/json_document.h"
#include "engine/io/mesh_loader.h"
#include "engine/io/scene_file.h"
#include "engine/io/tet_mesh_loader.h"
#include "engine/io/text_file.h"

namespace sim::io {
namespace {

using ::testing::HasSubstr;

std::string TempPath(const std::string& name) {
  return ::testing::TempDir() + "/input_files_test_" + name;
}


TEST(InputFilesTest, DeepNestingIsALocatedErrorNotACrash) {
  // 20 000 levels on line 3, under a key a scene reader would not even look at
  std::string text = "{\n\"unknown\":\n";
  text += std::string(20000, '[') + std::string(20000, ']') + "\n}";
  Expected<JsonValue> json = ParseJson(text, "deep.json");
  ASSERT_FALSE(json.ok());
  const Diagnostic& error = json.diagnostics().items().front();
  EXPECT_EQ(error.line, 3);
  EXPECT_THAT(error.message, HasSubstr("nested deeper than 256 levels"));
  // the deepest nesting allowed still parses
  const std::string deepest = std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']');
  EXPECT_TRUE(ParseJson(deepest, "deepest.json").ok());
}


TEST(InputFilesTest, AByteOrderMarkIsNotPartOfTheJson) {
  Expected<JsonValue> json = ParseJson("\xEF\xBB\xBF{\"a\": 1}", "bom.json");
  ASSERT_TRUE(json.ok()) << json.diagnostics().Format();
  EXPECT_EQ(json.value().Find("a")->number(), 1);
}


TEST(InputFilesTest, DevicesPipesAndDirectoriesAreRefusedBeforeReading) {
  const std::string fifo = TempPath("fifo.json");
  std::filesystem::remove(fifo);
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& path : {std::string("/dev/zero"), fifo, ::testing::TempDir()}) {
    SCOPED_TRACE(path);
    // each would block or read without end; the check answers at once
    Expected<Scene> scene = LoadScene(path);
    ASSERT_FALSE(scene.ok());
    EXPECT_THAT(scene.diagnostics().Format(), HasSubstr(path + ": error: is not a regular file"));
    EXPECT_FALSE(LoadMesh(path, Vec3::Ones()).ok());
    EXPECT_FALSE(LoadTetMesh(path).ok());
  }
  std::filesystem::remove(fifo);
}


TEST(InputFilesTest, AFileOverTheInputLimitIsRefusedWithTheOverride) {
  const std::string big = TempPath("big.json");
  {
    std::ofstream file(big);
    file << "{\"pad\": \"" << std::string(3 * 1024 * 1024, 'x') << "\"}";
  }
  ASSERT_EQ(setenv("CONTACT_STUDIO_MAX_INPUT_MB", "2", 1), 0);
  Expected<Scene> scene = LoadScene(big);
  unsetenv("CONTACT_STUDIO_MAX_INPUT_MB");
  ASSERT_FALSE(scene.ok());
  EXPECT_THAT(scene.diagnostics().Format(),
              HasSubstr("scene file of 3 MiB is over the input limit of 2 MiB (set "
                        "CONTACT_STUDIO_MAX_INPUT_MB to raise it)"));
  EXPECT_EQ(MaxInputBytes(), kDefaultMaxInputBytes);
  std::filesystem::remove(big);
}

}  // namespace
}  // namespace sim::io
