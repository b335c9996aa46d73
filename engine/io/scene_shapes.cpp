// Scene objects backed by files or fields: "mesh" (a surface mesh through assimp, colliding as a
// convex hull or as a triangle mesh with its SDF) and "sdf" (an analytic field built from
// primitives and their combinations); "tetmesh" objects are read by scene_soft_bodies.cpp.
// Relative file paths are resolved against the scene file's folder.
#include <filesystem>
#include <numbers>

#include "engine/geometry/analytic_sdf.h"
#include "engine/geometry/collision_mesh.h"
#include "engine/geometry/convex_hull.h"
#include "engine/geometry/hull_simplify.h"
#include "engine/geometry/isosurface.h"
#include "engine/geometry/tet_mesh.h"
#include "engine/geometry/visual_mesh_builder.h"
#include "engine/io/mesh_cache.h"
#include "engine/io/mesh_loader.h"
#include "engine/io/scene_reader.h"

namespace sim::io {


std::string ResolveFile(SceneReader& reader, const JsonValue& object, const std::string& what) {
  const JsonValue* file = object.Find("file");
  if (file == nullptr) {
    reader.Error(object, what + " needs a 'file'");
    return "";
  }
  if (!reader.ExpectType(*file, JsonValue::Type::kString, what + " 'file'")) return "";
  std::filesystem::path path(file->string());
  if (path.is_relative()) path = std::filesystem::path(reader.source()).parent_path() / path;
  return reader.Confined(path.lexically_normal().string(), *file, what + " 'file'");
}

namespace {

// mesh and field sizes outside [0.1 mm, 10 km] are not what the solver is tuned for
constexpr double kMinSize = 1e-4;
constexpr double kMaxSize = 1e4;

// "scale": a number or [sx, sy, sz]
bool ReadScale(SceneReader& reader, const JsonValue& object, Vec3* scale, const std::string& what) {
  const JsonValue* value = object.Find("scale");
  if (value == nullptr) return true;
  if (value->is_number()) {
    double s = 1;
    if (!reader.ReadNumber(object, "scale", &s, 1e-6, 1e6, what)) return false;
    *scale = Vec3::Constant(s);
    return true;
  }
  return reader.ReadArray<3>(object, "scale", scale, what, 1e-6, 1e6);
}

// what one field's tree has used of its limits, so each limit is reported once
struct SdfTreeRead {
  std::string field;  // "object 'f' 'shape'", for messages
  int nodes = 0;
  bool too_deep = false;
  bool too_many = false;
};

// one node of an analytic field: {"primitive": "sphere", "radius": ..., "position", "rpy_deg"}
// or {"op": "union" | "intersection" | "difference" | "smooth_union", "children": [a, b], "k"};
// the tree is checked against the field's limits before anything below a node is read, so the
// recursion is at most kMaxSdfDepth deep
int ReadSdfNode(SceneReader& reader, const JsonValue& node, AnalyticSdf* field, int depth,
                const std::string& what, SdfTreeRead* tree) {
  if (!reader.ExpectType(node, JsonValue::Type::kObject, what)) return -1;
  if (depth > kMaxSdfDepth || ++tree->nodes > kMaxSdfEvaluatedNodes) {
    bool& reported = depth > kMaxSdfDepth ? tree->too_deep : tree->too_many;
    if (!reported) {
      reader.Error(node, depth > kMaxSdfDepth
                             ? tree->field + " nests deeper than " + std::to_string(kMaxSdfDepth) +
                                   " levels (this node is at level " + std::to_string(depth) + ")"
                             : tree->field + " has more than " +
                                   std::to_string(kMaxSdfEvaluatedNodes) + " nodes (this is node " +
                                   std::to_string(tree->nodes) + ")");
    }
    reported = true;
    return -1;
  }
  if (const JsonValue* op = node.Find("op")) {
    reader.CheckKeys(node, {"op", "children", "k"}, what);
    if (!reader.ExpectType(*op, JsonValue::Type::kString, what + " 'op'")) return -1;
    const JsonValue* children = node.Find("children");
    if (children == nullptr || !children->is_array() || children->items().size() != 2) {
      reader.Error(children ? *children : node, what + " needs 'children': an array of 2 fields");
      return -1;
    }
    const int a =
        ReadSdfNode(reader, children->items()[0], field, depth + 1, what + " child 0", tree);
    const int b =
        ReadSdfNode(reader, children->items()[1], field, depth + 1, what + " child 1", tree);
    if (a < 0 || b < 0) return -1;
    const std::string& name = op->string();
    if (name == "union") return field->Union(a, b);
    if (name == "intersection") return field->Intersection(a, b);
    if (name == "difference") return field->Difference(a, b);
    if (name == "smooth_union") {
      double k = 0.01;
      if (!reader.ReadNumber(node, "k", &k, kMinSize, kMaxSize, what)) return -1;
      return field->SmoothUnion(a, b, k);
    }
    reader.Error(*op, what + " 'op' is '" + name +
                          "', expected one of: union, intersection, difference, smooth_union");
    return -1;
  }
  const JsonValue* primitive = node.Find("primitive");
  if (primitive == nullptr) {
    reader.Error(node, what + " needs a 'primitive' or an 'op'");
    return -1;
  }
  if (!reader.ExpectType(*primitive, JsonValue::Type::kString, what + " 'primitive'")) return -1;
  reader.CheckKeys(node,
                   {"primitive", "radius", "size", "length", "height", "half_angle_deg",
                    "major_radius", "minor_radius", "position", "rpy_deg", "quaternion_wxyz"},
                   what);
  Pose X;
  if (!reader.ReadArray<3>(node, "position", &X.p, what, -1e6, 1e6) ||
      !ReadOrientation(reader, node, &X.q, what)) {
    return -1;
  }
  const std::string& type = primitive->string();
  auto number = [&](const char* key, double* out) {
    if (node.Find(key) == nullptr) {
      reader.Error(node, what + " of primitive '" + type + "' needs '" + key + "'");
      return false;
    }
    return reader.ReadNumber(node, key, out, kMinSize, kMaxSize, what);
  };
  double r = 0, length = 0, height = 0, angle = 0, major = 0;
  Vec3 size = Vec3::Zero();
  if (type == "sphere") return number("radius", &r) ? field->AddSphere(r, X) : -1;
  if (type == "box") {
    if (node.Find("size") == nullptr) {
      reader.Error(node, what + " of primitive 'box' needs 'size'");
      return -1;
    }
    return reader.ReadArray<3>(node, "size", &size, what, kMinSize, kMaxSize)
               ? field->AddBox(0.5 * size, X)
               : -1;
  }
  if (type == "capsule" || type == "cylinder") {
    if (!number("radius", &r) || !number("length", &length)) return -1;
    return type == "capsule" ? field->AddCapsule(r, 0.5 * length, X)
                             : field->AddCylinder(r, 0.5 * length, X);
  }
  if (type == "cone") {
    if (!number("height", &height)) return -1;
    if (node.Find("half_angle_deg") == nullptr) {
      reader.Error(node, what + " of primitive 'cone' needs 'half_angle_deg'");
      return -1;
    }
    if (!reader.ReadNumber(node, "half_angle_deg", &angle, 0, 90, what, true)) return -1;
    return field->AddCone(angle * std::numbers::pi / 180, height, X);
  }
  if (type == "torus") {
    if (!number("major_radius", &major) || !number("minor_radius", &r)) return -1;
    return field->AddTorus(major, r, X);
  }
  if (type == "half_space") return field->AddHalfSpace(X);
  reader.Error(*primitive, what + " 'primitive' is '" + type +
                               "', expected one of: sphere, box, capsule, cylinder, cone, torus, "
                               "half_space");
  return -1;
}

}  // namespace


bool ReadFileGeometry(SceneReader& reader, const JsonValue& object, const std::string& type,
                      ShapeGeometry* geometry, const std::string& what,
                      std::shared_ptr<const VisualMesh>* visual) {
  if (type == "sdf") {
    const JsonValue* shape = object.Find("shape");
    if (shape == nullptr) {
      reader.Error(object, what + " of type 'sdf' needs a 'shape' (a primitive or an op)");
      return false;
    }
    auto field = std::make_shared<AnalyticSdf>();
    SdfTreeRead tree{.field = what + " 'shape'"};
    if (ReadSdfNode(reader, *shape, field.get(), 0, tree.field, &tree) < 0) return false;
    const std::vector<std::string> problems = field->Validate();
    for (const std::string& problem : problems) reader.Error(*shape, what + ": " + problem);
    if (!problems.empty()) return false;
    geometry->type = ShapeType::kSdf;
    geometry->sdf = std::move(field);
    // drawn as the field's zero isosurface (surface nets)
    if (visual != nullptr && reader.options().draw_fields) {
      *visual = BuildSdfVisualMesh(*geometry->sdf);
    }
    return true;
  }

  // "mesh": a surface file, as a convex hull or a triangle mesh with its SDF
  const std::string path = ResolveFile(reader, object, what);
  if (path.empty()) return false;
  Vec3 scale = Vec3::Ones();
  std::string collision = "sdf";
  int resolution = 64;
  bool ok = ReadScale(reader, object, &scale, what);
  ok &= reader.ReadString(object, "collision", &collision, what);
  ok &= reader.ReadInt(object, "sdf_resolution", &resolution, 8, kMaxSdfResolution, what);
  int hull_vertices = kDefaultHullVertices;
  ok &= reader.ReadInt(object, "hull_vertices", &hull_vertices, 4, 100000, what);
  if (collision != "sdf" && collision != "hull") {
    reader.Error(*object.Find("collision"),
                 what + " 'collision' is '" + collision + "', expected one of: sdf, hull");
    return false;
  }
  if (!ok) return false;
  // the collision geometry and the drawn surface, both shared through the mesh cache
  const JsonValue& file_value = *object.Find("file");
  MeshCache& cache = MeshCache::Global();
  if (collision == "hull") {
    const MeshProduct<ConvexHull> hull = cache.Hull(path, scale, hull_vertices, reader.progress());
    AppendWithNote(reader, hull.diagnostics, file_value, "loaded by " + what);
    if (!hull.value) return false;
    geometry->type = ShapeType::kConvexHull;
    geometry->hull = hull.value;
    if (visual != nullptr) *visual = BuildHullVisualMesh(*hull.value);
    return true;
  }
  const MeshProduct<CollisionMesh> mesh =
      cache.Collision(path, scale, resolution, reader.progress().Part(0, 0.9));
  AppendWithNote(reader, mesh.diagnostics, file_value, "loaded by " + what);
  if (!mesh.value) return false;
  geometry->type = ShapeType::kMesh;
  geometry->mesh = mesh.value;
  if (visual != nullptr) {
    // the file's own surface (its uvs, colours and textures) is the collision surface, drawn
    const MeshProduct<VisualMesh> drawn =
        cache.Visual(path, scale, nullptr, reader.progress().Part(0.9, 1));
    *visual = drawn.value;
  }
  return true;
}

}  // namespace sim::io
