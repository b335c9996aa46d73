#include "engine/core/diagnostics.h"

#include <algorithm>

namespace sim {

namespace {

std::string_view SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kNote:
      return "note";
    case Severity::kWarning:
      return "warning";
    case Severity::kError:
      return "error";
  }
  return "error";
}

}  // namespace


std::string Diagnostic::Format() const {
  std::string out = source.empty() ? std::string("<input>") : source;
  if (line > 0) out += ":" + std::to_string(line);
  out += ": ";
  out += SeverityName(severity);
  out += ": ";
  out += message;
  if (!element_path.empty()) out += " (at " + element_path + ")";
  return out;
}


void Diagnostics::Error(std::string source, int line, std::string element_path,
                        std::string message) {
  Add({Severity::kError, std::move(source), line, 0, std::move(element_path), std::move(message)});
}


void Diagnostics::Warning(std::string source, int line, std::string element_path,
                          std::string message) {
  Add({Severity::kWarning, std::move(source), line, 0, std::move(element_path),
       std::move(message)});
}


void Diagnostics::Append(const Diagnostics& other) {
  items_.insert(items_.end(), other.items_.begin(), other.items_.end());
}


bool Diagnostics::has_errors() const { return error_count() > 0; }


int Diagnostics::error_count() const {
  return static_cast<int>(std::count_if(items_.begin(), items_.end(), [](const Diagnostic& d) {
    return d.severity == Severity::kError;
  }));
}


std::string Diagnostics::Format() const {
  std::string out;
  for (const Diagnostic& d : items_) out += d.Format() + "\n";
  return out;
}

}  // namespace sim
