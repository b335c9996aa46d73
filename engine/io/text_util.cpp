// Small text helpers shared by the file readers; see text_util.h.
#include "engine/io/text_util.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>

namespace sim::io {

namespace {

// from_chars over the whole token; a leading '+' (which from_chars rejects) is allowed
template <typename T>
bool ParseWhole(std::string_view token, T* out) {
  if (!token.empty() && token.front() == '+') token.remove_prefix(1);
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), *out);
  return ec == std::errc() && end == token.data() + token.size();
}

}  // namespace


std::string LowerExtension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}


std::string Join(const std::vector<std::string>& words, const char* separator) {
  std::string out;
  for (const std::string& w : words) {
    if (!out.empty()) out += separator;
    out += w;
  }
  return out;
}


std::string Join(std::initializer_list<const char*> words) {
  return Join(std::vector<std::string>(words.begin(), words.end()));
}


std::string FormatNumber(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}


std::string ExactNumber(double value) {
  // "-0" is an integer, which JSON readers (ours too) take for 0
  if (value == 0 && std::signbit(value)) return "-0.0";
  char text[32];
  const auto result = std::to_chars(text, text + sizeof(text), value);
  return std::string(text, result.ptr);
}


std::string JsonString(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof(escaped), "\\u%04x", static_cast<unsigned>(c));
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}


bool ParseInt(std::string_view token, long long* out) { return ParseWhole(token, out); }


bool ParseReal(std::string_view token, Real* out) { return ParseWhole(token, out); }

}  // namespace sim::io
