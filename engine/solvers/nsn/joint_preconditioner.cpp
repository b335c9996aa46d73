#include "engine/solvers/nsn/joint_preconditioner.h"

namespace sim::nsn {

void JointPreconditioner::Update(const std::vector<Row>& rows, int row_end,
                                 const std::vector<unsigned char>& selected,
                                 const BodyBlocks& blocks, const Real* c_diag,
                                 Real regularization) {
  rows_ = 0;
  valid_ = false;
  index_.assign(row_end, -1);
  member_.clear();
  for (int i = 0; i < row_end; ++i) {
    if (!selected[i]) continue;
    index_[i] = rows_++;
    member_.push_back(i);
  }
  if (rows_ == 0) return;
  // the row ends on each free rigid block, by a counting sort over the blocks
  const int block_count = blocks.body_count();
  block_begin_.assign(block_count + 1, 0);
  for (int i : member_) {
    for (const RowEnd& e : rows[i].end) {
      if (e.block >= 0 && e.block < block_count && !blocks.fixed[e.block]) {
        ++block_begin_[e.block + 1];
      }
    }
  }
  for (int b = 0; b < block_count; ++b) block_begin_[b + 1] += block_begin_[b];
  const int ends = block_begin_[block_count];
  block_row_.resize(ends);
  block_lin_.resize(ends);
  block_ang_.resize(ends);
  std::vector<int> cursor(block_begin_.begin(), block_begin_.end() - 1);
  for (int i : member_) {
    for (const RowEnd& e : rows[i].end) {
      if (e.block < 0 || e.block >= block_count || blocks.fixed[e.block]) continue;
      const int k = cursor[e.block]++;
      block_row_[k] = index_[i];
      block_lin_[k] = e.lin;
      block_ang_[k] = e.ang;
    }
  }
  // A_jj = Σ_b J_b H_b⁻¹ J_bᵀ + C + εI (the lower triangle, which SimplicialLDLT reads)
  entries_.clear();
  for (int k = 0; k < rows_; ++k) {
    entries_.emplace_back(k, k, c_diag[member_[k]] + regularization);
  }
  for (int b = 0; b < block_count; ++b) {
    const Vec3& inv_mass = blocks.inv_mass[b];
    const Mat3& inv_inertia = blocks.inv_inertia_W[b];
    for (int p = block_begin_[b]; p < block_begin_[b + 1]; ++p) {
      const Vec3 lin = inv_mass.cwiseProduct(block_lin_[p]);
      const Vec3 ang = inv_inertia * block_ang_[p];
      for (int q = block_begin_[b]; q < block_begin_[b + 1]; ++q) {
        if (block_row_[q] > block_row_[p]) continue;
        entries_.emplace_back(block_row_[p], block_row_[q],
                              block_lin_[q].dot(lin) + block_ang_[q].dot(ang));
      }
    }
  }
  matrix_.resize(rows_, rows_);
  matrix_.setFromTriplets(entries_.begin(), entries_.end());
  // the ordering and symbolic analysis depend on the pattern only, which stays while the rows
  // and their bodies do (every iteration of a step, and most steps): refactor numerically then
  const bool same_pattern = analyzed_ && member_ == analyzed_member_ &&
                            block_begin_ == analyzed_block_begin_ &&
                            block_row_ == analyzed_block_row_;
  if (!same_pattern) {
    factor_.analyzePattern(matrix_);
    analyzed_ = factor_.info() == Eigen::Success;
    analyzed_member_ = member_;
    analyzed_block_begin_ = block_begin_;
    analyzed_block_row_ = block_row_;
  }
  factor_.factorize(matrix_);
  valid_ = factor_.info() == Eigen::Success;
}


void JointPreconditioner::Apply(const Real* r, Real* z) const {
  if (!valid_) return;
  rhs_.resize(rows_);
  for (int k = 0; k < rows_; ++k) rhs_(k) = r[member_[k]];
  solution_ = factor_.solve(rhs_);
  for (int k = 0; k < rows_; ++k) z[member_[k]] = solution_(k);
}

}  // namespace sim::nsn
