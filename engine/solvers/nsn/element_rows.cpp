// FEM element rows of the NSN solver (element_rows.h): the per-step setup of the packed groups
// (Begin), the scalar paths tet by tet (Gauss-Seidel, triplets, a tet's J and C, the secant
// force), and the hot loops (evaluation, residual, Schur products, rotation stiffness) through the
// SIMD kernels of this CPU (element_kernels.h).
#include "engine/solvers/nsn/element_rows.h"

#include "engine/fem/tet_elements.h"
#include "engine/solvers/nsn/element_kernels.h"
#include "engine/solvers/nsn/schur_arrays.h"

namespace sim::nsn {

namespace {

// the kernels a test chose (ElementRows::UseKernelsForTesting), else nullptr
const ElementKernels* kernels_for_testing = nullptr;

// the kernels the rows run: the test's choice, else the CPU's (chosen once, element_kernels.cpp)
const ElementKernels& Kernels() {
  return kernels_for_testing != nullptr ? *kernels_for_testing : CpuElementKernels();
}

// edge of the regular tet of volume V, V = a³/(6√2) [m]: the size of an element
Real RegularTetEdge(Real volume) { return std::cbrt(6 * std::sqrt(Real(2)) * volume); }

}  // namespace


void ElementRows::Begin(const Model& model, int body_count, Real dt, Real time, bool shear_rows) {
  dt_ = dt;
  shear_rows_ = shear_rows;
  length_scale_ = 0;
  const int tets = model.tet_count();
  const int groups = (tets + kTetLanes - 1) / kTetLanes;
  block_.resize(tets);
  groups_.resize(groups);
  group_frame_.resize(groups);
  group_compliance_.resize(groups);
  group_residual_.resize(groups);
  group_material_.resize(groups);
  // lane `slot` of the packed groups: a tet's node blocks, rest data and material, and its SVD
  // guess and rows at the rest frame (V = U = I, B = D_m⁻¹)
  const auto pack = [&](int slot, const std::array<int, 4>& blocks, const TetRest& rest,
                        const FemMaterialParameters& material, Real activation, Real damping) {
    const int l = slot % kTetLanes;
    TetGroup& g = groups_[slot / kTetLanes];
    TetGroupMaterial& m = group_material_[slot / kTetLanes];
    for (int a = 0; a < 4; ++a) g.block[a][l] = blocks[a];
    for (int i = 0; i < 9; ++i) {
      m.rest_inverse[i][l] = g.B[i][l] = rest.inverse(i % 3, i / 3);
      group_frame_[slot / kTetLanes].V[i][l] = g.U[i][l] = i % 4 == 0 ? 1 : 0;
    }
    m.volume[l] = rest.volume;
    m.activation[l] = activation;
    m.damping[l] = damping;
    m.mu[l] = material.mu;
    m.lambda[l] = material.lambda;
    m.c1[l] = material.c1;
    m.d1[l] = material.d1;
    m.alpha[l] = material.alpha;
    m.corotational[l] = material.model == FemMaterialModel::kLinearCorotational ? 1 : 0;
  };
  int t = 0;
  for (const SoftBody& body : model.soft_bodies) {
    const FemMaterialParameters material = SoftBodyMaterial(body);
    const Real scale = ActivationScale(body, time);
    for (int e = 0; e < body.tet_count(); ++e, ++t) {
      for (int k = 0; k < 4; ++k) block_[t][k] = body_count + body.tets[e][k];
      const Real activation = body.tet_activation.empty() ? 0 : scale * body.tet_activation[e];
      // the rest shape with the activation growth, if any
      const TetRest rest = GrownTetRest(body, e, scale);
      pack(t, block_[t], rest, material, activation, body.damping);
      length_scale_ = std::max(length_scale_, RegularTetEdge(rest.volume));
    }
  }
  // the padding lanes of a shorter last group: copies of the group's first tet, so the lanes of
  // Evaluate stay finite (Evaluate clears their rows)
  for (int slot = tets; slot < groups * kTetLanes; ++slot) {
    const int l = slot % kTetLanes;
    TetGroup& g = groups_.back();
    TetGroupMaterial& m = group_material_.back();
    TetGroupFrame& frame = group_frame_.back();
    for (int a = 0; a < 4; ++a) g.block[a][l] = g.block[a][0];
    for (int i = 0; i < 9; ++i) {
      m.rest_inverse[i][l] = g.B[i][l] = m.rest_inverse[i][0];
      frame.V[i][l] = g.U[i][l] = g.U[i][0];
    }
    for (Real* lanes :
         {m.volume, m.activation, m.damping, m.mu, m.lambda, m.c1, m.d1, m.alpha, m.corotational}) {
      lanes[l] = lanes[0];
    }
  }
  groups_prev_ = groups_;
}


Mat3 ElementRows::LaneMatrix(const Real (&entries)[9][kTetLanes], int e) {
  Mat3 out;
  for (int i = 0; i < 9; ++i) out(i % 3, i / 3) = entries[i][e % kTetLanes];
  return out;
}


Mat3 ElementRows::StretchCompliance(int e) const {
  const TetGroupCompliance& c = group_compliance_[e / kTetLanes];
  const int l = e % kTetLanes;
  Mat3 C;
  C << c.stretch[0][l], c.stretch[3][l], c.stretch[4][l],  //
      c.stretch[3][l], c.stretch[1][l], c.stretch[5][l],   //
      c.stretch[4][l], c.stretch[5][l], c.stretch[2][l];
  return C;
}


Real ElementRows::ShearCompliance(int e, int p) const {
  return group_compliance_[e / kTetLanes].shear[p][e % kTetLanes];
}


std::array<Vec3, 4> ElementRows::RowCoefficients(int e, int r) const {
  // ∂F̂_mn/∂x_a = u_m c_na with c_na = B(a − 1, n), c_n0 = −Σ_a c_na
  const Mat3 U = LaneMatrix(groups_[e / kTetLanes].U, e);
  const Mat3 B = LaneMatrix(groups_[e / kTetLanes].B, e);
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


void ElementRows::ScatterForces(int e, const TetGroup& group, const Real* x,
                                std::vector<Vec3>* f) const {
  Vec3 forces[4];
  ElementNodeForces<Real>(LaneMatrix(group.U, e), LaneMatrix(group.B, e), x, shear_rows_, forces);
  const std::array<int, 4>& block = block_[e];
  for (int a = 0; a < 4; ++a) (*f)[block[a]] += forces[a];
}


void ElementRows::Evaluate(const std::vector<Vec3>& x, FemComplianceMode mode) {
  // principal stretches of F = D_s D_m⁻¹ (digest §2.7, the last V as the guess), the rows' energy
  // derivatives, filtered Hessians and compliance (eq. (98)-(100)), a vector of tets at a time
  // into the packed groups (ElementProducts::Evaluate)
  Kernels().evaluate(*this, x, mode);
}


void ElementRows::UseKernelsForTesting(const ElementKernels* kernels) {
  kernels_for_testing = kernels;
}


void ElementRows::AddJt(const Real* x, std::vector<Vec3>* lin) const {
  Kernels().add_jt(*this, x, lin);
}


void ElementRows::MultiplyJ(const std::vector<Vec3>& t, Real* y) const {
  Kernels().multiply_j(*this, t, y);
}


Real ElementRows::Assemble(const std::vector<Vec3>& v, const Real* lambda,
                           const std::vector<Vec3>& inv_mass, Real regularization, Real* h,
                           Real* diag) const {
  return Kernels().assemble(*this, v, lambda, inv_mass, regularization, h, diag);
}


Real ElementRows::Apply(const std::vector<Vec3>& t, const Real* x, Real regularization,
                        Real* y) const {
  return Kernels().apply(*this, t, x, regularization, y);
}


void ElementRows::GaussSeidelSweep(const Real* b, const Real* diag, Real regularization,
                                   const std::vector<Vec3>& inv_mass, std::vector<Vec3>* t,
                                   Real* x) const {
  for (int e = 0; e < tet_count(); ++e) {
    const std::array<int, 4>& block = block_[e];
    const Mat3 stretch_C = StretchCompliance(e);
    for (int r = 0; r < kElementRows; ++r) {
      const bool active = r < 3 || shear_rows_;
      std::array<Vec3, 4> J = {Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), Vec3::Zero()};
      if (active) J = RowCoefficients(e, r);
      Real ax = regularization * x[RowIndex(e, r)];
      for (int a = 0; a < 4; ++a) ax += J[a].dot((*t)[block[a]]);
      if (r < 3) {
        for (int j = 0; j < 3; ++j) ax += stretch_C(r, j) * x[RowIndex(e, j)];
      } else {
        ax += ShearCompliance(e, r - 3) * x[RowIndex(e, r)];
      }
      const int row = RowIndex(e, r);
      const Real delta = (b[row] - ax) / diag[row];
      x[row] += delta;
      for (int a = 0; a < 4; ++a) {
        (*t)[block[a]] += inv_mass[block[a]].cwiseProduct(delta * J[a]);
      }
    }
  }
}


void ElementRows::AppendTriplets(int row_offset, std::vector<Eigen::Triplet<Real>>* j_entries,
                                 std::vector<Eigen::Triplet<Real>>* c_entries) const {
  for (int e = 0; e < tet_count(); ++e) {
    const auto row = [&](int r) { return row_offset + RowIndex(e, r); };
    const Mat3 stretch_C = StretchCompliance(e);
    for (int r = 0; r < kElementRows; ++r) {
      if (r < 3 || shear_rows_) {
        const std::array<Vec3, 4> J = RowCoefficients(e, r);
        for (int a = 0; a < 4; ++a) {
          for (int k = 0; k < 3; ++k)
            j_entries->emplace_back(row(r), 6 * block_[e][a] + k, J[a](k));
        }
      }
      if (r < 3) {
        for (int j = 0; j < 3; ++j) c_entries->emplace_back(row(r), row(j), stretch_C(r, j));
      } else {
        c_entries->emplace_back(row(r), row(r), ShearCompliance(e, r - 3));
      }
    }
  }
}


Eigen::Matrix<Real, kElementRows, 12> ElementRows::TetJacobian(int e) const {
  Eigen::Matrix<Real, kElementRows, 12> J = Eigen::Matrix<Real, kElementRows, 12>::Zero();
  for (int r = 0; r < kElementRows; ++r) {
    if (r >= 3 && !shear_rows_) continue;
    const std::array<Vec3, 4> coefficients = RowCoefficients(e, r);
    for (int a = 0; a < 4; ++a) J.block<1, 3>(r, 3 * a) = coefficients[a].transpose();
  }
  return J;
}


Eigen::Matrix<Real, kElementRows, kElementRows> ElementRows::TetCompliance(
    int e, Real regularization) const {
  Eigen::Matrix<Real, kElementRows, kElementRows> C =
      regularization * Eigen::Matrix<Real, kElementRows, kElementRows>::Identity();
  C.topLeftCorner<3, 3>() += StretchCompliance(e);
  for (int p = 0; p < 3; ++p) C(3 + p, 3 + p) += ShearCompliance(e, p);
  return C;
}


void ElementRows::KeepRows() { groups_prev_ = groups_; }


void ElementRows::DescribeArrays(SchurArrays<Real>* arrays) const {
  // the groups hold several quantities each: their arrays are the groups' size apart
  static_assert(sizeof(TetGroup) % sizeof(Real) == 0 &&
                sizeof(TetGroupCompliance) % sizeof(Real) == 0);
  constexpr long kGroupReals = sizeof(TetGroup) / sizeof(Real);
  constexpr long kGroupInts = sizeof(TetGroup) / sizeof(int);
  constexpr long kComplianceReals = sizeof(TetGroupCompliance) / sizeof(Real);
  const bool any = !groups_.empty();
  arrays->tet_count = tet_count();
  arrays->shear_rows = shear_rows_;
  arrays->element_block = {any ? &groups_[0].block[0][0] : nullptr, 4, kTetLanes, kGroupInts};
  arrays->element_U = {any ? &groups_[0].U[0][0] : nullptr, 9, kTetLanes, kGroupReals};
  arrays->element_B = {any ? &groups_[0].B[0][0] : nullptr, 9, kTetLanes, kGroupReals};
  arrays->element_stretch_compliance = {any ? &group_compliance_[0].stretch[0][0] : nullptr, 6,
                                        kTetLanes, kComplianceReals};
  arrays->element_shear_compliance = {any ? &group_compliance_[0].shear[0][0] : nullptr, 3,
                                      kTetLanes, kComplianceReals};
}


void ElementRows::AddSecantForce(const Real* lambda, Real dt, std::vector<Vec3>* f) const {
  // Δt (J(qⁿ⁺¹) − J(qⁿ))ᵀ λ: the forces of the same multipliers through the new and old rows
  Real scaled[kElementRows];
  Real negated[kElementRows];
  for (int e = 0; e < tet_count(); ++e) {
    bool any = false;
    for (int r = 0; r < kElementRows; ++r) {
      const Real le = lambda[RowIndex(e, r)];
      scaled[r] = dt * le;
      negated[r] = -scaled[r];
      any |= le != 0;
    }
    if (!any) continue;
    ScatterForces(e, groups_[e / kTetLanes], scaled, f);
    ScatterForces(e, groups_prev_[e / kTetLanes], negated, f);
  }
}


void ElementRows::AddRotationStiffness(const Real* lambda, Real dt, std::vector<Vec3>* c) const {
  // per pair (i, j): b_λ = (λ_i + λ_j)/(s_i + s_j) on the mode m = (F̂_ij − F̂_ji)/√2, whose
  // coefficients on node a = 1..3 are g_a = (B(a − 1, j) u_i − B(a − 1, i) u_j)/√2 and on node 0
  // minus their sum, on the lanes of the products (ElementProducts::RotationStiffness)
  Kernels().add_rotation_stiffness(*this, lambda, dt, c);
}

}  // namespace sim::nsn
