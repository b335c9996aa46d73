// Mesh loading through assimp: the real Fetch COLLADA visuals come out Z-up in metres, STL and OBJ
// load with their materials and texture coordinates, a COLLADA file authored Y-up or in
// millimetres is converted, and a bad file is an error naming it.
#include "engine/io/mesh_loader.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <gtest/gtest.h>

#include "tests/support/run_command.h"
#include "tests/support/shared_data.h"

namespace sim::io {
namespace {

const std::string kRobots = test_support::SharedDataDir() + "/robots";

std::string WriteTemp(const std::string& name, const std::string& text) {
  const std::filesystem::path path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path) << text;
  return path.string();
}

Vec3 Lower(const TriangleMesh& mesh) {
  Vec3 lower = mesh.vertices.front();
  for (const Vec3& v : mesh.vertices) lower = lower.cwiseMin(v);
  return lower;
}

Vec3 Upper(const TriangleMesh& mesh) {
  Vec3 upper = mesh.vertices.front();
  for (const Vec3& v : mesh.vertices) upper = upper.cwiseMax(v);
  return upper;
}

// one triangle in a COLLADA file with the given <unit> and <up_axis>
std::string ColladaTriangle(const std::string& unit, const std::string& up) {
  return R"(<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit name="u" meter=")" +
         unit + R"("/><up_axis>)" + up + R"(</up_axis></asset>
  <library_geometries><geometry id="g"><mesh>
    <source id="p"><float_array id="pa" count="9">0 0 0 1 0 0 0 1 0</float_array>
      <technique_common><accessor source="#pa" count="3" stride="3">
        <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
      </accessor></technique_common></source>
    <vertices id="v"><input semantic="POSITION" source="#p"/></vertices>
    <triangles count="1"><input semantic="VERTEX" source="#v" offset="0"/><p>0 1 2</p></triangles>
  </mesh></geometry></library_geometries>
  <library_visual_scenes><visual_scene id="s"><node id="n">
    <instance_geometry url="#g"/></node></visual_scene></library_visual_scenes>
  <scene><instance_visual_scene url="#s"/></scene>
</COLLADA>
)";
}

TEST(MeshLoader, FetchBaseVisualIsZUpInMetres) {
  const std::string path = kRobots + "/fetch_description/meshes/base_link.dae";
  if (!std::filesystem::exists(path)) SIM_SKIP_OR_FAIL_IN_CI("robot data not found: " + path);
  const Expected<LoadedMesh> loaded = LoadMesh(path);
  ASSERT_TRUE(loaded.ok()) << loaded.diagnostics().Format();
  const Vec3 size = Upper(loaded->mesh) - Lower(loaded->mesh);
  // the Fetch base is a ~0.56 m disc about 0.35 m tall (fetchrobotics.com data sheet): Z-up means
  // the short extent is z and the footprint is x-y; metres means sizes well under 1
  EXPECT_NEAR(size.x(), 0.56, 0.05) << size.transpose();
  EXPECT_NEAR(size.y(), 0.56, 0.05) << size.transpose();
  EXPECT_LT(size.z(), 0.45) << size.transpose();
  EXPECT_GT(Lower(loaded->mesh).z(), -0.05);  // the base link frame is at the floor
  EXPECT_TRUE(loaded->mesh.has_uvs());        // the Fetch visuals are textured
  EXPECT_FALSE(loaded->parts.empty());
}

TEST(MeshLoader, AllegroStlLoadsWithScale) {
  const std::string path = kRobots + "/allegro_hand_description/meshes/link_1.0.STL";
  if (!std::filesystem::exists(path)) SIM_SKIP_OR_FAIL_IN_CI("robot data not found: " + path);
  const Expected<LoadedMesh> unit = LoadMesh(path);
  const Expected<LoadedMesh> doubled = LoadMesh(path, Vec3(2, 2, 2));
  ASSERT_TRUE(unit.ok() && doubled.ok()) << unit.diagnostics().Format();
  EXPECT_GT(unit->mesh.triangle_count(), 10);
  // scale applies per vertex: the bounding box doubles exactly (no other transform in an STL)
  const Vec3 size = Upper(unit->mesh) - Lower(unit->mesh);
  const Vec3 size2 = Upper(doubled->mesh) - Lower(doubled->mesh);
  EXPECT_TRUE(size2.isApprox(2 * size, 1e-9)) << size.transpose() << " / " << size2.transpose();
  // an Allegro phalanx is a few centimetres long: the file is in metres
  EXPECT_LT(size.maxCoeff(), 0.1);
}

TEST(MeshLoader, ColladaUpAxisAndUnitAreHonoured) {
  // Z_UP in metres: as authored
  const Expected<LoadedMesh> z_up =
      LoadMesh(WriteTemp("cs_z_up.dae", ColladaTriangle("1", "Z_UP")));
  ASSERT_TRUE(z_up.ok()) << z_up.diagnostics().Format();
  EXPECT_NEAR(Upper(z_up->mesh).y(), 1, 1e-6);
  EXPECT_NEAR(Upper(z_up->mesh).z(), 0, 1e-6);
  // Y_UP: the file's up (+y) becomes our +z
  const Expected<LoadedMesh> y_up =
      LoadMesh(WriteTemp("cs_y_up.dae", ColladaTriangle("1", "Y_UP")));
  ASSERT_TRUE(y_up.ok()) << y_up.diagnostics().Format();
  EXPECT_NEAR(Upper(y_up->mesh).z(), 1, 1e-6);
  EXPECT_NEAR(Upper(y_up->mesh).y(), 0, 1e-6);
  // millimetres: 1 unit = 0.001 m
  const Expected<LoadedMesh> mm =
      LoadMesh(WriteTemp("cs_mm.dae", ColladaTriangle("0.001", "Z_UP")));
  ASSERT_TRUE(mm.ok()) << mm.diagnostics().Format();
  EXPECT_NEAR(Upper(mm->mesh).x(), 0.001, 1e-9);
}

TEST(MeshLoader, ObjWithMtlKeepsColourAndUvs) {
  WriteTemp("cs_quad.mtl", "newmtl red\nKd 0.8 0.1 0.1\n");
  const std::string obj = WriteTemp("cs_quad.obj",
                                    "mtllib cs_quad.mtl\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n"
                                    "vt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\nusemtl red\n"
                                    "f 1/1 2/2 3/3 4/4\n");
  const Expected<LoadedMesh> loaded = LoadMesh(obj);
  ASSERT_TRUE(loaded.ok()) << loaded.diagnostics().Format();
  EXPECT_EQ(loaded->mesh.triangle_count(), 2);  // the quad triangulated
  ASSERT_TRUE(loaded->mesh.has_uvs());
  // the vertex at (1, 1, 0) carries uv (1, 1)
  bool found = false;
  for (int v = 0; v < loaded->mesh.vertex_count(); ++v) {
    if ((loaded->mesh.vertices[v] - Vec3(1, 1, 0)).norm() < 1e-9) {
      found = true;
      EXPECT_NEAR(loaded->mesh.uvs[v].x(), 1, 1e-6);
      EXPECT_NEAR(loaded->mesh.uvs[v].y(), 1, 1e-6);
    }
  }
  EXPECT_TRUE(found);
  ASSERT_EQ(loaded->parts.size(), 1u);
  EXPECT_TRUE(loaded->parts[0].has_color);
  EXPECT_NEAR(loaded->parts[0].color[0], 0.8f, 1e-6);
}

TEST(MeshLoader, BadFilesAreErrorsNamingTheFile) {
  const Expected<LoadedMesh> missing = LoadMesh("/nonexistent/part.stl");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.diagnostics().Format(),
            "/nonexistent/part.stl: error: cannot open mesh file (does it exist and is it "
            "readable?)\n");
  const std::string garbage = WriteTemp("cs_garbage.stl", "solid x\n facet normal nonsense\n");
  const Expected<LoadedMesh> bad = LoadMesh(garbage);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.diagnostics().Format().find(garbage + ": error:"), std::string::npos)
      << bad.diagnostics().Format();
  const Expected<LoadedMesh> zero_scale =
      LoadMesh(WriteTemp("cs_z.dae", ColladaTriangle("1", "Z_UP")), Vec3(1, 0, 1));
  EXPECT_FALSE(zero_scale.ok());
}


// COLLADA is checked before assimp reads it: a malformed index list (assimp 5.2 made a 3 GB
// allocation of "0q3s3", found by the mesh fuzzer) and nesting deeper than 256 levels (assimp
// recurses per level) are errors at their line
TEST(MeshLoader, MalformedColladaIsRefusedBeforeTheImporter) {
  const std::string source = std::string(SIM_SOURCE_DIR) +
                             "/tests/fuzz/regressions/mesh/collada_p_malformed_index_oom.dae";
  const Expected<LoadedMesh> bad_index = LoadMesh(source);
  ASSERT_FALSE(bad_index.ok());
  EXPECT_NE(bad_index.diagnostics().Format().find(source + ":21: error: COLLADA <p>"),
            std::string::npos)
      << bad_index.diagnostics().Format();
  std::string deep = "<?xml version=\"1.0\"?>\n<COLLADA>\n";
  for (int i = 0; i < 300; ++i) deep += "<node>";
  const Expected<LoadedMesh> nested = LoadMesh(WriteTemp("cs_deep.dae", deep));
  ASSERT_FALSE(nested.ok());
  EXPECT_NE(nested.diagnostics().Format().find(":3: error: COLLADA elements nested deeper"),
            std::string::npos)
      << nested.diagnostics().Format();
}


// assimp reads as many values as a data array's `count` says (0 when it has none) and as many as
// an <accessor> asks for, without a bound check: a float_array without a count crashed the
// loader (a null dereference, found by the mesh fuzzer) and one shorter than its accessor gave
// vertices read from past its end. Both are errors at their line.
TEST(MeshLoader, ColladaArraysMustHoldWhatTheirAccessorsRead) {
  std::ifstream seed(std::string(SIM_SOURCE_DIR) + "/tests/fuzz/seeds/mesh/tetra_y_up_mm.dae");
  const std::string text((std::istreambuf_iterator<char>(seed)), std::istreambuf_iterator<char>());
  ASSERT_NE(text.find("count=\"12\""), std::string::npos);
  const auto with = [&](const std::string& count) {
    std::string changed = text;
    changed.replace(changed.find("count=\"12\""), 10, count);
    return changed;
  };
  // the errors of the seed with its float_array's count replaced
  const auto errors = [&](const std::string& name, const std::string& count) {
    const Expected<LoadedMesh> mesh = LoadMesh(WriteTemp(name, with(count)));
    EXPECT_FALSE(mesh.ok()) << name;
    return mesh.diagnostics().Format();
  };
  const std::string no_count = errors("cs_no_count.dae", "coult=\"24\"");
  EXPECT_NE(no_count.find(":13: error: COLLADA <float_array> needs a 'count' of at most the 12 "
                          "values it holds"),
            std::string::npos)
      << no_count;
  const std::string short_array = errors("cs_short.dae", "count=\"2\" ");
  EXPECT_NE(short_array.find(":14: error: COLLADA <accessor> reads 12 values of "
                             "'tetra-pos-array', which holds 2"),
            std::string::npos)
      << short_array;
  EXPECT_TRUE(LoadMesh(WriteTemp("cs_whole.dae", text)).ok());
}

}  // namespace
}  // namespace sim::io
