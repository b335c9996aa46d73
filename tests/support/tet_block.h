// A soft body made by hand for tests: a box of nx × ny × nz cubes, each split into 6 positively
// oriented tets around its main diagonal (Kuhn subdivision, conforming across cubes), with its
// boundary extracted by the engine. No collision data (tests of snapshots and drawing need none).
#pragma once

#include <array>
#include <string>
#include <utility>

#include "engine/fem/tet_elements.h"
#include "engine/geometry/tet_mesh.h"
#include "engine/model/model.h"
#include "engine/state/state.h"

namespace sim::test_support {

/// Tet mesh of the box [0, size] split into `cells` cubes per axis (nodes on a regular grid).
inline TetMesh MakeTetBlockMesh(const Vec3& size, const std::array<int, 3>& cells) {
  TetMesh mesh;
  mesh.name = "block";
  const auto node = [&](int i, int j, int k) {
    return (k * (cells[1] + 1) + j) * (cells[0] + 1) + i;
  };
  for (int k = 0; k <= cells[2]; ++k) {
    for (int j = 0; j <= cells[1]; ++j) {
      for (int i = 0; i <= cells[0]; ++i) {
        mesh.nodes.emplace_back(size.x() * i / cells[0], size.y() * j / cells[1],
                                size.z() * k / cells[2]);
      }
    }
  }
  // the 6 monotone paths from corner (0,0,0) to (1,1,1): one tet each
  const std::array<std::array<int, 3>, 6> orders = {
      {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}};
  for (int k = 0; k < cells[2]; ++k) {
    for (int j = 0; j < cells[1]; ++j) {
      for (int i = 0; i < cells[0]; ++i) {
        for (const auto& order : orders) {
          std::array<int, 3> c = {i, j, k};
          std::array<int, 4> tet;
          tet[0] = node(c[0], c[1], c[2]);
          for (int step = 0; step < 3; ++step) {
            ++c[order[step]];
            tet[step + 1] = node(c[0], c[1], c[2]);
          }
          // half of the paths wind negatively: swap two corners to make them positive
          if (TetSignedVolume(mesh.nodes[tet[0]], mesh.nodes[tet[1]], mesh.nodes[tet[2]],
                              mesh.nodes[tet[3]]) < 0) {
            std::swap(tet[2], tet[3]);
          }
          mesh.tets.push_back(tet);
        }
      }
    }
  }
  return mesh;
}


/// Adds the block of MakeTetBlockMesh, moved to `origin` [m], as soft body `name` with particles
/// of mass `node_mass` [kg] (radius 1 mm) at rest. Returns the soft body's index.
inline int AddTetBlock(Model* model, State* state, const std::string& name, const Vec3& origin,
                       const Vec3& size, const std::array<int, 3>& cells, Real node_mass = 0.01) {
  const TetMesh mesh = MakeTetBlockMesh(size, cells);
  SoftBody body;
  body.name = name;
  body.first_particle = model->particle_count();
  body.particle_count = mesh.node_count();
  for (int n = 0; n < mesh.node_count(); ++n) {
    model->particle_name.push_back(name + "/" + std::to_string(n));
    model->particle_mass.push_back(node_mass);
    model->particle_radius.push_back(1e-3);
    model->particle_material.push_back(0);
    body.rest_positions.push_back(origin + mesh.nodes[n]);
    state->particle_x_W.push_back(origin + mesh.nodes[n]);
    state->particle_v_W.push_back(Vec3::Zero());
  }
  for (const auto& t : mesh.tets) {
    body.tets.push_back({body.first_particle + t[0], body.first_particle + t[1],
                         body.first_particle + t[2], body.first_particle + t[3]});
  }
  const TetSurface surface = ExtractBoundary(mesh);
  for (int i = 0; i < surface.triangle_count(); ++i) {
    const auto& t = surface.triangles[i];
    body.surface.push_back(
        {body.first_particle + t[0], body.first_particle + t[1], body.first_particle + t[2]});
    body.surface_tet.push_back(surface.triangle_tet[i]);
  }
  InitSoftBodyElements(&body);  // rest inverses and volumes, as the scene loader does
  model->soft_bodies.push_back(std::move(body));
  return static_cast<int>(model->soft_bodies.size()) - 1;
}

}  // namespace sim::test_support
