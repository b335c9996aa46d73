// The import of a lone robot or mesh: the file inspected once, the user's settings turned into a
// scene's JSON (the object loaded at the origin for its bounds, then placed on the ground), and
// that scene loaded from memory or saved as a file.
#include "engine/io/import_scene.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <sstream>

#include <assimp/Importer.hpp>

#include "engine/io/default_scene.h"
#include "engine/io/file_roots.h"
#include "engine/io/mesh_cache.h"
#include "engine/io/tet_mesh_loader.h"
#include "engine/io/text_file.h"
#include "engine/io/text_util.h"
#include "engine/io/urdf_loader.h"

namespace sim::io {

namespace {

namespace fs = std::filesystem;

// where an import's diagnostics come from when they are about its settings
constexpr char kImportSource[] = "import";

// the object's file for a scene in `scene_folder`: relative to it, or absolute when the two
// share no root
std::string FileForScene(const std::string& file, const fs::path& scene_folder) {
  const fs::path relative =
      fs::weakly_canonical(file).lexically_relative(fs::weakly_canonical(scene_folder));
  return relative.empty() ? file : relative.generic_string();
}

// the scene's name for the object: the given one, else the file's stem; never a reserved name
std::string ObjectName(const ImportSettings& settings) {
  std::string name = settings.name;
  if (name.empty()) name = fs::path(settings.source.path).stem().string();
  if (name.empty() || name == "world" || name == "ground") name = "object";
  return name;
}

// orientation of the import as the scene's rpy_deg (R = Rz·Ry·Rx): the up axis is a turn about x
// or y, the yaw one about z
Vec3 RpyDegrees(const ImportSettings& settings) {
  Vec3 rpy(0, 0, settings.yaw_deg);
  switch (settings.up) {
    case UpAxis::kPlusZ:
      break;
    case UpAxis::kPlusY:
      rpy.x() = 90;
      break;
    case UpAxis::kMinusY:
      rpy.x() = -90;
      break;
    case UpAxis::kPlusX:
      rpy.y() = -90;
      break;
    case UpAxis::kMinusX:
      rpy.y() = 90;
      break;
    case UpAxis::kMinusZ:
      rpy.x() = 180;
      break;
  }
  return rpy;
}

std::string JsonVector(const Vec3& v) {
  return "[" + ExactNumber(v.x()) + ", " + ExactNumber(v.y()) + ", " + ExactNumber(v.z()) + "]";
}

// the object's JSON at `position` with `file` as written in the scene
std::string ObjectJson(const ImportSettings& settings, const std::string& file,
                       const Vec3& position) {
  const ImportSource& source = settings.source;
  std::string json = "{\"name\": " + JsonString(ObjectName(settings)) +
                     ", \"file\": " + JsonString(file) + ", \"material\": \"imported\"";
  const std::string pose = ", \"position\": " + JsonVector(position) +
                           ", \"rpy_deg\": " + JsonVector(RpyDegrees(settings));
  const std::string mass = settings.total_mass ? ", \"mass\": " + ExactNumber(*settings.total_mass)
                                               : ", \"density\": " + ExactNumber(settings.density);
  switch (source.kind) {
    case ImportKind::kRobot:
      json += ", \"type\": \"urdf\"" + pose +
              ", \"fixed_base\": " + (settings.fixed_base ? "true" : "false") + ", " +
              HoldPoseJson(source.robot_mass);
      break;
    case ImportKind::kTetMesh:
      json += ", \"type\": \"tetmesh\", \"scale\": " + ExactNumber(settings.scale) + pose + mass +
              ", \"youngs_modulus\": " + ExactNumber(settings.youngs_modulus) +
              ", \"poisson_ratio\": " + ExactNumber(settings.poisson_ratio);
      break;
    case ImportKind::kSurfaceMesh:
      // a closed surface has a volume, hence a mass; an open one is a fixed obstacle
      json += ", \"type\": \"mesh\", \"collision\": \"sdf\", \"scale\": " +
              ExactNumber(settings.scale) + pose + (source.closed ? mass : ", \"fixed\": true");
      break;
  }
  return json + "}";
}

// the scene around `object`: its material, the friction with the ground, the camera, the ground
std::string SceneJson(const ImportSettings& settings, const std::string& object,
                      const std::string& camera) {
  const std::string friction = ExactNumber(settings.friction);
  const std::string file = fs::path(settings.source.path).filename().string();
  return "{\n  \"name\": " + JsonString(ObjectName(settings)) +
         ",\n  \"description\": " + JsonString(file + " imported onto a ground plane") +
         ",\n  \"materials\": {\"imported\": {\"friction\": " + friction +
         ", \"density\": " + ExactNumber(settings.density) +
         ", \"color\": " + JsonVector(settings.color) + "}}" +
         ",\n  \"friction_pairs\": [{\"materials\": [\"imported\", \"default\"], \"friction\": " +
         friction + "}]" + camera +
         ",\n  \"objects\": [\n    {\"name\": \"ground\", \"type\": \"plane\"},\n    " + object +
         "\n  ]\n}\n";
}

// `loaded`'s diagnostics without the notes that point into generated text at `generated`
void AddFileDiagnostics(const Diagnostics& loaded, const std::string& generated,
                        Diagnostics* diagnostics) {
  for (const Diagnostic& d : loaded.items()) {
    if (d.source != generated || d.severity == Severity::kError) diagnostics->Add(d);
  }
}

// "up" preset values
std::optional<UpAxis> ParseUpAxis(std::string text) {
  if (!text.empty() && text.front() == '+') text.erase(0, 1);
  if (text == "z") return UpAxis::kPlusZ;
  if (text == "y") return UpAxis::kPlusY;
  if (text == "-y") return UpAxis::kMinusY;
  if (text == "x") return UpAxis::kPlusX;
  if (text == "-x") return UpAxis::kMinusX;
  if (text == "-z") return UpAxis::kMinusZ;
  return std::nullopt;
}

}  // namespace


const std::vector<ImportMaterialPreset>& ImportMaterialPresets() {
  // soft solids at moduli the NSN solver runs at the default step; rigid ones by density
  static const std::vector<ImportMaterialPreset> presets = {
      {"default", 0.5, 1000, 1e5, 0.3, Vec3(0.8, 0.45, 0.25)},
      {"rubber", 0.9, 1100, 1e6, 0.45, Vec3(0.15, 0.15, 0.17)},
      {"silicone", 1.0, 1070, 1e5, 0.45, Vec3(0.55, 0.75, 0.85)},
      {"foam", 0.6, 50, 1e4, 0.2, Vec3(0.9, 0.8, 0.35)},
      {"wood", 0.5, 600, 1e7, 0.3, Vec3(0.6, 0.4, 0.2)},
      {"steel", 0.4, 7800, 1e7, 0.3, Vec3(0.55, 0.58, 0.62)},
  };
  return presets;
}


std::optional<ImportKind> ImportKindOf(const std::string& path) {
  const std::string ext = LowerExtension(path);
  if (ext == ".urdf") return ImportKind::kRobot;
  if (ext == ".msh" || ext == ".node" || ext == ".ele" || ext == ".vtk") {
    return ImportKind::kTetMesh;
  }
  if (ext != ".json" && !ext.empty() && Assimp::Importer().IsExtensionSupported(ext)) {
    return ImportKind::kSurfaceMesh;
  }
  return std::nullopt;
}


Expected<ImportSource> InspectImportFile(const std::string& path) {
  const std::optional<ImportKind> kind = ImportKindOf(path);
  if (!kind) {
    Diagnostics diagnostics;
    diagnostics.Error(path, 0, "",
                      "cannot import a '" + LowerExtension(path) +
                          "' file (expected a .urdf robot, a tet mesh .msh, .node, .ele, .vtk or "
                          "a mesh such as .obj, .stl, .dae, .ply, .off)");
    return diagnostics;
  }
  Diagnostics diagnostics = CheckInputFile(path, "input");
  if (diagnostics.has_errors()) return diagnostics;
  ImportSource source;
  source.path = fs::absolute(path).lexically_normal().string();
  source.kind = *kind;
  switch (*kind) {
    case ImportKind::kRobot: {
      Expected<UrdfRobot> robot = LoadUrdf(source.path, UrdfOptions{});
      if (!robot.ok()) return robot.diagnostics();
      diagnostics.Append(robot.diagnostics());
      source.robot_mass = robot->TotalMass();
      source.nodes = static_cast<int>(robot->links.size());
      source.elements = static_cast<int>(robot->joints.size());
      break;
    }
    case ImportKind::kTetMesh: {
      Expected<TetMesh> mesh = LoadTetMesh(source.path);
      if (!mesh.ok()) return mesh.diagnostics();
      diagnostics.Append(mesh.diagnostics());
      source.nodes = mesh->node_count();
      source.elements = mesh->tet_count();
      for (int t = 0; t < mesh->tet_count(); ++t) source.volume += TetSignedVolume(mesh.value(), t);
      source.lower = source.upper = mesh->nodes.empty() ? Vec3::Zero() : mesh->nodes.front();
      for (const Vec3& p : mesh->nodes) {
        source.lower = source.lower.cwiseMin(p);
        source.upper = source.upper.cwiseMax(p);
      }
      break;
    }
    case ImportKind::kSurfaceMesh: {
      // the same product a default scene checks the file with (cached for the scene's load)
      const MeshProduct<CollisionMesh> mesh =
          MeshCache::Global().Collision(source.path, Vec3::Ones(), 64);
      diagnostics.Append(mesh.diagnostics);
      if (!mesh.value) return diagnostics;
      source.closed = mesh.value->closed;
      source.volume = mesh.value->closed ? mesh.value->mass.volume : 0;
      source.nodes = static_cast<int>(mesh.value->surface.vertices.size());
      source.elements = static_cast<int>(mesh.value->surface.triangles.size());
      source.lower = mesh.value->lower;
      source.upper = mesh.value->upper;
      break;
    }
  }
  return Expected<ImportSource>(std::move(source), std::move(diagnostics));
}


Real ImportedMass(const ImportSettings& settings) {
  const ImportSource& source = settings.source;
  if (source.kind == ImportKind::kRobot || source.volume <= 0) return 0;
  if (settings.total_mass) return *settings.total_mass;
  return settings.density * source.volume * std::pow(settings.scale, 3);
}


Quat ImportRotation(const ImportSettings& settings) {
  const Vec3 rpy = RpyDegrees(settings) * (std::numbers::pi / 180);
  return Quat(Eigen::AngleAxisd(rpy.z(), Vec3::UnitZ()) *
              Eigen::AngleAxisd(rpy.y(), Vec3::UnitY()) *
              Eigen::AngleAxisd(rpy.x(), Vec3::UnitX()));
}


Vec3 ImportedSize(const ImportSettings& settings) {
  ImportSettings upright = settings;
  upright.yaw_deg = 0;
  const Quat q = ImportRotation(upright);
  // the up axis turns by quarter turns, so the turned box is exactly the box of the turned nodes
  const Vec3 size = q * (settings.source.upper - settings.source.lower);
  const Real scale = settings.source.kind == ImportKind::kRobot ? 1 : settings.scale;
  return scale * size.cwiseAbs();
}


Diagnostics ApplyImportPresets(const std::string& presets, ImportSettings* settings,
                               std::vector<std::pair<std::string, std::string>>* other) {
  Diagnostics diagnostics;
  std::stringstream entries(presets);
  std::string entry;
  while (std::getline(entries, entry, ',')) {
    if (entry.empty()) continue;
    const std::size_t equals = entry.find('=');
    const std::string key = entry.substr(0, equals);
    const std::string value = equals == std::string::npos ? "" : entry.substr(equals + 1);
    auto error = [&](const std::string& expected) {
      diagnostics.Error(kImportSource, 0, "", "'" + entry + "': " + key + " expects " + expected);
    };
    // a number in [lo, hi]
    auto number = [&](Real lo, Real hi, Real* out) {
      Real parsed = 0;
      if (!ParseReal(value, &parsed) || !(parsed >= lo && parsed <= hi)) {
        error("a number in [" + FormatNumber(lo) + ", " + FormatNumber(hi) + "]");
        return;
      }
      *out = parsed;
    };
    if (equals == std::string::npos) {
      diagnostics.Error(kImportSource, 0, "", "'" + entry + "': expected KEY=VALUE");
    } else if (key == "material") {
      const auto& all = ImportMaterialPresets();
      const auto found = std::find_if(
          all.begin(), all.end(), [&](const ImportMaterialPreset& p) { return value == p.name; });
      if (found == all.end()) {
        std::vector<std::string> names;
        for (const ImportMaterialPreset& p : all) names.push_back(p.name);
        error("one of " + Join(names));
      } else {
        settings->friction = found->friction;
        settings->density = found->density;
        settings->youngs_modulus = found->youngs_modulus;
        settings->poisson_ratio = found->poisson_ratio;
        settings->color = found->color;
      }
    } else if (key == "friction") {
      number(0, 10, &settings->friction);
    } else if (key == "youngs_modulus") {
      number(1, 1e13, &settings->youngs_modulus);
    } else if (key == "poisson_ratio") {
      number(-0.99, 0.4999, &settings->poisson_ratio);
    } else if (key == "density") {
      number(1e-3, 1e6, &settings->density);
      settings->total_mass.reset();
    } else if (key == "mass") {
      Real mass = 0;
      number(1e-6, 1e9, &mass);
      if (mass > 0) settings->total_mass = mass;
    } else if (key == "up") {
      const std::optional<UpAxis> up = ParseUpAxis(value);
      if (up) {
        settings->up = *up;
      } else {
        error("z, y, x, -z, -y or -x");
      }
    } else if (key == "scale") {
      number(1e-6, 1e6, &settings->scale);
    } else if (key == "x" || key == "y" || key == "z") {
      number(-1e6, 1e6, &settings->position[key[0] - 'x']);
    } else if (key == "yaw") {
      number(-360, 360, &settings->yaw_deg);
    } else if (key == "base") {
      if (value == "fixed" || value == "free") {
        settings->fixed_base = value == "fixed";
      } else {
        error("fixed or free");
      }
    } else if (other != nullptr) {
      other->emplace_back(key, value);
    } else {
      diagnostics.Error(kImportSource, 0, "",
                        "'" + entry +
                            "': unknown key (expected material, friction, youngs_modulus, "
                            "poisson_ratio, density, mass, up, scale, x, y, z, yaw, base)");
    }
  }
  return diagnostics;
}


Expected<std::string> ImportSceneJson(const ImportSettings& settings, const std::string& scene_path,
                                      const LoadProgress& progress) {
  // the object alone at the origin, turned and scaled, read as the scene will read it
  const std::string probe =
      SceneJson(settings, ObjectJson(settings, settings.source.path, Vec3::Zero()), "");
  Expected<Scene> loaded =
      ParseScene(probe, scene_path,
                 SceneOptions{.file_roots = {"/"}, .draw_fields = false, .progress = progress});
  if (progress.cancelled()) return CancelledLoad(settings.source.path);
  Diagnostics diagnostics;
  AddFileDiagnostics(loaded.diagnostics(), scene_path, &diagnostics);
  if (!loaded.ok()) return diagnostics;

  // on the ground: the lowest point at the clearance, the footprint centred on `position`
  Vec3 lower = Vec3::Zero(), upper = Vec3::Zero();
  SceneBounds(*loaded->model, loaded->initial_state, &lower, &upper);
  const Vec3 centre = 0.5 * (lower + upper);
  const Vec3 position =
      settings.position + Vec3(-centre.x(), -centre.y(), kDefaultSceneClearance - lower.z());
  CameraSetup camera;
  FrameOnGround(upper - lower, &camera);
  camera.target += settings.position;
  const std::string camera_json = ",\n  \"camera\": {\"target\": " + JsonVector(camera.target) +
                                  ", \"distance\": " + ExactNumber(camera.distance) +
                                  ", \"yaw_deg\": " + ExactNumber(camera.yaw_deg) +
                                  ", \"pitch_deg\": " + ExactNumber(camera.pitch_deg) + "}";
  const std::string file =
      FileForScene(settings.source.path, fs::absolute(scene_path).parent_path());
  return Expected<std::string>(
      SceneJson(settings, ObjectJson(settings, file, position), camera_json),
      std::move(diagnostics));
}


Expected<Scene> LoadImportScene(const ImportSettings& settings, const LoadProgress& progress) {
  const fs::path file(settings.source.path);
  const std::string scene_path =
      (file.parent_path() / (file.stem().string() + ".import.json")).string();
  Expected<std::string> text = ImportSceneJson(settings, scene_path, progress.Part(0, 0.5));
  if (progress.cancelled()) return CancelledLoad(settings.source.path);
  if (!text.ok()) return text.diagnostics();
  Diagnostics diagnostics = text.diagnostics();
  // the file the user chose is read wherever it is, with the resources it names
  Expected<Scene> loaded =
      ParseScene(text.value(), scene_path,
                 SceneOptions{.file_roots = {"/"}, .progress = progress.Part(0.5, 1)});
  if (progress.cancelled()) return CancelledLoad(settings.source.path);
  // the object's file diagnostics were reported by the first read already
  for (const Diagnostic& d : loaded.diagnostics().items()) {
    if (d.severity == Severity::kError) diagnostics.Add(d);
  }
  if (!loaded.ok()) return diagnostics;
  Scene scene = std::move(loaded.value());
  scene.path = settings.source.path;
  progress.Report(1);
  return Expected<Scene>(std::move(scene), std::move(diagnostics));
}


Diagnostics SaveImportScene(const ImportSettings& settings, const std::string& scene_path) {
  Diagnostics diagnostics;
  // a scene may name only files inside its roots: say so before anything is written
  const FileRoots roots = FileRoots::ForScene(scene_path, {});
  if (!roots.Contains(settings.source.path)) {
    diagnostics.Error(scene_path, 0, "",
                      "cannot save the scene here: it would name " + settings.source.path +
                          ", which lies outside the folders a scene here may read (" +
                          roots.Describe() + "); save it in " +
                          fs::path(settings.source.path).parent_path().string() +
                          " or below, or add that folder to " + kFileRootsVariable);
    return diagnostics;
  }
  Expected<std::string> text = ImportSceneJson(settings, scene_path);
  if (!text.ok()) return text.diagnostics();
  // as the studio and `contact-sim check` will read it (a robot's meshes inside the roots too)
  Expected<Scene> reread = ParseScene(text.value(), scene_path, SceneOptions{.draw_fields = false});
  if (!reread.ok()) return reread.diagnostics();
  std::ofstream out(scene_path, std::ios::binary | std::ios::trunc);
  out << text.value();
  out.close();
  if (!out) {
    diagnostics.Error(scene_path, 0, "", "cannot write the scene file");
    return diagnostics;
  }
  return text.diagnostics();
}

}  // namespace sim::io
