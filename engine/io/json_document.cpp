// Located JSON tree on RapidJSON's SAX reader. RapidJSON reports values as events right after each
// token, so the stream position at that moment is where the value ends; a wrapper stream counts
// lines and columns as RapidJSON consumes characters.
#include "engine/io/json_document.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <memory>
#include <string_view>

#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>

namespace sim::io {

namespace {

// rapidjson input stream over a string that tracks line and column of the next character
class LineCountingStream {
 public:
  using Ch = char;
  explicit LineCountingStream(const std::string& text) : text_(text) {}

  Ch Peek() const { return offset_ < text_.size() ? text_[offset_] : '\0'; }
  Ch Take() {
    const Ch c = Peek();
    if (c == '\0') return c;
    ++offset_;
    if (c == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
    return c;
  }
  std::size_t Tell() const { return offset_; }
  const std::string& text() const { return text_; }
  // write interface, never used for input (rapidjson requires the declarations)
  Ch* PutBegin() { return nullptr; }
  void Put(Ch) {}
  void Flush() {}
  std::size_t PutEnd(Ch*) { return 0; }

  int line() const { return line_; }
  int column() const { return column_; }

 private:
  const std::string& text_;
  std::size_t offset_ = 0;
  int line_ = 1;
  int column_ = 1;
};


// escapes a key for a JSON pointer (RFC 6901: '~' -> "~0", '/' -> "~1")
std::string EscapePointerToken(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}


// The power of ten of a JSON number's first significant digit, exponent included ("0.05e3": 1),
// for one that std::from_chars finds out of range: positive overflows, negative underflows
long long DecimalMagnitude(std::string_view number) {
  long long magnitude = 0;
  bool significant = false, fraction = false;
  std::size_t i = number.starts_with('-') ? 1 : 0;
  for (; i < number.size() && number[i] != 'e' && number[i] != 'E'; ++i) {
    if (number[i] == '.') {
      fraction = true;
    } else if (!significant && (number[i] != '0' || fraction)) {
      // leading zeros of the fraction and its first significant digit each take a power off
      if (fraction) --magnitude;
      significant = number[i] != '0';
    } else if (significant && !fraction) {
      ++magnitude;
    }
  }
  long long exponent = 0;
  if (i + 1 < number.size()) {
    std::string_view digits = number.substr(i + 1);
    const bool negative = digits.starts_with('-');
    if (negative || digits.starts_with('+')) digits.remove_prefix(1);
    // an exponent too long for 64 bits is as far from 0 as it matters
    if (std::from_chars(digits.data(), digits.data() + digits.size(), exponent).ec != std::errc()) {
      exponent = std::numeric_limits<int>::max();
    }
    if (negative) exponent = -exponent;
  }
  return magnitude + exponent;
}


// the offset of the first byte at or after `offset` that is neither white space nor inside a
// comment (the parser accepts // and /* */ comments)
std::size_t SkipInsignificant(const std::string& text, std::size_t offset) {
  while (offset < text.size()) {
    const char c = text[offset];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++offset;
    } else if (text.compare(offset, 2, "//") == 0) {
      offset = std::min(text.find('\n', offset), text.size());
    } else if (text.compare(offset, 2, "/*") == 0) {
      const std::size_t end = text.find("*/", offset + 2);
      offset = end == std::string::npos ? text.size() : end + 2;
    } else {
      break;
    }
  }
  return offset;
}


// line and column (1-based) of byte `offset` in `text`
std::pair<int, int> LineColumnOf(const std::string& text, std::size_t offset) {
  int line = 1;
  int column = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}

}  // namespace


// builds the located tree from SAX events; semantic errors (duplicate keys) are collected
class JsonTreeBuilder {
 public:
  // `base_offset`: bytes before the parsed text in the file (a byte-order mark)
  JsonTreeBuilder(const LineCountingStream& stream, std::string source, Diagnostics* diagnostics,
                  std::size_t base_offset)
      : stream_(stream),
        source_(std::move(source)),
        diagnostics_(diagnostics),
        base_offset_(base_offset) {}

  bool Null() { return AddScalar(JsonValue()); }
  bool Bool(bool b) {
    JsonValue v;
    v.type_ = JsonValue::Type::kBool;
    v.bool_ = b;
    return AddScalar(std::move(v));
  }
  bool Int(int i) { return Number(i); }
  bool Uint(unsigned u) { return Number(u); }
  bool Int64(int64_t i) { return Number(static_cast<double>(i)); }
  bool Uint64(uint64_t u) { return Number(static_cast<double>(u)); }
  bool Double(double d) { return Number(d); }
  // numbers come as their text (kParseNumbersAsStringsFlag): RapidJSON 1.1.0's full-precision
  // conversion reads a zero written with a large negative exponent ("0e-300") as a huge number
  // (its __builtin_clzll(0)); std::from_chars rounds correctly and knows no locale
  bool RawNumber(const char* str, rapidjson::SizeType length, bool) {
    const std::string_view text(str, length);
    double value = 0;
    if (std::from_chars(text.data(), text.data() + text.size(), value).ec != std::errc()) {
      if (DecimalMagnitude(text) >= 0) {
        diagnostics_->Error(source_, stream_.line(), "",
                            std::string("invalid JSON: ") +
                                rapidjson::GetParseError_En(rapidjson::kParseErrorNumberTooBig));
        return false;
      }
      value = text.starts_with('-') ? -0.0 : 0.0;  // below the smallest double: zero
    }
    // an integer is read as RapidJSON reads it: "-0" is 0
    if (value == 0 && text.find_first_of(".eE") == std::string_view::npos) value = 0;
    return Number(value);
  }
  bool String(const char* str, rapidjson::SizeType length, bool) {
    JsonValue v;
    v.type_ = JsonValue::Type::kString;
    v.string_.assign(str, length);
    return AddScalar(std::move(v));
  }
  bool StartObject() { return Open(JsonValue::Type::kObject); }
  bool Key(const char* str, rapidjson::SizeType length, bool) {
    JsonValue& object = *stack_.back();
    std::string key(str, length);
    // duplicate keys are legal JSON but always a mistake in a scene: the first would be ignored
    if (object.Find(key) != nullptr) {
      diagnostics_->Error(source_, stream_.line(), ChildPointer(object, key),
                          "duplicate key '" + key + "'");
    }
    pending_key_ = std::move(key);
    token_end_ = stream_.Tell();
    return true;
  }
  bool EndObject(rapidjson::SizeType) { return Close(); }
  bool StartArray() { return Open(JsonValue::Type::kArray); }
  bool EndArray(rapidjson::SizeType) { return Close(); }

  JsonValue TakeRoot() { return std::move(root_); }

 private:
  bool Number(double d) {
    JsonValue v;
    v.type_ = JsonValue::Type::kNumber;
    v.number_ = d;
    return AddScalar(std::move(v));
  }

  std::string ChildPointer(const JsonValue& parent, const std::string& key) const {
    return parent.pointer_ + "/" + EscapePointerToken(key);
  }

  // where the value just read began: after the previous token (a key, '[', or an element), past
  // white space, comments and the ':' or ',' before the value
  std::size_t ValueBegin(std::size_t end) const {
    const std::string& text = stream_.text();
    std::size_t offset = SkipInsignificant(text, token_end_);
    if (offset < end && (text[offset] == ':' || text[offset] == ',')) {
      offset = SkipInsignificant(text, offset + 1);
    }
    return offset;
  }

  // appends `value` to the current container (or makes it the root) and returns its slot
  JsonValue* Attach(JsonValue value) {
    value.line_ = stream_.line();
    value.column_ = stream_.column();
    // a scalar has been read to its end; a container only to its opening bracket
    value.begin_offset_ = base_offset_ + ValueBegin(stream_.Tell());
    value.end_offset_ = base_offset_ + stream_.Tell();
    token_end_ = stream_.Tell();
    if (stack_.empty()) {
      root_ = std::move(value);
      return &root_;
    }
    JsonValue& parent = *stack_.back();
    if (parent.type_ == JsonValue::Type::kArray) {
      value.pointer_ = parent.pointer_ + "/" + std::to_string(parent.items_.size());
      parent.items_.push_back(std::move(value));
      return &parent.items_.back();
    }
    value.pointer_ = ChildPointer(parent, pending_key_);
    parent.members_.emplace_back(std::move(pending_key_), std::move(value));
    return &parent.members_.back().second;
  }

  bool AddScalar(JsonValue value) {
    Attach(std::move(value));
    return true;
  }

  // containers are attached when opened (line of '{' or '['); the stack holds pointers into the
  // tree, which stay valid because a container is only appended to while it is the top
  bool Open(JsonValue::Type type) {
    // a bounded depth keeps the tree (and its recursive destruction) small: a file nested
    // 20000 levels deep would otherwise overflow the stack
    if (stack_.size() >= static_cast<std::size_t>(kMaxJsonDepth)) {
      diagnostics_->Error(source_, stream_.line(), "",
                          "JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
      return false;
    }
    JsonValue v;
    v.type_ = type;
    stack_.push_back(Attach(std::move(v)));
    return true;
  }

  // RapidJSON reports the end of a container before it consumes the closing bracket
  bool Close() {
    token_end_ = SkipInsignificant(stream_.text(), stream_.Tell()) + 1;
    stack_.back()->end_offset_ = base_offset_ + token_end_;
    stack_.pop_back();
    return true;
  }

  const LineCountingStream& stream_;
  std::string source_;
  Diagnostics* diagnostics_;
  JsonValue root_;
  std::vector<JsonValue*> stack_;
  std::string pending_key_;
  std::size_t base_offset_ = 0;
  std::size_t token_end_ = 0;  // offset just past the last key, bracket or value read
};


const JsonValue* JsonValue::Find(const std::string& key) const {
  for (const auto& [name, value] : members_) {
    if (name == key) return &value;
  }
  return nullptr;
}


const JsonValue* JsonValue::AtPointer(const std::string& pointer) const {
  const JsonValue* value = this;
  std::size_t at = 0;
  while (value != nullptr && at < pointer.size()) {
    if (pointer[at] != '/') return nullptr;
    // the next reference token, unescaped ("~1" is '/', "~0" is '~')
    const std::size_t end = std::min(pointer.find('/', at + 1), pointer.size());
    std::string token;
    for (std::size_t i = at + 1; i < end; ++i) {
      if (pointer[i] == '~' && i + 1 < end && (pointer[i + 1] == '0' || pointer[i + 1] == '1')) {
        token += pointer[++i] == '0' ? '~' : '/';
      } else {
        token += pointer[i];
      }
    }
    at = end;
    if (value->is_object()) {
      value = value->Find(token);
    } else if (value->is_array() && !token.empty() &&
               token.find_first_not_of("0123456789") == std::string::npos && token.size() < 10) {
      const std::size_t index = std::stoul(token);
      value = index < value->items_.size() ? &value->items_[index] : nullptr;
    } else {
      return nullptr;
    }
  }
  return value;
}


const char* JsonValue::TypeName(Type type) {
  switch (type) {
    case Type::kNull:
      return "null";
    case Type::kBool:
      return "boolean";
    case Type::kNumber:
      return "number";
    case Type::kString:
      return "string";
    case Type::kArray:
      return "array";
    case Type::kObject:
      return "object";
  }
  return "value";
}


Expected<JsonValue> ParseJson(const std::string& file_text, const std::string& source_name) {
  // a UTF-8 byte-order mark (editors on Windows write one) is not part of the JSON
  constexpr std::string_view kBom = "\xEF\xBB\xBF";
  const bool bom = file_text.starts_with(kBom);
  const std::string text = bom ? file_text.substr(kBom.size()) : file_text;
  Diagnostics diagnostics;
  LineCountingStream stream(text);
  JsonTreeBuilder builder(stream, source_name, &diagnostics, bom ? kBom.size() : 0);
  rapidjson::Reader reader;
  // iterative: the parser's own stack is on the heap, whatever the nesting
  constexpr unsigned kFlags = rapidjson::kParseCommentsFlag |
                              rapidjson::kParseNumbersAsStringsFlag |
                              rapidjson::kParseIterativeFlag;
  const rapidjson::ParseResult result = reader.Parse<kFlags>(stream, builder);
  if (result.IsError() && diagnostics.has_errors()) return diagnostics;  // the builder said why
  if (result.IsError()) {
    const auto [line, column] = LineColumnOf(text, result.Offset());
    diagnostics.Add({Severity::kError, source_name, line, column, "",
                     std::string("invalid JSON: ") + rapidjson::GetParseError_En(result.Code())});
    return diagnostics;
  }
  if (diagnostics.has_errors()) return diagnostics;
  return Expected<JsonValue>(builder.TakeRoot(), std::move(diagnostics));
}

}  // namespace sim::io
