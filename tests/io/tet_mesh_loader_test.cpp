// Tet mesh loader and geometry: every shared tet mesh (Gmsh 4.1 and 2.2, TetGen, legacy VTK)
// loads with the counts its header declares, positive tets and a closed, outward boundary; the
// boundary extraction and validation on hand-made meshes; every broken-file diagnostic at its
// exact line; truncated input never crashes.
#include "engine/io/tet_mesh_loader.h"

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engine/geometry/tet_mesh.h"
#include "tests/support/run_command.h"
#include "tests/support/shared_data.h"

namespace sim::io {
namespace {

using ::testing::HasSubstr;

const std::string kTetData = test_support::SharedDataDir() + "/tetmesh/";
const std::string kData = std::string(SIM_SOURCE_DIR) + "/tests/data/";

bool HaveTetData() { return std::filesystem::is_regular_file(kTetData + "sphere1K.msh"); }

#define REQUIRE_TET_DATA()                                                    \
  if (!HaveTetData()) {                                                       \
    SIM_SKIP_OR_FAIL_IN_CI("tet mesh test data not found at " + kTetData +    \
                           " (shared/data/tetmesh next to the source tree)"); \
  }

// Relative tolerance of the divergence-theorem volume against the sum of tet volumes: both are
// sums of ~1e4 terms of double round-off (1e-16 each), so 1e-9 leaves a wide margin.
constexpr double kVolumeRelTol = 1e-9;


// ---------------------------------------------------------------------------------------------
// an independent count from the file header, to tie the expected counts to the files themselves

std::vector<std::string> ReadLines(const std::string& path) {
  std::ifstream file(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(file, line);) lines.push_back(line);
  return lines;
}

std::vector<long long> Numbers(const std::string& line) {
  std::istringstream in(line);
  std::vector<long long> out;
  for (long long v; in >> v;) out.push_back(v);
  return out;
}

// {nodes, tets} declared in the header(s): Gmsh "$Nodes" next line (4.1: second number, 2.2: the
// only one) and, for tets, the "$Elements" header (these files hold tets only); TetGen first
// line of .node/.ele; VTK "POINTS n" and "CELLS n" (all cells are tets, CELL_TYPES all 10)
std::pair<long long, long long> HeaderCounts(const std::string& file) {
  const std::string path = kTetData + file;
  const std::string ext = std::filesystem::path(file).extension().string();
  if (ext == ".msh") {
    const std::vector<std::string> lines = ReadLines(path);
    long long nodes = -1, tets = -1;
    for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
      const std::vector<long long> next = Numbers(lines[i + 1]);
      if (next.empty()) continue;
      const long long count = next.size() >= 4 ? next[1] : next[0];
      if (lines[i].rfind("$Nodes", 0) == 0) nodes = count;
      if (lines[i].rfind("$Elements", 0) == 0) tets = count;
    }
    return {nodes, tets};
  }
  if (ext == ".vtk") {
    long long nodes = -1, tets = -1;
    for (const std::string& line : ReadLines(path)) {
      if (line.rfind("POINTS ", 0) == 0) nodes = std::stoll(line.substr(7));
      if (line.rfind("CELLS ", 0) == 0) tets = std::stoll(line.substr(6));
    }
    return {nodes, tets};
  }
  const std::string stem = path.substr(0, path.size() - ext.size());
  return {Numbers(ReadLines(stem + ".node")[0])[0], Numbers(ReadLines(stem + ".ele")[0])[0]};
}


// ---------------------------------------------------------------------------------------------
// every shared mesh

struct SharedMesh {
  const char* file;
  // node, tet and boundary-face counts of shared/data/tetmesh/README.md; checked by hand with
  // `head -1 *.node *.ele`, `sed -n 5p *.msh` (the $Nodes header), `grep -A1 '^\$Elements'` and
  // `grep 'POINTS\|CELLS' *.vtk`, and again in the test through HeaderCounts()
  int nodes;
  int tets;
  int boundary_triangles;
};

std::string MeshName(const ::testing::TestParamInfo<SharedMesh>& info) {
  std::string name = info.param.file;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

class SharedTetMeshTest : public ::testing::TestWithParam<SharedMesh> {};

INSTANTIATE_TEST_SUITE_P(TetMeshes, SharedTetMeshTest,
                         ::testing::Values(SharedMesh{"sphere1K.msh", 1760, 6851, 2474},
                                           SharedMesh{"sphere1K.v22.msh", 1760, 6851, 2474},
                                           SharedMesh{"bar-2523.msh", 886, 2523, 1618},
                                           SharedMesh{"bunny.msh", 4670, 19379, 6266},
                                           SharedMesh{"armadillo_4k.node", 1180, 3717, 2102},
                                           SharedMesh{"armadillo_4k.ele", 1180, 3717, 2102},
                                           SharedMesh{"bunny_10k.1.node", 8273, 36076, 10000},
                                           SharedMesh{"bunny_10k.1.vtk", 8273, 36076, 10000}),
                         MeshName);


TEST_P(SharedTetMeshTest, LoadsWithHeaderCountsAndNoDiagnostics) {
  REQUIRE_TET_DATA();
  const SharedMesh& param = GetParam();
  Expected<TetMesh> mesh = LoadTetMesh(kTetData + param.file);
  ASSERT_TRUE(mesh.ok()) << mesh.diagnostics().Format();
  // the README says: no unreferenced nodes, closed boundaries, so not even a warning
  EXPECT_TRUE(mesh.diagnostics().empty()) << mesh.diagnostics().Format();
  const auto [header_nodes, header_tets] = HeaderCounts(param.file);
  EXPECT_EQ(mesh->node_count(), header_nodes);
  EXPECT_EQ(mesh->tet_count(), header_tets);
  EXPECT_EQ(mesh->node_count(), param.nodes);
  EXPECT_EQ(mesh->tet_count(), param.tets);
}


TEST_P(SharedTetMeshTest, TetsArePositive) {
  REQUIRE_TET_DATA();
  Expected<TetMesh> mesh = LoadTetMesh(kTetData + GetParam().file);
  ASSERT_TRUE(mesh.ok()) << mesh.diagnostics().Format();
  for (int t = 0; t < mesh->tet_count(); ++t) {
    ASSERT_GT(TetSignedVolume(mesh.value(), t), 0) << "tet " << t;
  }
}


TEST_P(SharedTetMeshTest, BoundaryIsClosedAndOutward) {
  REQUIRE_TET_DATA();
  Expected<TetMesh> mesh = LoadTetMesh(kTetData + GetParam().file);
  ASSERT_TRUE(mesh.ok()) << mesh.diagnostics().Format();
  const TetSurface surface = ExtractBoundary(mesh.value());
  EXPECT_EQ(surface.triangle_count(), GetParam().boundary_triangles);
  ASSERT_EQ(surface.triangle_tet.size(), surface.triangles.size());

  // closed and consistently oriented: every directed edge once, its reverse once
  std::map<std::pair<int, int>, int> directed;
  for (const auto& tri : surface.triangles) {
    for (int i = 0; i < 3; ++i) ++directed[{tri[i], tri[(i + 1) % 3]}];
  }
  for (const auto& [edge, count] : directed) {
    ASSERT_EQ(count, 1) << "edge " << edge.first << "-" << edge.second;
    ASSERT_EQ(directed.count({edge.second, edge.first}), 1u)
        << "edge " << edge.first << "-" << edge.second << " is on one triangle only";
  }

  // each triangle is a face of its tet, and the surface nodes are the triangles' nodes
  std::set<int> nodes;
  for (int i = 0; i < surface.triangle_count(); ++i) {
    const auto& tet = mesh->tets[surface.triangle_tet[i]];
    for (int v : surface.triangles[i]) {
      EXPECT_NE(std::find(tet.begin(), tet.end(), v), tet.end());
      nodes.insert(v);
    }
  }
  EXPECT_EQ(std::vector<int>(nodes.begin(), nodes.end()), surface.surface_nodes);

  // outward: divergence theorem, V = Σ (p0 · (p1 × p2)) / 6 over CCW-from-outside triangles
  double surface_volume = 0;
  for (const auto& tri : surface.triangles) {
    surface_volume += mesh->nodes[tri[0]].dot(mesh->nodes[tri[1]].cross(mesh->nodes[tri[2]])) / 6;
  }
  double tet_volume = 0;
  for (int t = 0; t < mesh->tet_count(); ++t) tet_volume += TetSignedVolume(mesh.value(), t);
  EXPECT_NEAR(surface_volume, tet_volume, kVolumeRelTol * tet_volume);
}


// Euler characteristic V − E + F of the boundary: 2 for a closed genus-0 surface (the ball, and
// the box-shaped bar)
TEST(TetMeshSurfaceTest, SphereAndBarBoundariesHaveEulerCharacteristicTwo) {
  REQUIRE_TET_DATA();
  for (const char* file : {"sphere1K.msh", "bar-2523.msh"}) {
    Expected<TetMesh> mesh = LoadTetMesh(kTetData + file);
    ASSERT_TRUE(mesh.ok()) << mesh.diagnostics().Format();
    const TetSurface surface = ExtractBoundary(mesh.value());
    std::set<std::pair<int, int>> edges;
    for (const auto& tri : surface.triangles) {
      for (int i = 0; i < 3; ++i) {
        edges.insert({std::min(tri[i], tri[(i + 1) % 3]), std::max(tri[i], tri[(i + 1) % 3])});
      }
    }
    const long long v = static_cast<long long>(surface.surface_nodes.size());
    const long long e = static_cast<long long>(edges.size());
    const long long f = surface.triangle_count();
    EXPECT_EQ(v - e + f, 2) << file << ": V=" << v << " E=" << e << " F=" << f;
    EXPECT_EQ(2 * e, 3 * f) << file;
  }
}


TEST(TetMeshFormatsTest, GmshV41AndV22GiveIdenticalMeshes) {
  REQUIRE_TET_DATA();
  Expected<TetMesh> v41 = LoadTetMesh(kTetData + "sphere1K.msh");
  Expected<TetMesh> v22 = LoadTetMesh(kTetData + "sphere1K.v22.msh");
  ASSERT_TRUE(v41.ok()) << v41.diagnostics().Format();
  ASSERT_TRUE(v22.ok()) << v22.diagnostics().Format();
  // node coordinates are printed differently (%e vs %.16g) but parse to the same doubles
  EXPECT_EQ(v41->tets, v22->tets);
  ASSERT_EQ(v41->nodes.size(), v22->nodes.size());
  for (std::size_t i = 0; i < v41->nodes.size(); ++i) {
    ASSERT_EQ(v41->nodes[i], v22->nodes[i]) << "node " << i;
  }
}


TEST(TetMeshFormatsTest, TetGenAndVtkGiveIdenticalMeshes) {
  REQUIRE_TET_DATA();
  Expected<TetMesh> tetgen = LoadTetMesh(kTetData + "bunny_10k.1.ele");
  Expected<TetMesh> vtk = LoadTetMesh(kTetData + "bunny_10k.1.vtk");
  ASSERT_TRUE(tetgen.ok()) << tetgen.diagnostics().Format();
  ASSERT_TRUE(vtk.ok()) << vtk.diagnostics().Format();
  EXPECT_EQ(tetgen->name, "bunny_10k.1");
  EXPECT_EQ(tetgen->tets, vtk->tets);
  EXPECT_EQ(tetgen->nodes, vtk->nodes);
}


TEST(TetMeshFormatsTest, ScaleMultipliesNodes) {
  REQUIRE_TET_DATA();
  Expected<TetMesh> unit = LoadTetMesh(kTetData + "bar-2523.msh");
  Expected<TetMesh> mm = LoadTetMesh(kTetData + "bar-2523.msh", 1e-3);
  ASSERT_TRUE(unit.ok() && mm.ok());
  EXPECT_EQ(mm->nodes[5], unit->nodes[5] * 1e-3);
  Expected<TetMesh> bad = LoadTetMesh(kTetData + "bar-2523.msh", -1);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.diagnostics().Format(), HasSubstr("invalid scale"));
}


TEST(TetMeshFormatsTest, GmshEntityBlocksSparseTagsAndOtherElements) {
  // two node blocks with tags 3, 100, 7 | 500, 42; $PhysicalNames and $Entities skipped; a
  // triangle block and a point block ignored; tets refer to tags, nodes keep the file order
  Expected<TetMesh> mesh = LoadTetMesh(kData + "tet_blocks.msh");
  ASSERT_TRUE(mesh.ok()) << mesh.diagnostics().Format();
  EXPECT_TRUE(mesh.diagnostics().empty()) << mesh.diagnostics().Format();
  EXPECT_EQ(mesh->name, "tet_blocks");
  ASSERT_EQ(mesh->node_count(), 5);
  EXPECT_EQ(mesh->nodes[3], Vec3(0, 0, 1));
  EXPECT_EQ(mesh->tets, (std::vector<std::array<int, 4>>{{0, 1, 2, 3}, {1, 2, 3, 4}}));
}


TEST(TetMeshFormatsTest, VtkKeepsOnlyTetCells) {
  const std::filesystem::path dir = std::filesystem::path(SIM_BINARY_DIR) / "tests";
  const std::string path = (dir / "tet_mixed_cells.vtk").string();
  // a triangle (type 5) and a tet (type 10); points wrap lines; POINT_DATA is not read
  std::ofstream(path) << "# vtk DataFile Version 3.0\n\nASCII\nDATASET UNSTRUCTURED_GRID\n"
                         "POINTS 4 float\n0 0 0 1 0\n0 0 1 0 0 0 1\nCELLS 2 9\n3 0 1 2\n"
                         "4 0 1 2 3\nCELL_TYPES 2\n5 10\nPOINT_DATA 4\nSCALARS t float\n";
  Expected<TetMesh> mesh = LoadTetMesh(path);
  ASSERT_TRUE(mesh.ok()) << mesh.diagnostics().Format();
  EXPECT_EQ(mesh->node_count(), 4);
  EXPECT_EQ(mesh->tets, (std::vector<std::array<int, 4>>{{0, 1, 2, 3}}));
}


// every prefix of a real file is either a valid mesh or located errors, never a crash
TEST(TetMeshFormatsTest, TruncatedFilesNeverCrash) {
  REQUIRE_TET_DATA();
  const std::filesystem::path dir =
      std::filesystem::path(SIM_BINARY_DIR) / "tests" / "tet_mesh_truncated";
  std::filesystem::create_directories(dir);
  for (const char* file : {"sphere1K.msh", "sphere1K.v22.msh", "bunny_10k.1.vtk"}) {
    std::ifstream in(kTetData + file, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string ext = std::filesystem::path(file).extension().string();
    // 97 cut points spread over the file, plus cuts inside the first lines
    std::vector<std::size_t> cuts = {0, 1, 5, 12, 20, 30, 40, 50, 60};
    for (int k = 1; k < 97; ++k) cuts.push_back(text.size() * k / 97);
    for (std::size_t cut : cuts) {
      const std::string path = (dir / ("cut" + ext)).string();
      std::ofstream(path, std::ios::binary) << text.substr(0, cut);
      Expected<TetMesh> mesh = LoadTetMesh(path);
      ASSERT_FALSE(mesh.ok()) << file << " cut at " << cut;
      for (const Diagnostic& d : mesh.diagnostics().items()) {
        EXPECT_EQ(d.source, path);
      }
    }
  }
}


// ---------------------------------------------------------------------------------------------
// geometry on hand-made meshes

TetMesh UnitTet() {
  TetMesh mesh;
  mesh.name = "unit";
  mesh.nodes = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)};
  mesh.tets = {{0, 1, 2, 3}};
  return mesh;
}


TEST(TetMeshGeometryTest, UnitTetVolumeAndOutwardFaces) {
  const TetMesh mesh = UnitTet();
  EXPECT_DOUBLE_EQ(TetSignedVolume(mesh, 0), 1.0 / 6);
  const TetSurface surface = ExtractBoundary(mesh);
  ASSERT_EQ(surface.triangle_count(), 4);
  const Vec3 centroid = Vec3(0.25, 0.25, 0.25);
  for (const auto& tri : surface.triangles) {
    const Vec3 &a = mesh.nodes[tri[0]], &b = mesh.nodes[tri[1]], &c = mesh.nodes[tri[2]];
    // the normal points away from the tet's centroid
    EXPECT_GT((b - a).cross(c - a).dot(a - centroid), 0);
  }
  EXPECT_EQ(surface.surface_nodes, (std::vector<int>{0, 1, 2, 3}));
}


TEST(TetMeshGeometryTest, SharedFaceIsInterior) {
  TetMesh mesh = UnitTet();
  mesh.nodes.push_back(Vec3(1, 1, 1));
  mesh.tets.push_back({1, 2, 3, 4});  // on the other side of face (1, 2, 3)
  ASSERT_GT(TetSignedVolume(mesh, 1), 0);
  const TetSurface surface = ExtractBoundary(mesh);
  EXPECT_EQ(surface.triangle_count(), 6);
  EXPECT_EQ(surface.triangle_tet, (std::vector<int>{0, 0, 0, 1, 1, 1}));
  Diagnostics diagnostics;
  EXPECT_TRUE(ValidateTetMesh(mesh, "two.msh", &diagnostics));
  EXPECT_TRUE(diagnostics.empty()) << diagnostics.Format();
}


TEST(TetMeshGeometryTest, ValidationErrorsNameTheMeshAndTet) {
  TetMesh mesh = UnitTet();
  mesh.nodes.push_back(Vec3(2, 2, 2));      // node 4: unused
  mesh.tets.push_back({0, 1, 2, 7});        // tet 1: out of range
  mesh.tets.push_back({0, 1, 1, 3});        // tet 2: repeated node
  mesh.tets.push_back({0, 2, 1, 3});        // tet 3: inverted
  mesh.nodes.push_back(Vec3(0.5, 0.5, 0));  // node 5
  mesh.tets.push_back({0, 1, 2, 5});        // tet 4: flat
  Diagnostics diagnostics;
  EXPECT_FALSE(ValidateTetMesh(mesh, "m.msh", &diagnostics));
  EXPECT_EQ(diagnostics.Format(),
            "m.msh: error: tet mesh 'unit': tet 1 references node 7, but the mesh has 6 nodes "
            "(expected 0..5)\n"
            "m.msh: error: tet mesh 'unit': tet 2 uses node 1 more than once (0 1 1 3)\n"
            "m.msh: error: tet mesh 'unit': tet 3 is inverted (signed volume -0.166667, expected "
            "> 0: det[v1-v0, v2-v0, v3-v0] must be positive)\n"
            "m.msh: error: tet mesh 'unit': tet 4 is degenerate (signed volume 0, longest edge "
            "1.41421; expected a volume > 0)\n");
}


TEST(TetMeshGeometryTest, WarningsForUnusedNodesAndNonManifoldFaces) {
  TetMesh mesh = UnitTet();
  // two more tets on the far side of face (1, 2, 3): three tets share it
  mesh.nodes.push_back(Vec3(1, 1, 1));
  mesh.nodes.push_back(Vec3(2, 1, 1));
  mesh.nodes.push_back(Vec3(5, 5, 5));  // node 6: unused
  mesh.tets.push_back({1, 2, 3, 4});
  mesh.tets.push_back({1, 2, 3, 5});
  Diagnostics diagnostics;
  EXPECT_TRUE(ValidateTetMesh(mesh, "m.msh", &diagnostics));
  EXPECT_EQ(diagnostics.error_count(), 0);
  EXPECT_THAT(diagnostics.Format(),
              HasSubstr("m.msh: warning: tet mesh 'unit': 1 node(s) are used by no tet (the first "
                        "is node 6)\n"));
  EXPECT_THAT(diagnostics.Format(),
              HasSubstr("m.msh: warning: tet mesh 'unit': 1 face(s) are shared by more than two "
                        "tets (non-manifold volume)\n"));
  EXPECT_THAT(diagnostics.Format(), HasSubstr("the boundary is not a closed 2-manifold"));
}


TEST(TetMeshGeometryTest, NonFiniteNodeAndEmptyMesh) {
  TetMesh mesh = UnitTet();
  mesh.nodes[2].y() = std::nan("");
  Diagnostics diagnostics;
  EXPECT_FALSE(ValidateTetMesh(mesh, "m.msh", &diagnostics));
  EXPECT_EQ(diagnostics.Format(),
            "m.msh: error: tet mesh 'unit': node 2 has a non-finite coordinate (0, nan, 0)\n");
  TetMesh empty;
  empty.name = "none";
  Diagnostics empty_diagnostics;
  EXPECT_FALSE(ValidateTetMesh(empty, "e.msh", &empty_diagnostics));
  EXPECT_EQ(empty_diagnostics.Format(), "e.msh: error: tet mesh 'none': has no tetrahedra\n");
}


TEST(TetMeshGeometryTest, ManyInvertedTetsAreListedThenCounted) {
  // 30 disjoint unit tets, each with two nodes swapped: the opposite orientation convention
  TetMesh mesh;
  mesh.name = "flipped";
  for (int k = 0; k < 30; ++k) {
    const Vec3 o(2.0 * k, 0, 0);
    const int n = mesh.node_count();
    mesh.nodes.insert(mesh.nodes.end(),
                      {o, o + Vec3(1, 0, 0), o + Vec3(0, 1, 0), o + Vec3(0, 0, 1)});
    mesh.tets.push_back({n, n + 2, n + 1, n + 3});
  }
  Diagnostics diagnostics;
  EXPECT_FALSE(ValidateTetMesh(mesh, "f.vtk", &diagnostics));
  EXPECT_EQ(diagnostics.error_count(), 21);
  EXPECT_EQ(diagnostics.items().back().Format(),
            "f.vtk: error: tet mesh 'flipped': 10 more inverted tet(s) not listed (30 in all); "
            "every tet is inverted, so the file probably uses the opposite orientation "
            "convention");
}


// ---------------------------------------------------------------------------------------------
// broken files in tests/data/: the exact message at the exact line

std::string LoadErrors(const std::string& file) {
  Expected<TetMesh> mesh = LoadTetMesh(kData + file);
  EXPECT_FALSE(mesh.ok()) << file;
  std::string text = mesh.diagnostics().Format();
  // the data folder is machine-specific; compare from the file name on
  for (std::size_t at; (at = text.find(kData)) != std::string::npos;) text.erase(at, kData.size());
  return text;
}


TEST(TetMeshBadFileTest, TruncatedGmshIsReportedAtTheLastLine) {
  // 21 lines; the $Elements block declares 2 tets and the file ends after the first
  EXPECT_EQ(LoadErrors("tet_truncated.msh"),
            "tet_truncated.msh:21: error: unexpected end of file in $Elements (expected 2 "
            "elements in block 1, read 1)\n");
}


TEST(TetMeshBadFileTest, OutOfRangeNodeTagIsReportedAtItsElement) {
  EXPECT_EQ(LoadErrors("tet_bad_node.msh"),
            "tet_bad_node.msh:15: error: tetrahedron 3 references node 99, which $Nodes does not "
            "define\n");
}


TEST(TetMeshBadFileTest, InvertedTetIsReportedAtItsLineInTheEleFile) {
  // 1-based TetGen files with comments and boundary markers; either file names the pair
  const std::string expected =
      "tet_inverted.ele:4: error: tet mesh 'tet_inverted': tet 1 is inverted (signed volume "
      "-0.333333, expected > 0: det[v1-v0, v2-v0, v3-v0] must be positive)\n";
  EXPECT_EQ(LoadErrors("tet_inverted.node"), expected);
  EXPECT_EQ(LoadErrors("tet_inverted.ele"), expected);
}


TEST(TetMeshBadFileTest, FlatTetIsReportedAtItsLineInTheEleFile) {
  // zero volume: four coplanar nodes (0-based tet index in the message, file line in the location)
  EXPECT_EQ(LoadErrors("tet_flat.node"),
            "tet_flat.ele:4: error: tet mesh 'tet_flat': tet 1 is degenerate (signed volume 0, "
            "longest edge 1.41421; expected a volume > 0)\n");
}


TEST(TetMeshBadFileTest, CountsLargerThanTheDataAreLocated) {
  // each format's header declares more items than the file lists
  EXPECT_EQ(LoadErrors("tet_ele_count.node"),
            "tet_ele_count.ele:2: error: unexpected end of file (expected 3 tetrahedra, read 1)\n");
  EXPECT_THAT(LoadErrors("tet_node_count.msh"),
              HasSubstr("tet_node_count.msh:9: error: $Nodes ends early at '$EndNodes' (expected 4 "
                        "nodes, read 3)"));
  EXPECT_EQ(LoadErrors("tet_point_count.vtk"),
            "tet_point_count.vtk:10: error: invalid coordinate 'CELLS' of point 4 (expected a "
            "number)\n");
}


TEST(TetMeshBadFileTest, TetTooLargeToMeasureIsReportedAtItsLine) {
  // a coordinate of 1e308 is finite, but the tet's volume is not (found by fuzz_tetgen)
  EXPECT_THAT(LoadErrors("tet_huge.node"),
              HasSubstr("tet_huge.ele:2: error: tet mesh 'tet_huge': tet 0 is too large to "
                        "measure"));
}


TEST(TetMeshBadFileTest, MostNegativeNodeIndexIsReportedAtItsTet) {
  EXPECT_EQ(LoadErrors("tet_min_index.ele"),
            "tet_min_index.ele:3: error: tetrahedron 1 references point -9223372036854775808, but "
            "the .node file defines points 1..4\n");
}


TEST(TetMeshBadFileTest, NanCoordinateIsReportedAtItsPoint) {
  EXPECT_EQ(LoadErrors("tet_nan.vtk"),
            "tet_nan.vtk:8: error: tet mesh 'tet_nan': node 2 has a non-finite coordinate (0, "
            "nan, 0)\n");
}


TEST(TetMeshBadFileTest, VtkWithoutCellTypesIsReportedAtCells) {
  EXPECT_EQ(LoadErrors("tet_no_cell_types.vtk"),
            "tet_no_cell_types.vtk:8: error: CELLS has no CELL_TYPES section after it (needed to "
            "find the tetrahedra, VTK cell type 10)\n");
}


// a negative count and a file that ends inside a section header used to read as empty sections
// and end in "no tetrahedra"; each is now an error at its own line
TEST(TetMeshBadFileTest, VtkNegativeCountsAndTruncatedHeadersAreLocated) {
  const std::string dir = ::testing::TempDir();
  const std::string head = "# vtk DataFile Version 2.0\nt\nASCII\nDATASET UNSTRUCTURED_GRID\n";
  const std::string points = "POINTS 4 double\n0 0 0 1 0 0 0 1 0 0 0 1\n";
  const std::pair<std::string, std::string> cases[] = {
      {head + "POINTS -4 double\n",
       "bad.vtk:5: error: invalid point count '-4' (expected a count >= 0)"},
      {head + "POINTS 4",
       "bad.vtk:5: error: unexpected end of file (expected the POINTS data type)"},
      {head + points + "CELLS -1 5\n4 0 1 2 3\nCELL_TYPES 1\n10\n",
       "bad.vtk:7: error: invalid cell count '-1' (expected a count >= 0)"},
      {head + points + "CELLS 1\n",
       "bad.vtk:8: error: unexpected end of file (expected the CELLS list size)"},
      {head + points + "CELLS 1 5\n4 0 1 2 3\nCELL_TYPES -1\n",
       "bad.vtk:9: error: invalid cell type count '-1' (expected a count >= 0)"},
  };
  for (const auto& [text, expected] : cases) {
    SCOPED_TRACE(text);
    const std::string path = dir + "/bad.vtk";
    std::ofstream(path, std::ios::binary) << text;
    Expected<TetMesh> mesh = LoadTetMesh(path);
    ASSERT_FALSE(mesh.ok());
    ASSERT_EQ(mesh.diagnostics().items().size(), 1u) << mesh.diagnostics().Format();
    std::string message = mesh.diagnostics().Format();
    message.erase(0, dir.size() + 1);
    EXPECT_EQ(message, expected + "\n");
  }
}


// every prefix of a small VTK file is an error at a line of the file, none the unlocated "has no
// tetrahedra" of a mesh read from empty sections
TEST(TetMeshBadFileTest, EveryTruncationOfAVtkFileIsLocated) {
  const std::string text =
      "# vtk DataFile Version 2.0\nt\nASCII\nDATASET UNSTRUCTURED_GRID\nPOINTS 4 double\n"
      "0 0 0 1 0 0 0 1 0 0 0 1\nCELLS 1 5\n4 0 1 2 3\nCELL_TYPES 1\n10\n";
  const std::string path = ::testing::TempDir() + "/cut.vtk";
  for (std::size_t cut = 0; cut + 1 < text.size(); ++cut) {
    std::ofstream(path, std::ios::binary) << text.substr(0, cut);
    Expected<TetMesh> mesh = LoadTetMesh(path);
    ASSERT_FALSE(mesh.ok()) << "cut at " << cut;
    for (const Diagnostic& d : mesh.diagnostics().items()) {
      EXPECT_GE(d.line, 1) << "cut at " << cut << ": " << d.message;
      EXPECT_THAT(d.message, ::testing::Not(HasSubstr("has no tetrahedra"))) << "cut at " << cut;
    }
  }
}


TEST(TetMeshBadFileTest, UnknownVtkKeywordIsAnError) {
  EXPECT_EQ(LoadErrors("tet_unknown_keyword.vtk"),
            "tet_unknown_keyword.vtk:7: error: unknown VTK keyword 'VERTICES' (expected POINTS, "
            "CELLS, CELL_TYPES, POINT_DATA or CELL_DATA)\n");
}


TEST(TetMeshBadFileTest, UnknownGmshSectionIsSkippedWithAWarning) {
  // Gmsh itself skips sections it does not know; so do we, but say so
  Expected<TetMesh> mesh = LoadTetMesh(kData + "tet_unknown_section.msh");
  ASSERT_TRUE(mesh.ok()) << mesh.diagnostics().Format();
  EXPECT_EQ(mesh->tet_count(), 1);
  ASSERT_EQ(mesh.diagnostics().items().size(), 1u);
  const Diagnostic& d = mesh.diagnostics().items()[0];
  EXPECT_EQ(d.severity, Severity::kWarning);
  EXPECT_EQ(d.line, 4);
  EXPECT_EQ(d.message, "skipping unknown section $Notes");
}


TEST(TetMeshBadFileTest, BinaryGmshIsRefusedClearly) {
  EXPECT_EQ(LoadErrors("tet_binary.msh"),
            "tet_binary.msh:2: error: binary .msh files are not supported (file-type 1 in "
            "$MeshFormat); save the mesh as ASCII MSH 4.1 or 2.2\n");
}


TEST(TetMeshBadFileTest, MissingFileAndUnknownExtension) {
  EXPECT_EQ(LoadErrors("no_such_mesh.msh"),
            "no_such_mesh.msh: error: cannot open Gmsh file (does it exist and is it readable?)\n");
  // the .ele of a TetGen pair is looked up next to the .node
  EXPECT_THAT(LoadErrors("no_such_mesh.node"), HasSubstr("no_such_mesh.ele: error: cannot open"));
  EXPECT_THAT(LoadErrors("bad_robot.urdf"), HasSubstr("unknown tet mesh format '.urdf'"));
}


// garbage in every section position: errors, no crash, every diagnostic located
TEST(TetMeshBadFileTest, GarbageIsLocated) {
  const std::filesystem::path dir =
      std::filesystem::path(SIM_BINARY_DIR) / "tests" / "tet_mesh_garbage";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "garbage.msh").string();
  std::ofstream(path) << "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n1 99999999999 1 2\n"
                         "3 0 0 2\n1\n2\nx y z\n0 0 0\n$EndNodes\n";
  Expected<TetMesh> mesh = LoadTetMesh(path);
  ASSERT_FALSE(mesh.ok());
  EXPECT_THAT(mesh.diagnostics().Format(),
              HasSubstr("garbage.msh:5: error: invalid node count '99999999999' (expected a count "
                        ">= 0)"));

  // a 2.2 file whose 100 node lines are all garbage (and no $Elements): 50 listed, the rest
  // counted
  std::string text = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n100\n";
  for (int i = 0; i < 100; ++i) text += "node x y z\n";
  text += "$EndNodes\n";
  std::ofstream(path) << text;
  Expected<TetMesh> flood = LoadTetMesh(path);
  ASSERT_FALSE(flood.ok());
  EXPECT_EQ(flood.diagnostics().error_count(), 51);
  EXPECT_EQ(flood.diagnostics().items()[0].Format(), path + ":6: error: invalid node tag 'node'");
  EXPECT_EQ(flood.diagnostics().items().back().Format(),
            path + ": error: 51 more error(s) not listed (101 in all)");
}

}  // namespace
}  // namespace sim::io
