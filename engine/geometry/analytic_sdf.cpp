// Exact distances of the analytic primitives and the min/max combinations (see analytic_sdf.h).
// Formulas: boxes and rounded boxes as the distance to an axis-aligned box (Minkowski sum with a
// ball for the rounding), solids of revolution (cylinder, cone, torus) as a 2D distance in the
// meridian half-plane (ρ, z) lifted back with the radial unit vector.
#include "engine/geometry/analytic_sdf.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <sstream>

namespace sim {
namespace {

// sign with sign(0) = +1, so points on a symmetry plane still get a unit gradient
Real SignOf(Real v) { return v < 0 ? Real(-1) : Real(1); }


// radial unit vector of the node xy plane; +x on the axis (any unit radial direction is valid)
Vec3 RadialUnit(const Vec3& x, Real* rho) {
  *rho = std::hypot(x.x(), x.y());
  if (*rho < Real(1e-300)) return Vec3::UnitX();
  return Vec3(x.x() / *rho, x.y() / *rho, 0);
}


// signed distance to the box |x_i| ≤ h_i; exact inside and outside
SdfSample BoxDistance(const Vec3& x, const Vec3& h) {
  const Vec3 q = x.cwiseAbs() - h;
  const Vec3 sign(SignOf(x.x()), SignOf(x.y()), SignOf(x.z()));
  SdfSample s;
  const Vec3 outside = q.cwiseMax(Real(0));
  const Real outside_norm = outside.norm();
  if (outside_norm > 0) {
    // outside: distance to the closest face, edge or corner
    s.distance = outside_norm;
    s.gradient = sign.cwiseProduct(outside) / outside_norm;
    return s;
  }
  // inside (or on the surface): the nearest face, lowest axis on ties
  int axis = 0;
  if (q.y() > q(axis)) axis = 1;
  if (q.z() > q(axis)) axis = 2;
  s.distance = q(axis);
  s.gradient = Vec3::Zero();
  s.gradient(axis) = sign(axis);
  return s;
}


// 2D closest point on segment [a, b] to p
Vec2 ClosestOnSegment(const Vec2& p, const Vec2& a, const Vec2& b) {
  const Vec2 ab = b - a;
  const Real t = std::clamp((p - a).dot(ab) / ab.squaredNorm(), Real(0), Real(1));
  return a + t * ab;
}


// capped cone in the meridian plane: triangle apex (0,0), rim (R,−h), base centre (0,−h)
// (sin θ, cos θ are cached in the node's params so the hot path has no trigonometry)
SdfSample ConeDistance(const Vec3& x, Real height, Real sin_angle, Real cos_angle) {
  Real rho = 0;
  const Vec3 radial = RadialUnit(x, &rho);
  const Real tan_angle = sin_angle / cos_angle;
  const Vec2 p(rho, x.z());
  const Vec2 apex(0, 0), rim(height * tan_angle, -height), base_centre(0, -height);
  // closest point on the slanted side and on the base disk (the axis is not surface)
  const Vec2 on_side = ClosestOnSegment(p, apex, rim);
  const Vec2 on_base = ClosestOnSegment(p, base_centre, rim);
  const Real d_side = (p - on_side).norm();
  const Real d_base = (p - on_base).norm();
  const bool side_closer = d_side <= d_base;
  const Real d = side_closer ? d_side : d_base;
  const Vec2 closest = side_closer ? on_side : on_base;
  const bool inside = x.z() >= -height && x.z() <= 0 && rho <= -x.z() * tan_angle;
  Vec2 g2;
  if (d > Real(1e-300)) {
    g2 = (inside ? (closest - p) : (p - closest)) / d;
  } else {
    // on the surface: the outward normal of the closest side
    g2 = side_closer ? Vec2(cos_angle, sin_angle) : Vec2(0, -1);
  }
  return {inside ? -d : d, g2.x() * radial + g2.y() * Vec3::UnitZ()};
}

}  // namespace


const char* SdfNodeTypeName(SdfNodeType type) {
  switch (type) {
    case SdfNodeType::kNone:
      return "none";
    case SdfNodeType::kSphere:
      return "sphere";
    case SdfNodeType::kBox:
      return "box";
    case SdfNodeType::kRoundedBox:
      return "rounded box";
    case SdfNodeType::kCapsule:
      return "capsule";
    case SdfNodeType::kCylinder:
      return "cylinder";
    case SdfNodeType::kCone:
      return "cone";
    case SdfNodeType::kTorus:
      return "torus";
    case SdfNodeType::kHalfSpace:
      return "half-space";
    case SdfNodeType::kUnion:
      return "union";
    case SdfNodeType::kIntersection:
      return "intersection";
    case SdfNodeType::kDifference:
      return "difference";
    case SdfNodeType::kSmoothUnion:
      return "smooth union";
  }
  return "unknown";
}


SdfSample SamplePrimitive(const SdfNode& node, const Vec3& x) {
  const auto& k = node.params;
  switch (node.type) {
    case SdfNodeType::kSphere: {
      const Real r = x.norm();
      return {r - k[0], r > Real(1e-300) ? Vec3(x / r) : Vec3::UnitZ()};
    }
    case SdfNodeType::kBox:
      return BoxDistance(x, Vec3(k[0], k[1], k[2]));
    case SdfNodeType::kRoundedBox: {
      // Minkowski sum of the inner box with a ball: exact inside too (convex inner box)
      SdfSample s = BoxDistance(x, Vec3(k[0] - k[3], k[1] - k[3], k[2] - k[3]));
      s.distance -= k[3];
      return s;
    }
    case SdfNodeType::kCapsule: {
      const Vec3 axis_point(0, 0, std::clamp(x.z(), -k[1], k[1]));
      const Vec3 offset = x - axis_point;
      const Real r = offset.norm();
      if (r > Real(1e-300)) return {r - k[0], offset / r};
      return {-k[0], Vec3::UnitX()};
    }
    case SdfNodeType::kCylinder: {
      Real rho = 0;
      const Vec3 radial = RadialUnit(x, &rho);
      const Real dr = rho - k[0];
      const Real dz = std::abs(x.z()) - k[1];
      const Vec3 axial = SignOf(x.z()) * Vec3::UnitZ();
      if (dr > 0 || dz > 0) {
        // outside: distance to the side, the cap or the rim circle
        const Real a = std::max(dr, Real(0)), b = std::max(dz, Real(0));
        const Real d = std::hypot(a, b);
        return {d, (a * radial + b * axial) / d};
      }
      // inside: the nearer of side and cap
      return dr > dz ? SdfSample{dr, radial} : SdfSample{dz, axial};
    }
    case SdfNodeType::kCone:
      return ConeDistance(x, k[1], k[2], k[3]);
    case SdfNodeType::kTorus: {
      Real rho = 0;
      const Vec3 radial = RadialUnit(x, &rho);
      const Vec2 q(rho - k[0], x.z());
      const Real r = q.norm();
      if (r > Real(1e-300)) return {r - k[1], (q.x() * radial + q.y() * Vec3::UnitZ()) / r};
      return {-k[1], radial};
    }
    case SdfNodeType::kHalfSpace:
      return {x.z(), Vec3::UnitZ()};
    default:
      return {};
  }
}


int AnalyticSdf::AddPrimitive(SdfNodeType type, const std::array<Real, 4>& params,
                              const Pose& X_FN) {
  SdfNode node;
  node.type = type;
  node.params = params;
  node.rotation = X_FN.q.normalized().toRotationMatrix();
  node.translation = X_FN.p;
  nodes_.push_back(node);
  root_ = node_count() - 1;
  return root_;
}


int AnalyticSdf::AddCombination(SdfNodeType type, int a, int b, Real k) {
  SdfNode node;
  node.type = type;
  node.child_a = a;
  node.child_b = b;
  node.params = {k, 0, 0, 0};
  nodes_.push_back(node);
  root_ = node_count() - 1;
  return root_;
}


int AnalyticSdf::AddSphere(Real radius, const Pose& X_FN) {
  return AddPrimitive(SdfNodeType::kSphere, {radius, 0, 0, 0}, X_FN);
}


int AnalyticSdf::AddBox(const Vec3& h, const Pose& X_FN) {
  return AddPrimitive(SdfNodeType::kBox, {h.x(), h.y(), h.z(), 0}, X_FN);
}


int AnalyticSdf::AddRoundedBox(const Vec3& h, Real radius, const Pose& X_FN) {
  return AddPrimitive(SdfNodeType::kRoundedBox, {h.x(), h.y(), h.z(), radius}, X_FN);
}


int AnalyticSdf::AddCapsule(Real radius, Real half_length, const Pose& X_FN) {
  return AddPrimitive(SdfNodeType::kCapsule, {radius, half_length, 0, 0}, X_FN);
}


int AnalyticSdf::AddCylinder(Real radius, Real half_height, const Pose& X_FN) {
  return AddPrimitive(SdfNodeType::kCylinder, {radius, half_height, 0, 0}, X_FN);
}


int AnalyticSdf::AddCone(Real half_angle, Real height, const Pose& X_FN) {
  return AddPrimitive(SdfNodeType::kCone,
                      {half_angle, height, std::sin(half_angle), std::cos(half_angle)}, X_FN);
}


int AnalyticSdf::AddTorus(Real major_radius, Real minor_radius, const Pose& X_FN) {
  return AddPrimitive(SdfNodeType::kTorus, {major_radius, minor_radius, 0, 0}, X_FN);
}


int AnalyticSdf::AddHalfSpace(const Pose& X_FN) {
  return AddPrimitive(SdfNodeType::kHalfSpace, {0, 0, 0, 0}, X_FN);
}


int AnalyticSdf::Union(int a, int b) { return AddCombination(SdfNodeType::kUnion, a, b, 0); }


int AnalyticSdf::Intersection(int a, int b) {
  return AddCombination(SdfNodeType::kIntersection, a, b, 0);
}


int AnalyticSdf::Difference(int a, int b) {
  return AddCombination(SdfNodeType::kDifference, a, b, 0);
}


int AnalyticSdf::SmoothUnion(int a, int b, Real k) {
  return AddCombination(SdfNodeType::kSmoothUnion, a, b, k);
}


void AnalyticSdf::SetNodePose(int node, const Pose& X_FN) {
  if (node < 0 || node >= node_count()) return;
  nodes_[node].rotation = X_FN.q.normalized().toRotationMatrix();
  nodes_[node].translation = X_FN.p;
}


std::vector<std::string> AnalyticSdf::Validate() const {
  std::vector<std::string> messages;
  const auto report = [&](int i, const std::string& what) {
    std::ostringstream os;
    os << "node " << i << " (" << SdfNodeTypeName(nodes_[i].type) << "): " << what;
    messages.push_back(os.str());
  };
  const auto list = [](const SdfNode& n, int count) {
    std::ostringstream os;
    os << "[";
    for (int j = 0; j < count; ++j) os << (j ? ", " : "") << n.params[j];
    os << "]";
    return os.str();
  };
  if (nodes_.empty()) messages.push_back("the field has no nodes");
  if (!nodes_.empty() && (root_ < 0 || root_ >= node_count())) {
    messages.push_back("root " + std::to_string(root_) + " is not a node index (expected 0.." +
                       std::to_string(node_count() - 1) + ")");
  }
  for (int i = 0; i < node_count(); ++i) {
    const SdfNode& n = nodes_[i];
    const auto& k = n.params;
    // placement must be finite for every primitive
    if (!n.rotation.allFinite() || !n.translation.allFinite()) report(i, "pose is not finite");
    switch (n.type) {
      case SdfNodeType::kNone:
        report(i, "node has no type");
        break;
      case SdfNodeType::kSphere:
      case SdfNodeType::kBox:
      case SdfNodeType::kCapsule:
      case SdfNodeType::kCylinder:
      case SdfNodeType::kTorus: {
        const int count = n.type == SdfNodeType::kSphere ? 1 : n.type == SdfNodeType::kBox ? 3 : 2;
        bool positive = true;
        for (int j = 0; j < count; ++j) positive = positive && std::isfinite(k[j]) && k[j] > 0;
        if (!positive) report(i, "sizes " + list(n, count) + " must be positive and finite");
        if (positive && n.type == SdfNodeType::kTorus && k[1] >= k[0]) {
          report(i, "minor radius " + std::to_string(k[1]) + " must be below the major radius " +
                        std::to_string(k[0]) + " (a self-intersecting torus is not a distance)");
        }
        break;
      }
      case SdfNodeType::kRoundedBox: {
        bool positive = true;
        for (int j = 0; j < 4; ++j) positive = positive && std::isfinite(k[j]) && k[j] > 0;
        if (!positive) {
          report(i, "half extents and radius " + list(n, 4) + " must be positive and finite");
        } else if (k[3] > std::min({k[0], k[1], k[2]})) {
          report(i, "rounding radius " + std::to_string(k[3]) +
                        " exceeds the smallest half extent (expected ≤ " +
                        std::to_string(std::min({k[0], k[1], k[2]})) + ")");
        }
        break;
      }
      case SdfNodeType::kCone:
        if (!(std::isfinite(k[0]) && k[0] > 0 && k[0] < std::numbers::pi / 2)) {
          report(i, "half-angle " + std::to_string(k[0]) + " rad must be in (0, π/2)");
        }
        if (!(std::isfinite(k[1]) && k[1] > 0)) {
          report(i, "height " + std::to_string(k[1]) + " must be positive and finite");
        }
        break;
      case SdfNodeType::kHalfSpace:
        break;
      case SdfNodeType::kUnion:
      case SdfNodeType::kIntersection:
      case SdfNodeType::kDifference:
      case SdfNodeType::kSmoothUnion:
        // children precede the parent: topological order, no cycles
        for (int child : {n.child_a, n.child_b}) {
          if (child < 0 || child >= i) {
            report(i, "child " + std::to_string(child) + " must be an earlier node (0.." +
                          std::to_string(i - 1) + ")");
          }
        }
        if (n.type == SdfNodeType::kSmoothUnion && !(std::isfinite(k[0]) && k[0] > 0)) {
          report(i, "blend width k = " + std::to_string(k[0]) + " must be positive and finite");
        }
        break;
    }
  }
  if (!messages.empty()) return messages;
  // depth and evaluated nodes below each node, children first (the array's order); a node
  // shared by parents is evaluated once per use, so the count may grow faster than the array
  std::vector<int> depth(nodes_.size(), 0);
  std::vector<long long> evaluated(nodes_.size(), 1);
  for (int i = 0; i < node_count(); ++i) {
    const SdfNode& n = nodes_[i];
    if (n.child_a < 0 || n.child_b < 0) continue;
    depth[i] = 1 + std::max(depth[n.child_a], depth[n.child_b]);
    evaluated[i] = std::min<long long>(1 + evaluated[n.child_a] + evaluated[n.child_b],
                                       std::numeric_limits<int>::max());
  }
  if (depth[root_] > kMaxSdfDepth) {
    report(root_, "the tree is " + std::to_string(depth[root_]) + " levels deep (at most " +
                      std::to_string(kMaxSdfDepth) + ")");
  }
  if (evaluated[root_] > kMaxSdfEvaluatedNodes) {
    report(root_, "a sample evaluates " + std::to_string(evaluated[root_]) + " nodes (at most " +
                      std::to_string(kMaxSdfEvaluatedNodes) + ")");
  }
  return messages;
}


SdfSample AnalyticSdf::SampleNode(int index, const Vec3& x_F) const {
  const SdfNode& n = nodes_[index];
  switch (n.type) {
    case SdfNodeType::kUnion:
    case SdfNodeType::kIntersection:
    case SdfNodeType::kDifference:
    case SdfNodeType::kSmoothUnion: {
      const SdfSample a = SampleNode(n.child_a, x_F);
      SdfSample b = SampleNode(n.child_b, x_F);
      switch (n.type) {
        case SdfNodeType::kUnion:
          // the gradient of a min is the gradient of the selected operand
          return a.distance <= b.distance ? a : b;
        case SdfNodeType::kIntersection:
          return a.distance >= b.distance ? a : b;
        case SdfNodeType::kDifference:
          // max(φa, −φb): the complement of b has distance −φb and gradient −∇φb
          b.distance = -b.distance;
          b.gradient = -b.gradient;
          return a.distance >= b.distance ? a : b;
        default: {
          // polynomial smooth min: h = clamp(½ + ½(φb − φa)/k), φ = h φa + (1−h) φb − k h(1−h);
          // ∂φ/∂h = 0 inside the blend, so ∇φ = h ∇φa + (1−h) ∇φb
          const Real k = n.params[0];
          const Real h =
              std::clamp(Real(0.5) + Real(0.5) * (b.distance - a.distance) / k, Real(0), Real(1));
          return {h * a.distance + (1 - h) * b.distance - k * h * (1 - h),
                  h * a.gradient + (1 - h) * b.gradient};
        }
      }
    }
    default: {
      // primitive: evaluate in the node frame, rotate the gradient back to the field frame
      const Vec3 x_N = n.rotation.transpose() * (x_F - n.translation);
      SdfSample s = SamplePrimitive(n, x_N);
      s.gradient = n.rotation * s.gradient;
      return s;
    }
  }
}

}  // namespace sim
