// URDF parsing: a tinyxml2 walk validates every element and value at its line (keeping going to
// report all problems), then urdfdom builds the model the values are taken from. urdfdom's own
// console messages are captured and, if it still rejects a file we accepted, reported located at
// the <robot> element.
#include "engine/io/urdf_loader.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <console_bridge/console.h>
#include <tinyxml2.h>
#include <urdf_parser/urdf_parser.h>
#include <Eigen/Eigenvalues>

#include "engine/io/text_file.h"

namespace sim::io {

namespace fs = std::filesystem;

const char* UrdfJointTypeName(UrdfJointType type) {
  switch (type) {
    case UrdfJointType::kRevolute:
      return "revolute";
    case UrdfJointType::kContinuous:
      return "continuous";
    case UrdfJointType::kPrismatic:
      return "prismatic";
    case UrdfJointType::kFixed:
      return "fixed";
    case UrdfJointType::kFloating:
      return "floating";
    case UrdfJointType::kPlanar:
      return "planar";
  }
  return "?";
}


int UrdfRobot::FindLink(const std::string& link_name) const {
  for (int i = 0; i < static_cast<int>(links.size()); ++i) {
    if (links[i].name == link_name) return i;
  }
  return -1;
}


Real UrdfRobot::TotalMass() const {
  Real total = 0;
  for (const UrdfLink& link : links) total += link.mass;
  return total;
}


std::string UrdfRobot::JointSummary() const {
  std::map<UrdfJointType, int> counts;
  for (const UrdfJoint& joint : joints) ++counts[joint.type];
  std::string text = std::to_string(joints.size()) + " joints";
  const char* separator = ": ";
  for (const auto& [type, count] : counts) {
    text += separator + std::to_string(count) + " " + UrdfJointTypeName(type);
    separator = ", ";
  }
  return text;
}


namespace {

// package roots in search order: options, CONTACT_STUDIO_PACKAGE_PATH, ROS_PACKAGE_PATH
std::vector<std::string> PackageRoots(const std::vector<std::string>& from_options) {
  std::vector<std::string> roots = from_options;
  for (const char* variable : {"CONTACT_STUDIO_PACKAGE_PATH", "ROS_PACKAGE_PATH"}) {
    const char* value = std::getenv(variable);
    if (value == nullptr) continue;
    std::stringstream list(value);
    std::string root;
    while (std::getline(list, root, ':')) {
      if (!root.empty()) roots.push_back(root);
    }
  }
  return roots;
}


bool IsFile(const fs::path& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec);
}

}  // namespace


std::string ResolveResource(const std::string& uri, const std::string& base_dir,
                            const std::vector<std::string>& package_paths,
                            std::vector<std::string>* tried) {
  auto attempt = [&](const fs::path& path) {
    tried->push_back(path.lexically_normal().string());
    return IsFile(path);
  };
  const std::string kPackage = "package://";
  const std::string kFile = "file://";
  if (uri.rfind(kPackage, 0) == 0) {
    const std::string rest = uri.substr(kPackage.size());
    const std::size_t slash = rest.find('/');
    const std::string package = rest.substr(0, slash);
    const std::string relative = slash == std::string::npos ? "" : rest.substr(slash + 1);
    for (const std::string& root : PackageRoots(package_paths)) {
      const fs::path r(root);
      if (attempt(r / package / relative)) return (r / package / relative).string();
      const fs::path normal = r.lexically_normal();
      const std::string base = (normal.has_filename() ? normal : normal.parent_path()).filename();
      if (base == package && attempt(r / relative)) return (r / relative).string();
    }
    // fallback: the package directory is an ancestor of the URDF (ROS layout)
    for (fs::path dir = fs::absolute(base_dir); dir.has_relative_path(); dir = dir.parent_path()) {
      if (dir.filename() == package && attempt(dir / relative)) return (dir / relative).string();
    }
    return "";
  }
  if (uri.rfind(kFile, 0) == 0) {
    const fs::path path(uri.substr(kFile.size()));
    return attempt(path) ? path.string() : "";
  }
  const fs::path path(uri);
  if (path.is_absolute()) return attempt(path) ? path.string() : "";
  const fs::path relative = fs::path(base_dir) / path;
  return attempt(relative) ? relative.string() : "";
}


namespace {

using tinyxml2::XMLElement;

// urdfdom logs through console_bridge; keep its messages for our located report
class CapturedConsole : public console_bridge::OutputHandler {
 public:
  void log(const std::string& text, console_bridge::LogLevel level, const char*, int) override {
    if (level >= console_bridge::CONSOLE_BRIDGE_LOG_ERROR) messages.push_back(text);
  }
  std::vector<std::string> messages;
};


class UrdfChecker {
 public:
  UrdfChecker(std::string source, const UrdfOptions& options, Diagnostics* diagnostics)
      : source_(std::move(source)),
        base_dir_(fs::path(source_).parent_path().string()),
        package_paths_(options.package_paths),
        diagnostics_(diagnostics) {}

  void Error(const XMLElement* at, const std::string& message) {
    diagnostics_->Error(source_, at->GetLineNum(), "", message);
  }
  void Warning(const XMLElement* at, const std::string& message) {
    diagnostics_->Warning(source_, at->GetLineNum(), "", message);
  }

  // `count` finite numbers from attribute `key` (absent: true, *out untouched)
  bool Numbers(const XMLElement* element, const char* key, int count, std::vector<double>* out,
               const std::string& what) {
    const char* text = element->Attribute(key);
    if (text == nullptr) return true;
    std::stringstream stream(text);
    std::vector<double> values;
    std::string token;
    bool ok = true;
    while (stream >> token) {
      char* end = nullptr;
      const double value = std::strtod(token.c_str(), &end);
      if (end != token.c_str() + token.size() || !std::isfinite(value)) ok = false;
      values.push_back(value);
    }
    if (!ok || static_cast<int>(values.size()) != count) {
      const std::string expected =
          count == 1 ? "a finite number" : std::to_string(count) + " finite numbers";
      Error(element, what + " '" + key + "' is '" + text + "', expected " + expected);
      return false;
    }
    *out = values;
    return true;
  }

  bool Number(const XMLElement* element, const char* key, double* out, const std::string& what,
              bool required) {
    if (element->Attribute(key) == nullptr) {
      if (required) Error(element, what + " needs attribute '" + key + "'");
      return !required;
    }
    std::vector<double> values;
    if (!Numbers(element, key, 1, &values, what)) return false;
    *out = values[0];
    return true;
  }

  void Origin(const XMLElement* parent, const std::string& what) {
    const XMLElement* origin = parent->FirstChildElement("origin");
    if (origin == nullptr) return;
    std::vector<double> v;
    Numbers(origin, "xyz", 3, &v, what + " <origin>");
    Numbers(origin, "rpy", 3, &v, what + " <origin>");
  }

  void Inertial(const XMLElement* inertial, const std::string& what) {
    Origin(inertial, what + " <inertial>");
    const XMLElement* mass = inertial->FirstChildElement("mass");
    if (mass == nullptr) {
      Error(inertial, what + " <inertial> has no <mass>");
    } else {
      double m = 0;
      if (Number(mass, "value", &m, what + " <mass>", true) && m <= 0) {
        Error(mass, what + " has mass " + Format(m) + ", expected a positive mass in kg");
      }
    }
    const XMLElement* inertia = inertial->FirstChildElement("inertia");
    if (inertia == nullptr) {
      Error(inertial, what + " <inertial> has no <inertia>");
      return;
    }
    double ixx = 0, ixy = 0, ixz = 0, iyy = 0, iyz = 0, izz = 0;
    bool ok = true;
    ok &= Number(inertia, "ixx", &ixx, what + " <inertia>", true);
    ok &= Number(inertia, "ixy", &ixy, what + " <inertia>", true);
    ok &= Number(inertia, "ixz", &ixz, what + " <inertia>", true);
    ok &= Number(inertia, "iyy", &iyy, what + " <inertia>", true);
    ok &= Number(inertia, "iyz", &iyz, what + " <inertia>", true);
    ok &= Number(inertia, "izz", &izz, what + " <inertia>", true);
    if (!ok) return;
    Mat3 I;
    I << ixx, ixy, ixz, ixy, iyy, iyz, ixz, iyz, izz;
    const Vec3 eig = Eigen::SelfAdjointEigenSolver<Mat3>(I).eigenvalues();
    // real robot files (Fetch's fingers) carry singular inertias: a warning, regularized on
    // conversion; a negative principal moment is an error
    const std::string values = "(ixx " + Format(ixx) + ", iyy " + Format(iyy) + ", izz " +
                               Format(izz) + ", ixy " + Format(ixy) + ", ixz " + Format(ixz) +
                               ", iyz " + Format(iyz) + "; smallest eigenvalue " +
                               Format(eig.minCoeff()) + ")";
    if (eig.minCoeff() < -1e-12 * std::max(1.0, eig.cwiseAbs().maxCoeff())) {
      Error(inertia, what + " has an inertia that is not positive definite " + values +
                         ", expected positive principal moments");
    } else if (eig.minCoeff() <= 0) {
      Warning(
          inertia,
          what + " has a singular inertia " + values +
              "; for simulation its principal moments are raised to at least 1% of the largest");
    } else if (eig[0] + eig[1] < eig[2] * (1 - 1e-6)) {
      Warning(inertia, what + " has principal moments " + Format(eig[0]) + ", " + Format(eig[1]) +
                           ", " + Format(eig[2]) + " that violate the triangle inequality");
    }
  }

  // a <material>: its <color rgba> (4 numbers in [0, 1]) and <texture filename> (resolved);
  // robot-level ones define names, a visual's own one with a colour or texture defines its name
  // too (as urdfdom does), and one with only a name refers to a definition
  void Material(const XMLElement* material, const std::string& what, bool robot_level) {
    const char* name = material->Attribute("name");
    const std::string label =
        what + " <material" +
        (name != nullptr && *name != '\0' ? std::string(" '") + name + "'" : std::string()) + ">";
    const XMLElement* color = material->FirstChildElement("color");
    const XMLElement* texture = material->FirstChildElement("texture");
    if (color != nullptr) {
      std::vector<double> rgba;
      if (color->Attribute("rgba") == nullptr) {
        Error(color, label + " <color> needs attribute 'rgba'");
      } else if (Numbers(color, "rgba", 4, &rgba, label + " <color>")) {
        for (double c : rgba) {
          if (c < 0 || c > 1) {
            Error(color, label + " <color> 'rgba' is '" + color->Attribute("rgba") +
                             "', expected 4 numbers in [0, 1]");
            break;
          }
        }
      }
    }
    if (texture != nullptr) {
      const char* filename = texture->Attribute("filename");
      if (filename == nullptr) {
        Error(texture, label + " <texture> needs attribute 'filename'");
      } else {
        std::vector<std::string> tried;
        if (ResolveResource(filename, base_dir_, package_paths_, &tried).empty()) {
          Warning(texture, label + " texture '" + filename + "' not found (tried: " +
                               JoinTried(tried) + "); it is drawn without it");
        }
      }
    }
    const bool defines = color != nullptr || texture != nullptr;
    if (color != nullptr && name != nullptr && *name != '\0') colored_materials.insert(name);
    if (robot_level && !defines) {
      Warning(material, label + " has neither <color> nor <texture>");
    }
    if (name == nullptr || *name == '\0') return;
    if (defines) {
      material_lines.emplace(name, material->GetLineNum());
    } else if (!robot_level) {
      material_refs.push_back({material, what, name});
    }
  }

  // one <visual> or <collision>; resolves meshes
  void Geometry(const XMLElement* element, const std::string& what) {
    Origin(element, what);
    if (const XMLElement* material = element->FirstChildElement("material")) {
      Material(material, what, false);
    }
    const XMLElement* geometry = element->FirstChildElement("geometry");
    const XMLElement* shape = geometry == nullptr ? nullptr : geometry->FirstChildElement();
    if (shape == nullptr) {
      Error(element, what + " has no <geometry> shape (expected box, cylinder, sphere or mesh)");
      return;
    }
    const std::string type = shape->Name();
    std::vector<double> v;
    double x = 0;
    auto positive = [&](const char* key, double value) {
      if (value <= 0)
        Error(shape, what + " " + type + " '" + key + "' is " + Format(value) +
                         ", expected a positive size in m");
    };
    if (type == "box") {
      if (shape->Attribute("size") == nullptr) Error(shape, what + " box needs attribute 'size'");
      if (Numbers(shape, "size", 3, &v, what + " box") && !v.empty()) {
        for (double s : v) positive("size", s);
      }
    } else if (type == "sphere") {
      if (Number(shape, "radius", &x, what + " sphere", true)) positive("radius", x);
    } else if (type == "cylinder" || type == "capsule") {
      if (Number(shape, "radius", &x, what + " " + type, true)) positive("radius", x);
      if (Number(shape, "length", &x, what + " " + type, true)) positive("length", x);
    } else if (type == "mesh") {
      const char* filename = shape->Attribute("filename");
      if (filename == nullptr) {
        Error(shape, what + " mesh needs attribute 'filename'");
        return;
      }
      Numbers(shape, "scale", 3, &v, what + " mesh");
      ++mesh_count;
      std::vector<std::string> tried;
      const std::string path = ResolveResource(filename, base_dir_, package_paths_, &tried);
      if (!path.empty()) {
        ++mesh_resolved;
        mesh_paths[shape->GetLineNum()] = path;
      } else {
        Error(shape, what + " mesh '" + filename + "' not found (tried: " + JoinTried(tried) + ")");
      }
    } else {
      Error(shape,
            what + " has unknown geometry <" + type + "> (expected box, cylinder, sphere or mesh)");
    }
  }

  void Link(const XMLElement* link) {
    const char* name = link->Attribute("name");
    if (name == nullptr || *name == '\0') {
      Error(link, "<link> without a name");
      return;
    }
    const std::string what = std::string("link '") + name + "'";
    if (!link_lines.emplace(name, link->GetLineNum()).second) {
      Error(link, "duplicate " + what + " (first defined at line " +
                      std::to_string(link_lines[name]) + ")");
    }
    if (const XMLElement* inertial = link->FirstChildElement("inertial")) Inertial(inertial, what);
    for (const XMLElement* e = link->FirstChildElement("visual"); e != nullptr;
         e = e->NextSiblingElement("visual")) {
      Geometry(e, what + " <visual>");
    }
    for (const XMLElement* e = link->FirstChildElement("collision"); e != nullptr;
         e = e->NextSiblingElement("collision")) {
      Geometry(e, what + " <collision>");
    }
  }

  void Joint(const XMLElement* joint) {
    const char* name = joint->Attribute("name");
    if (name == nullptr || *name == '\0') {
      Error(joint, "<joint> without a name");
      return;
    }
    const std::string what = std::string("joint '") + name + "'";
    if (!joint_lines.emplace(name, joint->GetLineNum()).second) {
      Error(joint, "duplicate " + what + " (first defined at line " +
                       std::to_string(joint_lines[name]) + ")");
    }
    static const std::set<std::string> kTypes = {"revolute", "continuous", "prismatic",
                                                 "fixed",    "floating",   "planar"};
    const char* type = joint->Attribute("type");
    joint_types.emplace(name, type == nullptr ? "" : type);
    if (type == nullptr || !kTypes.contains(type)) {
      Error(joint, what +
                       (type == nullptr ? " has no type"
                                        : " has unknown type '" + std::string(type) + "'") +
                       " (expected revolute, continuous, prismatic, fixed, floating, planar)");
    }
    for (const char* role : {"parent", "child"}) {
      const XMLElement* e = joint->FirstChildElement(role);
      const char* link = e == nullptr ? nullptr : e->Attribute("link");
      if (link == nullptr) {
        Error(e == nullptr ? joint : e, what + " needs <" + role + " link=\"...\"/>");
      } else {
        link_refs.push_back({e, what, role, link});
      }
    }
    Origin(joint, what);
    std::vector<double> v;
    if (const XMLElement* axis = joint->FirstChildElement("axis")) {
      const bool moves =
          type != nullptr && std::string(type) != "fixed" && std::string(type) != "floating";
      if (Numbers(axis, "xyz", 3, &v, what + " <axis>") && !v.empty() && moves &&
          Vec3(v[0], v[1], v[2]).norm() < 1e-9) {
        Error(axis, what + " <axis> 'xyz' is zero, expected a nonzero direction");
      }
    }
    const std::string t = type == nullptr ? "" : type;
    const XMLElement* limit = joint->FirstChildElement("limit");
    if (limit != nullptr) {
      double lower = 0, upper = 0, x = 0;
      bool ok = Number(limit, "lower", &lower, what + " <limit>", false);
      ok &= Number(limit, "upper", &upper, what + " <limit>", false);
      Number(limit, "effort", &x, what + " <limit>", false);
      Number(limit, "velocity", &x, what + " <limit>", false);
      if (ok && lower > upper && (t == "revolute" || t == "prismatic")) {
        Error(limit,
              what + " has lower limit " + Format(lower) + " above upper limit " + Format(upper));
      }
    } else if (t == "revolute" || t == "prismatic") {
      Error(joint, what + " of type '" + t + "' needs a <limit> element");
    }
    if (const XMLElement* dynamics = joint->FirstChildElement("dynamics")) {
      double damping = 0, friction = 0;
      if (Number(dynamics, "damping", &damping, what + " <dynamics>", false) && damping < 0) {
        Error(dynamics,
              what + " <dynamics> 'damping' is " + Format(damping) + ", expected a value >= 0");
      }
      if (Number(dynamics, "friction", &friction, what + " <dynamics>", false) && friction < 0) {
        Error(dynamics,
              what + " <dynamics> 'friction' is " + Format(friction) + ", expected a value >= 0");
      }
    }
    if (const XMLElement* mimic = joint->FirstChildElement("mimic")) {
      double x = 0;
      Number(mimic, "multiplier", &x, what + " <mimic>", false);
      Number(mimic, "offset", &x, what + " <mimic>", false);
      const char* leader = mimic->Attribute("joint");
      if (leader == nullptr) {
        Error(mimic, what + " <mimic> needs attribute 'joint' (the joint it follows)");
      } else if (!t.empty() && t != "revolute" && t != "continuous" && t != "prismatic") {
        Error(mimic, what + " of type '" + t +
                         "' cannot mimic another joint (only revolute, continuous and prismatic "
                         "joints can)");
      } else {
        mimic_refs.push_back({mimic, what, name, leader});
      }
    }
  }

  void Robot(const XMLElement* robot) {
    for (const XMLElement* e = robot->FirstChildElement(); e != nullptr;
         e = e->NextSiblingElement()) {
      const std::string tag = e->Name();
      if (tag == "link") {
        Link(e);
      } else if (tag == "joint") {
        Joint(e);
      } else if (tag == "material") {
        Material(e, "robot", true);
      } else if (tag != "gazebo" && tag != "transmission") {
        Warning(e, "<" + tag + "> is not supported (ignored)");
      }
    }
    for (const LinkRef& ref : link_refs) {
      if (!link_lines.contains(ref.link)) {
        Error(ref.element,
              ref.what + " " + ref.role + " link '" + ref.link + "' is not a link of this robot");
      }
    }
    for (const MaterialRef& ref : material_refs) {
      if (!material_lines.contains(ref.name)) {
        Error(ref.element, ref.what + " uses material '" + ref.name +
                               "', which is not defined (define it under <robot> with a <color> "
                               "or <texture>, or give this one a <color>)");
      }
    }
    for (const MimicRef& ref : mimic_refs) {
      const auto leader = joint_types.find(ref.leader);
      if (ref.leader == ref.follower) {
        Error(ref.element, ref.what + " mimics itself");
      } else if (leader == joint_types.end()) {
        Error(ref.element,
              ref.what + " mimics '" + ref.leader + "', which is not a joint of this robot");
      } else if (leader->second != "revolute" && leader->second != "continuous" &&
                 leader->second != "prismatic") {
        Error(ref.element, ref.what + " mimics joint '" + ref.leader + "' of type '" +
                               leader->second +
                               "' (expected a revolute, continuous or prismatic joint)");
      }
    }
  }

  // whether a <visual>'s material gives a colour: its own <color>, or the named definition's
  bool HasColor(const XMLElement* visual) const {
    const XMLElement* material = visual->FirstChildElement("material");
    if (material == nullptr) return false;
    if (material->FirstChildElement("color") != nullptr) return true;
    const char* name = material->Attribute("name");
    return name != nullptr && colored_materials.contains(name);
  }

  // "a, b, c" of the paths a resource was looked for at
  static std::string JoinTried(const std::vector<std::string>& tried) {
    std::string list;
    for (const std::string& t : tried) list += (list.empty() ? "" : ", ") + t;
    return list.empty() ? "no package path; set CONTACT_STUDIO_PACKAGE_PATH or ROS_PACKAGE_PATH"
                        : list;
  }

  static std::string Format(double value) {
    std::ostringstream out;
    out << value;
    return out.str();
  }

  struct LinkRef {
    const XMLElement* element;
    std::string what, role, link;
  };
  struct MaterialRef {
    const XMLElement* element;
    std::string what, name;
  };
  struct MimicRef {
    const XMLElement* element;
    std::string what, follower, leader;
  };
  std::map<std::string, int> link_lines;
  std::map<std::string, int> joint_lines;
  std::map<std::string, std::string> joint_types;  // name -> type as written
  std::map<std::string, int> material_lines;       // defined material names
  std::set<std::string> colored_materials;         // of those, the ones with a <color>
  std::vector<LinkRef> link_refs;
  std::vector<MaterialRef> material_refs;
  std::vector<MimicRef> mimic_refs;
  std::map<int, std::string> mesh_paths;  // <mesh> line -> resolved file
  int mesh_count = 0;
  int mesh_resolved = 0;

 private:
  std::string source_;
  std::string base_dir_;
  std::vector<std::string> package_paths_;
  Diagnostics* diagnostics_;
};


Pose ToPose(const urdf::Pose& pose) {
  double x, y, z, w;
  pose.rotation.getQuaternion(x, y, z, w);
  return Pose{Vec3(pose.position.x, pose.position.y, pose.position.z),
              Quat(w, x, y, z).normalized()};
}


// urdfdom geometry -> engine shape (meshes: is_mesh, resolved path by element order)
UrdfGeometry ToGeometry(const urdf::GeometrySharedPtr& geometry, const urdf::Pose& origin) {
  UrdfGeometry g;
  g.X_LS = ToPose(origin);
  if (!geometry) return g;
  switch (geometry->type) {
    case urdf::Geometry::BOX: {
      const auto& box = static_cast<const urdf::Box&>(*geometry);
      g.shape.type = ShapeType::kBox;
      g.shape.half_extents = 0.5 * Vec3(box.dim.x, box.dim.y, box.dim.z);
      break;
    }
    case urdf::Geometry::SPHERE:
      g.shape.type = ShapeType::kSphere;
      g.shape.radius = static_cast<const urdf::Sphere&>(*geometry).radius;
      break;
    case urdf::Geometry::CYLINDER: {
      const auto& cylinder = static_cast<const urdf::Cylinder&>(*geometry);
      g.shape.type = ShapeType::kCylinder;
      g.shape.radius = cylinder.radius;
      g.shape.half_length = 0.5 * cylinder.length;
      break;
    }
    case urdf::Geometry::MESH: {
      const auto& mesh = static_cast<const urdf::Mesh&>(*geometry);
      g.is_mesh = true;
      g.mesh_uri = mesh.filename;
      g.mesh_scale = Vec3(mesh.scale.x, mesh.scale.y, mesh.scale.z);
      break;
    }
  }
  return g;
}


// <mesh> elements of one link in document order (visual or collision), to attach lines and paths
std::vector<const XMLElement*> MeshElements(const XMLElement* link, const char* tag) {
  std::vector<const XMLElement*> meshes;
  for (const XMLElement* e = link->FirstChildElement(tag); e != nullptr;
       e = e->NextSiblingElement(tag)) {
    const XMLElement* geometry = e->FirstChildElement("geometry");
    meshes.push_back(geometry == nullptr ? e : geometry->FirstChildElement());
  }
  return meshes;
}


Diagnostics SortedByLine(const Diagnostics& diagnostics) {
  std::vector<Diagnostic> items = diagnostics.items();
  std::stable_sort(items.begin(), items.end(),
                   [](const Diagnostic& a, const Diagnostic& b) { return a.line < b.line; });
  Diagnostics sorted;
  for (Diagnostic& d : items) sorted.Add(std::move(d));
  return sorted;
}

}  // namespace


Expected<UrdfRobot> ParseUrdf(const std::string& text, const std::string& source_name,
                              const UrdfOptions& options) {
  Diagnostics diagnostics;
  tinyxml2::XMLDocument document;
  if (document.Parse(text.c_str(), text.size()) != tinyxml2::XML_SUCCESS) {
    // "XML_ERROR_MISMATCHED_ELEMENT" -> "mismatched element", plus tinyxml2's detail
    std::string reason = document.ErrorName();
    if (reason.rfind("XML_ERROR_", 0) == 0) reason = reason.substr(10);
    for (char& c : reason) c = c == '_' ? ' ' : static_cast<char>(std::tolower(c));
    const std::string detail = document.ErrorStr() ? document.ErrorStr() : "";
    const std::size_t colon = detail.rfind(": ");
    if (colon != std::string::npos) reason += " (" + detail.substr(colon + 2) + ")";
    diagnostics.Error(source_name, document.ErrorLineNum(), "", "invalid XML: " + reason);
    return diagnostics;
  }
  const XMLElement* robot_element = document.RootElement();
  if (robot_element == nullptr || std::string(robot_element->Name()) != "robot") {
    diagnostics.Error(source_name, robot_element ? robot_element->GetLineNum() : 1, "",
                      "the root element is not <robot>");
    return diagnostics;
  }
  UrdfChecker checker(source_name, options, &diagnostics);
  checker.Robot(robot_element);
  diagnostics = SortedByLine(diagnostics);
  if (diagnostics.has_errors()) return diagnostics;

  // urdfdom: the tree (one root, one parent per link) and the values
  CapturedConsole console;
  console_bridge::useOutputHandler(&console);
  const urdf::ModelInterfaceSharedPtr model = urdf::parseURDF(text);
  console_bridge::restorePreviousOutputHandler();
  if (!model) {
    std::string reason;
    for (const std::string& m : console.messages) reason += (reason.empty() ? "" : "; ") + m;
    diagnostics.Error(source_name, robot_element->GetLineNum(), "",
                      "robot description rejected by urdfdom: " +
                          (reason.empty() ? std::string("no reason given") : reason));
    return diagnostics;
  }

  UrdfRobot robot;
  robot.name = model->getName();
  robot.source = source_name;
  robot.mesh_count = checker.mesh_count;
  robot.mesh_resolved = checker.mesh_resolved;
  // links and joints in document order, so indices and summaries follow the file
  std::map<std::string, const XMLElement*> link_elements;
  for (const XMLElement* e = robot_element->FirstChildElement(); e != nullptr;
       e = e->NextSiblingElement()) {
    const std::string tag = e->Name();
    if (tag == "link") {
      const urdf::LinkConstSharedPtr l = model->getLink(e->Attribute("name"));
      UrdfLink link;
      link.name = l->name;
      link.line = e->GetLineNum();
      if (l->inertial) {
        link.has_inertial = true;
        link.mass = l->inertial->mass;
        link.X_LI = ToPose(l->inertial->origin);
        const urdf::Inertial& i = *l->inertial;
        link.inertia << i.ixx, i.ixy, i.ixz, i.ixy, i.iyy, i.iyz, i.ixz, i.iyz, i.izz;
      }
      const auto collision_xml = MeshElements(e, "collision");
      for (std::size_t c = 0; c < l->collision_array.size(); ++c) {
        UrdfGeometry g = ToGeometry(l->collision_array[c]->geometry, l->collision_array[c]->origin);
        g.line = c < collision_xml.size() ? collision_xml[c]->GetLineNum() : link.line;
        if (g.is_mesh && checker.mesh_paths.contains(g.line))
          g.mesh_path = checker.mesh_paths[g.line];
        link.collisions.push_back(g);
      }
      const auto visual_xml = MeshElements(e, "visual");
      std::vector<const XMLElement*> visual_elements;
      for (const XMLElement* v = e->FirstChildElement("visual"); v != nullptr;
           v = v->NextSiblingElement("visual")) {
        visual_elements.push_back(v);
      }
      for (std::size_t v = 0; v < l->visual_array.size(); ++v) {
        const urdf::Visual& visual = *l->visual_array[v];
        UrdfGeometry g = ToGeometry(visual.geometry, visual.origin);
        g.line = v < visual_xml.size() ? visual_xml[v]->GetLineNum() : link.line;
        if (g.is_mesh && checker.mesh_paths.contains(g.line))
          g.mesh_path = checker.mesh_paths[g.line];
        // the material urdfdom attached (the visual's own, or the robot-level one it names);
        // whether it has a colour is read from the XML (urdfdom's default is opaque black)
        g.material = visual.material_name;
        if (visual.material) {
          const urdf::Color& c = visual.material->color;
          g.has_color = v < visual_elements.size() && checker.HasColor(visual_elements[v]);
          if (g.has_color) g.color = {c.r, c.g, c.b, c.a};
          if (!visual.material->texture_filename.empty()) {
            std::vector<std::string> tried;
            g.texture = ResolveResource(visual.material->texture_filename,
                                        fs::path(source_name).parent_path().string(),
                                        options.package_paths, &tried);
          }
        }
        link.visuals.push_back(g);
      }
      robot.links.push_back(std::move(link));
    }
  }
  for (const XMLElement* e = robot_element->FirstChildElement("joint"); e != nullptr;
       e = e->NextSiblingElement("joint")) {
    const urdf::JointConstSharedPtr j = model->getJoint(e->Attribute("name"));
    UrdfJoint joint;
    joint.name = j->name;
    joint.line = e->GetLineNum();
    switch (j->type) {
      case urdf::Joint::REVOLUTE:
        joint.type = UrdfJointType::kRevolute;
        break;
      case urdf::Joint::CONTINUOUS:
        joint.type = UrdfJointType::kContinuous;
        break;
      case urdf::Joint::PRISMATIC:
        joint.type = UrdfJointType::kPrismatic;
        break;
      case urdf::Joint::FLOATING:
        joint.type = UrdfJointType::kFloating;
        break;
      case urdf::Joint::PLANAR:
        joint.type = UrdfJointType::kPlanar;
        break;
      default:
        joint.type = UrdfJointType::kFixed;
        break;
    }
    joint.parent = robot.FindLink(j->parent_link_name);
    joint.child = robot.FindLink(j->child_link_name);
    joint.X_PJ = ToPose(j->parent_to_joint_origin_transform);
    const Vec3 axis(j->axis.x, j->axis.y, j->axis.z);
    joint.axis = axis.norm() > 1e-9 ? axis.normalized() : Vec3::UnitX();
    if (j->limits &&
        (joint.type == UrdfJointType::kRevolute || joint.type == UrdfJointType::kPrismatic)) {
      joint.has_limits = true;
      joint.lower = j->limits->lower;
      joint.upper = j->limits->upper;
    }
    if (j->dynamics) {
      joint.damping = j->dynamics->damping;
      joint.friction = j->dynamics->friction;
    }
    if (j->mimic) {
      joint.mimic_multiplier = j->mimic->multiplier;
      joint.mimic_offset = j->mimic->offset;
      ++robot.mimic_count;
    }
    robot.joints.push_back(joint);
  }
  // mimic leaders by name, now that every joint has its index
  for (const XMLElement* e = robot_element->FirstChildElement("joint"); e != nullptr;
       e = e->NextSiblingElement("joint")) {
    const urdf::JointConstSharedPtr j = model->getJoint(e->Attribute("name"));
    if (!j->mimic) continue;
    for (int k = 0; k < static_cast<int>(robot.joints.size()); ++k) {
      if (robot.joints[k].name == j->mimic->joint_name) {
        for (UrdfJoint& follower : robot.joints) {
          if (follower.name == j->name) follower.mimic_leader = k;
        }
      }
    }
  }
  robot.root_link = robot.FindLink(model->getRoot()->name);
  return Expected<UrdfRobot>(std::move(robot), std::move(diagnostics));
}


Expected<UrdfRobot> LoadUrdf(const std::string& path, const UrdfOptions& options) {
  Expected<std::string> text = ReadTextFile(path, "URDF");
  if (!text.ok()) return text.diagnostics();
  return ParseUrdf(text.value(), path, options);
}

}  // namespace sim::io
