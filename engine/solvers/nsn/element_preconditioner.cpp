#include "engine/solvers/nsn/element_preconditioner.h"

#include <algorithm>
#include <utility>

namespace sim::nsn {

namespace {

// entries of a tet's 12×12 stiffness block J_eᵀ C'⁻¹ J_e
constexpr int kTetEntries = 12 * 12;

// value index of entry (row, col) of a compressed column matrix, or −1 if its pattern lacks it
int EntryIndex(const Eigen::SparseMatrix<Real>& m, int row, int col) {
  const int* begin = m.innerIndexPtr() + m.outerIndexPtr()[col];
  const int* end = m.innerIndexPtr() + m.outerIndexPtr()[col + 1];
  const int* it = std::lower_bound(begin, end, row);
  return it != end && *it == row ? static_cast<int>(it - m.innerIndexPtr()) : -1;
}

}  // namespace


std::vector<PointRow> CollectPointRows(const std::vector<Row>& rows,
                                       const std::vector<unsigned char>& block_particle,
                                       const Eigen::Ref<const Eigen::VectorXd>& compliance,
                                       const Eigen::Ref<const Eigen::VectorXd>& rigid_inverse_mass,
                                       Real regularization) {
  std::vector<PointRow> point_rows;
  for (int i = 0; i < static_cast<int>(rows.size()); ++i) {
    PointRow point;
    point.row = i;
    for (const RowEnd& e : rows[i].end) {
      if (e.block < 0 || !block_particle[e.block] || e.lin.isZero()) continue;
      point.block[point.count] = e.block;
      point.lin[point.count] = e.lin;
      ++point.count;
    }
    if (point.count == 0) continue;
    point.compliance = compliance(i) + regularization + rigid_inverse_mass(i);
    point_rows.push_back(point);
  }
  return point_rows;
}


void ElementPreconditioner::Analyze(const std::vector<std::array<int, 4>>& node_dof,
                                    int dof_count) {
  // the lower triangle of K: every DOF's diagonal and the node pairs of every tet
  std::vector<Eigen::Triplet<Real>> entries;
  entries.reserve(dof_count + node_dof.size() * kTetEntries / 2);
  for (int i = 0; i < dof_count; ++i) entries.emplace_back(i, i, 0);
  for (const std::array<int, 4>& dofs : node_dof) {
    for (int a = 0; a < 4; ++a) {
      for (int b = 0; b < 4; ++b) {
        if (dofs[a] < 0 || dofs[b] < 0) continue;
        for (int k = 0; k < 3; ++k) {
          for (int l = 0; l < 3; ++l) {
            if (dofs[a] + k >= dofs[b] + l) entries.emplace_back(dofs[a] + k, dofs[b] + l, 0);
          }
        }
      }
    }
  }
  K_.resize(dof_count, dof_count);
  K_.setFromTriplets(entries.begin(), entries.end());
  K_.makeCompressed();
  // where each tet's entries and each diagonal land among K's values
  diagonal_entry_.resize(dof_count);
  for (int i = 0; i < dof_count; ++i) diagonal_entry_[i] = EntryIndex(K_, i, i);
  tet_entry_.assign(node_dof.size() * kTetEntries, -1);
  for (std::size_t e = 0; e < node_dof.size(); ++e) {
    for (int i = 0; i < 12; ++i) {
      for (int j = 0; j < 12; ++j) {
        const int di = node_dof[e][i / 3], dj = node_dof[e][j / 3];
        if (di < 0 || dj < 0 || di + i % 3 < dj + j % 3) continue;
        tet_entry_[e * kTetEntries + 12 * j + i] = EntryIndex(K_, di + i % 3, dj + j % 3);
      }
    }
  }
  cholesky_.analyzePattern(K_);
  dof_count_ = dof_count;
  analyzed_ = true;
}


bool ElementPreconditioner::Update(const ElementRows& rows, const std::vector<Vec3>& inv_mass,
                                   Real regularization, int element_offset,
                                   const std::vector<PointRow>& point_rows) {
  const int tets = rows.tet_count();
  // DOFs of K: 3 per free node of a tet, numbered in order of first use; fixed nodes (H⁻¹ = 0)
  // have none
  std::vector<int> block_dof(inv_mass.size(), -2);
  std::vector<std::array<int, 4>> node_dof(tets);
  std::vector<int> dof_block;
  for (int e = 0; e < tets; ++e) {
    for (int a = 0; a < 4; ++a) {
      const int block = rows.blocks(e)[a];
      if (block_dof[block] == -2) {
        block_dof[block] =
            inv_mass[block].maxCoeff() > 0 ? 3 * static_cast<int>(dof_block.size()) : -1;
        if (block_dof[block] >= 0) dof_block.push_back(block);
      }
      node_dof[e][a] = block_dof[block];
    }
  }
  const int dof_count = 3 * static_cast<int>(dof_block.size());
  if (!analyzed_ || dof_count != dof_count_ || node_dof != node_dof_) {
    Analyze(node_dof, dof_count);
  }
  node_dof_ = std::move(node_dof);
  dof_block_ = std::move(dof_block);

  // K = H + Σ_e J_eᵀ C'⁻¹ J_e, with the rows and compliances kept for Apply
  row_.resize(tets);
  jacobian_.resize(tets);
  inverse_compliance_.resize(tets);
  scaled_.resize(tets);
  Real* values = K_.valuePtr();
  std::fill(values, values + K_.nonZeros(), Real{0});
  for (int k = 0; k < static_cast<int>(dof_block_.size()); ++k) {
    for (int d = 0; d < 3; ++d) values[diagonal_entry_[3 * k + d]] = 1 / inv_mass[dof_block_[k]](d);
  }
  for (int e = 0; e < tets; ++e) {
    for (int r = 0; r < kElementRows; ++r) row_[e][r] = element_offset + rows.RowIndex(e, r);
    jacobian_[e] = rows.TetJacobian(e);
    // C' is SPD (a positive definite stretch block, positive shear compliances, ε > 0)
    inverse_compliance_[e] = rows.TetCompliance(e, regularization).inverse();
    const Eigen::Matrix<Real, 12, 12> stiffness =
        jacobian_[e].transpose() * inverse_compliance_[e] * jacobian_[e];
    const int* entry = tet_entry_.data() + e * kTetEntries;
    for (int i = 0; i < kTetEntries; ++i) {
      if (entry[i] >= 0) values[entry[i]] += stiffness.data()[i];
    }
  }
  // point rows: J_iᵀ J_i / C'_i on their particles' blocks (the ends on fixed nodes drop out;
  // ends on nodes that share no tet would need entries K lacks: such a row stays diagonal)
  point_rows_.clear();
  std::vector<std::pair<int, Real>> additions;  // value index, J_ik J_jl / C'
  for (const PointRow& row : point_rows) {
    if (!(row.compliance > 0)) continue;
    PointRow kept = row;
    kept.count = 0;
    for (int a = 0; a < row.count; ++a) {
      const int dof =
          row.block[a] < static_cast<int>(block_dof.size()) ? block_dof[row.block[a]] : -2;
      if (dof < 0) continue;
      kept.block[kept.count] = dof;
      kept.lin[kept.count] = row.lin[a];
      ++kept.count;
    }
    if (kept.count == 0) continue;
    // J_iᵀ J_i / C'_i on the lower triangle of the row's DOF pairs, added only if K's pattern
    // has every entry
    additions.clear();
    bool present = true;
    for (int a = 0; a < kept.count && present; ++a) {
      for (int b = 0; b < kept.count && present; ++b) {
        for (int k = 0; k < 3 && present; ++k) {
          for (int l = 0; l < 3 && present; ++l) {
            const int i = kept.block[a] + k, j = kept.block[b] + l;
            if (i < j) continue;
            const int entry = EntryIndex(K_, i, j);
            present = entry >= 0;
            additions.emplace_back(entry, kept.lin[a](k) * kept.lin[b](l) / kept.compliance);
          }
        }
      }
    }
    if (!present) continue;
    for (const auto& [entry, value] : additions) values[entry] += value;
    point_rows_.push_back(kept);
  }
  point_scaled_.resize(point_rows_.size());
  cholesky_.factorize(K_);
  valid_ = cholesky_.info() == Eigen::Success;
  force_.resize(dof_count_);
  solution_.resize(dof_count_);
  return valid_;
}


void ElementPreconditioner::Apply(const Real* r, Real* z) const {
  // s = C'⁻¹ r, f = J_eᵀ s on the free DOFs
  const int tets = static_cast<int>(jacobian_.size());
  force_.setZero();
  for (int e = 0; e < tets; ++e) {
    TetVector re;
    for (int i = 0; i < kElementRows; ++i) re(i) = r[row_[e][i]];
    scaled_[e] = inverse_compliance_[e] * re;
    const Eigen::Matrix<Real, 12, 1> f = jacobian_[e].transpose() * scaled_[e];
    for (int a = 0; a < 4; ++a) {
      if (node_dof_[e][a] >= 0) force_.segment<3>(node_dof_[e][a]) += f.segment<3>(3 * a);
    }
  }
  for (std::size_t i = 0; i < point_rows_.size(); ++i) {
    const PointRow& row = point_rows_[i];
    point_scaled_[i] = r[row.row] / row.compliance;
    for (int a = 0; a < row.count; ++a) {
      force_.segment<3>(row.block[a]) += point_scaled_[i] * row.lin[a];
    }
  }
  // y = K⁻¹ f, then z = s − C'⁻¹ J y (Woodbury)
  solution_ = cholesky_.solve(force_);
  for (std::size_t i = 0; i < point_rows_.size(); ++i) {
    const PointRow& row = point_rows_[i];
    Real moved = 0;
    for (int a = 0; a < row.count; ++a) moved += row.lin[a].dot(solution_.segment<3>(row.block[a]));
    z[row.row] = point_scaled_[i] - moved / row.compliance;
  }
  for (int e = 0; e < tets; ++e) {
    Eigen::Matrix<Real, 12, 1> y = Eigen::Matrix<Real, 12, 1>::Zero();
    for (int a = 0; a < 4; ++a) {
      if (node_dof_[e][a] >= 0) y.segment<3>(3 * a) = solution_.segment<3>(node_dof_[e][a]);
    }
    const TetVector ze = scaled_[e] - inverse_compliance_[e] * (jacobian_[e] * y);
    for (int i = 0; i < kElementRows; ++i) z[row_[e][i]] = ze(i);
  }
}

}  // namespace sim::nsn
