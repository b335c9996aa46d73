// Central-difference check of the NSN residual Jacobians (eq. (77) of seed 002): for every
// non-friction row i, the assembled J_i must be ∂h_i/∂u and C_ii·Δt must be ∂h_i/∂λ_i.
#pragma once

#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "engine/dynamics/constraint_rows.h"
#include "engine/solvers/nsn/newton_system.h"
#include "engine/state/control.h"

namespace sim::test_support {

/// Dense Jacobian row over the generalized velocity (6 per body, 3 per particle).
inline Eigen::VectorXd DenseRow(const Row& row, int bodies, int dofs) {
  Eigen::VectorXd dense = Eigen::VectorXd::Zero(dofs);
  for (const RowEnd& e : row.end) {
    if (e.block < 0) continue;
    if (e.block < bodies) {
      dense.segment<3>(6 * e.block) += e.lin;
      dense.segment<3>(6 * e.block + 3) += e.ang;
    } else {
      dense.segment<3>(6 * bodies + 3 * (e.block - bodies)) += e.lin;
    }
  }
  return dense;
}


/// Assembles the system of `model` at a random velocity and positive multipliers (seeded, so
/// FB stays away from its non-differentiable origin) and compares every non-friction row's J and
/// C with central differences of h. Returns the number of rows checked.
inline int CheckResidualJacobians(const Model& model, const State& state, const Contacts& contacts,
                                  Real dt = 1.0 / 120) {
  nsn::NewtonSystem system;
  system.Begin(model, state, MakeControl(model), contacts, dt);
  const int dofs = system.dof_count();
  std::mt19937 random(7);
  std::uniform_real_distribution<Real> small(-0.2, 0.2);
  Eigen::VectorXd u(dofs), lambda(system.row_count());
  for (int k = 0; k < dofs; ++k) u(k) = small(random);
  for (int i = 0; i < system.row_count(); ++i) lambda(i) = 5 + 10 * std::abs(small(random));
  system.SetLambda(lambda);
  system.SetVelocity(u);
  system.Assemble();
  const std::vector<Row> rows = system.rows();
  const Eigen::VectorXd c_diag = system.compliance_diagonal();

  const Real h = 1e-7;
  int checked = 0;
  for (int i = 0; i < system.row_count(); ++i) {
    // friction rows use the lagged W (a fixed point, not a derivative): not checked here
    if (system.row_type(i) == RowType::kFriction) continue;
    const Eigen::VectorXd analytic = DenseRow(rows[i], model.body_count(), dofs);
    Eigen::VectorXd numeric(dofs);
    for (int k = 0; k < dofs; ++k) {
      Eigen::VectorXd up = u, down = u;
      up(k) += h;
      down(k) -= h;
      system.SetVelocity(up);
      system.Assemble();
      const Real plus = system.residual_h()(i);
      system.SetVelocity(down);
      system.Assemble();
      numeric(k) = (plus - system.residual_h()(i)) / (2 * h);
    }
    // J is evaluated at the current lever arms and G(q⁻) is linear in ω, so the agreement is
    // O(Δt·|ω|) ≈ 2e-3 relative at these velocities, not round-off
    EXPECT_LT((analytic - numeric).norm(), 5e-3 * (1 + analytic.norm()))
        << "row " << i << "\nanalytic " << analytic.transpose() << "\nnumeric  "
        << numeric.transpose();
    system.SetVelocity(u);
    Eigen::VectorXd lam_up = lambda, lam_down = lambda;
    lam_up(i) += h;
    lam_down(i) -= h;
    system.SetLambda(lam_up);
    system.Assemble();
    const Real plus = system.residual_h()(i);
    system.SetLambda(lam_down);
    system.Assemble();
    const Real d_lambda = (plus - system.residual_h()(i)) / (2 * h);
    system.SetLambda(lambda);
    EXPECT_NEAR(d_lambda, c_diag(i) * dt, 1e-6 * (1 + std::abs(d_lambda))) << "row " << i;
    ++checked;
  }
  return checked;
}

}  // namespace sim::test_support
