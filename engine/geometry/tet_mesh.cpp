// Tet mesh volume, boundary extraction and validation. The boundary is the set of faces used by
// exactly one tet: each tet contributes its four faces, keyed by their sorted node triple in one
// hash map, so extraction is O(tet_count) expected.
#include "engine/geometry/tet_mesh.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <unordered_map>

namespace sim {

namespace {

// the four faces of a positively oriented tet (v0, v1, v2, v3), counter-clockwise seen from
// outside; face f is opposite node f
constexpr int kTetFaces[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};

// a face keyed by its sorted node triple; equality compares the whole triple, so a hash collision
// only costs time
struct FaceKey {
  std::array<int, 3> v;
  bool operator==(const FaceKey& o) const { return v == o.v; }
};

struct FaceKeyHash {
  std::size_t operator()(const FaceKey& k) const {
    std::uint64_t h = static_cast<std::uint64_t>(k.v[0]) * 0x9E3779B97F4A7C15ull;
    h ^= static_cast<std::uint64_t>(k.v[1]) + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    h ^= static_cast<std::uint64_t>(k.v[2]) + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    return static_cast<std::size_t>(h);
  }
};

// how many tets use a face, and the first one (tet index, local face)
struct FaceUse {
  int count = 0;
  int tet = -1;
  int local = -1;
};

FaceKey SortedFace(int a, int b, int c) {
  std::array<int, 3> v = {a, b, c};
  std::sort(v.begin(), v.end());
  return FaceKey{v};
}

std::unordered_map<FaceKey, FaceUse, FaceKeyHash> CountFaces(const TetMesh& mesh) {
  std::unordered_map<FaceKey, FaceUse, FaceKeyHash> faces;
  faces.reserve(mesh.tets.size() * 4);
  for (int t = 0; t < mesh.tet_count(); ++t) {
    const std::array<int, 4>& tet = mesh.tets[t];
    for (int f = 0; f < 4; ++f) {
      FaceUse& use =
          faces[SortedFace(tet[kTetFaces[f][0]], tet[kTetFaces[f][1]], tet[kTetFaces[f][2]])];
      if (use.count++ == 0) {
        use.tet = t;
        use.local = f;
      }
    }
  }
  return faces;
}

// errors of one kind listed one by one before they are only counted
constexpr int kMaxListed = 20;

std::string Number(Real value) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%g", value);
  return buffer;
}

int LineOf(const std::vector<int>* lines, int index) {
  if (lines == nullptr || index < 0 || index >= static_cast<int>(lines->size())) return 0;
  return (*lines)[index];
}

}  // namespace


Real TetSignedVolume(const Vec3& p0, const Vec3& p1, const Vec3& p2, const Vec3& p3) {
  return (p1 - p0).dot((p2 - p0).cross(p3 - p0)) / 6.0;
}


Real TetSignedVolume(const TetMesh& mesh, int t) {
  const std::array<int, 4>& tet = mesh.tets[t];
  return TetSignedVolume(mesh.nodes[tet[0]], mesh.nodes[tet[1]], mesh.nodes[tet[2]],
                         mesh.nodes[tet[3]]);
}


TetMesh StructuredBoxTetMesh(const Vec3& size, const std::array<int, 3>& cells,
                             const std::string& name) {
  TetMesh mesh;
  mesh.name = name;
  const int nx = cells[0], ny = cells[1], nz = cells[2];
  const auto node = [&](int i, int j, int k) { return (i * (ny + 1) + j) * (nz + 1) + k; };
  for (int i = 0; i <= nx; ++i) {
    for (int j = 0; j <= ny; ++j) {
      for (int k = 0; k <= nz; ++k) {
        mesh.nodes.emplace_back(size.x() * (Real(i) / nx - 0.5), size.y() * (Real(j) / ny - 0.5),
                                size.z() * (Real(k) / nz - 0.5));
      }
    }
  }
  // five tets per cell: four corner tets and the central one, on corners (a, b, c) ∈ {0, 1}³;
  // odd cells mirror a ↦ 1 − a so the face diagonals of neighbours agree
  constexpr int kSplit[5][4][3] = {{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
                                   {{1, 1, 0}, {0, 1, 0}, {1, 0, 0}, {1, 1, 1}},
                                   {{1, 0, 1}, {0, 0, 1}, {1, 1, 1}, {1, 0, 0}},
                                   {{0, 1, 1}, {1, 1, 1}, {0, 0, 1}, {0, 1, 0}},
                                   {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}}};
  for (int i = 0; i < nx; ++i) {
    for (int j = 0; j < ny; ++j) {
      for (int k = 0; k < nz; ++k) {
        const bool odd = (i + j + k) % 2 == 1;
        for (const auto& corners : kSplit) {
          std::array<int, 4> tet;
          for (int v = 0; v < 4; ++v) {
            const int a = odd ? 1 - corners[v][0] : corners[v][0];
            tet[v] = node(i + a, j + corners[v][1], k + corners[v][2]);
          }
          mesh.tets.push_back(tet);
          // orient positively (mirroring flips the handedness)
          if (TetSignedVolume(mesh, mesh.tet_count() - 1) < 0)
            std::swap(mesh.tets.back()[2], mesh.tets.back()[3]);
        }
      }
    }
  }
  return mesh;
}


TetSurface ExtractBoundary(const TetMesh& mesh) {
  const auto faces = CountFaces(mesh);
  TetSurface surface;
  // walk tets and faces in order (not the hash map) so the output order is deterministic
  std::vector<char> on_surface(mesh.nodes.size(), 0);
  for (int t = 0; t < mesh.tet_count(); ++t) {
    const std::array<int, 4>& tet = mesh.tets[t];
    for (int f = 0; f < 4; ++f) {
      const int a = tet[kTetFaces[f][0]], b = tet[kTetFaces[f][1]], c = tet[kTetFaces[f][2]];
      if (faces.at(SortedFace(a, b, c)).count != 1) continue;
      surface.triangles.push_back({a, b, c});
      surface.triangle_tet.push_back(t);
      on_surface[a] = on_surface[b] = on_surface[c] = 1;
    }
  }
  for (int n = 0; n < static_cast<int>(on_surface.size()); ++n) {
    if (on_surface[n]) surface.surface_nodes.push_back(n);
  }
  return surface;
}


bool ValidateTetMesh(const TetMesh& mesh, const std::string& source, Diagnostics* diagnostics,
                     const TetSourceLines* lines) {
  const std::string prefix = "tet mesh '" + mesh.name + "': ";
  const std::string& node_source =
      lines != nullptr && !lines->node_source.empty() ? lines->node_source : source;
  const std::string& tet_source =
      lines != nullptr && !lines->tet_source.empty() ? lines->tet_source : source;
  const std::vector<int>* node_lines = lines != nullptr ? &lines->node_line : nullptr;
  const std::vector<int>* tet_lines = lines != nullptr ? &lines->tet_line : nullptr;
  const int error_count_before = diagnostics->error_count();

  if (mesh.tets.empty()) {
    diagnostics->Error(source, 0, "", prefix + "has no tetrahedra");
    return false;
  }

  // each kind of error is listed up to kMaxListed times, then counted, so a file written in the
  // opposite orientation convention gives a short report instead of one line per tet
  enum Kind { kNonFinite, kOutOfRange, kRepeated, kOverflow, kDegenerate, kInverted, kKindCount };
  static const char* const kKindName[kKindCount] = {"node(s) with a non-finite coordinate",
                                                    "out-of-range node reference(s)",
                                                    "tet(s) with a repeated node",
                                                    "tet(s) too large to measure",
                                                    "degenerate tet(s)",
                                                    "inverted tet(s)"};
  int kind_count[kKindCount] = {};
  auto report = [&](Kind kind, const std::string& file, int line, std::string message) {
    if (kind_count[kind]++ < kMaxListed) diagnostics->Error(file, line, "", std::move(message));
  };

  // non-finite coordinates
  std::vector<char> finite(mesh.nodes.size(), 1);
  for (int n = 0; n < mesh.node_count(); ++n) {
    const Vec3& p = mesh.nodes[n];
    if (p.allFinite()) continue;
    finite[n] = 0;
    report(kNonFinite, node_source, LineOf(node_lines, n),
           prefix + "node " + std::to_string(n) + " has a non-finite coordinate (" + Number(p.x()) +
               ", " + Number(p.y()) + ", " + Number(p.z()) + ")");
  }

  // per tet: indices in range, distinct, finite, positive volume
  bool indices_ok = true;
  std::vector<char> used(mesh.nodes.size(), 0);
  for (int t = 0; t < mesh.tet_count(); ++t) {
    const std::array<int, 4>& tet = mesh.tets[t];
    const int line = LineOf(tet_lines, t);
    const std::string what = prefix + "tet " + std::to_string(t);
    bool in_range = true;
    for (int v : tet) {
      if (v >= 0 && v < mesh.node_count()) {
        used[v] = 1;
        continue;
      }
      in_range = false;
      report(kOutOfRange, tet_source, line,
             what + " references node " + std::to_string(v) + ", but the mesh has " +
                 std::to_string(mesh.node_count()) + " nodes (expected 0.." +
                 std::to_string(mesh.node_count() - 1) + ")");
    }
    if (!in_range) {
      indices_ok = false;
      continue;
    }
    bool distinct = true;
    for (int i = 0; i < 4 && distinct; ++i) {
      for (int j = i + 1; j < 4; ++j) {
        if (tet[i] != tet[j]) continue;
        distinct = false;
        report(kRepeated, tet_source, line,
               what + " uses node " + std::to_string(tet[i]) + " more than once (" +
                   std::to_string(tet[0]) + " " + std::to_string(tet[1]) + " " +
                   std::to_string(tet[2]) + " " + std::to_string(tet[3]) + ")");
        break;
      }
    }
    if (!distinct) continue;
    if (!finite[tet[0]] || !finite[tet[1]] || !finite[tet[2]] || !finite[tet[3]]) continue;
    const Real volume = TetSignedVolume(mesh, t);
    Real longest = 0;
    for (int i = 0; i < 4; ++i) {
      for (int j = i + 1; j < 4; ++j) {
        longest = std::max(longest, (mesh.nodes[tet[i]] - mesh.nodes[tet[j]]).norm());
      }
    }
    // finite coordinates near the double range still overflow the volume (1e308³ is inf, and
    // inf − inf a NaN that passes every comparison below)
    if (!std::isfinite(6 * volume) || !std::isfinite(longest * longest * longest)) {
      report(kOverflow, tet_source, line,
             what + " is too large to measure (signed volume " + Number(volume) +
                 ", longest edge " + Number(longest) + "; expected coordinates below 1e100)");
    } else if (std::abs(6 * volume) <= kTetFlatTolerance * longest * longest * longest) {
      report(kDegenerate, tet_source, line,
             what + " is degenerate (signed volume " + Number(volume) + ", longest edge " +
                 Number(longest) + "; expected a volume > 0)");
    } else if (volume < 0) {
      report(kInverted, tet_source, line,
             what + " is inverted (signed volume " + Number(volume) +
                 ", expected > 0: det[v1-v0, v2-v0, v3-v0] must be positive)");
    }
  }

  for (int kind = 0; kind < kKindCount; ++kind) {
    if (kind_count[kind] <= kMaxListed) continue;
    std::string message = prefix + std::to_string(kind_count[kind] - kMaxListed) + " more " +
                          kKindName[kind] + " not listed (" + std::to_string(kind_count[kind]) +
                          " in all)";
    if (kind == kInverted && kind_count[kind] == mesh.tet_count()) {
      message +=
          "; every tet is inverted, so the file probably uses the opposite orientation "
          "convention";
    }
    diagnostics->Error(source, 0, "", message);
  }

  // unreferenced nodes: harmless for the physics but usually a sign of a wrong file
  const int unused = static_cast<int>(std::count(used.begin(), used.end(), 0));
  if (indices_ok && unused > 0) {
    const int first = static_cast<int>(std::find(used.begin(), used.end(), 0) - used.begin());
    diagnostics->Warning(node_source, LineOf(node_lines, first), "",
                         prefix + std::to_string(unused) +
                             " node(s) are used by no tet (the first is node " +
                             std::to_string(first) + ")");
  }

  // manifold boundary: no face in more than two tets, every boundary edge in two triangles
  if (indices_ok) {
    const auto faces = CountFaces(mesh);
    int crowded = 0;
    for (const auto& [key, use] : faces) crowded += use.count > 2 ? 1 : 0;
    if (crowded > 0) {
      diagnostics->Warning(source, 0, "",
                           prefix + std::to_string(crowded) +
                               " face(s) are shared by more than two tets (non-manifold volume)");
    }
    const TetSurface surface = ExtractBoundary(mesh);
    std::unordered_map<std::uint64_t, int> edges;
    edges.reserve(surface.triangles.size() * 3);
    for (const std::array<int, 3>& tri : surface.triangles) {
      for (int i = 0; i < 3; ++i) {
        const std::uint64_t a = static_cast<std::uint32_t>(std::min(tri[i], tri[(i + 1) % 3]));
        const std::uint64_t b = static_cast<std::uint32_t>(std::max(tri[i], tri[(i + 1) % 3]));
        ++edges[(a << 32) | b];
      }
    }
    int bad_edges = 0;
    for (const auto& [edge, count] : edges) bad_edges += count != 2 ? 1 : 0;
    if (bad_edges > 0) {
      diagnostics->Warning(
          source, 0, "",
          prefix + "the boundary is not a closed 2-manifold: " + std::to_string(bad_edges) +
              " edge(s) are not shared by exactly two boundary triangles");
    }
  }
  return diagnostics->error_count() == error_count_before;
}

}  // namespace sim
