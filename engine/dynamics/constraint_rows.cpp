#include "engine/dynamics/constraint_rows.h"

#include <cmath>
#include <numbers>

namespace sim {

namespace {

// two unit vectors completing `axis` to a right-handed orthonormal basis (axis, b1, b2)
void PerpendicularBasis(const Vec3& axis, Vec3* b1, Vec3* b2) {
  const Vec3 helper = std::abs(axis.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
  *b1 = axis.cross(helper).normalized();
  *b2 = axis.cross(*b1);
}


// the row of d(p_C − p_P)·e/dt for a direction e fixed in the world
Row PointRow(const Vec3& e, const JointBodies& bodies, const Vec3& r_P, const Vec3& r_C) {
  Row row;
  row.end[0] = {bodies.child_block, e, r_C.cross(e)};
  row.end[1] = {bodies.parent_block, -e, -r_P.cross(e)};
  return row;
}


// the row of d(a_P·b_C)/dt = (a_P × b_C)·(ω_P − ω_C)
Row AngularRow(const Vec3& a_P, const Vec3& b_C, const JointBodies& bodies) {
  const Vec3 axis = a_P.cross(b_C);
  Row row;
  row.end[0] = {bodies.child_block, Vec3::Zero(), -axis};
  row.end[1] = {bodies.parent_block, Vec3::Zero(), axis};
  return row;
}


// the row of d((p_C − p_P)·n)/dt for a direction n fixed in the parent
Row SlideRow(const Vec3& n, const Vec3& d, const JointBodies& bodies, const Vec3& r_P,
             const Vec3& r_C) {
  Row row = PointRow(n, bodies, r_P, r_C);
  row.end[1].ang += n.cross(d);
  return row;
}


struct JointFrames {
  Pose X_WJp;  // joint frame attached to the parent
  Pose X_WJc;  // joint frame attached to the child
  Vec3 r_P;    // parent COM → anchor [m]
  Vec3 r_C;    // child COM → anchor [m]
};


JointFrames MakeFrames(const Model& model, int j, const Pose& X_WP, const Pose& X_WC) {
  JointFrames f;
  f.X_WJp = X_WP * model.joint_X_PJ[j];
  f.X_WJc = X_WC * model.joint_X_CJ[j];
  f.r_P = f.X_WJp.p - X_WP.p;
  f.r_C = f.X_WJc.p - X_WC.p;
  return f;
}


// gradient of the joint coordinate: ∂s/∂u (prismatic, the slide row along the axis a_P) or
// ∂θ/∂u = a·(ω_C − ω_P) (revolute, continuous)
Row CoordinateRow(const Model& model, int j, const JointBodies& bodies, const JointFrames& f,
                  const Vec3& a_P) {
  Row coordinate;
  if (model.joint_type[j] == JointType::kPrismatic) {
    coordinate = SlideRow(a_P, f.X_WJc.p - f.X_WJp.p, bodies, f.r_P, f.r_C);
  } else {
    coordinate.end[0] = {bodies.child_block, Vec3::Zero(), a_P};
    coordinate.end[1] = {bodies.parent_block, Vec3::Zero(), -a_P};
  }
  return coordinate;
}


}  // namespace


Real WrapAngle(Real angle) {
  constexpr Real kPi = std::numbers::pi;
  return angle - 2 * kPi * std::floor((angle + kPi) / (2 * kPi));
}


int JointRowCount(const Model& model, int j) {
  int count = 0;
  switch (model.joint_type[j]) {
    case JointType::kFixed:
      return 6;
    case JointType::kBall:
    case JointType::kPlanar:
      return 3;
    case JointType::kRevolute:
    case JointType::kContinuous:
    case JointType::kPrismatic:
      count = 5;
      break;
    case JointType::kNone:
      return 0;
  }
  const bool limitable = model.joint_type[j] != JointType::kContinuous;
  if (limitable && model.joint_limited[j]) count += 2;
  if (model.joint_drive[j].enabled()) count += 1;
  if (model.JointFrictionLimit(j) > 0) count += 1;
  return count;
}


Real JointCoordinate(const Model& model, int j, const Pose& X_WP, const Pose& X_WC) {
  const JointFrames f = MakeFrames(model, j, X_WP, X_WC);
  const Vec3& axis = model.joint_axis[j];
  switch (model.joint_type[j]) {
    case JointType::kRevolute:
    case JointType::kContinuous: {
      // rotation of the child's joint frame relative to the parent's, about the axis
      Quat q_rel = f.X_WJp.q.conjugate() * f.X_WJc.q;
      if (q_rel.w() < 0) q_rel.coeffs() = -q_rel.coeffs();
      return WrapAngle(2 * std::atan2(q_rel.vec().dot(axis), q_rel.w()));
    }
    case JointType::kPrismatic:
      return (f.X_WJc.p - f.X_WJp.p).dot(f.X_WJp.q * axis);
    default:
      return 0;
  }
}


Real JointCoordinate(const Model& model, const State& state, int j) {
  const int parent = model.joint_parent[j];
  return JointCoordinate(model, j, parent == kWorldBody ? Pose{} : state.body_X_WB[parent],
                         state.body_X_WB[model.joint_child[j]]);
}


bool HasPointRows(const Model& model, int j) {
  const JointType type = model.joint_type[j];
  return type == JointType::kBall || type == JointType::kRevolute ||
         type == JointType::kContinuous || type == JointType::kFixed;
}


void JointPointStiffness(const Model& model, int j, const JointBodies& bodies, const Vec3& force,
                         Mat3* parent, Mat3* child) {
  const JointFrames f = MakeFrames(model, j, bodies.X_WP, bodies.X_WC);
  // Σ_k λ_k ∂²(e_k·R r)/∂θ² = ½(f rᵀ + r fᵀ) − (f·r) I; the child's end enters c with +, the
  // parent's with −
  const auto hessian = [&force](const Vec3& r) -> Mat3 {
    return 0.5 * (force * r.transpose() + r * force.transpose()) - force.dot(r) * Mat3::Identity();
  };
  *child = -hessian(f.r_C);
  *parent = hessian(f.r_P);
}


int BuildJointRows(const Model& model, int j, const JointBodies& bodies, JointRow* rows) {
  const JointFrames f = MakeFrames(model, j, bodies.X_WP, bodies.X_WC);
  const JointType type = model.joint_type[j];
  const Vec3 d = f.X_WJc.p - f.X_WJp.p;  // anchor separation [m]
  const Mat3 R_P = f.X_WJp.q.toRotationMatrix();
  const Mat3 R_C = f.X_WJc.q.toRotationMatrix();
  int n = 0;

  // point rows: the anchors coincide (ball, revolute, continuous, fixed)
  if (type != JointType::kPrismatic && type != JointType::kPlanar) {
    for (int k = 0; k < 3; ++k) {
      const Vec3 e = Vec3::Unit(k);
      rows[n++] = {PointRow(e, bodies, f.r_P, f.r_C), d.dot(e), JointRowKind::kPointLocked};
    }
  }
  if (type == JointType::kBall) return n;

  const Vec3& axis_J = model.joint_axis[j];
  Vec3 b1_J, b2_J;
  PerpendicularBasis(axis_J, &b1_J, &b2_J);
  const Vec3 a_P = R_P * axis_J;

  // hinge rows: the child's perpendiculars stay perpendicular to the parent's axis
  if (type == JointType::kRevolute || type == JointType::kContinuous ||
      type == JointType::kPlanar) {
    for (const Vec3& b_J : {b1_J, b2_J}) {
      const Vec3 b_C = R_C * b_J;
      rows[n++] = {AngularRow(a_P, b_C, bodies), a_P.dot(b_C), JointRowKind::kLocked};
    }
  }

  // slide rows: no motion across the prismatic axis
  if (type == JointType::kPrismatic) {
    for (const Vec3& b_J : {b1_J, b2_J}) {
      const Vec3 n_P = R_P * b_J;
      rows[n++] = {SlideRow(n_P, d, bodies, f.r_P, f.r_C), d.dot(n_P), JointRowKind::kPointLocked};
    }
  }

  // lock rows: no relative rotation at all (fixed, prismatic)
  if (type == JointType::kFixed || type == JointType::kPrismatic) {
    const int pairs[3][2] = {{1, 2}, {2, 0}, {0, 1}};
    for (const auto& pair : pairs) {
      const Vec3 a = R_P.col(pair[0]);
      const Vec3 b = R_C.col(pair[1]);
      rows[n++] = {AngularRow(a, b, bodies), a.dot(b), JointRowKind::kLocked};
    }
  }
  // planar: no motion along the normal (the hinge rows keep the normals aligned)
  if (type == JointType::kPlanar) {
    rows[n++] = {SlideRow(a_P, d, bodies, f.r_P, f.r_C), d.dot(a_P), JointRowKind::kPointLocked};
  }
  if (type == JointType::kFixed || type == JointType::kPlanar) return n;

  // coordinate row shared by limits, the drive and friction: θ (revolute) or s (prismatic)
  const Row coordinate = CoordinateRow(model, j, bodies, f, a_P);
  const Real theta = JointCoordinate(model, j, bodies.X_WP, bodies.X_WC);
  if (type != JointType::kContinuous && model.joint_limited[j]) {
    rows[n++] = {coordinate, theta - model.joint_lower[j], JointRowKind::kLimitLower};
    Row upper = coordinate;
    for (RowEnd& e : upper.end) {
      e.lin = -e.lin;
      e.ang = -e.ang;
    }
    rows[n++] = {upper, model.joint_upper[j] - theta, JointRowKind::kLimitUpper};
  }
  if (model.joint_drive[j].enabled()) {
    rows[n++] = {coordinate, theta, JointRowKind::kDrive};
  }
  if (model.JointFrictionLimit(j) > 0) {
    rows[n++] = {coordinate, 0, JointRowKind::kFriction};
  }
  return n;
}


JointRow BuildCouplingRow(const Model& model, int k, const JointBodies& follower,
                          const JointBodies& leader) {
  const JointCoupling& coupling = model.joint_couplings[k];
  const int f = coupling.follower;
  const int l = coupling.leader;
  const JointFrames frames_f = MakeFrames(model, f, follower.X_WP, follower.X_WC);
  const JointFrames frames_l = MakeFrames(model, l, leader.X_WP, leader.X_WC);
  const Row row_f =
      CoordinateRow(model, f, follower, frames_f, frames_f.X_WJp.q * model.joint_axis[f]);
  const Row row_l =
      CoordinateRow(model, l, leader, frames_l, frames_l.X_WJp.q * model.joint_axis[l]);
  // ∂c/∂u = ∂θ_f/∂u − m ∂θ_l/∂u, one end per distinct block
  JointRow result;
  result.kind = JointRowKind::kLocked;
  int used = 0;
  const auto add = [&](const RowEnd& e, Real scale) {
    if (e.block < 0) return;
    for (int i = 0; i < used; ++i) {
      if (result.row.end[i].block == e.block) {
        result.row.end[i].lin += scale * e.lin;
        result.row.end[i].ang += scale * e.ang;
        return;
      }
    }
    result.row.end[used++] = {e.block, scale * e.lin, scale * e.ang};
  };
  for (const RowEnd& e : row_f.end) add(e, 1);
  for (const RowEnd& e : row_l.end) add(e, -coupling.multiplier);
  const Real theta_f = JointCoordinate(model, f, follower.X_WP, follower.X_WC);
  const Real theta_l = JointCoordinate(model, l, leader.X_WP, leader.X_WC);
  Real c = theta_f - coupling.multiplier * theta_l - coupling.offset;
  // both angles wrap at ±π: with m = ±1 the difference wraps too
  const bool angular =
      model.joint_type[f] != JointType::kPrismatic && model.joint_type[l] != JointType::kPrismatic;
  if (angular && std::abs(std::abs(coupling.multiplier) - 1) < 1e-12) c = WrapAngle(c);
  result.value = c;
  return result;
}


void FillContactRow(const Vec3& direction, const ContactRowSide& a, const ContactRowSide& b,
                    Row* row) {
  int end = 0;
  const auto add = [&](const ContactRowSide& side, Real sign) {
    if (!side.particles) {
      RowEnd& e = row->end[end++];
      e.block = side.block[0];
      e.lin = sign * direction;
      e.ang = sign * side.lever.cross(direction);
      return;
    }
    // a weighted particle point x = Σ w_k x_k moves with Σ w_k u_k
    for (int k = 0; k < 3 && end < kMaxRowEnds; ++k) {
      if (side.block[k] < 0 || side.weights(k) == 0) continue;
      RowEnd& e = row->end[end++];
      e.block = side.block[k];
      e.lin = sign * side.weights(k) * direction;
      e.ang.setZero();
    }
  };
  add(a, 1);
  add(b, -1);
  for (; end < kMaxRowEnds; ++end) row->end[end].block = -1;
}

}  // namespace sim
