// File validation behind `contact-sim check`: scenes through the scene reader, URDF through
// the URDF loader, meshes through assimp. Each problem is a Diagnostic naming the file.
#include "engine/io/file_check.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include <assimp/Importer.hpp>

#include "engine/geometry/mesh_primitives.h"
#include "engine/geometry/mesh_topology.h"
#include "engine/geometry/visual_mesh_builder.h"
#include "engine/io/mesh_loader.h"
#include "engine/io/scene_file.h"
#include "engine/io/teleop_recording_file.h"
#include "engine/io/tet_mesh_loader.h"
#include "engine/io/text_file.h"
#include "engine/io/text_util.h"
#include "engine/io/urdf_loader.h"

namespace sim::io {

namespace {

// URDF through the located loader, then converted as a scene would (meshes loaded, hulls built):
// robot name, links, joints by type, mass, resolved meshes, bodies, shapes and visuals
Diagnostics CheckUrdf(const std::string& path, CheckSummary* summary) {
  Expected<UrdfRobot> robot = LoadUrdf(path, UrdfOptions{});
  if (!robot.ok()) return robot.diagnostics();
  Diagnostics diagnostics = robot.diagnostics();
  Model model;
  model.materials.push_back(Material{.name = "default"});
  State state;
  AddRobotToModel(robot.value(), RobotPlacement{}, &model, &state, &diagnostics);
  if (diagnostics.has_errors()) return diagnostics;
  char mass[32];
  std::snprintf(mass, sizeof(mass), "%.3f", robot->TotalMass());
  summary->kind = "urdf";
  summary->details = "robot '" + robot->name + "', " + std::to_string(robot->links.size()) +
                     " links, " + robot->JointSummary() + ", total mass " + mass +
                     " kg, meshes resolved " + std::to_string(robot->mesh_resolved) + "/" +
                     std::to_string(robot->mesh_count) + "; " + std::to_string(model.body_count()) +
                     " bodies, " + std::to_string(model.shape_count()) + " collision shapes, " +
                     std::to_string(model.visual_count()) + " visuals";
  if (robot->mimic_count > 0) {
    summary->details += ", " + std::to_string(robot->mimic_count) + " mimic joints";
  }
  return diagnostics;
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


// a surface mesh as the scene loader reads it (assimp, COLLADA axes and units): its parts
// (materials), welded vertices, triangles, whether it is closed (then its volume) and its bounds
Diagnostics CheckMesh(const std::string& path, CheckSummary* summary) {
  Expected<LoadedMesh> loaded = LoadMesh(path);
  if (!loaded.ok()) return loaded.diagnostics();
  const TriangleMesh& mesh = loaded->mesh;
  Vec3 lo = mesh.vertices.front();
  Vec3 hi = lo;
  for (const Vec3& v : mesh.vertices) {
    lo = lo.cwiseMin(v);
    hi = hi.cwiseMax(v);
  }
  const TriangleMesh welded = WeldVertices(mesh, DefaultWeldTolerance((hi - lo).norm()));
  const MeshTopology topology = BuildMeshTopology(welded);
  char text[256];
  std::snprintf(text, sizeof(text), ", bounding box [%.4g, %.4g] x [%.4g, %.4g] x [%.4g, %.4g]",
                lo.x() + 0.0, hi.x() + 0.0, lo.y() + 0.0, hi.y() + 0.0, lo.z() + 0.0,
                hi.z() + 0.0);  // + 0.0 prints -0 as 0
  std::string closed = "open (" + std::to_string(topology.boundary_edges) + " boundary edges)";
  if (topology.closed) {
    char volume[64];
    std::snprintf(volume, sizeof(volume), "closed, volume %.6g m³", MeshSignedVolume(welded));
    closed = volume;
  } else if (topology.boundary_edges == 0) {
    closed = "not closed (" + std::to_string(topology.nonmanifold_edges) + " non-manifold, " +
             std::to_string(topology.inconsistent_edges) + " inconsistently oriented edges)";
  }
  const std::size_t parts = loaded->parts.size();
  summary->kind = "mesh";
  summary->details = "'" + std::filesystem::path(path).filename().string() + "', " +
                     std::to_string(parts) + (parts == 1 ? " part, " : " parts, ") +
                     std::to_string(welded.vertex_count()) + " vertices, " +
                     std::to_string(welded.triangle_count()) + " triangles, " + closed + text;
  return loaded.diagnostics();
}

// whether the first 512 bytes of the file name the teleop recording format
bool OpensAsTeleopRecording(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string opening(512, '\0');
  in.read(opening.data(), static_cast<std::streamsize>(opening.size()));
  opening.resize(static_cast<std::size_t>(in.gcount()));
  return opening.find(std::string("\"") + kTeleopRecordingFormat + "\"") != std::string::npos;
}

}  // namespace


Diagnostics CheckFile(const std::string& path, CheckSummary* summary) {
  // missing, a device or pipe, or over the input limit: said before any loader reads it
  Diagnostics diagnostics = CheckInputFile(path, "input");
  if (diagnostics.has_errors()) return diagnostics;
  const std::string ext = LowerExtension(path);
  // a teleop recording (by its name, or a .json file whose opening names the format): the file
  // alone (`contact-sim replay` runs it against its scene)
  if (path.ends_with(".teleop.json") || (ext == ".json" && OpensAsTeleopRecording(path))) {
    Expected<TeleopRecordingFile> file = ReadTeleopRecording(path);
    if (file.ok()) {
      const TeleopRecording& recording = file->recording;
      summary->kind = "teleop recording";
      summary->details =
          "scene '" + recording.scene_path + "', " + std::to_string(recording.actions.size()) +
          " actions on " +
          (recording.target_names.empty() ? std::string("no targets")
                                          : Join(recording.target_names)) +
          (recording.steps > 0 ? ", " + std::to_string(recording.steps) + " steps" : std::string());
    }
    return file.diagnostics();
  }
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
      if (model.visual_count() > 0) {
        summary->details += ", " + std::to_string(model.visual_count()) + " visuals";
      }
      if (!model.soft_bodies.empty()) {
        int tets = 0;
        for (const SoftBody& body : model.soft_bodies) tets += static_cast<int>(body.tets.size());
        summary->details += ", " + std::to_string(model.soft_bodies.size()) + " soft bodies (" +
                            std::to_string(tets) + " tets)";
      }
      if (!model.probes.empty()) {
        summary->details += ", " + std::to_string(model.probes.size()) + " probes";
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
