#include "engine/io/mesh_loader.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <string_view>
#include <vector>

#include <assimp/config.h>
#include <assimp/material.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/Importer.hpp>

#include "engine/io/text_file.h"
#include "engine/io/text_util.h"

namespace sim::io {
namespace {

// assimp turns a COLLADA file's <up_axis> into its own Y-up convention (a root rotation baked in
// by PreTransformVertices); this takes Y-up back to our Z-up: (x, y, z) → (x, −z, y). A Z_UP
// file therefore comes out exactly as authored.
Vec3 YUpToZUp(const aiVector3D& v) { return Vec3(v.x, -v.z, v.y); }

bool IsCollada(const std::string& path) { return LowerExtension(path) == ".dae"; }

// deepest element nesting a COLLADA file may have before assimp's recursive reader sees it
constexpr int kMaxColladaDepth = 256;

// The value of attribute `key` in a start tag's text ("float_array id=\"a\" count=\"3\""), or
// nullopt when the tag has none
std::optional<std::string_view> Attribute(std::string_view tag, std::string_view key) {
  for (std::size_t at = tag.find(key); at != std::string_view::npos; at = tag.find(key, at + 1)) {
    const std::size_t quote = at + key.size() + 1;
    if (at == 0 || !std::isspace(static_cast<unsigned char>(tag[at - 1])) || quote >= tag.size() ||
        tag[quote - 1] != '=' || (tag[quote] != '"' && tag[quote] != '\'')) {
      continue;
    }
    const std::size_t end = tag.find(tag[quote], quote + 1);
    if (end == std::string_view::npos) return std::nullopt;
    return tag.substr(quote + 1, end - quote - 1);
  }
  return std::nullopt;
}

// attribute `key` as a whole number, `fallback` when absent, -1 when it is not one
long long CountAttribute(std::string_view tag, std::string_view key, long long fallback) {
  const std::optional<std::string_view> value = Attribute(tag, key);
  if (!value) return fallback;
  long long count = -1;
  const auto [end, error] = std::from_chars(value->data(), value->data() + value->size(), count);
  return error == std::errc() && end == value->data() + value->size() && count >= 0 ? count : -1;
}

// COLLADA's data arrays, whose declared `count` assimp reads as many values as
bool IsDataArray(std::string_view name) {
  for (std::string_view kind :
       {"float_array", "int_array", "bool_array", "Name_array", "IDREF_array", "SIDREF_array"}) {
    if (name == kind) return true;
  }
  return false;
}

// Checks a COLLADA file's text before assimp reads it: element nesting at most kMaxColladaDepth
// (assimp recurses per level); the index lists <p>, <vcount> and <v> made of non-negative
// integers only (assimp 5.2 turns a malformed index such as "0q3" into a multi-GB allocation);
// every data array with a `count` no larger than the values it holds (assimp reserves `count`
// values, and a missing one reads as 0); and every <accessor> within its array (assimp reads
// offset + count·stride values without a bound check: past a short array's end, and a null
// dereference on an empty one). Errors are located at the offending line.
void CheckColladaText(const std::string& path, const std::string& text, Diagnostics* diagnostics) {
  struct Accessor {
    std::string_view source;
    long long values = 0;
    int line = 0;
  };
  std::map<std::string_view, long long> array_counts;
  std::vector<Accessor> accessors;
  int depth = 0, line = 1;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') ++line;
    if (text[i] != '<' || i + 1 >= text.size()) continue;
    const char next = text[i + 1];
    if (next == '/') {
      --depth;
      continue;
    }
    if (next == '?' || next == '!') continue;
    const std::size_t close = text.find('>', i);
    if (close == std::string::npos) return;  // assimp reports the truncated file
    if (text[close - 1] != '/' && ++depth > kMaxColladaDepth) {
      diagnostics->Error(
          path, line, "",
          "COLLADA elements nested deeper than " + std::to_string(kMaxColladaDepth) + " levels");
      return;
    }
    const std::string_view tag(text.data() + i + 1, close - i - 1);
    const std::string_view name = tag.substr(0, tag.find_first_of(" \t\r\n/"));
    if (name == "accessor") {
      const long long count = CountAttribute(tag, "count", 0);
      const long long stride = CountAttribute(tag, "stride", 1);
      const long long offset = CountAttribute(tag, "offset", 0);
      const std::string_view source = Attribute(tag, "source").value_or("");
      if (count >= 0 && stride >= 0 && offset >= 0 && count < (1LL << 31) && stride < (1LL << 31)) {
        accessors.push_back(
            {source.substr(source.starts_with('#') ? 1 : 0), offset + count * stride, line});
      }
      continue;
    }
    if (IsDataArray(name)) {
      // the values up to the next tag, counted as blank-separated words
      const std::size_t end = std::min(text.find('<', close), text.size());
      long long words = 0;
      for (std::size_t k = close + 1; k < end; ++k) {
        words += !std::isspace(static_cast<unsigned char>(text[k])) &&
                 (k == close + 1 || std::isspace(static_cast<unsigned char>(text[k - 1])));
      }
      const long long count = CountAttribute(tag, "count", -1);
      if (count < 0 || count > words) {
        diagnostics->Error(path, line, "",
                           "COLLADA <" + std::string(name) + "> needs a 'count' of at most the " +
                               std::to_string(words) + " values it holds");
        return;
      }
      array_counts[Attribute(tag, "id").value_or("")] = count;
      continue;
    }
    if (name != "p" && name != "vcount" && name != "v") continue;
    const std::size_t end = text.find('<', close);
    for (std::size_t k = close + 1; k < std::min(end, text.size()); ++k) {
      const char c = text[k];
      if (c == '\n') ++line;
      if (!std::isdigit(static_cast<unsigned char>(c)) &&
          !std::isspace(static_cast<unsigned char>(c))) {
        diagnostics->Error(
            path, line, "",
            "COLLADA <" + std::string(name) + "> holds something other than non-negative integers");
        return;
      }
    }
    i = std::min(end, text.size()) - 1;
  }
  for (const Accessor& accessor : accessors) {
    const auto array = array_counts.find(accessor.source);
    if (array != array_counts.end() && accessor.values > array->second) {
      diagnostics->Error(path, accessor.line, "",
                         "COLLADA <accessor> reads " + std::to_string(accessor.values) +
                             " values of '" + std::string(accessor.source) + "', which holds " +
                             std::to_string(array->second));
    }
  }
}

}  // namespace


Expected<LoadedMesh> LoadMesh(const std::string& path, const Vec3& scale) {
  Diagnostics diagnostics;
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) {
    diagnostics.Error(path, 0, "", "cannot open mesh file (does it exist and is it readable?)");
    return diagnostics;
  }
  if (!scale.allFinite() || scale.cwiseAbs().minCoeff() <= 0) {
    diagnostics.Error(path, 0, "", "mesh scale must be finite and non-zero");
    return diagnostics;
  }

  // triangles only, node transforms baked in; vertices stay as the importer makes them (often
  // one per corner): joining them here costs more than the rest of the import (a 56k-vertex DAE:
  // 59 ms instead of 19 ms), and the consumers weld or deduplicate anyway (WeldVertices for
  // collision, BuildVisualMesh for drawing)
  // a path that is a device, pipe or huge file never reaches the importer
  if (Diagnostics gate = CheckInputFile(path, "mesh"); gate.has_errors()) return gate;
  if (IsCollada(path)) {
    Expected<std::string> text = ReadTextFile(path, "mesh");
    if (!text.ok()) return text.diagnostics();
    CheckColladaText(path, text.value(), &diagnostics);
    if (diagnostics.has_errors()) return diagnostics;
  }
  Assimp::Importer importer;
  importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE,
                              aiPrimitiveType_POINT | aiPrimitiveType_LINE);
  const aiScene* scene =
      importer.ReadFile(path, aiProcess_Triangulate | aiProcess_SortByPType |
                                  aiProcess_PreTransformVertices | aiProcess_ValidateDataStructure);
  if (scene == nullptr) {
    diagnostics.Error(path, 0, "", std::string("cannot read mesh: ") + importer.GetErrorString());
    return diagnostics;
  }

  LoadedMesh loaded;
  loaded.mesh.name = path;
  const bool collada = IsCollada(path);
  const std::filesystem::path directory = std::filesystem::path(path).parent_path();
  bool any_uv = false;
  for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
    any_uv |= scene->mMeshes[m]->HasTextureCoords(0) && scene->mMeshes[m]->HasFaces();
  }
  for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
    const aiMesh& mesh = *scene->mMeshes[m];
    if (!(mesh.mPrimitiveTypes & aiPrimitiveType_TRIANGLE)) continue;
    const int base = loaded.mesh.vertex_count();
    for (unsigned v = 0; v < mesh.mNumVertices; ++v) {
      const aiVector3D& p = mesh.mVertices[v];
      const Vec3 position = collada ? YUpToZUp(p) : Vec3(p.x, p.y, p.z);
      loaded.mesh.vertices.push_back(position.cwiseProduct(scale));
      if (any_uv) {
        const bool has = mesh.HasTextureCoords(0);
        loaded.mesh.uvs.emplace_back(has ? mesh.mTextureCoords[0][v].x : 0,
                                     has ? mesh.mTextureCoords[0][v].y : 0);
      }
    }
    // a negative scale mirrors the mesh: flip the winding so normals stay outward
    const bool mirrored = scale.x() * scale.y() * scale.z() < 0;
    LoadedMesh::Part part;
    part.first_triangle = loaded.mesh.triangle_count();
    for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
      const aiFace& face = mesh.mFaces[f];
      if (face.mNumIndices != 3) continue;
      std::array<int, 3> t = {base + static_cast<int>(face.mIndices[0]),
                              base + static_cast<int>(face.mIndices[1]),
                              base + static_cast<int>(face.mIndices[2])};
      if (mirrored) std::swap(t[1], t[2]);
      loaded.mesh.triangles.push_back(t);
    }
    part.triangle_count = loaded.mesh.triangle_count() - part.first_triangle;
    // the material's diffuse colour and texture
    if (mesh.mMaterialIndex < scene->mNumMaterials) {
      const aiMaterial& material = *scene->mMaterials[mesh.mMaterialIndex];
      // assimp gives files without materials (STL, OBJ without MTL) its grey default material:
      // that is no colour of the file's own
      aiString material_name;
      const bool assimp_default = material.Get(AI_MATKEY_NAME, material_name) == AI_SUCCESS &&
                                  std::string(material_name.C_Str()) == AI_DEFAULT_MATERIAL_NAME;
      aiColor4D diffuse;
      if (!assimp_default && material.Get(AI_MATKEY_COLOR_DIFFUSE, diffuse) == AI_SUCCESS) {
        part.color = {diffuse.r, diffuse.g, diffuse.b};
        part.has_color = true;
      }
      aiString texture;
      if (material.GetTexture(aiTextureType_DIFFUSE, 0, &texture) == AI_SUCCESS) {
        part.texture = (directory / texture.C_Str()).lexically_normal().string();
      }
    }
    if (part.triangle_count > 0) loaded.parts.push_back(part);
  }

  if (loaded.mesh.triangle_count() == 0) {
    diagnostics.Error(path, 0, "", "mesh file has no triangles");
    return diagnostics;
  }
  for (int v = 0; v < loaded.mesh.vertex_count(); ++v) {
    if (!loaded.mesh.vertices[v].allFinite()) {
      diagnostics.Error(path, 0, "",
                        "mesh vertex " + std::to_string(v) + " has a non-finite coordinate");
      return diagnostics;
    }
  }
  return Expected<LoadedMesh>(std::move(loaded), std::move(diagnostics));
}

}  // namespace sim::io
