// Soft bodies from scene files (issue 5): tetrahedralization of closed surfaces and primitives
// through TetGen (volumes preserved, located failures), structured box meshes, and the tetmesh
// keys (material model, damping, fixed nodes, attachments, activation) with a located diagnostic
// for every mistake.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engine/geometry/mesh_primitives.h"
#include "engine/geometry/tet_mesh.h"
#include "engine/io/mesh_loader.h"
#include "engine/io/scene_file.h"
#include "engine/io/tetrahedralize.h"
#include "tests/support/run_command.h"
#include "tests/support/shared_data.h"

namespace sim::io {
namespace {

using ::testing::HasSubstr;

const std::string kTetData = test_support::SharedDataDir() + "/tetmesh/";

// total signed volume of a tet mesh [m³]
Real TetVolume(const TetMesh& mesh) {
  Real volume = 0;
  for (int t = 0; t < mesh.tet_count(); ++t) volume += TetSignedVolume(mesh, t);
  return volume;
}

TEST(TetrahedralizeTest, BoxAndSphereKeepTheirVolumeAndBoundary) {
  // TetGen's constrained tetrahedralization keeps the surface, so the tets fill exactly the
  // polyhedron's volume (round-off only) and every tet is positive
  for (const TriangleMesh& surface :
       {SubdividedBoxMesh(Vec3(0.1, 0.05, 0.02), 3), Icosphere(2, 0.1)}) {
    TetrahedralizeOptions options;
    options.max_volume = TetVolumeForEdgeLength(0.02);
    Expected<TetMesh> mesh = TetrahedralizeSurface(surface, options, "test.obj");
    ASSERT_TRUE(mesh.ok()) << mesh.diagnostics().Format();
    EXPECT_GT(mesh->tet_count(), 50) << surface.name;
    EXPECT_NEAR(TetVolume(mesh.value()), MeshSignedVolume(surface),
                1e-12 * MeshSignedVolume(surface) * mesh->tet_count())
        << surface.name;
    for (int t = 0; t < mesh->tet_count(); ++t) EXPECT_GT(TetSignedVolume(mesh.value(), t), 0);
    // the volume bound: TetGen refines until tets are about that size (it tests the bound loosely:
    // measured up to 13 % over it on these shapes)
    for (int t = 0; t < mesh->tet_count(); ++t) {
      EXPECT_LE(TetSignedVolume(mesh.value(), t), 1.25 * options.max_volume);
    }
  }
}

TEST(TetrahedralizeTest, RealSurfaceFileBecomesAValidVolume) {
  // the bunny surface of the shared data (5002 vertices, 10 000 triangles, closed, genus 0)
  const std::string path = kTetData + "bunny_10k.off";
  if (!std::filesystem::exists(path)) SIM_SKIP_OR_FAIL_IN_CI("surface not found: " + path);
  Expected<LoadedMesh> surface = LoadMesh(path);
  ASSERT_TRUE(surface.ok()) << surface.diagnostics().Format();
  Expected<TetMesh> mesh = TetrahedralizeSurface(surface->mesh, TetrahedralizeOptions{}, path);
  ASSERT_TRUE(mesh.ok()) << mesh.diagnostics().Format();
  // the quality refinement puts Steiner points on the surface, computed in floating point, so the
  // volume agrees to ~1e-8 relative (measured 3e-8)
  EXPECT_NEAR(TetVolume(mesh.value()), MeshSignedVolume(surface->mesh),
              1e-7 * MeshSignedVolume(surface->mesh));
  // the boundary of the volume covers the input surface: the same area, with its triangles split
  const auto area = [](const std::vector<Vec3>& x, const std::vector<std::array<int, 3>>& tris) {
    Real sum = 0;
    for (const auto& t : tris) sum += 0.5 * (x[t[1]] - x[t[0]]).cross(x[t[2]] - x[t[0]]).norm();
    return sum;
  };
  const TetSurface boundary = ExtractBoundary(mesh.value());
  EXPECT_GE(boundary.triangle_count(), surface->mesh.triangle_count());
  EXPECT_NEAR(area(mesh->nodes, boundary.triangles),
              area(surface->mesh.vertices, surface->mesh.triangles),
              1e-7 * area(surface->mesh.vertices, surface->mesh.triangles));
}

TEST(TetrahedralizeTest, OpenAndSelfIntersectingSurfacesAreReported) {
  // a box with one triangle missing has no inside
  TriangleMesh open = BoxMesh(Vec3(0.1, 0.1, 0.1), "open_box");
  open.triangles.pop_back();
  Expected<TetMesh> mesh = TetrahedralizeSurface(open, TetrahedralizeOptions{}, "open.stl");
  ASSERT_FALSE(mesh.ok());
  EXPECT_THAT(mesh.diagnostics().Format(),
              HasSubstr("open.stl: error: surface 'open_box' cannot be tetrahedralized: it is "
                        "not a closed, consistently oriented surface (3 open edges"));

  // two overlapping closed boxes in one mesh: closed, but intersecting itself
  TriangleMesh twice = BoxMesh(Vec3(0.1, 0.1, 0.1), "two_boxes");
  const TriangleMesh other = BoxMesh(Vec3(0.1, 0.1, 0.1));
  const int offset = twice.vertex_count();
  for (const Vec3& v : other.vertices) twice.vertices.push_back(v + Vec3(0.05, 0.03, 0.02));
  for (const auto& t : other.triangles) {
    twice.triangles.push_back({t[0] + offset, t[1] + offset, t[2] + offset});
  }
  mesh = TetrahedralizeSurface(twice, TetrahedralizeOptions{}, "two.obj");
  ASSERT_FALSE(mesh.ok());
  EXPECT_THAT(mesh.diagnostics().Format(),
              HasSubstr("two.obj: error: surface 'two_boxes' cannot be tetrahedralized: the "
                        "surface intersects itself (12 intersecting triangles, found by TetGen "
                        "-d)"));
}

TEST(StructuredBoxTetMeshTest, CellsFillTheBoxWithMatchingFaces) {
  const TetMesh mesh = StructuredBoxTetMesh(Vec3(0.4, 0.2, 0.1), {4, 2, 1});
  EXPECT_EQ(mesh.node_count(), 5 * 3 * 2);
  EXPECT_EQ(mesh.tet_count(), 5 * 4 * 2 * 1);
  EXPECT_NEAR(TetVolume(mesh), 0.4 * 0.2 * 0.1, 1e-15);
  Diagnostics diagnostics;
  EXPECT_TRUE(ValidateTetMesh(mesh, "box", &diagnostics)) << diagnostics.Format();
  // conforming faces: the boundary is exactly the box's six faces, 2 triangles per cell face, and
  // no interior face is left unmatched (the mirrored split agrees; a mismatch would add
  // boundary triangles and a non-manifold warning)
  EXPECT_TRUE(diagnostics.empty()) << diagnostics.Format();
  EXPECT_EQ(ExtractBoundary(mesh).triangle_count(), 2 * (4 * 2 + 4 * 1 + 2 * 1) * 2);
}

// ---------------------------------------------------------------------------------------------
// scene keys

Expected<Scene> Parse(const std::string& object, const std::string& extra_objects = "") {
  return ParseScene(R"({"objects": [)" + object + extra_objects + "]}", "soft.json",
                    SceneOptions{.file_roots = test_support::TestFileRoots()});
}

TEST(SoftBodySceneTest, ActivationGrowthAlongADirectionAndIsotropic) {
  // tets with centroid x > 0 grow by 1.5 along the mesh's (unnormalized) z; all grow by 1.1 in
  // every direction; the two compose on the tets they share
  Expected<Scene> scene = Parse(R"({"name": "finger", "type": "tetmesh", "primitive": "box",
      "size": [0.2, 0.1, 0.1], "cells": [4, 2, 2], "rpy_deg": [90, 0, 0],
      "activation": [{"box": {"min": [0, -1, -1], "max": [1, 1, 1]}, "stretch": 1.5,
                      "direction": [0, 0, 3]},
                     {"tets": [0, 1], "stretch": 1.1}]})");
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  const SoftBody& body = scene->model->soft_bodies[0];
  ASSERT_EQ(static_cast<int>(body.tet_growth.size()), body.tet_count());
  const Mat3 along_z = Vec3(1, 1, 1.5).asDiagonal();
  int grown = 0;
  for (const Mat3& g : body.tet_growth) grown += (g - along_z).norm() < 1e-12;
  EXPECT_EQ(grown, body.tet_count() / 2);
  // tets 0 and 1: 1.1 I, times 1.5 along z where they lie at x > 0 (the direction is in the
  // mesh's frame, so the object's rotation does not turn it)
  for (int t : {0, 1}) {
    const Mat3& g = body.tet_growth[t];
    EXPECT_TRUE((g - 1.1 * Mat3::Identity()).norm() < 1e-12 || (g - 1.1 * along_z).norm() < 1e-12);
  }
  EXPECT_TRUE(body.tet_activation.empty() ||
              std::all_of(body.tet_activation.begin(), body.tet_activation.end(),
                          [](Real p) { return p == 0; }));
}

TEST(SoftBodySceneTest, PrimitivesMaterialAndSelections) {
  Expected<Scene> scene = Parse(R"({"name": "jelly", "type": "tetmesh", "primitive": "box",
      "size": [0.2, 0.1, 0.1], "cells": [4, 2, 2], "position": [0, 0, 0.05],
      "youngs_modulus": 2e5, "poisson_ratio": 0.4, "material_model": "corotational",
      "damping": 0.02, "fixed": {"box": {"min": [-1, -1, -1], "max": [-0.099, 1, 1]}},
      "activation": [{"box": {"min": [0, -1, -1], "max": [1, 1, 1]}, "pressure": 1000}],
      "activation_ramp_time": 0.5,
      "attachments": [{"body": "paddle", "nodes": [22], "compliance": 1e-4},
                      {"body": "paddle", "box": {"min": [0.099, -1, -1], "max": [1, 1, 1]}}]},)",
                                R"({"name": "paddle", "type": "box", "size": [0.02, 0.2, 0.2],
      "position": [0.12, 0, 0.05]})");
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  EXPECT_TRUE(scene.diagnostics().empty()) << scene.diagnostics().Format();
  const Model& model = *scene->model;
  ASSERT_EQ(model.soft_bodies.size(), 1u);
  const SoftBody& body = model.soft_bodies[0];
  EXPECT_EQ(body.tet_count(), 5 * 4 * 2 * 2);
  EXPECT_EQ(body.material_model, FemMaterialModel::kLinearCorotational);
  EXPECT_DOUBLE_EQ(body.damping, 0.02);
  EXPECT_DOUBLE_EQ(body.youngs_modulus, 2e5);
  EXPECT_DOUBLE_EQ(body.activation_ramp_time, 0.5);
  ASSERT_EQ(static_cast<int>(body.tet_rest_volume.size()), body.tet_count());
  // fixed: the 3 × 3 nodes of the face x = −0.1
  int fixed = 0;
  for (int p = 0; p < model.particle_count(); ++p) fixed += model.particle_is_fixed(p);
  EXPECT_EQ(fixed, 9);
  // activation: the tets with centroid x > 0, half of them
  int active = 0;
  for (Real p : body.tet_activation) active += p == 1000;
  EXPECT_EQ(active, body.tet_count() / 2);
  // no growth unless a stretch is given
  EXPECT_TRUE(body.tet_growth.empty());
  // attachments: node 22, the centre node (2, 1, 1) of the structured mesh, compliant, and the
  // 3 × 3 nodes of the face x = 0.1, rigid
  ASSERT_EQ(model.attachment_count(), 10);
  EXPECT_EQ(model.attachment_particle[0], body.first_particle + 22);
  EXPECT_DOUBLE_EQ(model.attachment_compliance[0], 1e-4);
  EXPECT_DOUBLE_EQ(model.attachment_compliance[1], 0);
  for (int a = 0; a < model.attachment_count(); ++a) {
    EXPECT_EQ(model.attachment_body[a], model.FindBody("paddle"));
    // the point is the node's initial position in the paddle's frame
    const Vec3 world =
        scene->initial_state.body_X_WB[model.attachment_body[a]] * model.attachment_p_B[a];
    EXPECT_LT((world - scene->initial_state.particle_x_W[model.attachment_particle[a]]).norm(),
              1e-12);
  }
}

TEST(SoftBodySceneTest, SphereFromAPrimitiveAndWarningForAFixedAttachedNode) {
  Expected<Scene> scene = Parse(R"({"name": "ball", "type": "tetmesh", "primitive": "sphere",
      "radius": 0.05, "mesh_size": 0.02, "fixed": {"nodes": [0]},
      "attachments": [{"body": "world", "nodes": [0, 1]}]})");
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  EXPECT_GT(scene->model->tet_count(), 20);
  EXPECT_EQ(scene->model->attachment_count(), 1);  // node 0 is fixed: only node 1
  EXPECT_THAT(scene.diagnostics().Format(),
              HasSubstr("soft.json:3: warning: object 'ball' 'attachments' entry 0: 1 selected "
                        "node(s) are 'fixed' already and are not attached"));
}

// the diagnostics of a scene that must fail, as text
std::string Errors(const std::string& object, const std::string& extra_objects = "") {
  Expected<Scene> scene = Parse(object, extra_objects);
  EXPECT_FALSE(scene.ok()) << object;
  return scene.diagnostics().Format();
}

TEST(SoftBodySceneTest, MistakesAreLocated) {
  // a structured box (no TetGen run) unless the test is about "cells"
  const std::string box = R"({"name": "b", "type": "tetmesh", "primitive": "box", )"
                          R"("size": [0.1, 0.1, 0.1], "cells": [2, 2, 2], )";
  const std::string plain_box =
      R"({"name": "b", "type": "tetmesh", "primitive": "box", "size": [0.1, 0.1, 0.1], )";
  EXPECT_THAT(Errors(box + R"("material_model": "rubber"})"),
              HasSubstr("soft.json:1: error: object 'b' 'material_model' is 'rubber', expected "
                        "one of: neo_hookean, corotational"));
  EXPECT_THAT(Errors(box + R"("fixed": {"box": {"min": [1, 1, 1], "max": [2, 2, 2]}}})"),
              HasSubstr("error: object 'b' 'fixed' selects no node (the box contains none at the "
                        "initial pose)"));
  EXPECT_THAT(Errors(box + R"("fixed": {"nodes": [5000]}})"),
              HasSubstr("error: object 'b' 'fixed' 'nodes' has an entry that is not an index"));
  EXPECT_THAT(Errors(box + R"("activation": [{"tets": [0]}]})"),
              HasSubstr("error: object 'b' 'activation' entry 0 needs a 'pressure' [Pa] or a "
                        "'stretch' [-]"));
  EXPECT_THAT(
      Errors(box + R"("activation": [{"tets": [0], "pressure": 1, "direction": [1, 0, 0]}]})"),
      HasSubstr("error: object 'b' 'activation' entry 0 gives a 'direction' without a "
                "'stretch'"));
  EXPECT_THAT(
      Errors(box + R"("activation": [{"tets": [0], "stretch": 1.1, "direction": [0, 0, 0]}]})"),
      HasSubstr("error: object 'b' 'activation' entry 0 'direction' must not be zero"));
  EXPECT_THAT(Errors(box + R"("activation": [{"tets": [0], "stretch": 4}]})"),
              HasSubstr("error: object 'b' 'activation' entry 0 'stretch'"));
  EXPECT_THAT(Errors(plain_box + R"("cells": [2.5, 1, 1]})"),
              HasSubstr("error: object 'b' 'cells' must be whole numbers"));
  EXPECT_THAT(Errors(box + R"("attachments": [{"body": "nobody", "nodes": [0]}]})"),
              HasSubstr("error: object 'b' 'attachments' entry 0 names unknown object 'nobody'"));
  EXPECT_THAT(Errors(R"({"name": "c", "type": "tetmesh", "primitive": "cone"})"),
              HasSubstr("error: object 'c' 'primitive' is 'cone', expected one of: box, sphere"));
  // 1e-4 m over a 5 cm ball asks TetGen for 4.4e9 tets (hours); refused before it runs
  const auto start = std::chrono::steady_clock::now();
  EXPECT_THAT(Errors(R"({"name": "s", "type": "tetmesh", "primitive": "sphere", "radius": 0.05, )"
                     R"("mesh_size": 1e-4})"),
              HasSubstr("soft.json:1: error: object 's' 'mesh_size' 0.0001 asks TetGen for about "
                        "4.4"));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
  EXPECT_THAT(Errors(R"({"name": "d", "type": "tetmesh"})"),
              HasSubstr("error: object 'd' needs either a 'file' (a tet mesh or a closed "
                        "surface) or a 'primitive' (box, sphere)"));
  // a particle cannot hold a node
  EXPECT_THAT(
      Errors(box + R"("attachments": [{"body": "p", "nodes": [0]}]},)",
             R"({"name": "p", "type": "particle", "radius": 0.01, "position": [1, 0, 0]})"),
      HasSubstr("error: object 'b' 'attachments' entry 0 names particle 'p'; nodes attach to "
                "bodies, fixed objects or \"world\""));
}

TEST(SoftBodySceneTest, SurfaceFileIsTetrahedralizedAndItsFailuresLocated) {
  // a closed OBJ surface (an icosphere written out) becomes a soft body
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "soft_body_scene";
  std::filesystem::create_directories(dir);
  const std::string closed = (dir / "sphere.obj").string();
  {
    const TriangleMesh sphere = Icosphere(2, 1);
    std::ofstream out(closed);
    for (const Vec3& v : sphere.vertices)
      out << "v " << v.x() << " " << v.y() << " " << v.z() << "\n";
    for (const auto& t : sphere.triangles) {
      out << "f " << t[0] + 1 << " " << t[1] + 1 << " " << t[2] + 1 << "\n";
    }
  }
  Expected<Scene> scene = Parse(R"({"name": "ball", "type": "tetmesh", "file": ")" + closed +
                                R"(", "scale": 0.05, "mesh_size": 0.02})");
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  EXPECT_GT(scene->model->tet_count(), 20);
  // an open surface file: the failure at the file, with a note at the scene's 'file'
  const std::string open = (dir / "open.obj").string();
  std::ofstream(open) << "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\n";
  const std::string errors =
      Errors(R"({"name": "open", "type": "tetmesh", "file": ")" + open + R"("})");
  EXPECT_THAT(errors, HasSubstr(open + ": error: surface"));
  EXPECT_THAT(errors, HasSubstr("cannot be tetrahedralized"));
  EXPECT_THAT(errors, HasSubstr("soft.json:1: note: loaded by object 'open'"));
}

}  // namespace
}  // namespace sim::io
