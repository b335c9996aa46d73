// libFuzzer target: the Gmsh .msh reader (2.2 and 4.1 ASCII) through LoadTetMesh, the input
// written to a .msh file in the fuzzer's temporary folder.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tests/fuzz/tet_mesh_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  sim::fuzz::LoadTetMeshAndCheck(sim::fuzz::TempDir::Get().Write("fuzz.msh", text));
  return 0;
}
