// File validation behind `contact-sim check`: scenes through the scene reader, URDF through
// the URDF loader, meshes through assimp. Each problem is a Diagnostic naming the file.
#include "engine/io/file_check.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/Importer.hpp>

#include "engine/io/scene_file.h"
#include "engine/io/tet_mesh_loader.h"
#include "engine/io/urdf_loader.h"

namespace sim::io {

namespace {

std::string LowerExtension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}


// URDF through the located loader: robot name, links, joints by type, mass, resolved meshes
Diagnostics CheckUrdf(const std::string& path, CheckSummary* summary) {
  Expected<UrdfRobot> robot = LoadUrdf(path, UrdfOptions{});
  if (!robot.ok()) return robot.diagnostics();
  char mass[32];
  std::snprintf(mass, sizeof(mass), "%.3f", robot->TotalMass());
  summary->kind = "urdf";
  summary->details = "robot '" + robot->name + "', " + std::to_string(robot->links.size()) +
                     " links, " + robot->JointSummary() + ", total mass " + mass +
                     " kg, meshes resolved " + std::to_string(robot->mesh_resolved) + "/" +
                     std::to_string(robot->mesh_count);
  return robot.diagnostics();
}


// tet mesh through the located loader: counts, boundary, volumes and bounding box
Diagnostics CheckTetMesh(const std::string& path, CheckSummary* summary) {
  Expected<TetMesh> mesh = LoadTetMesh(path);
  if (!mesh.ok()) return mesh.diagnostics();
  const TetSurface surface = ExtractBoundary(mesh.value());
  Real total = 0;
  Real min_volume = std::numeric_limits<Real>::infinity();
  Real max_volume = 0;
  for (int t = 0; t < mesh->tet_count(); ++t) {
    const Real volume = TetSignedVolume(mesh.value(), t);
    total += volume;
    min_volume = std::min(min_volume, volume);
    max_volume = std::max(max_volume, volume);
  }
  Vec3 lo = Vec3::Constant(std::numeric_limits<Real>::infinity());
  Vec3 hi = -lo;
  for (const Vec3& p : mesh->nodes) {
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
  char text[256];
  std::snprintf(text, sizeof(text),
                ", total volume %.6g, tet volume min %.4g max %.4g, bounding box "
                "[%.4g, %.4g] x [%.4g, %.4g] x [%.4g, %.4g]",
                total, min_volume, max_volume, lo.x() + 0.0, hi.x() + 0.0, lo.y() + 0.0,
                hi.y() + 0.0, lo.z() + 0.0, hi.z() + 0.0);  // + 0.0 prints -0 as 0
  summary->kind = "tet mesh";
  summary->details = "'" + mesh->name + "', " + std::to_string(mesh->node_count()) + " nodes, " +
                     std::to_string(mesh->tet_count()) + " tets, " +
                     std::to_string(surface.triangle_count()) + " boundary triangles" + text;
  return mesh.diagnostics();
}


Diagnostics CheckMesh(const std::string& path, CheckSummary* summary) {
  Diagnostics diagnostics;
  Assimp::Importer importer;
  const aiScene* scene =
      importer.ReadFile(path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices |
                                  aiProcess_ValidateDataStructure);
  if (scene == nullptr || scene->mNumMeshes == 0) {
    const std::string reason = scene == nullptr ? importer.GetErrorString() : "file has no meshes";
    diagnostics.Error(path, 0, "", "cannot read mesh: " + reason);
    return diagnostics;
  }
  std::size_t vertices = 0;
  std::size_t triangles = 0;
  for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
    vertices += scene->mMeshes[m]->mNumVertices;
    triangles += scene->mMeshes[m]->mNumFaces;
  }
  summary->kind = "mesh";
  summary->details = std::to_string(scene->mNumMeshes) + " meshes, " + std::to_string(vertices) +
                     " vertices, " + std::to_string(triangles) + " triangles";
  return diagnostics;
}

}  // namespace


Diagnostics CheckFile(const std::string& path, CheckSummary* summary) {
  Diagnostics diagnostics;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    diagnostics.Error(path, 0, "", "no such file");
    return diagnostics;
  }
  const std::string ext = LowerExtension(path);
  if (ext == ".json") {
    Expected<Scene> scene = LoadScene(path);
    if (scene.ok()) {
      summary->kind = "scene";
      const Model& model = *scene->model;
      summary->details = "'" + model.name + "', " + std::to_string(model.body_count()) +
                         " bodies, " + std::to_string(model.shape_count()) + " shapes";
      // particles and joints only when the scene has some, so old summaries read as before
      if (model.particle_count() > 0) {
        summary->details += ", " + std::to_string(model.particle_count()) + " particles";
      }
      if (model.joint_count() > 0) {
        summary->details += ", " + std::to_string(model.joint_count()) + " joints";
      }
    }
    return scene.diagnostics();
  }
  if (ext == ".urdf") return CheckUrdf(path, summary);
  if (ext == ".node" || ext == ".ele" || ext == ".msh" || ext == ".vtk") {
    return CheckTetMesh(path, summary);
  }
  if (Assimp::Importer().IsExtensionSupported(ext)) return CheckMesh(path, summary);
  diagnostics.Error(path, 0, "",
                    "unknown file kind '" + ext +
                        "' (expected a .json scene, a .urdf "
                        "robot, a tet mesh (.msh, .node, .ele, .vtk) or a mesh such as .obj, "
                        ".stl, .dae)");
  return diagnostics;
}

}  // namespace sim::io
