// Small text helpers shared by the file readers and their messages: a path's extension for
// format dispatch, "a, b, c" lists, whole-token number parsing, number formatting and JSON
// strings.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/math.h"

namespace sim::io {

/// The extension of `path` with its dot, lower-cased (".MSH" -> ".msh"), for format dispatch.
std::string LowerExtension(const std::string& path);

/// "a, b, c" for messages (`separator` between the words).
std::string Join(const std::vector<std::string>& words, const char* separator = ", ");
std::string Join(std::initializer_list<const char*> words);

/// A number as `std::ostream` writes it (shortest of fixed/scientific, 6 digits), for messages.
std::string FormatNumber(double value);

/// The shortest text that reads back to the same double (std::to_chars), for files whose numbers
/// must round-trip bit for bit ("0.1", "1e-300", "-0.0", "inf" and "nan" for non-finite values).
std::string ExactNumber(double value);

/// `text` as a JSON string literal: quoted, with quotes, backslashes and control characters
/// escaped (UTF-8 passes through).
std::string JsonString(std::string_view text);

/// The whole token as an integer (an optional leading '+'); false on anything else.
bool ParseInt(std::string_view token, long long* out);
/// The whole token as a number (std::from_chars forms, an optional leading '+'); false on
/// anything else. "inf" and "nan" parse: callers that need finite values check.
bool ParseReal(std::string_view token, Real* out);

}  // namespace sim::io
