// libFuzzer target: the surface mesh loader (LoadMesh, assimp) on OBJ, STL and COLLADA. The input
// is written to the fuzzer's temporary folder with the extension its content suggests, so the
// three importers each get the mutants of their own seeds: ".dae" when it mentions COLLADA, ".stl"
// when it starts with "solid" or has the size of a binary STL (84 + 50 bytes per triangle), else
// ".obj".
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "engine/io/mesh_loader.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

const char* ExtensionFor(std::string_view text) {
  if (text.find("COLLADA") != std::string_view::npos) return ".dae";
  if (text.substr(0, 5) == "solid") return ".stl";
  if (text.size() >= 84) {
    std::uint32_t triangles = 0;
    std::memcpy(&triangles, text.data() + 80, sizeof(triangles));
    if (text.size() == 84 + 50 * std::uint64_t{triangles}) return ".stl";
  }
  return ".obj";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string path =
      sim::fuzz::TempDir::Get().Write(std::string("fuzz") + ExtensionFor(text), text);
  sim::Expected<sim::io::LoadedMesh> mesh = sim::io::LoadMesh(path);
  sim::fuzz::CheckDiagnostics(mesh.ok(), mesh.diagnostics());
  if (!mesh.ok()) return 0;
  const sim::TriangleMesh& triangles = mesh->mesh;
  sim::fuzz::Check(triangles.triangle_count() > 0, "a loaded mesh has a triangle");
  for (const sim::Vec3& v : triangles.vertices) sim::fuzz::Check(v.allFinite(), "finite vertices");
  for (const auto& t : triangles.triangles) {
    for (int i : t) {
      sim::fuzz::Check(i >= 0 && i < triangles.vertex_count(), "triangle indices are in range");
    }
  }
  int covered = 0;
  for (const sim::io::LoadedMesh::Part& part : mesh->parts) {
    sim::fuzz::Check(part.first_triangle == covered, "parts are consecutive runs of triangles");
    covered += part.triangle_count;
  }
  sim::fuzz::Check(covered == triangles.triangle_count(), "parts cover every triangle");
  return 0;
}
