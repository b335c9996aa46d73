// Default scenes around lone robots and meshes.
#include "ui/asset_scene.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <limits>
#include <memory>
#include <sstream>

#include "engine/geometry/collision_mesh.h"
#include "engine/geometry/convex_hull.h"
#include "engine/state/state.h"
#include "ui/frame_compose.h"

namespace sim::ui {

namespace {

namespace fs = std::filesystem;

// gap left between the object's lowest point and the ground [m]
constexpr Real kDropGap = 0.02;
// drives that hold a lone robot in its initial pose (N·m/rad, N·m·s/rad; N/m, N·s/m)
constexpr Real kHoldStiffness = 1e4;
constexpr Real kHoldDamping = 1e2;
// the camera sees the object's bounding sphere with this much room around it
constexpr Real kFramingMargin = 1.3;

std::string Lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// a JSON string literal
std::string Quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string SceneText(const std::string& name, const std::string& object) {
  std::ostringstream out;
  out << "{\n"
      << "  \"name\": " << Quoted(name) << ",\n"
      << "  \"description\": \"Default scene around " << name << "\",\n"
      << "  \"up\": \"z\",\n"
      << "  \"materials\": {\"ground\": {\"friction\": 0.8, \"color\": [0.28, 0.30, 0.33]},\n"
      << "                \"object\": {\"friction\": 0.6, \"density\": 1000, "
         "\"color\": [0.75, 0.55, 0.35]}},\n"
      << "  \"objects\": [\n"
      << "    {\"name\": \"ground\", \"type\": \"plane\", \"material\": \"ground\"},\n"
      << "    " << object << "\n"
      << "  ]\n"
      << "}\n";
  return out.str();
}

// bounds of everything that is not static world geometry [m]
void ObjectBounds(const Model& model, const State& state, Vec3* lower, Vec3* upper) {
  *lower = Vec3::Constant(std::numeric_limits<Real>::infinity());
  *upper = -*lower;
  for (int s = 0; s < model.shape_count(); ++s) {
    const int body = model.shape_body[s];
    if (body == kWorldBody) continue;
    const Pose X_WS = state.body_X_WB[body] * model.shape_X_BS[s];
    const ShapeGeometry& g = model.shape_geometry[s];
    // hulls by their vertices (exact lowest point), other shapes by a bounding ball
    if (g.type == ShapeType::kConvexHull && g.hull) {
      for (const Vec3& v : g.hull->vertices) {
        *lower = lower->cwiseMin(X_WS * v);
        *upper = upper->cwiseMax(X_WS * v);
      }
      continue;
    }
    const Real r = ShapeBoundingRadius(g);
    *lower = lower->cwiseMin(X_WS.p - Vec3::Constant(r));
    *upper = upper->cwiseMax(X_WS.p + Vec3::Constant(r));
  }
  for (int p = 0; p < model.particle_count(); ++p) {
    *lower = lower->cwiseMin(state.particle_x_W[p] - Vec3::Constant(model.particle_radius[p]));
    *upper = upper->cwiseMax(state.particle_x_W[p] + Vec3::Constant(model.particle_radius[p]));
  }
}

// points the scene's camera at the object's bounds
void FrameCamera(io::Scene* scene) {
  Vec3 lower, upper;
  ObjectBounds(*scene->model, scene->initial_state, &lower, &upper);
  if (!(lower.array() <= upper.array()).all()) return;
  auto model = std::make_shared<Model>(*scene->model);
  const Real radius = std::max(Real(0.05), 0.5 * (upper - lower).norm());
  const Real half_fov = 0.5 * model->camera.fov_y_deg * M_PI / 180.0;
  model->camera.target = 0.5 * (lower + upper);
  model->camera.distance = kFramingMargin * radius / std::sin(half_fov);
  scene->model = std::move(model);
}

Expected<io::Scene> Parse(const std::string& path, const std::string& object) {
  const std::string name = fs::path(path).filename().string();
  return io::ParseScene(SceneText(name, object), path + " (default scene)");
}

}  // namespace


AssetKind AssetKindOf(const std::string& path) {
  const std::string ext = Lower(fs::path(path).extension().string());
  if (ext == ".json") return AssetKind::kScene;
  if (ext == ".urdf") return AssetKind::kUrdf;
  if (ext == ".msh" || ext == ".vtk" || ext == ".node" || ext == ".ele") return AssetKind::kTetMesh;
  if (ext == ".obj" || ext == ".stl" || ext == ".dae" || ext == ".ply" || ext == ".off" ||
      ext == ".glb" || ext == ".gltf") {
    return AssetKind::kSurfaceMesh;
  }
  return AssetKind::kUnknown;
}


const char* OpenFileFilter() {
  return "Scenes, robots and meshes (*.json *.urdf *.msh *.vtk *.node *.ele *.obj *.stl *.dae "
         "*.ply *.off *.glb *.gltf);;Scenes (*.json);;URDF robots (*.urdf);;Tetrahedral meshes "
         "(*.msh *.vtk *.node *.ele);;Surface meshes (*.obj *.stl *.dae *.ply *.off *.glb "
         "*.gltf);;All files (*)";
}


Expected<io::Scene> LoadSceneOrAsset(const std::string& path) {
  const std::string absolute = fs::absolute(path).lexically_normal().string();
  switch (AssetKindOf(path)) {
    case AssetKind::kScene:
    case AssetKind::kUnknown:
      return io::LoadScene(path);
    case AssetKind::kUrdf: {
      // fixed base at the origin; raised when a part of the robot reaches below the ground
      auto object = [&](Real z) {
        std::ostringstream out;
        out << "{\"name\": \"robot\", \"type\": \"urdf\", \"file\": " << Quoted(absolute)
            << ", \"position\": [0, 0, " << z << "], \"fixed_base\": true, \"hold_pose\": "
            << "{\"stiffness\": " << kHoldStiffness << ", \"damping\": " << kHoldDamping << "}}";
        return out.str();
      };
      Expected<io::Scene> scene = Parse(path, object(0));
      if (!scene.ok()) return scene;
      Vec3 lower, upper;
      ObjectBounds(*scene->model, scene->initial_state, &lower, &upper);
      if (std::isfinite(lower.z()) && lower.z() < 0) {
        scene = Parse(path, object(-lower.z() + kDropGap));
        if (!scene.ok()) return scene;
      }
      FrameCamera(&scene.value());
      return scene;
    }
    case AssetKind::kTetMesh:
    case AssetKind::kSurfaceMesh: {
      const bool tet = AssetKindOf(path) == AssetKind::kTetMesh;
      const std::string object =
          "{\"name\": \"object\", \"type\": " + std::string(tet ? "\"tetmesh\"" : "\"mesh\"") +
          ", \"file\": " + Quoted(absolute) + ", \"material\": \"object\"" +
          (tet ? "" : ", \"collision\": \"hull\"") + "}";
      Expected<io::Scene> scene = Parse(path, object);
      if (!scene.ok()) return scene;
      // drop it from just above the ground: move the free body or the nodes up
      Vec3 lower, upper;
      ObjectBounds(*scene->model, scene->initial_state, &lower, &upper);
      if (std::isfinite(lower.z())) {
        const Vec3 lift(0, 0, kDropGap - lower.z());
        State& state = scene->initial_state;
        for (Pose& X : state.body_X_WB) X.p += lift;
        for (Vec3& x : state.particle_x_W) x += lift;
      }
      FrameCamera(&scene.value());
      return scene;
    }
  }
  return io::LoadScene(path);
}

}  // namespace sim::ui
