// Internal to the URDF loader (urdf_loader.cpp): the tinyxml2 walk that validates a robot
// description before urdfdom parses it. Every element and value is checked at its line, going on
// after errors to report all of them; mesh and texture files are resolved (existence checked) and
// the resolved mesh paths kept for the loader, which urdfdom does not do.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "engine/core/diagnostics.h"
#include "engine/io/file_roots.h"
#include "engine/io/urdf_loader.h"

namespace tinyxml2 {
class XMLElement;
}  // namespace tinyxml2

namespace sim::io {

class UrdfChecker {
 public:
  /// `source` names the file in diagnostics; relative resources resolve against its folder.
  UrdfChecker(std::string source, const UrdfOptions& options, Diagnostics* diagnostics);

  /// Checks the children of <robot> (links, joints, materials), then the references between
  /// them (joint links, material names, mimic leaders). Problems go to the diagnostics.
  void Robot(const tinyxml2::XMLElement* robot);

  /// Whether a <visual>'s material gives a colour: its own <color>, or the named definition's.
  bool HasColor(const tinyxml2::XMLElement* visual) const;

  /// Whether a resolved mesh or texture file may be read: always, unless the options give
  /// resource roots, and then inside them or a package root.
  bool Allowed(const std::string& path) const;

  /// <mesh> elements seen (visual and collision), and how many of them resolved to a file.
  int mesh_count() const { return mesh_count_; }
  int mesh_resolved() const { return mesh_resolved_; }
  /// <mesh> line -> resolved file.
  const std::map<int, std::string>& mesh_paths() const { return mesh_paths_; }

 private:
  using XMLElement = tinyxml2::XMLElement;

  void Error(const XMLElement* at, const std::string& message);
  std::string Outside(const std::string& path) const;
  void Warning(const XMLElement* at, const std::string& message);
  // attribute values: `count` finite numbers, or one (absent: true, *out untouched unless
  // `required`, which makes absence an error)
  bool Numbers(const XMLElement* element, const char* key, int count, std::vector<double>* out,
               const std::string& what);
  bool Number(const XMLElement* element, const char* key, double* out, const std::string& what,
              bool required);
  // the elements of a robot, each named `what` in its messages
  void Origin(const XMLElement* parent, const std::string& what);
  void Inertial(const XMLElement* inertial, const std::string& what);
  void Material(const XMLElement* material, const std::string& what, bool robot_level);
  void Geometry(const XMLElement* element, const std::string& what);
  void Link(const XMLElement* link);
  void Joint(const XMLElement* joint);

  // references checked once the whole robot is read
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

  std::string source_;  // before base_dir_, which is initialized from it
  std::string base_dir_;
  std::vector<std::string> package_paths_;
  std::optional<FileRoots> resource_roots_;  // none: every file may be read
  Diagnostics* diagnostics_;
  std::map<std::string, int> link_lines_;
  std::map<std::string, int> joint_lines_;
  std::map<std::string, std::string> joint_types_;  // name -> type as written
  std::map<std::string, int> material_lines_;       // defined material names
  std::set<std::string> colored_materials_;         // of those, the ones with a <color>
  std::vector<LinkRef> link_refs_;
  std::vector<MaterialRef> material_refs_;
  std::vector<MimicRef> mimic_refs_;
  std::map<int, std::string> mesh_paths_;
  int mesh_count_ = 0;
  int mesh_resolved_ = 0;
};

}  // namespace sim::io
