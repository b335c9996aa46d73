// The default scene around a lone file: the object is read through the scene reader (a generated
// one-object scene, so it loads exactly as it would from a scene file), then moved onto a ground
// plane and framed by the camera.
#include "engine/io/default_scene.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <numbers>

#include <assimp/Importer.hpp>

#include "engine/geometry/isosurface.h"
#include "engine/geometry/visual_mesh.h"
#include "engine/io/mesh_cache.h"
#include "engine/io/text_file.h"
#include "engine/io/text_util.h"
#include "engine/io/urdf_loader.h"

namespace sim::io {

namespace {

constexpr Real kGravity = 9.81;

struct Bounds {
  Vec3 lower = Vec3::Constant(kInfinity);
  Vec3 upper = Vec3::Constant(-kInfinity);
  void Add(const Vec3& p) {
    lower = lower.cwiseMin(p);
    upper = upper.cwiseMax(p);
  }
  // the 8 corners of the local box [lo, hi] placed by X
  void AddBox(const Pose& X, const Vec3& lo, const Vec3& hi) {
    for (int c = 0; c < 8; ++c) {
      Add(X *
          Vec3((c & 1) ? hi.x() : lo.x(), (c & 2) ? hi.y() : lo.y(), (c & 4) ? hi.z() : lo.z()));
    }
  }
  bool valid() const {
    return lower.allFinite() && upper.allFinite() && (upper - lower).minCoeff() >= 0;
  }
};

// bounds of one shape or visual geometry placed at X_WS (planes and unbounded fields add nothing)
void AddGeometry(const ShapeGeometry& g, const Pose& X_WS, Bounds* bounds) {
  const Real r = g.radius;
  switch (g.type) {
    case ShapeType::kBox:
      bounds->AddBox(X_WS, -g.half_extents, g.half_extents);
      return;
    case ShapeType::kSphere:
      bounds->AddBox(X_WS, Vec3::Constant(-r), Vec3::Constant(r));
      return;
    case ShapeType::kCapsule:
      bounds->AddBox(X_WS, -Vec3(r, r, g.half_length + r), Vec3(r, r, g.half_length + r));
      return;
    case ShapeType::kCylinder:
      bounds->AddBox(X_WS, -Vec3(r, r, g.half_length), Vec3(r, r, g.half_length));
      return;
    case ShapeType::kConvexHull:
      if (g.hull) {
        for (const Vec3& v : g.hull->vertices) bounds->Add(X_WS * v);
      }
      return;
    case ShapeType::kMesh:
      // the vertices themselves: a turned mesh's box corners reach below its lowest point
      if (g.mesh) {
        for (const Vec3& v : g.mesh->surface.vertices) bounds->Add(X_WS * v);
      }
      return;
    case ShapeType::kSdf: {
      Vec3 lo, hi;
      if (g.sdf && AnalyticSdfBounds(*g.sdf, &lo, &hi) && (hi - lo).minCoeff() >= 0) {
        bounds->AddBox(X_WS, lo, hi);
      }
      return;
    }
    case ShapeType::kPlane:
    case ShapeType::kNone:
      return;
  }
}

// world bounds of everything drawn or colliding: visuals, shapes, particles
Bounds WorldBounds(const Model& model, const State& state) {
  Bounds bounds;
  auto pose_of = [&](int body, const Pose& X_B) {
    return body == kWorldBody ? X_B : state.body_X_WB[body] * X_B;
  };
  for (int v = 0; v < model.visual_count(); ++v) {
    const Pose X_WV = pose_of(model.visual_body[v], model.visual_X_BV[v]);
    if (model.visual_mesh[v]) {
      for (const auto& p : model.visual_mesh[v]->positions)
        bounds.Add(X_WV * Vec3(p[0], p[1], p[2]));
    } else {
      AddGeometry(model.visual_geometry[v], X_WV, &bounds);
    }
  }
  for (int s = 0; s < model.shape_count(); ++s) {
    AddGeometry(model.shape_geometry[s], pose_of(model.shape_body[s], model.shape_X_BS[s]),
                &bounds);
  }
  for (int p = 0; p < model.particle_count(); ++p) {
    bounds.Add(state.particle_x_W[p] - Vec3::Constant(model.particle_radius[p]));
    bounds.Add(state.particle_x_W[p] + Vec3::Constant(model.particle_radius[p]));
  }
  return bounds;
}

// moves everything of the scene by t (bodies, particles, world shapes and visuals, joints to the
// world)
void Translate(const Vec3& t, Model* model, State* state) {
  for (Pose& X : state->body_X_WB) X.p += t;
  for (Vec3& x : state->particle_x_W) x += t;
  for (int s = 0; s < model->shape_count(); ++s) {
    if (model->shape_body[s] == kWorldBody) model->shape_X_BS[s].p += t;
  }
  for (int v = 0; v < model->visual_count(); ++v) {
    if (model->visual_body[v] == kWorldBody) model->visual_X_BV[v].p += t;
  }
  for (int j = 0; j < model->joint_count(); ++j) {
    if (model->joint_parent[j] == kWorldBody) model->joint_X_PJ[j].p += t;
  }
}

// the object of the generated scene for `path`, or "" with an error for an unknown kind (or a
// cancel of `progress`, which follows the mesh a surface file is checked with)
std::string ObjectJson(const std::string& path, const std::string& name,
                       const LoadProgress& progress, Diagnostics* diagnostics) {
  const std::string ext = LowerExtension(path);
  const std::string head = "{\"name\": " + JsonString(name) + ", \"file\": " + JsonString(path);
  if (ext == ".urdf") {
    // hold the zero pose: gravity torques of about m·g·(1 m) sag the joints by ~1e-3 rad
    Expected<UrdfRobot> robot = LoadUrdf(path, UrdfOptions{});
    if (!robot.ok()) {
      diagnostics->Append(robot.diagnostics());
      return "";
    }
    return head + ", \"type\": \"urdf\", \"fixed_base\": true, " +
           HoldPoseJson(robot->TotalMass()) + "}";
  }
  if (ext == ".msh" || ext == ".node" || ext == ".ele" || ext == ".vtk") {
    return head + ", \"type\": \"tetmesh\"}";
  }
  if (Assimp::Importer().IsExtensionSupported(ext)) {
    // a closed surface has a volume, hence a mass: it falls; an open one is a fixed obstacle
    const MeshProduct<CollisionMesh> mesh =
        MeshCache::Global().Collision(path, Vec3::Ones(), 64, progress);
    if (progress.CheckCancelled(path, diagnostics)) return "";
    const bool closed = mesh.value && mesh.value->closed;
    return head + ", \"type\": \"mesh\", \"collision\": \"sdf\"" +
           (closed ? std::string() : std::string(", \"fixed\": true")) + "}";
  }
  diagnostics->Error(path, 0, "",
                     "cannot make a scene around a '" + ext +
                         "' file (expected a .urdf robot, a mesh such as .obj, .stl, .dae, or a "
                         "tet mesh .msh, .node, .ele, .vtk)");
  return "";
}

}  // namespace


Expected<Scene> MakeDefaultSceneFor(const std::string& path, const LoadProgress& progress) {
  Diagnostics diagnostics = CheckInputFile(path, "input");
  if (diagnostics.has_errors()) return diagnostics;
  const std::filesystem::path file(path);
  std::string name = file.stem().string();
  if (name.empty() || name == "world") name = "object";
  // the file's own mesh check first (its SDF is cached for the scene reader), then the scene
  const std::string object = ObjectJson(std::filesystem::absolute(file).string(), name,
                                        progress.Part(0, 0.5), &diagnostics);
  if (progress.cancelled()) return CancelledLoad(path);
  if (object.empty()) return diagnostics;

  // the object alone at the origin, read as any scene object
  const std::string generated = (file.parent_path() / (name + ".default-scene.json")).string();
  const std::string text =
      "{\"name\": " + JsonString(file.filename().string()) +
      ", \"description\": " + JsonString("default scene around " + file.filename().string()) +
      ", \"objects\": [" + object + "]}";
  // the file the user opened is read wherever it is, with the resources it names
  Expected<Scene> loaded = ParseScene(
      text, generated, SceneOptions{.file_roots = {"/"}, .progress = progress.Part(0.5, 1)});
  if (progress.cancelled()) return CancelledLoad(path);
  // the file's own diagnostics, without notes that point into the generated text
  for (const Diagnostic& d : loaded.diagnostics().items()) {
    if (d.source != generated || d.severity == Severity::kError) diagnostics.Add(d);
  }
  if (!loaded.ok()) return diagnostics;

  auto model = std::make_shared<Model>(*loaded->model);
  Scene scene;
  scene.path = path;
  scene.initial_state = loaded->initial_state;

  // on the ground: lowest point at the clearance, centred in x and y
  Bounds bounds = WorldBounds(*model, scene.initial_state);
  if (!bounds.valid()) bounds.lower = bounds.upper = Vec3::Zero();
  const Vec3 centre = 0.5 * (bounds.lower + bounds.upper);
  Translate(Vec3(-centre.x(), -centre.y(), kDefaultSceneClearance - bounds.lower.z()), model.get(),
            &scene.initial_state);
  const Vec3 size = bounds.upper - bounds.lower;

  // the ground plane z = 0
  const int ground = model->shape_count();
  model->shape_name.push_back("ground");
  model->shape_geometry.push_back(ShapeGeometry{.type = ShapeType::kPlane});
  model->shape_body.push_back(kWorldBody);
  model->shape_X_BS.push_back(Pose{});
  model->shape_material.push_back(0);
  model->shape_color.push_back({0.55f, 0.55f, 0.55f});
  if (!model->shape_visual_mesh.empty()) model->shape_visual_mesh.resize(ground + 1);

  FrameOnGround(size, &model->camera);
  scene.model = std::move(model);
  progress.Report(1);
  return Expected<Scene>(std::move(scene), std::move(diagnostics));
}


std::string HoldPoseJson(Real robot_mass) {
  const Real stiffness = 1000 * std::max<Real>(robot_mass, 1e-3) * kGravity;
  char hold[160];
  std::snprintf(hold, sizeof(hold), "\"hold_pose\": {\"stiffness\": %.6g, \"damping\": %.6g}",
                stiffness, 0.01 * stiffness);
  return hold;
}


bool SceneBounds(const Model& model, const State& state, Vec3* lower, Vec3* upper) {
  const Bounds bounds = WorldBounds(model, state);
  if (!bounds.valid()) return false;
  *lower = bounds.lower;
  *upper = bounds.upper;
  return true;
}


void FrameOnGround(const Vec3& size, CameraSetup* camera) {
  camera->target = Vec3(0, 0, kDefaultSceneClearance + 0.5 * size.z());
  const Real radius = std::max<Real>(0.5 * size.norm(), 0.01);
  const Real half_fov = 0.5 * camera->fov_y_deg * std::numbers::pi / 180;
  camera->distance = std::clamp<Real>(1.25 * radius / std::sin(half_fov), 0.05, 1e4);
  camera->pitch_deg = 20;
  camera->yaw_deg = 35;
}


Expected<Scene> LoadAnyScene(const std::string& path, const LoadProgress& progress) {
  if (LowerExtension(path) == ".json") return LoadScene(path, progress);
  return MakeDefaultSceneFor(path, progress);
}

}  // namespace sim::io
