#include "render/render_options.h"

namespace sim::render {

const char* ViewModeName(ViewMode mode) {
  switch (mode) {
    case ViewMode::kShaded:
      return "shaded";
    case ViewMode::kStrain:
      return "strain";
    case ViewMode::kContacts:
      return "contacts";
    case ViewMode::kStructure:
      return "structure";
  }
  return "shaded";
}


std::optional<ViewMode> ParseViewMode(const std::string& name) {
  for (ViewMode mode :
       {ViewMode::kShaded, ViewMode::kStrain, ViewMode::kContacts, ViewMode::kStructure}) {
    if (name == ViewModeName(mode)) return mode;
  }
  return std::nullopt;
}

}  // namespace sim::render
