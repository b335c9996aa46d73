// Reading an input file whole, with the diagnostic every loader gives when it cannot be opened.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

#include "engine/core/diagnostics.h"

namespace sim::io {

/// The contents of `path`, or an error naming it as a `kind` file ("scene", "URDF", ...).
inline Expected<std::string> ReadTextFile(const std::string& path, const std::string& kind) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    Diagnostics diagnostics;
    diagnostics.Error(path, 0, "",
                      "cannot open " + kind + " file (does it exist and is it readable?)");
    return diagnostics;
  }
  std::stringstream buffer;
  buffer << file.rdbuf();
  return Expected<std::string>(buffer.str());
}

}  // namespace sim::io
