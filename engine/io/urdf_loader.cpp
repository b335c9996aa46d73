// URDF parsing: a tinyxml2 walk (UrdfChecker, urdf_checker.cpp) validates every element and value
// at its line (keeping going to report all problems), then urdfdom builds the model the values
// are taken from. urdfdom's own
// console messages are captured and, if it still rejects a file we accepted, reported located at
// the <robot> element.
#include "engine/io/urdf_loader.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <unordered_map>

#include <console_bridge/console.h>
#include <tinyxml2.h>
#include <urdf_parser/urdf_parser.h>

#include "engine/io/text_file.h"
#include "engine/io/urdf_checker.h"

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


namespace {

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
    // a package resource stays inside its package: "package://pkg/../../etc/passwd" is refused
    // before any path is tried (and never handed to a mesh importer)
    const fs::path inside = fs::path(relative).lexically_normal();
    if (package.empty() || package == ".." || inside.is_absolute() ||
        (!inside.empty() && *inside.begin() == "..")) {
      tried->push_back("(refused: the path leaves package '" + package + "')");
      return "";
    }
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

  // the checks above read the XML with tinyxml2, the model is urdfdom's: a file the two parse
  // differently (a malformed XML declaration one ends at '>' and the other at '?>') is refused
  // instead of mixing two robots
  const auto disagree = [&](const std::string& detail) {
    diagnostics.Error(source_name, robot_element->GetLineNum(), "",
                      "urdfdom reads a different robot from this file than its <robot> element (" +
                          detail + "); check the XML declaration and the nesting of <robot>");
    return diagnostics;
  };
  UrdfRobot robot;
  robot.name = model->getName();
  robot.source = source_name;
  robot.mesh_count = checker.mesh_count();
  robot.mesh_resolved = checker.mesh_resolved();
  // links and joints in document order, so indices and summaries follow the file
  std::map<std::string, const XMLElement*> link_elements;
  for (const XMLElement* e = robot_element->FirstChildElement(); e != nullptr;
       e = e->NextSiblingElement()) {
    const std::string tag = e->Name();
    if (tag == "link") {
      const urdf::LinkConstSharedPtr l = model->getLink(e->Attribute("name"));
      if (l == nullptr)
        return disagree("it has no link '" + std::string(e->Attribute("name")) + "'");
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
        if (g.is_mesh && checker.mesh_paths().contains(g.line))
          g.mesh_path = checker.mesh_paths().at(g.line);
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
        if (g.is_mesh && checker.mesh_paths().contains(g.line))
          g.mesh_path = checker.mesh_paths().at(g.line);
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
            if (!checker.Allowed(g.texture)) g.texture.clear();
          }
        }
        link.visuals.push_back(g);
      }
      robot.links.push_back(std::move(link));
    }
  }
  // links by name (a linear search per joint was quadratic: 7 s for a chain of 10^4 links)
  std::unordered_map<std::string, int> link_index;
  for (int l = 0; l < static_cast<int>(robot.links.size()); ++l) {
    link_index.emplace(robot.links[l].name, l);
  }
  const auto find_link = [&](const std::string& name) {
    const auto it = link_index.find(name);
    return it == link_index.end() ? -1 : it->second;
  };
  for (const XMLElement* e = robot_element->FirstChildElement("joint"); e != nullptr;
       e = e->NextSiblingElement("joint")) {
    const urdf::JointConstSharedPtr j = model->getJoint(e->Attribute("name"));
    if (j == nullptr)
      return disagree("it has no joint '" + std::string(e->Attribute("name")) + "'");
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
    joint.parent = find_link(j->parent_link_name);
    joint.child = find_link(j->child_link_name);
    joint.X_PJ = ToPose(j->parent_to_joint_origin_transform);
    const Vec3 axis(j->axis.x, j->axis.y, j->axis.z);
    joint.axis = axis.norm() > 1e-9 ? axis.normalized() : Vec3::UnitX();
    if (j->limits &&
        (joint.type == UrdfJointType::kRevolute || joint.type == UrdfJointType::kPrismatic)) {
      joint.has_limits = true;
      joint.lower = j->limits->lower;
      joint.upper = j->limits->upper;
    }
    if (j->limits && j->limits->velocity > 0) joint.velocity = j->limits->velocity;
    if (j->limits && j->limits->effort > 0) joint.effort = j->limits->effort;
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
  std::unordered_map<std::string, int> joint_index;
  for (int k = 0; k < static_cast<int>(robot.joints.size()); ++k) {
    joint_index.emplace(robot.joints[k].name, k);
  }
  for (UrdfJoint& follower : robot.joints) {
    const urdf::JointConstSharedPtr j = model->getJoint(follower.name);
    if (!j->mimic) continue;
    const auto leader = joint_index.find(j->mimic->joint_name);
    if (leader != joint_index.end()) follower.mimic_leader = leader->second;
  }
  robot.root_link = find_link(model->getRoot()->name);
  if (robot.links.size() != model->links_.size() || robot.joints.size() != model->joints_.size() ||
      robot.root_link < 0) {
    return disagree(std::to_string(model->links_.size()) + " links and " +
                    std::to_string(model->joints_.size()) + " joints against " +
                    std::to_string(robot.links.size()) + " and " +
                    std::to_string(robot.joints.size()));
  }
  return Expected<UrdfRobot>(std::move(robot), std::move(diagnostics));
}


Expected<UrdfRobot> LoadUrdf(const std::string& path, const UrdfOptions& options) {
  Expected<std::string> text = ReadTextFile(path, "URDF");
  if (!text.ok()) return text.diagnostics();
  return ParseUrdf(text.value(), path, options);
}

}  // namespace sim::io
