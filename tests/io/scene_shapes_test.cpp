// Scene objects backed by files and fields: "mesh" (SDF-backed triangle mesh or convex hull),
// "sdf" (analytic field) and "tetmesh" (deformable solid), with their mass properties and errors.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <numbers>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engine/geometry/analytic_sdf.h"
#include "engine/geometry/collision_mesh.h"
#include "engine/geometry/convex_hull.h"
#include "engine/io/scene_file.h"
#include "tests/support/run_command.h"
#include "tests/support/shared_data.h"

namespace sim::io {
namespace {

using ::testing::HasSubstr;

// a closed cube [1, 2]³ as OBJ, faces counter-clockwise from outside (not centred at its origin)
std::string WriteCube(const std::string& name) {
  const std::filesystem::path path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path) << "v 1 1 1\nv 2 1 1\nv 2 2 1\nv 1 2 1\nv 1 1 2\nv 2 1 2\nv 2 2 2\nv 1 2 2\n"
                         "f 1 4 3\nf 1 3 2\nf 5 6 7\nf 5 7 8\nf 1 2 6\nf 1 6 5\n"
                         "f 2 3 7\nf 2 7 6\nf 3 4 8\nf 3 8 7\nf 4 1 5\nf 4 5 8\n";
  return path.string();
}

std::string SceneWith(const std::string& object) { return R"({"objects": [)" + object + "]}"; }

// the scenes of these tests name files the tests wrote to the temporary folder and shared data
Expected<Scene> ParseTestScene(const std::string& text, const std::string& source) {
  return ParseScene(text, source, SceneOptions{.file_roots = test_support::TestFileRoots()});
}

TEST(SceneShapesTest, MeshObjectIsAnSdfBackedBodyAtItsCentroid) {
  const std::string cube = WriteCube("cs_cube.obj");
  Expected<Scene> scene = ParseTestScene(
      SceneWith(R"({"name": "c", "type": "mesh", "file": ")" + cube + R"(", "density": 1000,
      "position": [0, 0, 3], "sdf_resolution": 16})"),
      "s.json");
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  const Model& model = *scene->model;
  ASSERT_EQ(model.shape_count(), 1);
  const ShapeGeometry& g = model.shape_geometry[0];
  ASSERT_EQ(g.type, ShapeType::kMesh);
  ASSERT_TRUE(g.mesh && g.mesh->closed && g.mesh->sdf);
  // unit cube: V = 1 m³, m = ρV; I = m(1² + 1²)/12 per axis about the centroid
  EXPECT_NEAR(model.body_mass[0], 1000, 1e-9);
  EXPECT_NEAR(model.body_inertia[0](0, 0), 1000.0 / 6, 1e-9);
  EXPECT_NEAR(model.body_inertia[0](0, 1), 0, 1e-9);
  // the body frame is at the centroid (1.5, 1.5, 1.5) of the mesh placed at (0, 0, 3)
  EXPECT_TRUE(scene->initial_state.body_X_WB[0].p.isApprox(Vec3(1.5, 1.5, 4.5), 1e-12));
  EXPECT_TRUE(model.shape_X_BS[0].p.isApprox(Vec3(-1.5, -1.5, -1.5), 1e-12));
  // the grid field is negative at the cube's centre (half a unit inside)
  EXPECT_NEAR(g.mesh->sdf->Sample(Vec3(1.5, 1.5, 1.5)).distance, -0.5, g.mesh->sdf->error_bound());
}

TEST(SceneShapesTest, MeshObjectAsHull) {
  const std::string cube = WriteCube("cs_cube_hull.obj");
  Expected<Scene> scene = ParseTestScene(SceneWith(R"({"name": "c", "type": "mesh", "file": ")" +
                                                   cube + R"(", "collision": "hull", "mass": 2})"),
                                         "s.json");
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  const ShapeGeometry& g = scene->model->shape_geometry[0];
  ASSERT_EQ(g.type, ShapeType::kConvexHull);
  EXPECT_EQ(g.hull->faces.size(), 6u);  // coplanar triangles merged into quads
  EXPECT_NEAR(scene->model->body_mass[0], 2, 1e-12);
  EXPECT_NEAR(scene->model->body_inertia[0](2, 2), 2.0 / 6, 1e-9);
}

TEST(SceneShapesTest, MissingMeshFileIsLocatedWithANote) {
  const std::string missing =
      (std::filesystem::temp_directory_path() / "cs_no_such_part.stl").string();
  const std::string errors = ParseTestScene(SceneWith(R"({"name": "m", "type": "mesh",
      "file": ")" + missing + R"("})"),
                                            "s.json")
                                 .diagnostics()
                                 .Format();
  EXPECT_THAT(errors, HasSubstr(missing + ": error: cannot open mesh file"));
  EXPECT_THAT(errors, HasSubstr("s.json:2: note: loaded by object 'm'"));
}

TEST(SceneShapesTest, BadCollisionKindIsAnError) {
  const std::string cube = WriteCube("cs_cube_bad.obj");
  EXPECT_THAT(ParseTestScene(SceneWith(R"({"name": "m", "type": "mesh", "file": ")" + cube +
                                       R"(", "collision": "voxels"})"),
                             "s.json")
                  .diagnostics()
                  .Format(),
              HasSubstr("object 'm' 'collision' is 'voxels', expected one of: sdf, hull"));
}

TEST(SceneShapesTest, BadMeshesAreReportedWithTheirNames) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path();
  // a flat quad: no volume for a hull, and as an open surface no inside for a mass
  std::ofstream(dir / "cs_flat.obj") << "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3\nf 1 3 4\n";
  const std::string flat = (dir / "cs_flat.obj").string();
  const std::string hull_errors =
      ParseTestScene(
          SceneWith(R"({"name": "slab", "type": "mesh", "collision": "hull", "file": ")" + flat +
                    R"("})"),
          "s.json")
          .diagnostics()
          .Format();
  EXPECT_THAT(hull_errors, HasSubstr("zero volume"));
  EXPECT_THAT(hull_errors, HasSubstr(flat));
  EXPECT_THAT(hull_errors, HasSubstr("s.json:1: note: loaded by object 'slab'"));
  const std::string open_errors =
      ParseTestScene(SceneWith(R"({"name": "sheet", "type": "mesh", "file": ")" + flat + R"("})"),
                     "s.json")
          .diagnostics()
          .Format();
  EXPECT_THAT(open_errors, HasSubstr("object 'sheet' has no volume to take a mass from"));
  // a degenerate triangle is a warning naming the mesh; the fixed object still loads
  std::ofstream(dir / "cs_sliver.obj") << "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nv 2 0 0\n"
                                          "f 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\nf 1 2 5\n";
  Expected<Scene> sliver =
      ParseTestScene(SceneWith(R"({"name": "s", "type": "mesh", "fixed": true, "file": ")" +
                               (dir / "cs_sliver.obj").string() + R"("})"),
                     "s.json");
  ASSERT_TRUE(sliver.ok()) << sliver.diagnostics().Format();
  EXPECT_THAT(sliver.diagnostics().Format(), HasSubstr("degenerate"));
}

TEST(SceneShapesTest, InvertedTetIsReportedWithTheObject) {
  // one tet listed clockwise (negative volume): the loader's located error, and a note at the
  // scene line that loaded it
  const std::filesystem::path dir = std::filesystem::temp_directory_path();
  std::ofstream(dir / "cs_inv.node") << "4 3 0 0\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 0 0 1\n";
  std::ofstream(dir / "cs_inv.ele") << "1 4 0\n0 0 2 1 3\n";
  const std::string errors =
      ParseTestScene(SceneWith(R"({"name": "jelly", "type": "tetmesh", "file": ")" +
                               (dir / "cs_inv.ele").string() + R"("})"),
                     "s.json")
          .diagnostics()
          .Format();
  EXPECT_THAT(errors, HasSubstr("cs_inv.ele:2: error:"));
  EXPECT_THAT(errors, HasSubstr("inverted"));
  EXPECT_THAT(errors, HasSubstr("s.json:1: note: loaded by object 'jelly'"));
}

TEST(SceneShapesTest, AnalyticSdfObject) {
  Expected<Scene> scene =
      ParseTestScene(SceneWith(R"({"name": "spool", "type": "sdf", "fixed": true,
      "shape": {"op": "union", "children": [
        {"primitive": "cylinder", "radius": 0.05, "length": 0.3},
        {"primitive": "torus", "major_radius": 0.1, "minor_radius": 0.02,
         "position": [0, 0, 0.15]}]}})"),
                     "s.json");
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  const ShapeGeometry& g = scene->model->shape_geometry[0];
  ASSERT_EQ(g.type, ShapeType::kSdf);
  // on the axis at mid-height the cylinder's side is 5 cm away (inside)
  EXPECT_NEAR(g.sdf->Sample(Vec3::Zero()).distance, -0.05, 1e-12);
  // the torus tube centre at (0.1, 0, 0.15) is 2 cm inside the tube
  EXPECT_NEAR(g.sdf->Sample(Vec3(0.1, 0, 0.15)).distance, -0.02, 1e-12);
}

TEST(SceneShapesTest, AnalyticSdfErrors) {
  EXPECT_THAT(ParseTestScene(SceneWith(R"({"name": "f", "type": "sdf", "fixed": true,
      "shape": {"primitive": "blob", "radius": 1}})"),
                             "s.json")
                  .diagnostics()
                  .Format(),
              HasSubstr("s.json:2: error: object 'f' 'shape' 'primitive' is 'blob', expected one "
                        "of: sphere, box, capsule, cylinder, cone, torus, half_space"));
  EXPECT_THAT(ParseTestScene(SceneWith(R"({"name": "f", "type": "sdf",
      "shape": {"primitive": "sphere", "radius": 1}})"),
                             "s.json")
                  .diagnostics()
                  .Format(),
              HasSubstr("object 'f' of type 'sdf' must be \"fixed\": true"));
  EXPECT_THAT(ParseTestScene(SceneWith(R"({"name": "f", "type": "sdf", "fixed": true,
      "shape": {"op": "union", "children": [{"primitive": "sphere", "radius": 1}]}})"),
                             "s.json")
                  .diagnostics()
                  .Format(),
              HasSubstr("needs 'children': an array of 2 fields"));
}

// An analytic field object whose nodes each start a line, in the reader's (depth-first) order:
// node n (0-based) is on line n + 2. `chain` levels of unions with a sphere as the first child,
// or a balanced tree of unions `balanced` levels deep.
std::string FieldScene(int chain, int balanced) {
  std::string text = R"({"objects": [{"name": "f", "type": "sdf", "fixed": true, "shape":)";
  const std::string sphere = "\n{\"primitive\": \"sphere\", \"radius\": 0.1}";
  const std::function<std::string(int)> tree = [&](int levels) -> std::string {
    if (levels == 0) return sphere;
    return "\n{\"op\": \"union\", \"children\": [" + tree(levels - 1) + "," + tree(levels - 1) +
           "]}";
  };
  std::string closing;
  for (int i = 0; i < chain; ++i) {
    text += "\n{\"op\": \"union\", \"children\": [" + sphere + ",";
    closing += "]}";
  }
  return text + tree(balanced) + closing + "}]}";
}

// Sample() recurses once per level and evaluates every node: a field deeper than 64 levels or
// larger than 1024 nodes is refused at the node that goes over, once, before it is evaluated
TEST(SceneShapesTest, AnalyticSdfTreeLimitsAreLocatedAtTheNodeOverThem) {
  // 64 levels of unions above the deepest sphere load
  Expected<Scene> deepest = ParseTestScene(FieldScene(kMaxSdfDepth, 0), "s.json");
  ASSERT_TRUE(deepest.ok()) << deepest.diagnostics().Format();
  EXPECT_EQ(deepest->model->shape_geometry[0].sdf->node_count(), 2 * kMaxSdfDepth + 1);
  // one level more: the first node at level 65 is node 129, the sphere of the 65th union
  Expected<Scene> deep = ParseTestScene(FieldScene(kMaxSdfDepth + 1, 0), "s.json");
  ASSERT_FALSE(deep.ok());
  ASSERT_EQ(deep.diagnostics().items().size(), 1u) << deep.diagnostics().Format();
  EXPECT_THAT(deep.diagnostics().Format(),
              HasSubstr("s.json:131: error: object 'f' 'shape' nests deeper than 64 levels (this "
                        "node is at level 65)"));
  // 2047 nodes: node 1025 (0-based 1024) is the first over the limit
  Expected<Scene> wide = ParseTestScene(FieldScene(0, 10), "s.json");
  ASSERT_FALSE(wide.ok());
  ASSERT_EQ(wide.diagnostics().items().size(), 1u) << wide.diagnostics().Format();
  EXPECT_THAT(wide.diagnostics().Format(),
              HasSubstr("s.json:1026: error: object 'f' 'shape' has more than 1024 nodes (this is "
                        "node 1025)"));
}

// The SDF of a mesh takes O(N³) for N cells along its longest side, and each band node tests
// every triangle whose bounds hold it: the resolution is bounded, and a mesh of large,
// overlapping triangles is refused with the largest resolution it fits at
TEST(SceneShapesTest, SdfResolutionWorkIsBounded) {
  const std::string cube = WriteCube("cs_cube_res.obj");
  EXPECT_THAT(
      ParseTestScene(SceneWith(R"({"name": "m", "type": "mesh", "file": ")" + cube + R"(",
      "sdf_resolution": 512})"),
                     "s.json")
          .diagnostics()
          .Format(),
      HasSubstr("s.json:2: error: object 'm' 'sdf_resolution' is 512, expected a whole number "
                "in [8, 256]"));
  // a bipyramid of 1000 slivers from the axis to the rim: each spans a quarter of the grid
  const std::filesystem::path path = std::filesystem::temp_directory_path() / "cs_bipyramid.obj";
  {
    constexpr int kRim = 500;
    std::ofstream obj(path);
    obj << "v 0 0 1\nv 0 0 -1\n";
    for (int i = 0; i < kRim; ++i) {
      const double angle = 2 * std::numbers::pi * i / kRim;
      obj << "v " << std::cos(angle) << " " << std::sin(angle) << " 0\n";
    }
    for (int i = 0; i < kRim; ++i) {
      const int a = 3 + i, b = 3 + (i + 1) % kRim;
      obj << "f 1 " << a << " " << b << "\nf 2 " << b << " " << a << "\n";
    }
  }
  const std::string errors = ParseTestScene(
                                 SceneWith(R"({"name": "m", "type": "mesh", "fixed": true,
      "file": ")" + path.string() + R"(", "sdf_resolution": 256})"),
                                 "s.json")
                                 .diagnostics()
                                 .Format();
  EXPECT_THAT(errors, HasSubstr("cs_bipyramid.obj': at SDF resolution 256 its 1000 "
                                "triangles span 432748800 grid nodes (at most 33554432, each a "
                                "distance test); the largest resolution that fits is 109"));
  EXPECT_THAT(errors, HasSubstr("s.json:2: note: loaded by object 'm' (at /objects/0/file)"));
}

TEST(SceneShapesTest, TetMeshBecomesASoftBodyOfParticles) {
  const std::string path = test_support::SharedDataDir() + "/tetmesh/sphere1K.msh";
  if (!std::filesystem::exists(path)) SIM_SKIP_OR_FAIL_IN_CI("tet mesh not found: " + path);
  Expected<Scene> scene = ParseTestScene(SceneWith(R"({"name": "tomato", "type": "tetmesh",
      "file": ")" + path + R"(", "scale": 0.08, "density": 1000, "position": [0, 0, 1],
      "youngs_modulus": 1e5, "poisson_ratio": 0.45})"),
                                         "s.json");
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  const Model& model = *scene->model;
  ASSERT_EQ(model.soft_bodies.size(), 1u);
  const SoftBody& body = model.soft_bodies[0];
  // counts of sphere1K.msh (tet_mesh_loader_test): 1760 nodes, 6851 tets, 2474 boundary triangles
  EXPECT_EQ(body.particle_count, 1760);
  EXPECT_EQ(model.particle_count(), 1760);
  EXPECT_EQ(body.tets.size(), 6851u);
  EXPECT_EQ(body.surface.size(), 2474u);
  EXPECT_EQ(body.youngs_modulus, 1e5);
  // lumped masses add up to ρV with V = 0.518477 m³ · 0.08³ (the mesh's volume, scaled)
  Real mass = 0;
  for (Real m : model.particle_mass) mass += m;
  EXPECT_NEAR(mass, 1000 * 0.518477 * 0.08 * 0.08 * 0.08, 1e-3 * mass);
  // nodes are placed: every particle within the scaled radius of (0, 0, 1) (the mesh's surface
  // nodes lie within 0.2 % of radius 0.5, checked with `contact-sim check`)
  for (const Vec3& x : scene->initial_state.particle_x_W) {
    EXPECT_LT((x - Vec3(0, 0, 1)).norm(), 0.502 * 0.08);
  }
}

}  // namespace
}  // namespace sim::io
