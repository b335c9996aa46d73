// Shared by the tet mesh targets (Gmsh, TetGen, VTK): loads a file through LoadTetMesh and checks
// what a loaded mesh promises (tet_mesh_loader.h): node indices in range, finite nodes,
// positively oriented tets.
#pragma once

#include <string>

#include "engine/geometry/tet_mesh.h"
#include "engine/io/tet_mesh_loader.h"
#include "tests/fuzz/fuzz_support.h"

namespace sim::fuzz {

inline void LoadTetMeshAndCheck(const std::string& path) {
  Expected<TetMesh> mesh = io::LoadTetMesh(path);
  CheckDiagnostics(mesh.ok(), mesh.diagnostics());
  if (!mesh.ok()) return;
  Check(mesh->tet_count() > 0, "a loaded tet mesh has a tet");
  for (const Vec3& p : mesh->nodes) Check(p.allFinite(), "nodes are finite");
  for (int t = 0; t < mesh->tet_count(); ++t) {
    for (int i : mesh->tets[t]) {
      Check(i >= 0 && i < mesh->node_count(), "tet node indices are in range");
    }
    Check(TetSignedVolume(mesh.value(), t) > 0, "tets are positively oriented");
  }
}

}  // namespace sim::fuzz
