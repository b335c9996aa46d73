// URDF validation behind ParseUrdf (see urdf_checker.h): every element and value checked at its
// line, references (parent/child links, materials, mimic leaders) checked once all are known.
#include "engine/io/urdf_checker.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include <tinyxml2.h>
#include <Eigen/Eigenvalues>

#include "engine/io/text_util.h"

namespace sim::io {

namespace {

using tinyxml2::XMLElement;

// "a, b, c" of the paths a resource was looked for at
std::string JoinTried(const std::vector<std::string>& tried) {
  const std::string list = Join(tried);
  return list.empty() ? "no package path; set CONTACT_STUDIO_PACKAGE_PATH or ROS_PACKAGE_PATH"
                      : list;
}

}  // namespace


UrdfChecker::UrdfChecker(std::string source, const UrdfOptions& options, Diagnostics* diagnostics)
    : source_(std::move(source)),
      base_dir_(std::filesystem::path(source_).parent_path().string()),
      package_paths_(options.package_paths),
      diagnostics_(diagnostics) {
  if (!options.resource_roots.empty()) {
    std::vector<std::string> roots = options.resource_roots;
    for (const std::string& root : PackageRoots(package_paths_)) roots.push_back(root);
    resource_roots_.emplace(roots);
  }
}


bool UrdfChecker::Allowed(const std::string& path) const {
  return !resource_roots_ || resource_roots_->Contains(path);
}


// " is 'path', outside ...": why a resolved resource is not read
std::string UrdfChecker::Outside(const std::string& path) const {
  return " is '" + FileRoots::Target(path) + "', outside the folders this scene may read (" +
         resource_roots_->Describe() + "); add its folder to " + kFileRootsVariable +
         " to allow it";
}


void UrdfChecker::Error(const XMLElement* at, const std::string& message) {
  diagnostics_->Error(source_, at->GetLineNum(), "", message);
}


void UrdfChecker::Warning(const XMLElement* at, const std::string& message) {
  diagnostics_->Warning(source_, at->GetLineNum(), "", message);
}


// `count` finite numbers from attribute `key` (absent: true, *out untouched)
bool UrdfChecker::Numbers(const XMLElement* element, const char* key, int count,
                          std::vector<double>* out, const std::string& what) {
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


bool UrdfChecker::Number(const XMLElement* element, const char* key, double* out,
                         const std::string& what, bool required) {
  if (element->Attribute(key) == nullptr) {
    if (required) Error(element, what + " needs attribute '" + key + "'");
    return !required;
  }
  std::vector<double> values;
  if (!Numbers(element, key, 1, &values, what)) return false;
  *out = values[0];
  return true;
}


void UrdfChecker::Origin(const XMLElement* parent, const std::string& what) {
  const XMLElement* origin = parent->FirstChildElement("origin");
  if (origin == nullptr) return;
  std::vector<double> v;
  Numbers(origin, "xyz", 3, &v, what + " <origin>");
  Numbers(origin, "rpy", 3, &v, what + " <origin>");
}


void UrdfChecker::Inertial(const XMLElement* inertial, const std::string& what) {
  Origin(inertial, what + " <inertial>");
  const XMLElement* mass = inertial->FirstChildElement("mass");
  if (mass == nullptr) {
    Error(inertial, what + " <inertial> has no <mass>");
  } else {
    double m = 0;
    if (Number(mass, "value", &m, what + " <mass>", true) && m <= 0) {
      Error(mass, what + " has mass " + FormatNumber(m) + ", expected a positive mass in kg");
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
  const std::string values = "(ixx " + FormatNumber(ixx) + ", iyy " + FormatNumber(iyy) + ", izz " +
                             FormatNumber(izz) + ", ixy " + FormatNumber(ixy) + ", ixz " +
                             FormatNumber(ixz) + ", iyz " + FormatNumber(iyz) +
                             "; smallest eigenvalue " + FormatNumber(eig.minCoeff()) + ")";
  if (eig.minCoeff() < -1e-12 * std::max(1.0, eig.cwiseAbs().maxCoeff())) {
    Error(inertia, what + " has an inertia that is not positive definite " + values +
                       ", expected positive principal moments");
  } else if (eig.minCoeff() <= 0) {
    Warning(inertia,
            what + " has a singular inertia " + values +
                "; for simulation its principal moments are raised to at least 1% of the largest");
  } else if (eig[0] + eig[1] < eig[2] * (1 - 1e-6)) {
    Warning(inertia, what + " has principal moments " + FormatNumber(eig[0]) + ", " +
                         FormatNumber(eig[1]) + ", " + FormatNumber(eig[2]) +
                         " that violate the triangle inequality");
  }
}


// a <material>: its <color rgba> (4 numbers in [0, 1]) and <texture filename> (resolved);
// robot-level ones define names, a visual's own one with a colour or texture defines its name
// too (as urdfdom does), and one with only a name refers to a definition
void UrdfChecker::Material(const XMLElement* material, const std::string& what, bool robot_level) {
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
      const std::string path = ResolveResource(filename, base_dir_, package_paths_, &tried);
      if (path.empty()) {
        Warning(texture, label + " texture '" + filename + "' not found (tried: " +
                             JoinTried(tried) + "); it is drawn without it");
      } else if (!Allowed(path)) {
        Warning(texture,
                label + " texture '" + filename + "'" + Outside(path) + "; it is drawn without it");
      }
    }
  }
  const bool defines = color != nullptr || texture != nullptr;
  if (color != nullptr && name != nullptr && *name != '\0') colored_materials_.insert(name);
  if (robot_level && !defines) {
    Warning(material, label + " has neither <color> nor <texture>");
  }
  if (name == nullptr || *name == '\0') return;
  if (defines) {
    material_lines_.emplace(name, material->GetLineNum());
  } else if (!robot_level) {
    material_refs_.push_back({material, what, name});
  }
}


// one <visual> or <collision>; resolves meshes
void UrdfChecker::Geometry(const XMLElement* element, const std::string& what) {
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
      Error(shape, what + " " + type + " '" + key + "' is " + FormatNumber(value) +
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
    ++mesh_count_;
    std::vector<std::string> tried;
    const std::string path = ResolveResource(filename, base_dir_, package_paths_, &tried);
    if (!path.empty() && !Allowed(path)) {
      Error(shape, what + " mesh '" + filename + "'" + Outside(path));
    } else if (!path.empty()) {
      ++mesh_resolved_;
      mesh_paths_[shape->GetLineNum()] = path;
    } else {
      Error(shape, what + " mesh '" + filename + "' not found (tried: " + JoinTried(tried) + ")");
    }
  } else {
    Error(shape,
          what + " has unknown geometry <" + type + "> (expected box, cylinder, sphere or mesh)");
  }
}


void UrdfChecker::Link(const XMLElement* link) {
  const char* name = link->Attribute("name");
  if (name == nullptr || *name == '\0') {
    Error(link, "<link> without a name");
    return;
  }
  const std::string what = std::string("link '") + name + "'";
  if (!link_lines_.emplace(name, link->GetLineNum()).second) {
    Error(link, "duplicate " + what + " (first defined at line " +
                    std::to_string(link_lines_[name]) + ")");
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


void UrdfChecker::Joint(const XMLElement* joint) {
  const char* name = joint->Attribute("name");
  if (name == nullptr || *name == '\0') {
    Error(joint, "<joint> without a name");
    return;
  }
  const std::string what = std::string("joint '") + name + "'";
  if (!joint_lines_.emplace(name, joint->GetLineNum()).second) {
    Error(joint, "duplicate " + what + " (first defined at line " +
                     std::to_string(joint_lines_[name]) + ")");
  }
  static const std::set<std::string> kTypes = {"revolute", "continuous", "prismatic",
                                               "fixed",    "floating",   "planar"};
  const char* type = joint->Attribute("type");
  joint_types_.emplace(name, type == nullptr ? "" : type);
  if (type == nullptr || !kTypes.contains(type)) {
    Error(joint,
          what +
              (type == nullptr ? " has no type" : " has unknown type '" + std::string(type) + "'") +
              " (expected revolute, continuous, prismatic, fixed, floating, planar)");
  }
  for (const char* role : {"parent", "child"}) {
    const XMLElement* e = joint->FirstChildElement(role);
    const char* link = e == nullptr ? nullptr : e->Attribute("link");
    if (link == nullptr) {
      Error(e == nullptr ? joint : e, what + " needs <" + role + " link=\"...\"/>");
    } else {
      link_refs_.push_back({e, what, role, link});
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
      Error(limit, what + " has lower limit " + FormatNumber(lower) + " above upper limit " +
                       FormatNumber(upper));
    }
  } else if (t == "revolute" || t == "prismatic") {
    Error(joint, what + " of type '" + t + "' needs a <limit> element");
  }
  if (const XMLElement* dynamics = joint->FirstChildElement("dynamics")) {
    double damping = 0, friction = 0;
    if (Number(dynamics, "damping", &damping, what + " <dynamics>", false) && damping < 0) {
      Error(dynamics,
            what + " <dynamics> 'damping' is " + FormatNumber(damping) + ", expected a value >= 0");
    }
    if (Number(dynamics, "friction", &friction, what + " <dynamics>", false) && friction < 0) {
      Error(dynamics, what + " <dynamics> 'friction' is " + FormatNumber(friction) +
                          ", expected a value >= 0");
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
      mimic_refs_.push_back({mimic, what, name, leader});
    }
  }
}


void UrdfChecker::Robot(const XMLElement* robot) {
  int links = 0, joints = 0;
  for (const XMLElement* e = robot->FirstChildElement(); e != nullptr;
       e = e->NextSiblingElement()) {
    const std::string tag = e->Name();
    // a robot over the size limit is refused at once: neither its references nor urdfdom's
    // reading of it are worth the time
    if ((tag == "link" && ++links > kMaxUrdfLinks) ||
        (tag == "joint" && ++joints > kMaxUrdfLinks)) {
      Error(e, "the robot has more than " + std::to_string(kMaxUrdfLinks) + " " + tag +
                   "s (the limit of one robot)");
      return;
    }
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
  for (const LinkRef& ref : link_refs_) {
    if (!link_lines_.contains(ref.link)) {
      Error(ref.element,
            ref.what + " " + ref.role + " link '" + ref.link + "' is not a link of this robot");
    }
  }
  for (const MaterialRef& ref : material_refs_) {
    if (!material_lines_.contains(ref.name)) {
      Error(ref.element, ref.what + " uses material '" + ref.name +
                             "', which is not defined (define it under <robot> with a <color> "
                             "or <texture>, or give this one a <color>)");
    }
  }
  for (const MimicRef& ref : mimic_refs_) {
    const auto leader = joint_types_.find(ref.leader);
    if (ref.leader == ref.follower) {
      Error(ref.element, ref.what + " mimics itself");
    } else if (leader == joint_types_.end()) {
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
bool UrdfChecker::HasColor(const XMLElement* visual) const {
  const XMLElement* material = visual->FirstChildElement("material");
  if (material == nullptr) return false;
  if (material->FirstChildElement("color") != nullptr) return true;
  const char* name = material->Attribute("name");
  return name != nullptr && colored_materials_.contains(name);
}

}  // namespace sim::io
