// Scene files whose load takes seconds, for the tests of load progress and cancel: a closed cube
// whose grid SDF has many cells a side. Filling a 256³ grid takes about 13 s on a 2-core machine
// (the scene reader accepts up to 512), and the fill checks for a cancel every slab.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

namespace sim::test_support {

/// SDF resolution of a slow load: seconds to fill, far longer than any cancel.
inline constexpr int kSlowSdfResolution = 256;

/// A closed unit cube as `dir`/cube.obj, faces counter-clockwise seen from outside.
inline std::filesystem::path WriteUnitCube(const std::filesystem::path& dir) {
  const std::filesystem::path path = dir / "cube.obj";
  std::ofstream(path) << "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
                         "f 1 4 3\nf 1 3 2\nf 5 6 7\nf 5 7 8\nf 1 2 6\nf 1 6 5\n"
                         "f 2 3 7\nf 2 7 6\nf 3 4 8\nf 3 8 7\nf 4 1 5\nf 4 5 8\n";
  return path;
}

/// The scene `dir`/`name`: a ground plane and the unit cube (WriteUnitCube) as an SDF-backed
/// mesh of `sdf_resolution` cells a side.
inline std::filesystem::path WriteCubeScene(const std::filesystem::path& dir,
                                            const std::string& name,
                                            int sdf_resolution = kSlowSdfResolution) {
  WriteUnitCube(dir);
  const std::filesystem::path path = dir / name;
  std::ofstream(path) << R"({"name": "slow", "objects": [
    {"name": "ground", "type": "plane"},
    {"name": "cube", "type": "mesh", "file": "cube.obj", "position": [0, 0, 1],
     "sdf_resolution": )"
                      << sdf_resolution << "}]}";
  return path;
}

}  // namespace sim::test_support
