#include "engine/solvers/nsn/element_rows.h"

#include <algorithm>
#include <cmath>

#include "engine/fem/svd3.h"
#include "engine/fem/tet_elements.h"

namespace sim::nsn {

namespace {

// smallest stiffness of a filtered element Hessian, relative to the rest shear stiffness 2μV_e:
// it bounds the compliance of a direction the energy barely resists to 1000× the rest shear
// compliance, so one Newton step cannot fling a node along it
constexpr Real kHessianFloor = 1e-3;

// Jacobi sweeps of the SVD per evaluation: the guess is the last iteration's V, so one or two
// sweeps reach the tolerance; the bound only matters for a wildly changed element
constexpr int kSvdSweeps = 6;

// the pairs (i, j) of the shear rows 3, 4, 5
constexpr int kPairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};

const Real kInvSqrt2 = 1 / std::sqrt(2.0);

// [x1 − x0, x2 − x0, x3 − x0] of a tet's blocks
Mat3 EdgeMatrix(const std::array<int, 4>& block, const std::vector<Vec3>& x) {
  Mat3 d;
  for (int k = 0; k < 3; ++k) d.col(k) = x[block[k + 1]] - x[block[0]];
  return d;
}

// the 6 row values of a rate matrix T = Uᵀ D_t B: stretch T_ii, shear (T_ij + T_ji)/√2
void RowsOfRates(const Mat3& T, Real* y) {
  for (int i = 0; i < 3; ++i) y[i] = T(i, i);
  for (int p = 0; p < 3; ++p) {
    const int i = kPairs[p][0], j = kPairs[p][1];
    y[3 + p] = kInvSqrt2 * (T(i, j) + T(j, i));
  }
}

}  // namespace


void ElementRows::Begin(const Model& model, int body_count, Real dt, Real time, bool shear_rows) {
  dt_ = dt;
  shear_rows_ = shear_rows;
  const int tets = model.tet_count();
  material_.clear();
  damping_.clear();
  block_.resize(tets);
  body_.resize(tets);
  rest_inverse_.resize(tets);
  volume_.resize(tets);
  activation_.resize(tets);
  int t = 0;
  for (int s = 0; s < static_cast<int>(model.soft_bodies.size()); ++s) {
    const SoftBody& body = model.soft_bodies[s];
    material_.push_back(SoftBodyMaterial(body));
    damping_.push_back(body.damping);
    const Real scale = ActivationScale(body, time);
    for (int e = 0; e < body.tet_count(); ++e, ++t) {
      for (int k = 0; k < 4; ++k) block_[t][k] = body_count + body.tets[e][k];
      body_[t] = s;
      rest_inverse_[t] = body.tet_rest_inverse[e];
      volume_[t] = body.tet_rest_volume[e];
      activation_[t] = body.tet_activation.empty() ? 0 : scale * body.tet_activation[e];
    }
  }
  // the SVD guesses and the secant's previous rows start at the rest frame
  for (auto* m : {&U_, &V_, &stretch_E_, &stretch_H_, &U_prev_}) m->assign(tets, Mat3::Identity());
  B_ = rest_inverse_;
  B_prev_ = rest_inverse_;
  shear_k_.assign(tets, Vec3::Ones());
  gradient_.assign(tets, Vec3::Zero());
}


void ElementRows::Evaluate(const std::vector<Vec3>& x, FemComplianceMode mode) {
  for (int e = 0; e < tet_count(); ++e) {
    const FemMaterialParameters& material = material_[body_[e]];
    // principal stretches of F = D_s D_m⁻¹ (digest §2.7), the last V as the guess
    const Mat3 F = EdgeMatrix(block_[e], x) * rest_inverse_[e];
    const Svd3 svd = CalcSvd3(F, V_[e], kSvdSweeps);
    U_[e] = svd.U;
    V_[e] = svd.V;
    B_[e] = rest_inverse_[e] * svd.V;
    // stretch rows: energy derivatives, the filtered Hessian and its inverse (eq. (98)-(100))
    const PrincipalEnergy energy = EvalPrincipalEnergy(material, svd.sigma, activation_[e]);
    const Real floor = kHessianFloor * 2 * material.mu * volume_[e];
    gradient_[e] = volume_[e] * energy.gradient;
    stretch_E_[e] =
        CalcProjectedCompliance(volume_[e] * energy.hessian, mode, floor, &stretch_H_[e]);
    // shear rows: the pair stiffness a, by magnitude (the same absolute-value filter)
    if (!shear_rows_) continue;
    const PairStiffness pairs = EvalPairStiffness(material, svd.sigma, activation_[e]);
    shear_k_[e] = (volume_[e] * pairs.shear.cwiseAbs()).cwiseMax(floor);
  }
}


Real ElementRows::Assemble(const std::vector<Vec3>& v, const Real* lambda,
                           const std::vector<Vec3>& inv_mass, Real regularization, Real* h,
                           Real* diag) {
  Real error = 0;
  for (int e = 0; e < tet_count(); ++e) {
    const Real beta = damping_[body_[e]];
    const Real scale = 1 / (dt_ * (dt_ + beta));  // C = E/(Δt(Δt + β))
    const Real* le = lambda + kElementRows * e;
    Real* he = h + kElementRows * e;
    Real* de = diag + kElementRows * e;
    Real rate[kElementRows];
    RowsOfRates(Rates(e, v), rate);
    // stretch rows: φ = ∂U/∂s + βH ṡ + λ, h = Eφ/(Δt + β)
    const Vec3 phi = gradient_[e] + beta * (stretch_H_[e] * Vec3(rate[0], rate[1], rate[2])) +
                     Vec3(le[0], le[1], le[2]);
    const Vec3 e_phi = stretch_E_[e] * phi;
    for (int i = 0; i < 3; ++i) he[i] = e_phi(i) / (dt_ + beta);
    error = std::max(error, e_phi.cwiseAbs().maxCoeff());
    // shear rows: φ = βk ċ + λ; inactive (sources' 3-row form): J = 0, C = 1/Δt, h = λ, which
    // only decays a stale multiplier (as inactive friction rows, digest §6.6)
    for (int p = 0; p < 3; ++p) {
      if (shear_rows_) {
        const Real k = shear_k_[e](p);
        const Real e_phi_p = (beta * k * rate[3 + p] + le[3 + p]) / k;
        he[3 + p] = e_phi_p / (dt_ + beta);
        error = std::max(error, std::abs(e_phi_p));
      } else {
        he[3 + p] = le[3 + p];
      }
    }

    // diag A_rr = Σ_a J_ra · diag(H⁻¹_a) J_ra + C_rr + ε
    for (int r = 0; r < kElementRows; ++r) {
      Real sum = 0;
      if (r < 3 || shear_rows_) {
        const std::array<Vec3, 4> J = RowCoefficients(e, r);
        for (int a = 0; a < 4; ++a) sum += J[a].dot(inv_mass[block_[e][a]].cwiseProduct(J[a]));
      }
      const Real compliance = r < 3         ? scale * stretch_E_[e](r, r)
                              : shear_rows_ ? scale / shear_k_[e](r - 3)
                                            : 1 / dt_;
      de[r] = sum + compliance + regularization;
    }
  }
  return error;
}


std::array<Vec3, 4> ElementRows::RowCoefficients(int e, int r) const {
  // ∂F̂_mn/∂x_a = u_m c_na with c_na = B(a − 1, n), c_n0 = −Σ_a c_na
  const Mat3& U = U_[e];
  const Mat3& B = B_[e];
  std::array<Vec3, 4> J;
  J[0].setZero();
  for (int a = 1; a < 4; ++a) {
    if (r < 3) {
      J[a] = B(a - 1, r) * U.col(r);
    } else {
      const int i = kPairs[r - 3][0], j = kPairs[r - 3][1];
      J[a] = kInvSqrt2 * (B(a - 1, j) * U.col(i) + B(a - 1, i) * U.col(j));
    }
    J[0] -= J[a];
  }
  return J;
}


Mat3 ElementRows::Rates(int e, const std::vector<Vec3>& t) const {
  return U_[e].transpose() * EdgeMatrix(block_[e], t) * B_[e];
}


void ElementRows::ScatterForces(int e, const Mat3& U, const Mat3& B, const Real* x,
                                std::vector<Vec3>* f) const {
  // X̂ = diag(x_stretch), X̂_ij = X̂_ji = x_shear/√2; nodes 1..3: columns of U X̂ Bᵀ
  Mat3 X = Mat3::Zero();
  for (int i = 0; i < 3; ++i) X(i, i) = x[i];
  if (shear_rows_) {
    for (int p = 0; p < 3; ++p) {
      X(kPairs[p][0], kPairs[p][1]) = X(kPairs[p][1], kPairs[p][0]) = kInvSqrt2 * x[3 + p];
    }
  }
  const Mat3 forces = U * X * B.transpose();
  const std::array<int, 4>& block = block_[e];
  (*f)[block[0]] -= forces.rowwise().sum();
  for (int a = 1; a < 4; ++a) (*f)[block[a]] += forces.col(a - 1);
}


void ElementRows::AddJt(const Real* x, std::vector<Vec3>* lin) const {
  for (int e = 0; e < tet_count(); ++e) ScatterForces(e, U_[e], B_[e], x + kElementRows * e, lin);
}


void ElementRows::MultiplyJ(const std::vector<Vec3>& t, Real* y) const {
  for (int e = 0; e < tet_count(); ++e) {
    Real* ye = y + kElementRows * e;
    RowsOfRates(Rates(e, t), ye);
    if (!shear_rows_) ye[3] = ye[4] = ye[5] = 0;
  }
}


void ElementRows::Apply(const std::vector<Vec3>& t, const Real* x, Real regularization,
                        Real* y) const {
  for (int e = 0; e < tet_count(); ++e) {
    const Real scale = 1 / (dt_ * (dt_ + damping_[body_[e]]));
    const Real* xe = x + kElementRows * e;
    Real* ye = y + kElementRows * e;
    RowsOfRates(Rates(e, t), ye);
    // + C x + εx: the stretch block, then the shear diagonal
    const Vec3 cx = scale * (stretch_E_[e] * Vec3(xe[0], xe[1], xe[2]));
    for (int i = 0; i < 3; ++i) ye[i] += cx(i) + regularization * xe[i];
    for (int p = 0; p < 3; ++p) {
      const Real compliance = shear_rows_ ? scale / shear_k_[e](p) : 1 / dt_;
      if (!shear_rows_) ye[3 + p] = 0;
      ye[3 + p] += (compliance + regularization) * xe[3 + p];
    }
  }
}


void ElementRows::GaussSeidelSweep(const Real* b, const Real* diag, Real regularization,
                                   const std::vector<Vec3>& inv_mass, std::vector<Vec3>* t,
                                   Real* x) const {
  for (int e = 0; e < tet_count(); ++e) {
    const Real scale = 1 / (dt_ * (dt_ + damping_[body_[e]]));
    const std::array<int, 4>& block = block_[e];
    Real* xe = x + kElementRows * e;
    for (int r = 0; r < kElementRows; ++r) {
      const bool active = r < 3 || shear_rows_;
      std::array<Vec3, 4> J = {Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), Vec3::Zero()};
      if (active) J = RowCoefficients(e, r);
      Real ax = regularization * xe[r];
      for (int a = 0; a < 4; ++a) ax += J[a].dot((*t)[block[a]]);
      if (r < 3) {
        for (int j = 0; j < 3; ++j) ax += scale * stretch_E_[e](r, j) * xe[j];
      } else {
        ax += (active ? scale / shear_k_[e](r - 3) : 1 / dt_) * xe[r];
      }
      const Real delta = (b[kElementRows * e + r] - ax) / diag[kElementRows * e + r];
      xe[r] += delta;
      for (int a = 0; a < 4; ++a) {
        (*t)[block[a]] += inv_mass[block[a]].cwiseProduct(delta * J[a]);
      }
    }
  }
}


void ElementRows::AppendTriplets(int row_offset, std::vector<Eigen::Triplet<Real>>* j_entries,
                                 std::vector<Eigen::Triplet<Real>>* c_entries) const {
  for (int e = 0; e < tet_count(); ++e) {
    const Real scale = 1 / (dt_ * (dt_ + damping_[body_[e]]));
    const int first = row_offset + kElementRows * e;
    for (int r = 0; r < kElementRows; ++r) {
      if (r < 3 || shear_rows_) {
        const std::array<Vec3, 4> J = RowCoefficients(e, r);
        for (int a = 0; a < 4; ++a) {
          for (int k = 0; k < 3; ++k)
            j_entries->emplace_back(first + r, 6 * block_[e][a] + k, J[a](k));
        }
      }
      if (r < 3) {
        for (int j = 0; j < 3; ++j) {
          c_entries->emplace_back(first + r, first + j, scale * stretch_E_[e](r, j));
        }
      } else {
        c_entries->emplace_back(first + r, first + r,
                                shear_rows_ ? scale / shear_k_[e](r - 3) : 1 / dt_);
      }
    }
  }
}


void ElementRows::KeepRows() {
  U_prev_ = U_;
  B_prev_ = B_;
}


void ElementRows::AddSecantForce(const Real* lambda, Real dt, std::vector<Vec3>* f) const {
  // Δt (J(qⁿ⁺¹) − J(qⁿ))ᵀ λ: the forces of the same multipliers through the new and old rows
  Real scaled[kElementRows];
  Real negated[kElementRows];
  for (int e = 0; e < tet_count(); ++e) {
    const Real* le = lambda + kElementRows * e;
    bool any = false;
    for (int r = 0; r < kElementRows; ++r) {
      scaled[r] = dt * le[r];
      negated[r] = -scaled[r];
      any |= le[r] != 0;
    }
    if (!any) continue;
    ScatterForces(e, U_[e], B_[e], scaled, f);
    ScatterForces(e, U_prev_[e], B_prev_[e], negated, f);
  }
}

}  // namespace sim::nsn
