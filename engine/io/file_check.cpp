// File validation behind `contact-sim check`: scenes through the scene reader, URDF through
// the URDF loader, meshes through assimp. Each problem is a Diagnostic naming the file.
#include "engine/io/file_check.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/Importer.hpp>

#include "engine/io/scene_file.h"
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
    diagnostics.Error(path, 0, "",
                      "tetrahedral meshes cannot be checked yet (the tet mesh loader "
                      "comes with deformable bodies)");
    return diagnostics;
  }
  if (Assimp::Importer().IsExtensionSupported(ext)) return CheckMesh(path, summary);
  diagnostics.Error(path, 0, "",
                    "unknown file kind '" + ext +
                        "' (expected a .json scene, a .urdf "
                        "robot or a mesh such as .obj, .stl, .dae)");
  return diagnostics;
}

}  // namespace sim::io
