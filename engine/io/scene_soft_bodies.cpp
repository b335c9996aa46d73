// Scene objects of type "tetmesh": a deformable solid whose nodes become particles with lumped
// masses and whose tets carry the FEM material (engine/fem). The volume mesh comes from a tet mesh
// file (Gmsh, TetGen, VTK), from a closed surface file or from a primitive, both tetrahedralized
// with TetGen (tetrahedralize.h). Node selections (a box in world coordinates at the initial
// pose, or node indices in the mesh's order) fix nodes and attach them to bodies; tet selections
// (centroid in a box, or tet indices) carry an activation: a pressure and/or a growth. Every
// problem is reported at its JSON value. The keys are documented in docs/scene-format.md.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <set>

#include "engine/fem/tet_elements.h"
#include "engine/geometry/collision_mesh.h"
#include "engine/geometry/mesh_primitives.h"
#include "engine/geometry/tet_mesh.h"
#include "engine/geometry/visual_mesh_builder.h"
#include "engine/io/mesh_loader.h"
#include "engine/io/scene_reader.h"
#include "engine/io/tet_mesh_loader.h"
#include "engine/io/tetrahedralize.h"
#include "engine/solvers/nsn/nsn_settings.h"

namespace sim::io {
namespace {

// sizes outside [0.1 mm, 10 km] are not what the solver is tuned for (as scene_shapes.cpp)
constexpr double kMinSize = 1e-4;
constexpr double kMaxSize = 1e4;

// a primitive's target edge length defaults to 1/4 of the cube root of its volume; TetGen's
// quality refinement adds the rest: a few thousand tets (a 5 cm ball 2556, a 10 cm cube 2087),
// which a step solves in tens of milliseconds (1/8 gave 15k and 11k)
constexpr double kDefaultEdgesAcross = 4;

// false (with an error at 'mesh_size', naming the smallest size allowed) when the closed
// `surface` at the tet volume bound `max_volume` asks for more tets than the scene options allow
// (SceneOptions::max_tets_by_volume), checked before TetGen runs
bool WithinTetBudget(SceneReader& reader, const JsonValue& object, const TriangleMesh& surface,
                     double mesh_size, double max_volume, const std::string& what) {
  if (max_volume <= 0) return true;
  const double budget = reader.options().max_tets_by_volume;
  const double volume = std::abs(MeshSignedVolume(surface));
  const double tets = volume / max_volume;
  if (tets <= budget) return true;
  const double smallest = mesh_size * std::cbrt(tets / budget);
  const JsonValue* at = object.Find("mesh_size");
  reader.Error(at != nullptr ? *at : object,
               what + " 'mesh_size' " + FormatNumber(mesh_size) + " asks TetGen for about " +
                   FormatNumber(tets) + " tets (volume " + FormatNumber(volume) +
                   " m³), more than " + FormatNumber(budget) + ": use a 'mesh_size' of at least " +
                   FormatNumber(smallest));
  return false;
}

bool IsTetMeshFile(const std::string& path) {
  const std::string ext = LowerExtension(path);
  return ext == ".msh" || ext == ".node" || ext == ".ele" || ext == ".vtk";
}

// the volume mesh of the object: a tet mesh file, or a closed surface (file or primitive)
// tetrahedralized; nodes in the object frame [m]. `at` receives the value to blame. `progress`
// follows the file and TetGen.
bool ReadVolumeMesh(SceneReader& reader, const JsonValue& object, const std::string& what,
                    double scale, const LoadProgress& progress, TetMesh* mesh,
                    const JsonValue** at) {
  const JsonValue* primitive = object.Find("primitive");
  const JsonValue* file = object.Find("file");
  if ((primitive == nullptr) == (file == nullptr)) {
    reader.Error(object, what +
                             " needs either a 'file' (a tet mesh or a closed surface) or a "
                             "'primitive' (box, sphere)");
    return false;
  }
  double mesh_size = 0;
  double quality = 1.5;
  if (!reader.ReadNumber(object, "mesh_size", &mesh_size, kMinSize, kMaxSize, what) ||
      !reader.ReadNumber(object, "mesh_quality", &quality, 1.1, 10, what)) {
    return false;
  }
  TetrahedralizeOptions options;
  options.quality = quality;

  // a tet mesh file is used as it is
  if (file != nullptr) {
    *at = file;
    const std::string path = ResolveFile(reader, object, what);
    if (path.empty()) return false;
    if (IsTetMeshFile(path)) {
      for (const char* key : {"mesh_size", "mesh_quality"}) {
        if (const JsonValue* v = object.Find(key)) {
          reader.Warning(*v, what + " loads a tet mesh; '" + key + "' applies to surfaces only");
        }
      }
      Expected<TetMesh> loaded = LoadTetMesh(path, scale, progress);
      AppendWithNote(reader, loaded.diagnostics(), *file, "loaded by " + what);
      if (!loaded.ok()) return false;
      *mesh = std::move(loaded.value());
      return true;
    }
    // a closed surface file, tetrahedralized
    progress.Stage("loading mesh " + std::filesystem::path(path).filename().string());
    Expected<LoadedMesh> surface = LoadMesh(path, Vec3::Constant(scale));
    AppendWithNote(reader, surface.diagnostics(), *file, "loaded by " + what);
    if (!surface.ok()) return false;
    options.max_volume = mesh_size > 0 ? TetVolumeForEdgeLength(mesh_size) : 0;
    // files store a vertex per triangle corner where normals or uvs differ: weld by position so
    // a closed surface reads as closed
    const TriangleMesh& loaded = surface->mesh;
    Vec3 lower = Vec3::Constant(std::numeric_limits<Real>::infinity()), upper = -lower;
    for (const Vec3& v : loaded.vertices) {
      lower = lower.cwiseMin(v);
      upper = upper.cwiseMax(v);
    }
    const TriangleMesh welded = WeldVertices(
        loaded, DefaultWeldTolerance(loaded.vertices.empty() ? 0 : (upper - lower).norm()));
    if (!WithinTetBudget(reader, object, welded, mesh_size, options.max_volume, what)) {
      return false;
    }
    Expected<TetMesh> tets = TetrahedralizeSurface(welded, options, path, progress.Part(0.1, 1));
    AppendWithNote(reader, tets.diagnostics(), *file, "loaded by " + what);
    if (!tets.ok()) return false;
    *mesh = std::move(tets.value());
    return true;
  }

  // a primitive's surface at about the target edge length, tetrahedralized
  *at = primitive;
  if (!reader.ExpectType(*primitive, JsonValue::Type::kString, what + " 'primitive'")) return false;
  TriangleMesh surface;
  const std::string& type = primitive->string();
  if (type == "box") {
    Vec3 size = Vec3::Zero();
    if (object.Find("size") == nullptr) {
      reader.Error(object, what + " of primitive 'box' needs 'size'");
      return false;
    }
    if (!reader.ReadArray<3>(object, "size", &size, what, kMinSize, kMaxSize)) return false;
    size *= scale;
    // "cells": a structured mesh of 5 tets per cell instead of TetGen's
    if (object.Find("cells") != nullptr) {
      Eigen::Vector3d cells = Eigen::Vector3d::Ones();
      if (!reader.ReadArray<3>(object, "cells", &cells, what, 1, 1000)) return false;
      if (cells != cells.array().floor().matrix()) {
        reader.Error(*object.Find("cells"), what + " 'cells' must be whole numbers");
        return false;
      }
      if (cells.prod() > reader.options().max_structured_cells) {
        reader.Error(*object.Find("cells"),
                     what + " 'cells' asks for more than " +
                         FormatNumber(reader.options().max_structured_cells) + " cells");
        return false;
      }
      *mesh = StructuredBoxTetMesh(size, {static_cast<int>(cells.x()), static_cast<int>(cells.y()),
                                          static_cast<int>(cells.z())});
      return true;
    }
    if (mesh_size <= 0) mesh_size = std::cbrt(size.prod()) / kDefaultEdgesAcross;
    // faces split into n × n quads, n from the longest side (TetGen refines the rest)
    const int n = std::clamp(static_cast<int>(std::ceil(size.maxCoeff() / mesh_size)), 1, 200);
    surface = SubdividedBoxMesh(0.5 * size, n, "box");
  } else if (type == "sphere") {
    double radius = 0;
    if (object.Find("radius") == nullptr) {
      reader.Error(object, what + " of primitive 'sphere' needs 'radius'");
      return false;
    }
    if (!reader.ReadNumber(object, "radius", &radius, kMinSize, kMaxSize, what)) return false;
    radius *= scale;
    if (mesh_size <= 0) mesh_size = radius * std::cbrt(4.18879) / kDefaultEdgesAcross;
    // the icosahedron's edge is 1.05 r and each level halves it
    int levels = 0;
    while (levels < 6 && 1.05 * radius / (1 << levels) > mesh_size) ++levels;
    surface = Icosphere(levels, radius, "sphere");
  } else {
    reader.Error(*primitive, what + " 'primitive' is '" + type + "', expected one of: box, sphere");
    return false;
  }
  options.max_volume = TetVolumeForEdgeLength(mesh_size);
  if (!WithinTetBudget(reader, object, surface, mesh_size, options.max_volume, what)) return false;
  Expected<TetMesh> tets = TetrahedralizeSurface(surface, options, reader.source(), progress);
  AppendWithNote(reader, tets.diagnostics(), *primitive, "loaded by " + what);
  if (!tets.ok()) return false;
  *mesh = std::move(tets.value());
  return true;
}

// {"min": [x, y, z], "max": [x, y, z]} (world frame) into lower/upper
bool ReadBox(SceneReader& reader, const JsonValue& box, const std::string& what, Vec3* lower,
             Vec3* upper) {
  if (!reader.ExpectType(box, JsonValue::Type::kObject, what)) return false;
  reader.CheckKeys(box, {"min", "max"}, what);
  if (box.Find("min") == nullptr || box.Find("max") == nullptr) {
    reader.Error(box, what + " needs 'min' and 'max' (world corners [m])");
    return false;
  }
  if (!reader.ReadArray<3>(box, "min", lower, what, -1e6, 1e6) ||
      !reader.ReadArray<3>(box, "max", upper, what, -1e6, 1e6)) {
    return false;
  }
  if ((lower->array() > upper->array()).any()) {
    reader.Error(box, what + " has 'min' above 'max' on some axis");
    return false;
  }
  return true;
}

// indices of an array member `key` in [0, count)
bool ReadIndices(SceneReader& reader, const JsonValue& value, const std::string& what, int count,
                 std::set<int>* out) {
  if (!reader.ExpectType(value, JsonValue::Type::kArray, what)) return false;
  for (const JsonValue& item : value.items()) {
    if (!item.is_number() || item.number() != std::floor(item.number()) || item.number() < 0 ||
        item.number() >= count) {
      reader.Error(item, what + " has an entry that is not an index in [0, " +
                             std::to_string(count - 1) + "]");
      return false;
    }
    out->insert(static_cast<int>(item.number()));
  }
  return true;
}

// a node selection {"nodes": [...], "box": {...}} (either or both: their union) over the nodes at
// world positions `x`; an empty selection is an error (a scene that clamps nothing is a typo)
bool ReadNodeSelection(SceneReader& reader, const JsonValue& selection, const std::string& what,
                       const std::vector<Vec3>& x, std::vector<int>* nodes,
                       std::initializer_list<const char*> other_keys) {
  if (!reader.ExpectType(selection, JsonValue::Type::kObject, what)) return false;
  std::vector<const char*> keys = {"nodes", "box"};
  keys.insert(keys.end(), other_keys.begin(), other_keys.end());
  for (const auto& [key, value] : selection.members()) {
    // init-capture: clang before 16 cannot capture a structured binding
    if (std::none_of(keys.begin(), keys.end(), [&key = key](const char* k) { return key == k; })) {
      reader.Warning(value, what + " has unknown key '" + key + "' (expected: nodes, box" +
                                (other_keys.size() ? ", " + Join(other_keys) : "") + ")");
    }
  }
  const JsonValue* ids = selection.Find("nodes");
  const JsonValue* box = selection.Find("box");
  if (ids == nullptr && box == nullptr) {
    reader.Error(selection, what + " selects no nodes: give 'nodes' (indices) or 'box'");
    return false;
  }
  std::set<int> chosen;
  if (ids != nullptr &&
      !ReadIndices(reader, *ids, what + " 'nodes'", static_cast<int>(x.size()), &chosen)) {
    return false;
  }
  if (box != nullptr) {
    Vec3 lower, upper;
    if (!ReadBox(reader, *box, what + " 'box'", &lower, &upper)) return false;
    for (int k = 0; k < static_cast<int>(x.size()); ++k) {
      if ((x[k].array() >= lower.array()).all() && (x[k].array() <= upper.array()).all()) {
        chosen.insert(k);
      }
    }
  }
  if (chosen.empty()) {
    reader.Error(selection, what + " selects no node (the box contains none at the initial pose)");
    return false;
  }
  nodes->assign(chosen.begin(), chosen.end());
  return true;
}

// the activation entries [{"tets": [...] | "box": {...}, "pressure": Pa, "stretch": s,
// "direction": [x, y, z]}] into per-tet pressures and growths. The direction is in the mesh's own
// frame, the material space of the rest positions; without it the growth is isotropic. Growths
// of several entries on one tet compose.
bool ReadActivation(SceneReader& reader, const JsonValue& list, const std::string& what,
                    const TetMesh& mesh, const std::vector<Vec3>& x, SoftBody* body) {
  if (!reader.ExpectType(list, JsonValue::Type::kArray, what)) return false;
  body->tet_activation.assign(mesh.tet_count(), 0);
  std::vector<Mat3> growth(mesh.tet_count(), Mat3::Identity());
  bool grows = false;
  for (std::size_t i = 0; i < list.items().size(); ++i) {
    const JsonValue& entry = list.items()[i];
    const std::string name = what + " entry " + std::to_string(i);
    if (!reader.ExpectType(entry, JsonValue::Type::kObject, name)) return false;
    reader.CheckKeys(entry, {"tets", "box", "pressure", "stretch", "direction"}, name);
    if (entry.Find("pressure") == nullptr && entry.Find("stretch") == nullptr) {
      reader.Error(entry, name + " needs a 'pressure' [Pa] or a 'stretch' [-]");
      return false;
    }
    if (entry.Find("direction") != nullptr && entry.Find("stretch") == nullptr) {
      reader.Error(*entry.Find("direction"), name + " gives a 'direction' without a 'stretch'");
      return false;
    }
    double pressure = 0;
    double stretch = 1;
    Vec3 direction = Vec3::Zero();
    if (!reader.ReadNumber(entry, "pressure", &pressure, -1e9, 1e9, name)) return false;
    // beyond a factor of 3 either way the grown tets are no longer what the solver handles
    if (!reader.ReadNumber(entry, "stretch", &stretch, 1.0 / 3, 3, name)) return false;
    if (!reader.ReadArray<3>(entry, "direction", &direction, name, -1e6, 1e6)) return false;
    if (entry.Find("direction") != nullptr && !(direction.norm() > 1e-12)) {
      reader.Error(*entry.Find("direction"), name + " 'direction' must not be zero");
      return false;
    }
    // G = I + (s − 1) d dᵀ along the unit direction in material space, or s I
    Mat3 entry_growth = stretch * Mat3::Identity();
    if (entry.Find("direction") != nullptr) {
      const Vec3 d = direction.normalized();
      entry_growth = Mat3::Identity() + (stretch - 1) * d * d.transpose();
    }
    std::set<int> chosen;
    const JsonValue* ids = entry.Find("tets");
    const JsonValue* box = entry.Find("box");
    if (ids == nullptr && box == nullptr) {
      reader.Error(entry, name + " selects no tets: give 'tets' (indices) or 'box'");
      return false;
    }
    if (ids != nullptr && !ReadIndices(reader, *ids, name + " 'tets'", mesh.tet_count(), &chosen)) {
      return false;
    }
    if (box != nullptr) {
      Vec3 lower, upper;
      if (!ReadBox(reader, *box, name + " 'box'", &lower, &upper)) return false;
      for (int t = 0; t < mesh.tet_count(); ++t) {
        Vec3 centroid = Vec3::Zero();
        for (int k : mesh.tets[t]) centroid += 0.25 * x[k];
        if ((centroid.array() >= lower.array()).all() &&
            (centroid.array() <= upper.array()).all()) {
          chosen.insert(t);
        }
      }
    }
    if (chosen.empty()) {
      reader.Error(entry, name + " selects no tet (no tet centroid lies in the box)");
      return false;
    }
    for (int t : chosen) {
      body->tet_activation[t] += pressure;
      growth[t] = entry_growth * growth[t];
    }
    grows |= stretch != 1;
  }
  if (grows) body->tet_growth = std::move(growth);
  return true;
}

// Measured (tests and scenes of issue 5, with the closed-form rotation stiffness of the element
// rows), with c = √((λ + 2μ)/ρ) the pressure-wave speed and h the mean edge:
// - stability: a ball of 6851 tets with c·Δt/h = 9.4 holds down to 15 inner iterations, gains
//   11 % energy at 12 and diverges at 5; the cantilever, c·Δt/h = 12.8, holds at 15 but drifts
//   21 % in energy over 1 s, 1 % at 26;
// - accuracy: the same ball, once it rolls on a frictional ground, speeds up at 20 inner
//   iterations (0.27 m/s at 2.5 s: the unconverged contact and element forces lag the motion,
//   README "Known problems"), rolls steadily at 30 (7 cm/s) and slows down from 40.
// So about 3.5·c·Δt/h iterations keep the element rows converged enough (kIterationsPerWaveCell
// = 4 with a margin: at 33 = 3.5·9.4 the ball still rolled at 5.7 cm/s at 4 s, at 35 1.2 cm/s,
// which solver.wave_iterations gives by default up to its most); below that say so at
// load. The back-tracking line search (solver.line_search) keeps stiff scenes finite (it rejects
// the Newton steps the unconverged inner solve gets wrong) but does not stop the rolling ball's
// gain (measured), so it only drops the stability advice. The exact element-block preconditioner
// (woodbury) does not need a pressure wave carried row by row, so the estimate does not apply
// (the PneuNet's fingers, c·Δt/h = 248, run at 4 × 10 with it).

void WarnIfTooStiff(SceneReader& reader, const JsonValue& object, const std::string& what,
                    const Model& model, const SoftBody& body, const SolverOptions& options) {
  // the estimate is the NSN solver's (its inner iterations carry the pressure wave)
  if (options.name != "nsn" || body.tet_count() == 0) return;
  const NsnSettings settings = ReadNsnSettings(options);
  if (settings.fem_preconditioner == FemPreconditioner::kWoodbury) return;
  const PressureWave wave = EstimatePressureWave(model, body, options.dt);
  const Real cells = wave.cells;
  const int needed = static_cast<int>(std::ceil(kIterationsPerWaveCell * cells));
  // solver.wave_iterations raises the inner iterations to `needed`, up to its most
  const int iterations = WaveIterationsFor(settings, cells);
  if (needed <= iterations) return;
  const int stable = static_cast<int>(std::ceil(kStableIterationsPerWaveCell * cells));
  const bool may_blow_up = !settings.line_search && iterations < stable;
  reader.Warning(object,
                 what + ": its tets are stiff for their mass at this time step (c·Δt/h = " +
                     FormatNumber(std::round(cells * 10) / 10) +
                     ", c = √((λ + 2μ)/ρ) = " + FormatNumber(std::round(wave.speed)) +
                     " m/s, h = " + FormatNumber(std::round(wave.edge * 1e4) / 10) +
                     " mm); the solver's inner iterations usually need to be about " +
                     std::to_string(needed) + " to keep it from gaining energy as it rolls and " +
                     std::to_string(stable) + " to keep it stable (the scene has " +
                     std::to_string(iterations) +
                     "): raise solver.linear_iterations or solver.wave_iterations_max, lower "
                     "solver.dt or coarsen the mesh" +
                     (may_blow_up ? " (solver.line_search keeps it finite)" : ""));
}

}  // namespace


void ReadTetMeshObject(SceneReader& reader, const JsonValue& object, const std::string& name,
                       const std::map<std::string, int>& materials, ObjectNames* names,
                       Model* model, State* state) {
  const std::string what = "object '" + name + "'";
  reader.CheckKeys(object,
                   {"name",
                    "type",
                    "file",
                    "primitive",
                    "size",
                    "radius",
                    "cells",
                    "mesh_size",
                    "mesh_quality",
                    "scale",
                    "position",
                    "rpy_deg",
                    "quaternion_wxyz",
                    "material",
                    "density",
                    "mass",
                    "velocity",
                    "contact_radius",
                    "youngs_modulus",
                    "poisson_ratio",
                    "material_model",
                    "damping",
                    "fixed",
                    "attachments",
                    "activation",
                    "activation_ramp_time",
                    "structure_field"},
                   what);
  double scale = 1;
  Pose X_W;
  Vec3 velocity = Vec3::Zero();
  bool ok = reader.ReadNumber(object, "scale", &scale, 1e-6, 1e6, what);
  ok &= reader.ReadArray<3>(object, "position", &X_W.p, what, -1e6, 1e6);
  ok &= ReadOrientation(reader, object, &X_W.q, what);
  ok &= reader.ReadArray<3>(object, "velocity", &velocity, what, -1e4, 1e4);
  int material = 0;
  if (const JsonValue* m = object.Find("material")) {
    if (reader.ExpectType(*m, JsonValue::Type::kString, what + " 'material'")) {
      const auto it = materials.find(m->string());
      if (it == materials.end()) {
        reader.Error(*m, what + " uses unknown material '" + m->string() + "'");
        ok = false;
      } else {
        material = it->second;
      }
    }
  }
  double density = model->materials[material].density;
  double mass = 0;
  double radius = 0;
  SoftBody body;
  body.name = name;
  body.material = material;
  ok &= reader.ReadNumber(object, "density", &density, 1e-3, 1e6, what);
  ok &= reader.ReadNumber(object, "mass", &mass, 1e-6, 1e9, what);
  ok &= reader.ReadNumber(object, "contact_radius", &radius, 0, 1, what);
  ok &= reader.ReadNumber(object, "youngs_modulus", &body.youngs_modulus, 1, 1e13, what);
  ok &= reader.ReadNumber(object, "poisson_ratio", &body.poisson_ratio, -0.99, 0.4999, what);
  ok &= reader.ReadEnum<FemMaterialModel>(object, "material_model",
                                          {{"neo_hookean", FemMaterialModel::kStableNeoHookean},
                                           {"corotational", FemMaterialModel::kLinearCorotational}},
                                          &body.material_model, what);
  ok &= reader.ReadNumber(object, "damping", &body.damping, 0, 100, what);
  ok &= reader.ReadNumber(object, "activation_ramp_time", &body.activation_ramp_time, 0, 1e6, what);
  if (object.Find("mass") != nullptr && object.Find("density") != nullptr) {
    reader.Error(*object.Find("density"), what + " gives both 'mass' and 'density'; give one");
    ok = false;
  }
  // the surface's structure field, projected in the body's material frame (the rest nodes in
  // the object's own axes, scaled) and carried by the deforming triangles
  body.structure_field =
      ReadTriplanarStructureField(reader, object, "structure_field", what, ok, model);
  ok &= body.structure_field != kBadStructureField;
  if (!ok) return;
  TetMesh tets;
  const JsonValue* source = nullptr;
  // the volume mesh takes most of the object's time, then the boundary's SDF
  const LoadProgress volume_progress = reader.progress().Part(0, 0.8);
  if (!ReadVolumeMesh(reader, object, what, scale, volume_progress, &tets, &source)) return;

  // node positions at the initial pose, for the selections
  std::vector<Vec3> x_W(tets.node_count());
  for (int n = 0; n < tets.node_count(); ++n) x_W[n] = X_W * tets.nodes[n];
  std::vector<int> fixed_nodes;
  if (const JsonValue* fixed = object.Find("fixed")) {
    if (!ReadNodeSelection(reader, *fixed, what + " 'fixed'", x_W, &fixed_nodes, {})) return;
  }
  if (const JsonValue* activation = object.Find("activation")) {
    if (!ReadActivation(reader, *activation, what + " 'activation'", tets, x_W, &body)) return;
  }

  // nodes become particles with the lumped mass ρV/4 of each incident tet
  Real volume = 0;
  std::vector<Real> node_mass(tets.node_count(), 0);
  for (int t = 0; t < tets.tet_count(); ++t) {
    const Real v = TetSignedVolume(tets, t);
    volume += v;
    for (int k : tets.tets[t]) node_mass[k] += v / 4;
  }
  const Real rho = object.Find("mass") != nullptr ? mass / volume : density;
  // default contact radius: a tenth of the mean edge-length scale (V/n)^(1/3)
  if (radius <= 0) radius = 0.1 * std::cbrt(volume / std::max(1, tets.tet_count()));
  const int first = model->particle_count();
  body.first_particle = first;
  body.particle_count = tets.node_count();
  for (int n = 0; n < tets.node_count(); ++n) {
    model->particle_name.push_back(name + "/" + std::to_string(n));
    // a node no tet references keeps a token mass so the solver stays well posed
    model->particle_mass.push_back(std::max<Real>(rho * node_mass[n], 1e-9));
    model->particle_radius.push_back(radius);
    model->particle_material.push_back(material);
    body.rest_positions.push_back(tets.nodes[n]);
    state->particle_x_W.push_back(x_W[n]);
    state->particle_v_W.push_back(velocity);
  }
  if (!fixed_nodes.empty()) {
    model->particle_fixed.resize(model->particle_count(), 0);
    for (int n : fixed_nodes) {
      model->particle_fixed[first + n] = 1;
      state->particle_v_W[first + n].setZero();
    }
  } else if (!model->particle_fixed.empty()) {
    model->particle_fixed.resize(model->particle_count(), 0);
  }
  for (const auto& t : tets.tets) {
    body.tets.push_back({first + t[0], first + t[1], first + t[2], first + t[3]});
  }
  InitSoftBodyElements(&body);
  WarnIfTooStiff(reader, object, what, *model, body, model->options.solver);
  const TetSurface surface = ExtractBoundary(tets);
  for (int i = 0; i < surface.triangle_count(); ++i) {
    const auto& t = surface.triangles[i];
    body.surface.push_back({first + t[0], first + t[1], first + t[2]});
    body.surface_tet.push_back(surface.triangle_tet[i]);
  }
  Diagnostics built;
  const std::string path =
      object.Find("file") != nullptr ? ResolveFile(reader, object, what) : reader.source();
  body.collision = BuildSoftBodyCollision(name, tets.nodes, surface.triangles,
                                          reader.options().soft_body_sdf_resolution, path, &built,
                                          reader.progress().Part(0.8, 1));
  AppendWithNote(reader, built, *source, "loaded by " + what);
  if (!body.collision) return;
  if (names != nullptr && !name.empty()) names->at(name) = {ObjectRef::Kind::kInvalid, -1};
  model->soft_bodies.push_back(std::move(body));
}


void ReadSoftBodyAttachments(SceneReader& reader, const JsonValue& objects,
                             const ObjectNames& names, const State& state, Model* model) {
  for (const JsonValue& object : objects.items()) {
    const JsonValue* list = object.is_object() ? object.Find("attachments") : nullptr;
    const JsonValue* name_value = object.is_object() ? object.Find("name") : nullptr;
    if (list == nullptr || name_value == nullptr || !name_value->is_string()) continue;
    // a soft body that failed to load has its errors already
    const auto body_it =
        std::find_if(model->soft_bodies.begin(), model->soft_bodies.end(),
                     [&](const SoftBody& b) { return b.name == name_value->string(); });
    if (body_it == model->soft_bodies.end()) continue;
    const SoftBody& body = *body_it;
    const std::string what = "object '" + body.name + "' 'attachments'";
    if (!reader.ExpectType(*list, JsonValue::Type::kArray, what)) continue;
    const std::vector<Vec3> x_W(
        state.particle_x_W.begin() + body.first_particle,
        state.particle_x_W.begin() + body.first_particle + body.particle_count);
    for (std::size_t i = 0; i < list->items().size(); ++i) {
      const JsonValue& entry = list->items()[i];
      const std::string name = what + " entry " + std::to_string(i);
      if (!reader.ExpectType(entry, JsonValue::Type::kObject, name)) continue;
      // the body: a dynamic object, a fixed one or "world" (both static)
      const JsonValue* target = entry.Find("body");
      if (target == nullptr || !target->is_string()) {
        reader.Error(target ? *target : entry, name + " needs 'body': the name of an object");
        continue;
      }
      int body_id = kWorldBody;
      if (target->string() != "world") {
        const auto it = names.find(target->string());
        if (it == names.end()) {
          reader.Error(*target, name + " names unknown object '" + target->string() + "'");
          continue;
        }
        const ObjectRef& ref = it->second;
        if (ref.kind == ObjectRef::Kind::kInvalid) continue;  // reported with that object
        if (ref.kind == ObjectRef::Kind::kParticle) {
          reader.Error(*target, name + " names particle '" + target->string() +
                                    "'; nodes attach to bodies, fixed objects or \"world\"");
          continue;
        }
        body_id = ref.kind == ObjectRef::Kind::kBody ? ref.index : kWorldBody;
      }
      double compliance = 0;
      std::vector<int> nodes;
      if (!reader.ReadNumber(entry, "compliance", &compliance, 0, 1, name) ||
          !ReadNodeSelection(reader, entry, name, x_W, &nodes, {"body", "compliance"})) {
        continue;
      }
      // each node at its initial position, expressed in the body frame
      const Pose X_BW = body_id == kWorldBody ? Pose{} : state.body_X_WB[body_id].Inverse();
      int skipped = 0;
      for (int n : nodes) {
        const int particle = body.first_particle + n;
        if (model->particle_is_fixed(particle)) {
          ++skipped;
          continue;
        }
        model->attachment_particle.push_back(particle);
        model->attachment_body.push_back(body_id);
        model->attachment_p_B.push_back(X_BW * x_W[n]);
        model->attachment_compliance.push_back(compliance);
      }
      if (skipped > 0) {
        reader.Warning(entry, name + ": " + std::to_string(skipped) +
                                  " selected node(s) are 'fixed' already and are not attached");
      }
    }
  }
}

}  // namespace sim::io
