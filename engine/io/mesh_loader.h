// Surface meshes from files through assimp (STL binary/ASCII, COLLADA, OBJ with MTL, OFF, PLY,
// ...), for collision shapes and visuals. The result is one TriangleMesh in the file's own frame
// with Z up: COLLADA's <up_axis> and <unit> are honoured (a Y_UP file is turned to Z up, a file
// in millimetres is scaled to metres), other formats are taken as authored (ROS meshes are in the
// link frame, metres).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "engine/core/diagnostics.h"
#include "engine/core/math.h"
#include "engine/geometry/triangle_mesh.h"

namespace sim::io {

struct LoadedMesh {
  /// A run of triangles sharing one material of the file.
  struct Part {
    int first_triangle = 0;
    int triangle_count = 0;
    std::array<float, 3> color = {0.7f, 0.7f, 0.7f};  ///< diffuse, linear RGB [0, 1]
    bool has_color = false;                           ///< the file gave a diffuse colour
    std::string texture;  ///< diffuse texture path (resolved next to the mesh), or empty
  };

  /// All sub-meshes merged, node transforms applied [m]. Vertices are not welded (files often
  /// store one per triangle corner): use WeldVertices for connectivity.
  TriangleMesh mesh;
  std::vector<Part> parts;
};

/// Loads `path` scaled by `scale` (per axis, as URDF's <mesh scale>). Errors name the file: a
/// missing or unreadable file, a file without triangles, non-finite vertices.
Expected<LoadedMesh> LoadMesh(const std::string& path, const Vec3& scale = Vec3::Ones());

}  // namespace sim::io
