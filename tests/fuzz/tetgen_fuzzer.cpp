// libFuzzer target: the TetGen .node/.ele reader through LoadTetMesh. One input holds both files:
// the .node text, then a line "#ele" (a TetGen comment), then the .ele text; without that line
// the whole input is the .node file and the .ele file is empty. Both are written to the fuzzer's
// temporary folder.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tests/fuzz/tet_mesh_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  constexpr std::string_view kSeparator = "\n#ele\n";
  const std::size_t split = text.find(kSeparator);
  const std::string_view node = text.substr(0, split);
  const std::string_view ele =
      split == std::string_view::npos ? std::string_view() : text.substr(split + kSeparator.size());
  const sim::fuzz::TempDir& dir = sim::fuzz::TempDir::Get();
  dir.Write("fuzz.ele", ele);
  sim::fuzz::LoadTetMeshAndCheck(dir.Write("fuzz.node", node));
  return 0;
}
