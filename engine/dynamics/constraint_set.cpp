#include "engine/dynamics/constraint_set.h"

#include <algorithm>
#include <cmath>

#include "engine/model/model.h"
#include "engine/state/contacts.h"
#include "engine/state/control.h"

namespace sim {

void ConstraintSet::Begin(const Model& model, const Control& control, const Contacts& contacts,
                          int body_count) {
  model_ = &model;

  // contacts: body-frame points and the contact frame, fixed for the step (digest §2.9)
  const int contact_count = contacts.count();
  contacts_.resize(contact_count);
  for (int c = 0; c < contact_count; ++c) {
    const Contact& src = contacts.items[c];
    ContactInfo& info = contacts_[c];
    const auto block_of = [&](const ContactSide& side) {
      if (side.is_particle()) return body_count + side.particle();
      return side.body;  // kWorldBody = −1: the static world
    };
    const auto particle_blocks = [&](const ContactSide& side) {
      std::array<int, 3> blocks = {-1, -1, -1};
      for (int k = 0; k < 3; ++k) {
        if (side.particles[k] >= 0) blocks[k] = body_count + side.particles[k];
      }
      return blocks;
    };
    info.block_a = block_of(src.a);
    info.block_b = block_of(src.b);
    info.particles_a = src.a.is_particle();
    info.particles_b = src.b.is_particle();
    info.blocks_a = particle_blocks(src.a);
    info.blocks_b = particle_blocks(src.b);
    info.weights_a = src.a.weights;
    info.weights_b = src.b.weights;
    info.p_a = src.a.p_B;
    info.p_b = src.b.p_B;
    info.radius_a = src.a.radius;
    info.radius_b = src.b.radius;
    info.normal = src.normal_W;
    info.tangent = src.tangent_W;
    info.bitangent = src.bitangent_W;
    info.thickness = src.thickness;
    info.mu_t = src.friction_t;
    info.mu_b = src.friction_b;
    info.gap = info.gap0 = src.gap0;
    info.bounce_velocity = src.bounce_velocity;
    info.key = ContactKey(src);
  }

  // row layout: joint rows, coupling rows, attachment rows, contact normals, friction pairs
  int joint_rows = 0;
  for (int j = 0; j < model.joint_count(); ++j) joint_rows += JointRowCount(model, j);
  joint_rows += CouplingRowCount(model);
  attachment_row_begin_ = joint_rows;
  contact_row_begin_ = joint_rows + 3 * model.attachment_count();
  friction_row_begin_ = contact_row_begin_ + contact_count;
  const int rows = friction_row_begin_ + 2 * contact_count;
  gradients_.resize(rows);
  type_.resize(rows);
  joint_.assign(rows, -1);
  bilateral_.resize(rows);
  value_.assign(rows, 0);
  joint_scratch_.resize(kMaxJointRows);

  // static row data: types and the targets/gains of bilateral rows
  int row = 0;
  for (int j = 0; j < model.joint_count(); ++j) {
    JointBodies bodies;
    const int n = BuildJointRows(model, j, bodies, joint_scratch_.data());
    const bool angular = model.joint_type[j] != JointType::kPrismatic;
    for (int k = 0; k < n; ++k, ++row) {
      joint_[row] = j;
      BilateralInfo& info = bilateral_[row];
      info = BilateralInfo{};
      switch (joint_scratch_[k].kind) {
        case JointRowKind::kLimitLower:
        case JointRowKind::kLimitUpper:
          type_[row] = RowType::kUnilateral;
          break;
        case JointRowKind::kDrive: {
          const JointDrive& drive = model.joint_drive[j];
          type_[row] = RowType::kBilateral;
          info.stiffness = drive.stiffness;
          info.damping = drive.damping;
          info.force_limit = drive.max_force;
          info.target_position = JointTargetPosition(model, control, j);
          info.target_velocity = JointTargetVelocity(model, control, j);
          info.angular_target = angular;
          break;
        }
        case JointRowKind::kLocked:
        case JointRowKind::kPointLocked: {
          type_[row] = RowType::kBilateral;
          // rotation rows may be softer than point rows (bending joints)
          const Real compliance = joint_scratch_[k].kind == JointRowKind::kLocked
                                      ? model.JointAngularCompliance(j)
                                      : model.joint_compliance[j];
          info.stiffness = compliance > 0 ? 1 / compliance : kInfinity;
          info.positional = joint_scratch_[k].kind == JointRowKind::kPointLocked;
          break;
        }
        case JointRowKind::kFriction:
          type_[row] = RowType::kFriction;
          info.friction_limit = model.JointFrictionLimit(j);
          break;
      }
    }
  }
  // coupling (mimic) rows: rigid, after every joint's rows
  for (int k = 0; k < CouplingRowCount(model); ++k, ++row) {
    joint_[row] = model.joint_couplings[k].follower;
    type_[row] = RowType::kBilateral;
    bilateral_[row] = BilateralInfo{};
    bilateral_[row].stiffness = kInfinity;
  }
  // attachment rows: rigid or compliant, positional (they count towards the joint error)
  for (int a = 0; a < model.attachment_count(); ++a, row += 3) {
    for (int k = 0; k < 3; ++k) {
      type_[row + k] = RowType::kBilateral;
      BilateralInfo& info = bilateral_[row + k];
      info = BilateralInfo{};
      const Real compliance = model.attachment_compliance[a];
      info.stiffness = compliance > 0 ? 1 / compliance : kInfinity;
      info.positional = true;
    }
  }
  for (int c = 0; c < contact_count; ++c) {
    type_[contact_row_begin_ + c] = RowType::kUnilateral;
    type_[friction_row_begin_ + 2 * c] = RowType::kFriction;
    type_[friction_row_begin_ + 2 * c + 1] = RowType::kFriction;
  }
}


void ConstraintSet::Evaluate(const BodyBlocks& blocks) {
  EvaluateJointRows(blocks);
  EvaluateAttachmentRows(blocks);
  EvaluateContactRows(blocks);
}


void ConstraintSet::EvaluateJointRows(const BodyBlocks& blocks) {
  const Model& model = *model_;
  int row = 0;
  for (int j = 0; j < model.joint_count(); ++j) {
    const int n = BuildJointRows(model, j, blocks.JointBodiesAt(model, j), joint_scratch_.data());
    for (int k = 0; k < n; ++k, ++row) {
      gradients_[row] = joint_scratch_[k].row;
      value_[row] = joint_scratch_[k].value;
    }
  }
  for (int k = 0; k < CouplingRowCount(model); ++k, ++row) {
    const JointRow coupling =
        BuildCouplingRow(model, k, blocks.JointBodiesAt(model, model.joint_couplings[k].follower),
                         blocks.JointBodiesAt(model, model.joint_couplings[k].leader));
    gradients_[row] = coupling.row;
    value_[row] = coupling.value;
  }
}


void ConstraintSet::EvaluateAttachmentRows(const BodyBlocks& blocks) {
  // c_k = (x_p − X_WB·p_B)·e_k; ∂/∂u: particle e_k, body −[e_k, r × e_k] (r = R p_B)
  const Model& model = *model_;
  for (int a = 0; a < model.attachment_count(); ++a) {
    const int particle = blocks.body_count() + model.attachment_particle[a];
    const int body = model.attachment_body[a];
    Vec3 lever;
    const Vec3 target = blocks.WorldPoint(body, model.attachment_p_B[a], &lever);
    const Vec3 error = blocks.x[particle] - target;
    const int particle_end = blocks.fixed[particle] ? -1 : particle;
    const int body_end = body >= 0 && !blocks.fixed[body] ? body : -1;
    for (int k = 0; k < 3; ++k) {
      const int row = attachment_row_begin_ + 3 * a + k;
      const Vec3 axis = Vec3::Unit(k);
      Row& grad = gradients_[row];
      grad = Row{};
      grad.end[0] = {particle_end, axis, Vec3::Zero()};
      grad.end[1] = {body_end, -axis, -lever.cross(axis)};
      value_[row] = error(k);
    }
  }
}


void ConstraintSet::EvaluateContactRows(const BodyBlocks& blocks) {
  for (int c = 0; c < contact_count(); ++c) {
    ContactInfo& info = contacts_[c];
    ContactRowSide side_a, side_b;
    const Vec3 a = blocks.ContactSidePoint(info.particles_a, info.blocks_a, info.weights_a,
                                           info.block_a, info.p_a, &side_a);
    const Vec3 b = blocks.ContactSidePoint(info.particles_b, info.blocks_b, info.weights_b,
                                           info.block_b, info.p_b, &side_b);
    // gap C_n = nᵀ(a − b) − d with the normal fixed in world for the step (digest §2.9)
    info.gap = info.normal.dot(a - b) - info.thickness;
    const int normal_row = contact_row_begin_ + c;
    FillContactRow(info.normal, side_a, side_b, &gradients_[normal_row]);
    value_[normal_row] = info.gap;
    // friction acts at the surface: a round side's lever arm reaches its radius past the core
    side_a.lever -= info.radius_a * info.normal;
    side_b.lever += info.radius_b * info.normal;
    const int friction_row = friction_row_begin_ + 2 * c;
    FillContactRow(info.tangent, side_a, side_b, &gradients_[friction_row]);
    FillContactRow(info.bitangent, side_a, side_b, &gradients_[friction_row + 1]);
  }
}


int ConstraintSet::bilateral_row_count() const {
  int count = 0;
  for (int i = 0; i < contact_row_begin_; ++i) count += type_[i] == RowType::kBilateral;
  return count;
}


int ConstraintSet::unilateral_row_count() const {
  int count = contact_count();
  for (int i = 0; i < contact_row_begin_; ++i) count += type_[i] == RowType::kUnilateral;
  return count;
}


Real ConstraintSet::max_penetration() const {
  Real penetration = 0;
  for (const ContactInfo& info : contacts_) penetration = std::max(penetration, -info.gap);
  return penetration;
}


Real ConstraintSet::max_joint_error() const {
  Real error = 0;
  for (int i = 0; i < contact_row_begin_; ++i) {
    if (type_[i] == RowType::kBilateral && bilateral_[i].positional) {
      error = std::max(error, std::abs(value_[i]));
    }
  }
  return error;
}

}  // namespace sim
