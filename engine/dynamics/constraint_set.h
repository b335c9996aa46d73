// The constraint rows of one step, shared by every solver: their layout, what each row means
// (bilateral with its stiffness and targets, unilateral, friction) and, at any iterate of the
// body blocks, each row's value c and physical gradient ∇c·G (constraint_rows.h).
//
// Rows, in a fixed order for the whole step:
//   joint rows (locked, limit, drive and joint friction rows of every joint) → coupling (mimic)
//   rows → attachment rows (3 per attached particle, c = x_p − X_WB·p_B along the world axes) →
//   contact normal rows (C_n = nᵀ(a − b) − d, digest §2.9) → 2 friction rows per contact along
//   the contact's tangent frame (digest §2.10, D = [t b]).
// FEM element rows are a solver's own (they live with NSN's compliance form).
#pragma once

#include <cstdint>
#include <vector>

#include "engine/core/math.h"
#include "engine/dynamics/body_blocks.h"
#include "engine/dynamics/constraint_rows.h"

namespace sim {

struct Model;
struct Control;
struct Contacts;

enum class RowType : unsigned char { kBilateral = 0, kUnilateral, kFriction };

/// Targets and gains of a bilateral row, and the bound of a joint friction row. Compliant rows
/// with stiffness k and damping d act as f = −k(c − c*) − d(ċ − v*).
struct BilateralInfo {
  Real stiffness = 0;  ///< k; +inf for rigid rows [N/m or N·m/rad]
  Real damping = 0;    ///< d [N·s/m or N·m·s/rad]
  Real target_position = 0;
  Real target_velocity = 0;
  bool angular_target = false;  ///< wrap c − c* to (−π, π]
  bool positional = false;      ///< counts towards the joint error in metres
  Real friction_limit = 0;      ///< joint friction rows: the bound F [N or N·m]
  /// drive rows: the bound |λ| ≤ f_max of the drive's force (JointDrive::max_force) [N or N·m]
  Real force_limit = kInfinity;
};

/// A contact as the rows see it: both sides in block terms, the frame and friction of the
/// contact-material stage, and the gap at the iterate.
struct ContactInfo {
  int block_a = -1, block_b = -1;  ///< body or first particle block (−1: static world)
  Vec3 p_a = Vec3::Zero(), p_b = Vec3::Zero();  ///< body-frame points (world if static) [m]
  /// particle sides: up to three particle blocks and their weights (blocks_x[0] == block_x)
  std::array<int, 3> blocks_a = {-1, -1, -1}, blocks_b = {-1, -1, -1};
  Vec3 weights_a = Vec3(1, 0, 0), weights_b = Vec3(1, 0, 0);
  bool particles_a = false, particles_b = false;
  Vec3 normal, tangent, bitangent;
  Real thickness = 0, mu_t = 0, mu_b = 0;
  Real radius_a = 0, radius_b = 0;  ///< round part of each side (points are cores) [m]
  Real gap = 0;                     ///< C_n at the iterate [m]
  Real gap0 = 0;                    ///< C_n at the start of the step [m]
  /// separating normal speed the step must end with: restitution (contact_material.h) [m/s]
  Real bounce_velocity = 0;
  std::uint64_t key = 0;  ///< ContactKey, for warm starting
};

class ConstraintSet {
 public:
  /// Layout and static row data of a step (types, gains, targets, contacts).
  void Begin(const Model& model, const Control& control, const Contacts& contacts, int body_count);

  /// Values and physical gradients of every row at the blocks' iterate.
  void Evaluate(const BodyBlocks& blocks);

  int row_count() const { return static_cast<int>(gradients_.size()); }
  int contact_count() const { return static_cast<int>(contacts_.size()); }
  int attachment_row_begin() const { return attachment_row_begin_; }
  /// Joint, coupling and attachment rows are [0, contact_row_begin()).
  int contact_row_begin() const { return contact_row_begin_; }
  int friction_row_begin() const { return friction_row_begin_; }
  int normal_row(int c) const { return contact_row_begin_ + c; }
  int friction_row(int c) const { return friction_row_begin_ + 2 * c; }

  RowType type(int i) const { return type_[i]; }
  int joint(int i) const { return joint_[i]; }  ///< joint of a joint or coupling row, else −1
  const BilateralInfo& bilateral(int i) const { return bilateral_[i]; }
  Real value(int i) const { return value_[i]; }  ///< c or gap at the iterate
  const Row& gradient(int i) const { return gradients_[i]; }
  const std::vector<Row>& gradients() const { return gradients_; }
  const ContactInfo& contact(int c) const { return contacts_[c]; }

  int bilateral_row_count() const;
  int unilateral_row_count() const;  ///< contact normals plus joint limits
  Real max_penetration() const;      ///< max(−C_n, 0) over contacts at the iterate [m]
  Real max_joint_error() const;      ///< max |c| over positional joint rows [m]

 private:
  void EvaluateJointRows(const BodyBlocks& blocks);
  void EvaluateAttachmentRows(const BodyBlocks& blocks);
  void EvaluateContactRows(const BodyBlocks& blocks);

  const Model* model_ = nullptr;
  int attachment_row_begin_ = 0;
  int contact_row_begin_ = 0;
  int friction_row_begin_ = 0;
  std::vector<RowType> type_;
  std::vector<int> joint_;
  std::vector<BilateralInfo> bilateral_;  // per row (unused for contact rows)
  std::vector<Real> value_;
  std::vector<Row> gradients_;
  std::vector<ContactInfo> contacts_;
  std::vector<JointRow> joint_scratch_;
};

}  // namespace sim
