// VisualMesh: a render-only triangle mesh (URDF <visual> meshes, scene meshes, the surfaces of
// convex hulls and grid/analytic SDF shapes), in float and laid out for upload. Immutable once
// built and shared between models and render snapshots (std::shared_ptr<const VisualMesh>), so a
// renderer can upload each one once and key its cache on the pointer.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace sim {

struct VisualMesh {
  /// A run of indices drawn with one material of the source file.
  struct Part {
    std::uint32_t first_index = 0;                          ///< into `indices`
    std::uint32_t index_count = 0;                          ///< a multiple of 3
    std::array<float, 4> color = {0.7f, 0.7f, 0.7f, 1.0f};  ///< diffuse, linear RGBA [0, 1]
    std::string texture;  ///< absolute path of the diffuse texture (PNG/JPEG), or empty
  };

  std::string name;                             ///< source file or generator, for messages
  std::vector<std::array<float, 3>> positions;  ///< [m], in the visual's frame
  std::vector<std::array<float, 3>> normals;    ///< unit, one per position
  /// one per position, or empty; v runs up from the image's bottom row (the OpenGL/assimp
  /// convention: the renderer samples the image at (u, 1 − v))
  std::vector<std::array<float, 2>> uvs;
  std::vector<std::uint32_t> indices;  ///< triangles, counter-clockwise from outside
  std::vector<Part> parts;             ///< covers `indices`; at least one part

  int vertex_count() const { return static_cast<int>(positions.size()); }
  int triangle_count() const { return static_cast<int>(indices.size() / 3); }
};

}  // namespace sim
