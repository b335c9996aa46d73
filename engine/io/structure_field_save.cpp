// Saving painted structure fields: the PNG and the in-place rewrite of the scene's field value
// (structure_field_save.h).
#include "engine/io/structure_field_save.h"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <system_error>
#include <vector>

#include "engine/io/json_document.h"
#include "engine/io/png_file.h"
#include "engine/io/text_file.h"
#include "engine/io/text_util.h"

namespace sim::io {

namespace {

namespace fs = std::filesystem;

// the white space that starts the line holding byte `offset`
std::string IndentOfLine(const std::string& text, std::size_t offset) {
  const std::size_t start = text.rfind('\n', offset == 0 ? 0 : offset - 1);
  const std::size_t first = start == std::string::npos || offset == 0 ? 0 : start + 1;
  std::size_t end = first;
  while (end < text.size() && (text[end] == ' ' || text[end] == '\t')) ++end;
  return text.substr(first, end - first);
}

// writes `bytes` to `path` through `path`.saving renamed over it (keeping the old file's
// permissions); false and `error` on failure, the old file untouched
bool ReplaceFile(const fs::path& path, const std::string& bytes, std::string* error) {
  const fs::path temporary = path.string() + ".saving";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) {
      *error = "cannot write " + temporary.string();
      std::error_code ignored;
      fs::remove(temporary, ignored);
      return false;
    }
  }
  std::error_code code;
  const fs::file_status old_status = fs::status(path, code);
  if (!code && fs::exists(old_status)) fs::permissions(temporary, old_status.permissions(), code);
  fs::rename(temporary, path, code);
  if (code) {
    *error = "cannot replace it: " + code.message();
    fs::remove(temporary, code);
    return false;
  }
  return true;
}

// `image` checked: a relative path without "..", so it stays in the scene's folder
bool IsInsideFolder(const fs::path& image) {
  if (image.empty() || image.is_absolute() || image.has_root_name()) return false;
  for (const fs::path& part : image.lexically_normal()) {
    if (part == "..") return false;
  }
  return true;
}

// the new text of a field value that was `old` (an object at [begin, end) of `text`)
std::string ImageFieldText(const std::string& text, const JsonValue& old, const std::string& image,
                           const StructureField& field) {
  std::vector<std::string> members = {"\"image\": " + JsonString(image)};
  if (const JsonValue* projection = old.Find("projection")) {
    members.push_back("\"projection\": " +
                      text.substr(projection->begin_offset(),
                                  projection->end_offset() - projection->begin_offset()));
  }
  members.push_back("\"tile_size\": [" + ExactNumber(field.tile_size.x()) + ", " +
                    ExactNumber(field.tile_size.y()) + "]");
  // one line where the old value was on one line, else one member a line as indented before
  const std::string old_text =
      text.substr(old.begin_offset(), old.end_offset() - old.begin_offset());
  const bool multiline = old_text.find('\n') != std::string::npos;
  const std::string closing_indent = IndentOfLine(text, old.end_offset() - 1);
  const std::string member_indent = !old.members().empty()
                                        ? IndentOfLine(text, old.members()[0].second.begin_offset())
                                        : closing_indent + " ";
  std::string out = "{";
  for (std::size_t i = 0; i < members.size(); ++i) {
    out += multiline ? "\n" + member_indent : (i == 0 ? "" : " ");
    out += members[i] + (i + 1 < members.size() ? "," : "");
  }
  return out + (multiline ? "\n" + closing_indent + "}" : "}");
}

// WriteStructureFieldPng without the file's name in `error`
bool EncodeAndWrite(const StructureField& field, const std::string& path, std::string* error) {
  if (!field.has_texels()) {
    *error = "the structure field has no texels to save";
    return false;
  }
  std::vector<std::uint8_t> rgba(static_cast<std::size_t>(field.width()) * field.height() * 4);
  for (std::size_t i = 0; i < field.texels().size(); ++i) {
    EncodeStructureTexel(field.texels()[i], &rgba[4 * i]);
    rgba[4 * i + 3] = 255;
  }
  // written beside the target, then renamed over it
  const std::string temporary = path + ".saving";
  const std::map<std::string, std::string> text = {
      {"Software", "Contact Studio"},
      {"Comment",
       "structure field: R, G = cos 2 theta, sin 2 theta (byte b: 2b/255 - 1); B = strength "
       "b/255"}};
  std::error_code code;
  if (!WritePng(temporary, field.width(), field.height(), rgba, error, text)) {
    fs::remove(temporary, code);
    return false;
  }
  fs::rename(temporary, path, code);
  if (code) {
    *error = "cannot replace it: " + code.message();
    fs::remove(temporary, code);
    return false;
  }
  return true;
}

}  // namespace


bool WriteStructureFieldPng(const StructureField& field, const std::string& path,
                            std::string* error) {
  if (!EncodeAndWrite(field, path, error)) {
    *error = path + ": " + *error;
    return false;
  }
  return true;
}


std::string DefaultStructureFieldImage(const std::string& scene_path, const StructureField& field) {
  const fs::path folder = fs::path(scene_path).parent_path();
  if (!field.image_path.empty()) {
    const fs::path base = fs::absolute(folder.empty() ? fs::path(".") : folder).lexically_normal();
    const fs::path relative =
        fs::absolute(field.image_path).lexically_normal().lexically_relative(base);
    if (IsInsideFolder(relative)) return relative.generic_string();
  }
  std::string name = fs::path(scene_path).stem().string();
  for (const char c : field.scene_pointer) {
    name += c == '/' || c == '~' ? '_' : c;
  }
  return name + ".png";
}


Expected<std::string> SaveStructureField(const StructureField& field, const std::string& scene_path,
                                         const std::string& image) {
  Diagnostics errors;
  const auto fail = [&](int line, const std::string& message) {
    errors.Error(scene_path, line, field.scene_pointer, message);
    return Expected<std::string>(errors);
  };
  if (!field.has_texels()) {
    return fail(0, "the structure field has no texels to save (paint or bake it first)");
  }
  if (field.scene_pointer.empty()) {
    return fail(0, "the structure field was not read from a scene, so it has no place to save to");
  }
  // the scene as it is now, and the field's value in it
  Expected<std::string> text = ReadTextFile(scene_path, "scene");
  if (!text.ok()) return text.diagnostics();
  Expected<JsonValue> json = ParseJson(text.value(), scene_path);
  if (!json.ok()) return json.diagnostics();
  const JsonValue* value = json->AtPointer(field.scene_pointer);
  if (value == nullptr || !value->is_object() ||
      (value->Find("image") == nullptr && value->Find("procedural") == nullptr)) {
    return fail(value != nullptr ? value->line() : 0,
                "the scene has no structure field at " + field.scene_pointer +
                    " any more (was it edited since it was loaded?)");
  }
  const std::string name = image.empty() ? DefaultStructureFieldImage(scene_path, field) : image;
  if (!IsInsideFolder(fs::path(name)) || fs::path(name).extension() != ".png") {
    return fail(value->line(), "the structure field's image '" + name +
                                   "' must be a .png path inside the scene's folder");
  }
  // the image first: a failure there leaves the scene as it was
  const fs::path folder = fs::path(scene_path).parent_path();
  const std::string image_path = (folder / name).lexically_normal().string();
  std::string error;
  if (!EncodeAndWrite(field, image_path, &error)) {
    errors.Error(image_path, 0, "", error);
    return errors;
  }
  std::string rewritten = text->substr(0, value->begin_offset());
  rewritten += ImageFieldText(text.value(), *value, fs::path(name).generic_string(), field);
  rewritten += text->substr(value->end_offset());
  if (!ReplaceFile(scene_path, rewritten, &error)) return fail(0, error);
  return image_path;
}

}  // namespace sim::io
