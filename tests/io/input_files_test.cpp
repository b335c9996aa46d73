// Inputs that would crash or hang a loader get located errors instead (issue 24): JSON nested
// 20 000 levels deep (a stack overflow in a recursive parser), a UTF-8 byte-order mark, paths
// that are a device, a pipe, a directory or a file over the input limit (read forever, block
// forever, or exhaust memory), and files a scene names outside the folders it may read.
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engine/io/default_scene.h"
#include "engine/io/file_roots.h"
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


// A scene folder and a folder beside it, with a mesh, a tet mesh and a robot outside the scene's
std::filesystem::path MakeFolders() {
  const std::filesystem::path root = TempPath("roots");
  std::filesystem::remove_all(root);
  std::filesystem::create_directories(root / "scene" / "sub");
  std::filesystem::create_directories(root / "outside");
  const std::string cube =
      "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
      "f 1 4 3\nf 1 3 2\nf 5 6 7\nf 5 7 8\nf 1 2 6\nf 1 6 5\n"
      "f 2 3 7\nf 2 7 6\nf 3 4 8\nf 3 8 7\nf 4 1 5\nf 4 5 8\n";
  std::ofstream(root / "outside" / "cube.obj") << cube;
  std::ofstream(root / "scene" / "sub" / "cube.obj") << cube;
  std::ofstream(root / "outside" / "tet.vtk")
      << "# vtk DataFile Version 2.0\nt\nASCII\nDATASET UNSTRUCTURED_GRID\nPOINTS 4 double\n"
         "0 0 0 1 0 0 0 1 0 0 0 1\nCELLS 1 5\n4 0 1 2 3\nCELL_TYPES 1\n10\n";
  const std::string robot =
      "<robot name=\"bot\">\n<link name=\"base\"><collision><geometry><box size=\"1 1 1\"/>"
      "</geometry></collision></link>\n</robot>\n";
  std::ofstream(root / "outside" / "bot.urdf") << robot;
  std::ofstream(root / "scene" / "bot.urdf") << robot;
  // a robot in the scene's folder whose mesh is outside it, on line 3
  std::ofstream(root / "scene" / "escape.urdf")
      << "<robot name=\"escape\">\n<link name=\"base\"><collision><geometry>\n"
         "<mesh filename=\"../outside/cube.obj\"/></geometry></collision></link>\n</robot>\n";
  std::filesystem::create_symlink(root / "outside" / "cube.obj", root / "scene" / "link.obj");
  return root;
}


// every way out of the scene's folder is refused at its line before a loader reads the file:
// up the tree, an absolute path, a symbolic link, a robot file, a package folder, a robot's mesh
TEST(InputFilesTest, SceneFilesStayInsideTheScenesFolders) {
  const std::filesystem::path root = MakeFolders();
  const std::string outside = (root / "outside").string();
  const std::string scene = (root / "scene" / "scene.json").string();
  std::ofstream(scene)
      << "{\"objects\": [\n"
         "{\"name\": \"up\", \"type\": \"mesh\", \"fixed\": true, \"file\": "
         "\"../outside/cube.obj\"},\n"
         "{\"name\": \"abs\", \"type\": \"mesh\", \"fixed\": true, \"file\": \"" +
             outside +
             "/cube.obj\"},\n"
             "{\"name\": \"link\", \"type\": \"mesh\", \"fixed\": true, \"file\": \"link.obj\"},\n"
             "{\"name\": \"pw\", \"type\": \"mesh\", \"fixed\": true, \"file\": "
             "\"../../../../../../../../etc/passwd\"},\n"
             "{\"name\": \"soft\", \"type\": \"tetmesh\", \"file\": \"../outside/tet.vtk\"},\n"
             "{\"name\": \"bot\", \"type\": \"urdf\", \"file\": \"../outside/bot.urdf\"},\n"
             "{\"name\": \"pkg\", \"type\": \"urdf\", \"file\": \"bot.urdf\", \"package_paths\": "
             "[\"../outside\"]},\n"
             "{\"name\": \"esc\", \"type\": \"urdf\", \"file\": \"escape.urdf\"},\n"
             "{\"name\": \"inner\", \"type\": \"mesh\", \"fixed\": true, \"file\": "
             "\"sub/cube.obj\"}\n"
             "]}\n";
  Expected<Scene> refused = LoadScene(scene);
  ASSERT_FALSE(refused.ok());
  std::vector<int> lines;
  for (const Diagnostic& d : refused.diagnostics().items()) {
    if (d.severity != Severity::kError) continue;
    EXPECT_THAT(d.message, HasSubstr("outside the folders this scene may read"));
    EXPECT_THAT(d.message, HasSubstr("add its folder to CONTACT_STUDIO_FILE_ROOTS"));
    lines.push_back(d.source == scene ? d.line : -d.line);
  }
  // lines 2 to 8 of the scene, and line 3 of the escaping robot (negative: another file)
  std::sort(lines.begin(), lines.end());
  EXPECT_EQ(lines, (std::vector<int>{-3, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_THAT(refused.diagnostics().Format(),
              HasSubstr("scene.json:9: note: in the robot of object 'esc'"));

  // the user allows the folder: through the options, or through the environment
  std::ofstream(scene)
      << "{\"objects\": [\n"
         "{\"name\": \"up\", \"type\": \"mesh\", \"fixed\": true, \"file\": "
         "\"../outside/cube.obj\"},\n"
         "{\"name\": \"link\", \"type\": \"mesh\", \"fixed\": true, \"file\": \"link.obj\"},\n"
         "{\"name\": \"soft\", \"type\": \"tetmesh\", \"file\": \"../outside/tet.vtk\"},\n"
         "{\"name\": \"bot\", \"type\": \"urdf\", \"file\": \"../outside/bot.urdf\"},\n"
         "{\"name\": \"esc\", \"type\": \"urdf\", \"file\": \"escape.urdf\"}\n"
         "]}\n";
  Expected<Scene> allowed = LoadScene(scene, SceneOptions{.file_roots = {outside}});
  EXPECT_TRUE(allowed.ok()) << allowed.diagnostics().Format();
  ASSERT_EQ(setenv(kFileRootsVariable, ("/nowhere:" + outside).c_str(), 1), 0);
  Expected<Scene> from_environment = LoadScene(scene);
  unsetenv(kFileRootsVariable);
  EXPECT_TRUE(from_environment.ok()) << from_environment.diagnostics().Format();
  // a file opened on its own is the user's choice, wherever it is
  EXPECT_TRUE(MakeDefaultSceneFor((root / "outside" / "cube.obj").string()).ok());
  std::filesystem::remove_all(root);
}

}  // namespace
}  // namespace sim::io
