// Reference static solutions of soft bodies for the FEM tests: the small-displacement equilibrium
// K u = f of one soft body, K assembled from the engine's own rest tangent ∂P/∂F(I)
// (CalcFirstPiolaDerivative), fixed particles eliminated, solved by a sparse LDLᵀ. It is the
// discrete problem the dynamic solver must settle on for small loads, and the linear FE solution
// the refinement studies compare with beam theory.
#pragma once

#include <vector>

#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>

#include "engine/fem/tet_elements.h"
#include "engine/model/model.h"

namespace sim::test_support {

/// Displacement [m] of every particle of soft body `s` (indexed by model particle, zero outside
/// the body and for fixed particles) under nodal forces `forces` [N] (one per model particle),
/// linearized about the positions `x` (the rest shape in world coordinates).
inline std::vector<Vec3> SolveLinearStatic(const Model& model, int s, const std::vector<Vec3>& x,
                                           const std::vector<Vec3>& forces) {
  const SoftBody& body = model.soft_bodies[s];
  const Mat9 tangent =
      CalcFirstPiolaDerivative(SoftBodyMaterial(body), Mat3::Identity());  // Hooke's tensor
  // free DOFs of the body, numbered densely
  std::vector<int> dof(model.particle_count(), -1);
  int free = 0;
  for (int k = 0; k < body.particle_count; ++k) {
    const int p = body.first_particle + k;
    if (!model.particle_is_fixed(p)) dof[p] = free++;
  }
  // K = Σ_e V Gᵀ (∂P/∂F) G with G = ∂vec(F)/∂x of the constant-strain tet
  std::vector<Eigen::Triplet<Real>> triplets;
  for (const std::array<int, 4>& tet : body.tets) {
    Mat3 dm;
    for (int k = 0; k < 3; ++k) dm.col(k) = x[tet[k + 1]] - x[tet[0]];
    const Mat3 inverse = dm.inverse();
    const Real volume = dm.determinant() / 6;
    Eigen::Matrix<Real, 9, 12> G = Eigen::Matrix<Real, 9, 12>::Zero();
    for (int a = 1; a < 4; ++a) {
      for (int k = 0; k < 3; ++k) {
        for (int c = 0; c < 3; ++c) {
          G(3 * c + k, 3 * a + k) += inverse(a - 1, c);
          G(3 * c + k, k) -= inverse(a - 1, c);
        }
      }
    }
    const Eigen::Matrix<Real, 12, 12> K = volume * G.transpose() * tangent * G;
    for (int a = 0; a < 4; ++a) {
      for (int b = 0; b < 4; ++b) {
        if (dof[tet[a]] < 0 || dof[tet[b]] < 0) continue;
        for (int i = 0; i < 3; ++i) {
          for (int j = 0; j < 3; ++j) {
            triplets.emplace_back(3 * dof[tet[a]] + i, 3 * dof[tet[b]] + j,
                                  K(3 * a + i, 3 * b + j));
          }
        }
      }
    }
  }
  Eigen::SparseMatrix<Real> K(3 * free, 3 * free);
  K.setFromTriplets(triplets.begin(), triplets.end());
  Eigen::VectorXd f = Eigen::VectorXd::Zero(3 * free);
  for (int p = 0; p < model.particle_count(); ++p) {
    if (dof[p] >= 0) f.segment<3>(3 * dof[p]) = forces[p];
  }
  const Eigen::SimplicialLDLT<Eigen::SparseMatrix<Real>> ldlt(K);
  const Eigen::VectorXd u = ldlt.solve(f);
  std::vector<Vec3> displacement(model.particle_count(), Vec3::Zero());
  for (int p = 0; p < model.particle_count(); ++p) {
    if (dof[p] >= 0) displacement[p] = u.segment<3>(3 * dof[p]);
  }
  return displacement;
}

}  // namespace sim::test_support
