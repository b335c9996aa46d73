// Chapter-6 kernels (engine/collision/sdf_contact.h) against analytic minima: Macklin's thesis
// ch. 6, digest shared/docs/seeds/pd-sdf-robotics.md §2. Fig. 38 (sampling misses a cone apex
// and an edge–edge contact, optimization finds them), closed-form closest points above a sphere,
// the Fig. 48 error statistics on random segments, the deformable embedding of §2.9 and the
// contact construction of §2.8.
#include "engine/collision/sdf_contact.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "engine/geometry/analytic_sdf.h"

namespace sim {
namespace {

constexpr Real kPi = std::numbers::pi;

Quat AxisAngle(Real angle, const Vec3& axis) {
  return Quat(Eigen::AngleAxisd(angle, axis.normalized()));
}

// n × n cells over [x0, x0 + size] × [y0, y0 + size] at height z, 2 triangles per cell
TriangleMesh MakeGrid(int n, Real size, Real x0, Real y0, Real z) {
  TriangleMesh mesh;
  for (int j = 0; j <= n; ++j) {
    for (int i = 0; i <= n; ++i)
      mesh.vertices.emplace_back(x0 + size * i / n, y0 + size * j / n, z);
  }
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      const int a = j * (n + 1) + i, b = a + 1, c = a + n + 1, d = c + 1;
      mesh.triangles.push_back({a, b, d});
      mesh.triangles.push_back({a, d, c});
    }
  }
  return mesh;
}

// axis-aligned box of half extent h centred at the origin: 8 vertices, 12 triangles
TriangleMesh MakeBoxMesh(Real h) {
  TriangleMesh mesh;
  for (int k = 0; k < 8; ++k) {
    mesh.vertices.emplace_back((k & 1) ? h : -h, (k & 2) ? h : -h, (k & 4) ? h : -h);
  }
  mesh.triangles = {{0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}, {0, 1, 5}, {0, 5, 4},
                    {2, 6, 7}, {2, 7, 3}, {0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}};
  return mesh;
}

// closest point of triangle (a, b, c) to p, by enumerating the 7 Voronoi candidates
Vec3 ClosestPointOnTriangleBruteForce(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  std::vector<Vec3> candidates = {a, b, c};
  for (const auto& [s, t] : {std::pair{a, b}, std::pair{b, c}, std::pair{c, a}}) {
    const Real u = std::clamp((p - s).dot(t - s) / (t - s).squaredNorm(), 0.0, 1.0);
    candidates.push_back(s + u * (t - s));
  }
  // interior: plane projection, kept if its barycentrics are all non-negative
  const Vec3 n = (b - a).cross(c - a);
  const Vec3 x = p - n * (p - a).dot(n) / n.squaredNorm();
  const Real area = n.norm();
  const Real wa = (b - x).cross(c - x).dot(n) / (area * area);
  const Real wb = (c - x).cross(a - x).dot(n) / (area * area);
  if (wa >= 0 && wb >= 0 && 1 - wa - wb >= 0) candidates.push_back(x);
  return *std::min_element(candidates.begin(), candidates.end(), [&](const Vec3& l, const Vec3& r) {
    return (l - p).squaredNorm() < (r - p).squaredNorm();
  });
}

TEST(SdfContactTest, SimplexProjectionMatchesBruteForceClosestPoint) {
  // reference: closest point of the triangle e1, e2, e3 to y by Voronoi enumeration (exact)
  std::mt19937 rng(11);
  std::uniform_real_distribution<Real> coord(-2.0, 2.0);
  for (int i = 0; i < 10000; ++i) {
    const Vec3 y(coord(rng), coord(rng), coord(rng));
    const Vec3 c = ProjectToSimplex(y);
    const Vec3 reference =
        ClosestPointOnTriangleBruteForce(y, Vec3::UnitX(), Vec3::UnitY(), Vec3::UnitZ());
    // 1e-12: both are O(1) closed forms in double precision
    ASSERT_LT((c - reference).norm(), 1e-12) << y.transpose();
    ASSERT_NEAR(c.sum(), 1.0, 1e-14);
    ASSERT_GE(c.minCoeff(), 0.0);
  }
}

TEST(SdfContactTest, ClassifyBarycentricVertexEdgeFace) {
  EXPECT_EQ(ClassifyBarycentric(Vec3(1, 0, 0), 1e-6).kind, TriangleFeatureKind::kVertex);
  EXPECT_EQ(ClassifyBarycentric(Vec3(1e-9, 1 - 2e-9, 1e-9), 1e-6).index, 1);
  // w ≈ 0: on the edge joining p and q, local edge 0
  const TriangleFeature e = ClassifyBarycentric(Vec3(0.4, 0.6, 1e-8), 1e-6);
  EXPECT_EQ(e.kind, TriangleFeatureKind::kEdge);
  EXPECT_EQ(e.index, 0);
  EXPECT_EQ(ClassifyBarycentric(Vec3(0, 0.5, 0.5), 1e-6).index, 1);  // q–r
  EXPECT_EQ(ClassifyBarycentric(Vec3(0.5, 0, 0.5), 1e-6).index, 2);  // r–p
  EXPECT_EQ(ClassifyBarycentric(Vec3(0.3, 0.3, 0.4), 1e-6).kind, TriangleFeatureKind::kFace);
}

// ---------------------------------------------------------------------------------------------
// Analytic minima above a sphere: φ(x) = |x − c| − R, so the minimum of φ over an element is at
// the element's closest point to the centre c (φ is increasing in |x − c|).

TEST(SdfContactTest, FaceAndEdgeMinimaAboveASphereAreTheClosestPoints) {
  AnalyticSdf sphere;
  sphere.AddSphere(0.5);
  ASSERT_TRUE(sphere.Validate().empty());
  struct Case {
    const char* name;
    Vec3 p, q, r;
  };
  const Case cases[] = {
      // interior minimum: the foot (0, 0, 0.6) lies inside the triangle
      {"interior", Vec3(-0.4, -0.3, 0.6), Vec3(0.5, -0.2, 0.6), Vec3(0.1, 0.7, 0.6)},
      // edge minimum: the foot is outside, the closest point is on edge p–q
      {"edge", Vec3(-0.5, 0.2, 0.55), Vec3(0.6, 0.1, 0.65), Vec3(0.2, 0.9, 0.6)},
      // vertex minimum: p is the closest point
      {"vertex", Vec3(0.3, 0.3, 0.6), Vec3(1.0, 0.4, 0.7), Vec3(0.5, 1.1, 0.6)},
      // penetrating: the triangle cuts 5 cm into the sphere
      {"penetrating", Vec3(-0.4, -0.3, 0.45), Vec3(0.5, -0.2, 0.45), Vec3(0.1, 0.7, 0.45)},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const Vec3 exact = ClosestPointOnTriangleBruteForce(Vec3::Zero(), c.p, c.q, c.r);
    const Real exact_phi = exact.norm() - 0.5;
    const FaceResult pgd = MinimizeFacePgd(c.p, c.q, c.r, sphere);
    const FaceResult fw = MinimizeFaceFrankWolfe(c.p, c.q, c.r, sphere);
    std::printf(
        "[sphere %-11s] exact φ %.9f  PGD err %.2e (|x| %.2e, it %d)  FW err %.2e "
        "(|x| %.2e, it %d)\n",
        c.name, exact_phi, pgd.distance - exact_phi, (pgd.point - exact).norm(), pgd.iterations,
        fw.distance - exact_phi, (fw.point - exact).norm(), fw.iterations);
    // PGD (α = 1/L, backtracking): linear convergence, the world step ≈ α·L/2·∇φ against a
    // curvature κ ≈ 1/|x − c| ≈ 1.7 m⁻¹ contracts the error by ≈ 0.2 per iteration → 1e-15 m
    // observed after ≤ 20 iterations; 1e-12 m on φ (double rounding), and the position, whose
    // error enters φ quadratically at a smooth minimum, within 1e-6 m
    EXPECT_NEAR(pgd.distance, exact_phi, 1e-12);
    EXPECT_LT((pgd.point - exact).norm(), 1e-6);
    // Frank–Wolfe with γ = 2/(i+2): f − f* ≤ 2 C_f/(k+2) (Jaggi 2013), C_f ≤ diam²·κ ≈ 3 here →
    // a 0.2 m worst-case bound that is far from tight; the observed error is ~1e-4 m, assert
    // 2e-3 m (≈ 1/(k+2)² · diam · 2, i.e. the accelerated rate FW shows on a strongly convex
    // objective with the optimum in the interior or on a face of the feasible set)
    EXPECT_NEAR(fw.distance, exact_phi, 2e-3);
    EXPECT_GE(fw.distance, exact_phi - 1e-12);  // never below the true minimum
    // all three edges by GSS: the best equals the closest point of the triangle's boundary
    Real best_edge = std::numeric_limits<Real>::infinity();
    Vec3 best_point = Vec3::Zero();
    for (const auto& [a, b] : {std::pair{c.p, c.q}, std::pair{c.q, c.r}, std::pair{c.r, c.p}}) {
      const EdgeResult e = MinimizeEdgeGoldenSection(a, b, sphere, 32);
      if (e.distance < best_edge) best_edge = e.distance, best_point = e.point;
    }
    if (std::string(c.name) == "edge" || std::string(c.name) == "vertex") {
      // 32 GSS steps bracket u within 0.618³² ≈ 2·10⁻⁷ (≈ 2.3e-7 m on these ≤ 1.15 m edges);
      // φ is smooth at the minimum, so the value error is quadratic in it
      EXPECT_LT((best_point - exact).norm(), 2.5e-7);
      EXPECT_NEAR(best_edge, exact_phi, 1e-12);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Fig. 38 left: a cone apex pushed 5 mm up through the middle of a coarse flat patch. Every
// vertex is far outside, so vertex sampling sees no contact; the face optimizers find the apex.
// Analytic value: a point δ below the apex on the axis of a cone of half-angle θ is δ·sin θ from
// the slanted side (the closest surface), and that is the minimum of φ over the patch's plane.

constexpr Real kConeHalfAngle = kPi / 4;
constexpr Real kConeDepth = 0.005;  // apex 5 mm above the patch

AnalyticSdf MakeCone() {
  AnalyticSdf cone;
  cone.AddCone(kConeHalfAngle, 0.5);  // apex at the origin, pointing up (+z)
  return cone;
}

TEST(SdfContactTest, Fig38ConeApexThroughTwoCoarseTrianglesMissedBySamplingFoundByOptimization) {
  const AnalyticSdf cone = MakeCone();
  ASSERT_TRUE(cone.Validate().empty());
  const Real expected_phi = -kConeDepth * std::sin(kConeHalfAngle);  // −3.54 mm
  // 1 m square patch whose diagonal avoids the apex; the apex is inside triangle (p, q, r)
  const Vec3 p(-0.4, -0.3, -kConeDepth), q(0.6, -0.3, -kConeDepth), r(0.6, 0.7, -kConeDepth);
  const Vec3 s(-0.4, 0.7, -kConeDepth);
  // sampling: every vertex is outside (the nearest is 0.5 m from the apex)
  for (const Vec3& v : {p, q, r, s}) EXPECT_GT(SampleVertex(v, cone).distance, 0.1);
  const FaceResult pgd = MinimizeFacePgd(p, q, r, cone);
  const FaceResult fw = MinimizeFaceFrankWolfe(p, q, r, cone);
  std::printf("[cone 1 m] expected φ %.6f  PGD φ %.6f at (%.2e, %.2e)  FW φ %.6f at (%.2e, %.2e)\n",
              expected_phi, pgd.distance, pgd.point.x(), pgd.point.y(), fw.distance, fw.point.x(),
              fw.point.y());
  // PGD with backtracking halves its step at each overshoot of the kink at the apex: after 32
  // iterations the iterate is within 1e-6 m of the axis (observed 1e-8 m); φ rises by at most
  // |x_xy|·cos θ from the axis value
  EXPECT_NEAR(pgd.distance, expected_phi, 1e-6);
  EXPECT_LT(pgd.point.head<2>().norm(), 1e-6);
  // Frank–Wolfe converges O(1/k) in position on this non-smooth minimum (its iterates zig-zag
  // around the apex with amplitude ~ γ_k·L): on 1 m triangles it must detect the penetration
  // (φ < 0, i.e. land inside the 5 mm-wide cross-section of the tip) but not resolve its depth
  EXPECT_LT(fw.distance, 0.0);
}

TEST(SdfContactTest, Fig38ConeApexThroughClothGridBatchDriver) {
  const AnalyticSdf cone = MakeCone();
  const Real expected_phi = -kConeDepth * std::sin(kConeHalfAngle);
  // 4×4 grid of a 1 m cloth patch: 25 cm cells, the apex at (0.1, 0.1) of its cell's corner,
  // so the nearest vertex is 14 cm from the apex; the patch is placed in world by X_WM and the
  // cone by X_WF (both non-trivial: the driver must express the mesh in the field frame)
  const TriangleMesh cloth = MakeGrid(4, 1.0, -0.6, -0.35, 0);
  Pose X_WF;
  X_WF.p = Vec3(1, 2, 3);
  X_WF.q = AxisAngle(0.3, Vec3(1, 1, 0));
  Pose X_FM;
  X_FM.p = Vec3(0, 0, -kConeDepth);
  const Pose X_WM = X_WF * X_FM;
  const std::vector<std::array<int, 2>> no_edges;
  Real sampled_min = std::numeric_limits<Real>::infinity();
  for (const Vec3& v : cloth.vertices) {
    sampled_min = std::min(sampled_min, cone.Distance(X_FM * v));
  }
  EXPECT_GT(sampled_min, 0.05);
  for (const FaceMethod method :
       {FaceMethod::kVertices, FaceMethod::kPgd, FaceMethod::kFrankWolfe}) {
    SdfCollideSettings settings;
    settings.face_method = method;
    settings.margin = 0;  // contacts only for penetration
    std::vector<SdfMeshContact> contacts;
    const SdfCollideStats stats =
        CollideMeshSdf(cloth, X_WM, cone, X_WF, settings, no_edges, &contacts);
    if (method == FaceMethod::kVertices) {
      // sampling misses the apex entirely
      EXPECT_EQ(stats.contacts, 0);
      continue;
    }
    ASSERT_GE(stats.contacts, 1) << static_cast<int>(method);
    const auto deepest = std::min_element(contacts.begin(), contacts.end(),
                                          [](auto& a, auto& b) { return a.distance < b.distance; });
    std::printf("[cone grid method %d] culled %d/%d contacts %d deepest φ %.6f\n",
                static_cast<int>(method), stats.culled, stats.elements, stats.contacts,
                deepest->distance);
    // 25 cm cells: PGD as above (1e-6 m); FW's O(γ_k L) zig-zag is 4× smaller than on the 1 m
    // patch and lands within 0.5 mm of the analytic depth
    EXPECT_NEAR(deepest->distance, expected_phi, method == FaceMethod::kPgd ? 1e-6 : 5e-4);
    // §2.8: the SDF point is on the cone surface and x* − y = φ n (world frame)
    const Vec3 y_F = X_WF.Inverse() * deepest->point_sdf_W;
    EXPECT_NEAR(cone.Distance(y_F), 0.0, 1e-12);
    EXPECT_LT((deepest->point_mesh_W - deepest->point_sdf_W - deepest->distance * deepest->normal_W)
                  .norm(),
              1e-12);
    // culling (§2.5) removes the far triangles of the grid but never the penetrated one
    EXPECT_GT(stats.culled, 0);
  }
}

// ---------------------------------------------------------------------------------------------
// Fig. 38 right: box on box, edge on edge. The analytic box is rotated 45° about x, so its top is
// an edge along x; the mesh box is rotated 45° about y (in the field frame: about two axes), so
// its bottom is an edge along y. The edges cross at one point. With the mesh edge a vertical
// distance d below the field's top edge, the crossing point is d/√2 from both top faces, so
// φ* = −d/√2; choose d = 2√2 mm for φ* = −2 mm.

TEST(SdfContactTest, Fig38BoxOnBoxEdgeEdgeMissedBySamplingFoundByGss) {
  constexpr Real kHalf = 0.5;
  const Real expected_phi = -0.002;
  const Real overlap = 0.002 * std::sqrt(2.0);
  AnalyticSdf box;
  box.AddBox(Vec3::Constant(kHalf));
  Pose X_WF;
  X_WF.q = AxisAngle(kPi / 4, Vec3::UnitX());
  const Real top = kHalf * std::sqrt(2.0);  // height of the field box's top edge
  Pose X_WM;
  X_WM.q = AxisAngle(kPi / 4, Vec3::UnitY());
  X_WM.p = Vec3(0, 0, top + top - overlap);  // mesh bottom edge at top − overlap
  const TriangleMesh mesh = MakeBoxMesh(kHalf);
  const std::vector<std::array<int, 2>> edges = CollectUniqueEdges(mesh);
  ASSERT_EQ(edges.size(), 18u);  // 12 box edges + 6 face diagonals
  // vertices: all outside
  SdfCollideSettings settings;
  settings.face_method = FaceMethod::kVertices;
  std::vector<SdfMeshContact> contacts;
  EXPECT_EQ(CollideMeshSdf(mesh, X_WM, box, X_WF, settings, edges, &contacts).contacts, 0);
  // vertices + GSS over the edges (§2.9's recommendation for coarse rigid meshes)
  settings.edges_gss = true;
  const SdfCollideStats stats = CollideMeshSdf(mesh, X_WM, box, X_WF, settings, edges, &contacts);
  ASSERT_EQ(stats.contacts, 1);  // only the bottom edge penetrates
  const SdfMeshContact& c = contacts.front();
  EXPECT_EQ(c.kind, SdfElementKind::kEdge);
  // φ along the bottom edge is a V with slopes ±1/√2 (unimodal); 32 GSS steps bracket the kink
  // within 2·10⁻⁷ of the 1 m edge → |Δφ| ≤ 1.5e-7 m
  EXPECT_NEAR(c.distance, expected_phi, 2e-7);
  EXPECT_LT((c.point_mesh_W - Vec3(0, 0, top - overlap)).norm(), 3e-7);
  // the field normal at the crossing: the field box's top faces meet at the edge; either face
  // normal (±y tilted 45°, up) is a valid subgradient, its z component is 1/√2
  EXPECT_NEAR(c.normal_W.z(), std::sqrt(0.5), 1e-12);

  // the face optimizers over the two bottom faces converge to a point on the shared edge
  for (const FaceMethod method : {FaceMethod::kPgd, FaceMethod::kFrankWolfe}) {
    SdfCollideSettings face_settings;
    face_settings.face_method = method;
    std::vector<SdfMeshContact> face_contacts;
    CollideMeshSdf(mesh, X_WM, box, X_WF, face_settings, edges, &face_contacts);
    SdfMeshContact none;
    none.distance = std::numeric_limits<Real>::infinity();
    const SdfMeshContact* deepest = &none;
    for (const SdfMeshContact& c : face_contacts) {
      if (c.distance < deepest->distance) deepest = &c;
    }
    const TriangleFeature feature = ClassifyBarycentric(deepest->barycentric, 1e-6);
    std::printf(
        "[box-box method %d] contacts %zu deepest φ %.7f feature %d bary %s\n",
        static_cast<int>(method), face_contacts.size(), deepest->distance,
        static_cast<int>(feature.kind),
        (std::to_string(deepest->barycentric.x()) + "," + std::to_string(deepest->barycentric.y()) +
         "," + std::to_string(deepest->barycentric.z()))
            .c_str());
    if (method == FaceMethod::kPgd) {
      // PGD halves its step at the kink and ends on the shared edge (barycentric weight 0) at
      // the crossing: φ* within 1e-9 m (observed exact to double rounding)
      ASSERT_FALSE(face_contacts.empty());
      EXPECT_EQ(feature.kind, TriangleFeatureKind::kEdge);
      EXPECT_NEAR(deepest->distance, expected_phi, 1e-9);
      EXPECT_LT((deepest->point_mesh_W - Vec3(0, 0, top - overlap)).norm(), 1e-6);
    } else {
      // Frank–Wolfe zig-zags around the kink with amplitude ~γ_k·L (≈ 6 cm after 32 steps on
      // these 1 m faces) and misses a 2 mm edge–edge overlap: the thesis's stated limitation
      // for coarse rigid meshes (§2.9, §2.13: use vertices + edge GSS). Whatever it reports
      // can never be deeper than the true minimum.
      for (const SdfMeshContact& c : face_contacts) EXPECT_GE(c.distance, expected_phi - 1e-12);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Fig. 48 analogue: 1000 random segments against a non-convex analytic field (a horseshoe: a
// torus with a box cut out), relative forward error of φ(x*) vs a brute-force reference, by
// method, 32 iterations. The error is normalized by the segment length L (φ* itself can be 0).

struct Stats {
  Real median, q1, q3;
};

Stats Quartiles(std::vector<Real> v) {
  std::sort(v.begin(), v.end());
  const auto at = [&](Real f) { return v[static_cast<size_t>(f * (v.size() - 1))]; };
  return {at(0.5), at(0.25), at(0.75)};
}

TEST(SdfContactTest, Fig48RandomSegmentsErrorStatisticsPerMethod) {
  AnalyticSdf horseshoe;
  const int torus = horseshoe.AddTorus(0.5, 0.15);
  const int cut = horseshoe.AddBox(Vec3(0.35, 0.8, 0.4), {Vec3(0.65, 0, 0), Quat::Identity()});
  horseshoe.Difference(torus, cut);
  ASSERT_TRUE(horseshoe.Validate().empty());

  std::mt19937 rng(48);
  std::uniform_real_distribution<Real> mid_xy(-0.8, 0.8), mid_z(-0.25, 0.25), len(0.1, 1.0);
  std::normal_distribution<Real> dir(0, 1);
  std::vector<Real> err_gss, err_pgd, err_pgd_fixed, err_fw;
  SdfOptimizerSettings fixed;
  fixed.pgd_backtrack = false;  // eq. (141) verbatim, with the digest's fixed step α = 0.25
  fixed.pgd_step = 0.25;
  int interior = 0, drawn = 0;
  while (interior < 1000) {
    ++drawn;
    const Vec3 mid(mid_xy(rng), mid_xy(rng), mid_z(rng));
    const Vec3 d = Vec3(dir(rng), dir(rng), dir(rng)).normalized();
    const Real length = len(rng);
    const Vec3 p = mid - d * length / 2, q = mid + d * length / 2;
    // reference: dense sampling (4097 points) and a 200-step golden-section polish of the best
    // bracket [u_{i−1}, u_{i+1}] — exact to ~1e-15 on a locally unimodal bracket
    constexpr int kSamples = 4096;
    int best = 0;
    Real best_phi = std::numeric_limits<Real>::infinity();
    for (int k = 0; k <= kSamples; ++k) {
      const Real u = Real(k) / kSamples;
      const Real phi = horseshoe.Distance(u * p + (1 - u) * q);
      if (phi < best_phi) best_phi = phi, best = k;
    }
    // keep only problems whose minimum is inside the segment: an endpoint minimum (monotone φ,
    // most segments far from the shape) is found exactly by every method and says nothing
    if (best == 0 || best == kSamples) continue;
    ++interior;
    const Real ua = Real(std::max(best - 1, 0)) / kSamples;
    const Real ub = Real(std::min(best + 1, kSamples)) / kSamples;
    const Vec3 pa = ub * p + (1 - ub) * q, pb = ua * p + (1 - ua) * q;  // sub-segment, u ∈ [ua, ub]
    const Real reference =
        std::min(best_phi, MinimizeEdgeGoldenSection(pa, pb, horseshoe, 200).distance);
    // methods: GSS on the edge; PGD and FW on the degenerate triangle (p, q, q), whose
    // barycentric simplex maps onto the segment
    err_gss.push_back((MinimizeEdgeGoldenSection(p, q, horseshoe).distance - reference) / length);
    err_pgd.push_back((MinimizeFacePgd(p, q, q, horseshoe).distance - reference) / length);
    err_pgd_fixed.push_back((MinimizeFacePgd(p, q, q, horseshoe, fixed).distance - reference) /
                            length);
    err_fw.push_back((MinimizeFaceFrankWolfe(p, q, q, horseshoe).distance - reference) / length);
  }
  const Stats gss = Quartiles(err_gss), pgd = Quartiles(err_pgd),
              pgd_fixed = Quartiles(err_pgd_fixed), fw = Quartiles(err_fw);
  std::printf(
      "Fig. 48 analogue, 1000 segments with an interior minimum (%d drawn), 32 iterations, "
      "|φ − φ_ref| / L:\n",
      drawn);
  std::printf("  %-22s median %.2e  IQR [%.2e, %.2e]\n", "GSS", gss.median, gss.q1, gss.q3);
  std::printf("  %-22s median %.2e  IQR [%.2e, %.2e]\n", "PGD (backtracking)", pgd.median, pgd.q1,
              pgd.q3);
  std::printf("  %-22s median %.2e  IQR [%.2e, %.2e]\n", "PGD (fixed α, eq. 141)", pgd_fixed.median,
              pgd_fixed.q1, pgd_fixed.q3);
  std::printf("  %-22s median %.2e  IQR [%.2e, %.2e]\n", "Frank-Wolfe", fw.median, fw.q1, fw.q3);
  // GSS: the bracket after 32 steps is 2·10⁻⁷ L and |∇φ| = 1, so a unimodal segment errs by
  // < 2·10⁻⁷; the median segment is unimodal
  EXPECT_LT(gss.median, 1e-6);
  // PGD (backtracking) converges linearly on smooth minima and by step halving at kinks: the
  // observed median is at double rounding (≈7e-15), 1e-9 catches a loss of linear convergence.
  // FW converges at O(1/k) (observed median 4.4e-6 after 32 steps): 5e-5 ≈ 10× observed, which
  // a solver that lost its O(1/k) rate (e.g. stuck at the start vertex, error ~1e-2) exceeds
  EXPECT_LT(pgd.median, 1e-9);
  EXPECT_LT(fw.median, 5e-5);
  // ordering reported by the thesis: GSS has the tightest spread
  EXPECT_LE(gss.q3, fw.q3);
}

// ---------------------------------------------------------------------------------------------
// Deformable embedding (§2.9, eq. 148–153).

// a tet enclosing the region of interest, material space
const std::array<Vec3, 4> kRestTet = {Vec3(-2, -2, -2), Vec3(4, -2, -2), Vec3(-2, 4, -2),
                                      Vec3(-2, -2, 4)};

TEST(SdfContactTest, EmbeddingIdentityDeformationMatchesThePlainField) {
  AnalyticSdf sphere;
  sphere.AddSphere(0.5);
  const EmbeddedField<AnalyticSdf> embedded(sphere, kRestTet, kRestTet);
  ASSERT_TRUE(embedded.ok());
  const Vec3 p(-0.4, -0.3, 0.45), q(0.5, -0.2, 0.45), r(0.1, 0.7, 0.45);
  const FaceResult plain = MinimizeFacePgd(p, q, r, sphere);
  const FaceResult deformed = MinimizeFacePgd(p, q, r, embedded);
  // G = I up to the rounding of Dm Ds⁻¹ (≈1e-16 relative)
  EXPECT_NEAR(deformed.distance, plain.distance, 1e-12);
  EXPECT_LT((deformed.point - plain.point).norm(), 1e-9);
  SdfContactPoint a, b;
  ASSERT_TRUE(MakeSdfContact(sphere, plain.point, {plain.distance, plain.gradient}, 0, &a));
  ASSERT_TRUE(
      MakeSdfContact(embedded, deformed.point, {deformed.distance, deformed.gradient}, 0, &b));
  EXPECT_LT((a.surface_point - b.surface_point).norm(), 1e-9);
  EXPECT_LT((a.normal - b.normal).norm(), 1e-9);
}

TEST(SdfContactTest, EmbeddingStretchedTetMapsTheSurface) {
  // world = diag(2, 1, 1) · material: the material sphere of radius 0.5 becomes the ellipsoid
  // with semi-axes (1, 0.5, 0.5); the tip is at (1, 0, 0), the top at (0, 0, 0.5)
  AnalyticSdf sphere;
  sphere.AddSphere(0.5);
  std::array<Vec3, 4> deformed;
  for (int k = 0; k < 4; ++k)
    deformed[k] = Vec3(2 * kRestTet[k].x(), kRestTet[k].y(), kRestTet[k].z());
  const EmbeddedField<AnalyticSdf> embedded(sphere, kRestTet, deformed);
  ASSERT_TRUE(embedded.ok());
  // a triangle ⟂ x cutting 1 cm into the tip: minimum at (0.99, 0, 0), material φ = −0.005
  {
    const Vec3 p(0.99, -0.3, -0.2), q(0.99, 0.3, -0.2), r(0.99, 0.0, 0.4);
    const FaceResult f = MinimizeFacePgd(p, q, r, embedded);
    EXPECT_NEAR(f.distance, -0.005, 1e-9);  // φ_d = φ_m(g(x)): material units
    SdfContactPoint c;
    ASSERT_TRUE(MakeSdfContact(embedded, f.point, {f.distance, f.gradient}, 0, &c));
    // projection in material space then back through F: exactly the ellipsoid tip
    EXPECT_LT((c.surface_point - Vec3(1, 0, 0)).norm(), 1e-6);
    EXPECT_LT((c.normal - Vec3::UnitX()).norm(), 1e-6);
  }
  // a triangle ⟂ z cutting 1 cm into the top: minimum at (0, 0, 0.49), surface point (0, 0, 0.5)
  {
    const Vec3 p(-0.6, -0.3, 0.49), q(0.6, -0.3, 0.49), r(0.0, 0.4, 0.49);
    const FaceResult f = MinimizeFacePgd(p, q, r, embedded);
    EXPECT_NEAR(f.distance, -0.01, 1e-9);
    SdfContactPoint c;
    ASSERT_TRUE(MakeSdfContact(embedded, f.point, {f.distance, f.gradient}, 0, &c));
    EXPECT_LT((c.surface_point - Vec3(0, 0, 0.5)).norm(), 1e-6);
  }
  // every surface point maps onto the ellipsoid x²/1 + (y² + z²)/0.25 = 1
  std::mt19937 rng(5);
  std::uniform_real_distribution<Real> coord(-1.5, 1.5);
  for (int i = 0; i < 100; ++i) {
    const Vec3 y = embedded.SurfacePoint(Vec3(coord(rng), coord(rng), coord(rng)));
    EXPECT_NEAR(y.x() * y.x() + (y.y() * y.y() + y.z() * y.z()) / 0.25, 1.0, 1e-12);
  }
}

TEST(SdfContactTest, EmbeddingReportsInvertedAndFlatTetsWithoutNaN) {
  AnalyticSdf sphere;
  sphere.AddSphere(0.5);
  // swapping two deformed vertices flips the orientation
  std::array<Vec3, 4> inverted = kRestTet;
  std::swap(inverted[1], inverted[2]);
  const EmbeddedField<AnalyticSdf> a(sphere, kRestTet, inverted);
  EXPECT_EQ(a.status(), EmbeddingStatus::kInverted);
  // all four deformed vertices in one plane: Ds singular
  std::array<Vec3, 4> flat = kRestTet;
  flat[3] = Vec3(1, 1, -2);
  const EmbeddedField<AnalyticSdf> b(sphere, kRestTet, flat);
  EXPECT_EQ(b.status(), EmbeddingStatus::kIllConditioned);
  // a collapsed rest tet
  std::array<Vec3, 4> collapsed = kRestTet;
  collapsed[2] = collapsed[1];
  const EmbeddedField<AnalyticSdf> c(sphere, collapsed, kRestTet);
  EXPECT_EQ(c.status(), EmbeddingStatus::kDegenerateRest);
  // whatever the status, sampling stays finite (the caller skips non-ok tets)
  for (const auto* field : {&a, &b, &c}) {
    const SdfSample s = field->Sample(Vec3(0.1, 0.2, 0.3));
    EXPECT_TRUE(std::isfinite(s.distance) && s.gradient.allFinite());
    EXPECT_TRUE(field->SurfacePoint(Vec3(0.1, 0.2, 0.3)).allFinite());
  }
}

// §2.8 contact construction and the margin δ
TEST(SdfContactTest, ContactIffDistanceBelowMargin) {
  AnalyticSdf sphere;
  sphere.AddSphere(0.5);
  SdfContactPoint c;
  const Vec3 x(0, 0.75, 0);
  const SdfSample s = sphere.Sample(x);
  EXPECT_FALSE(MakeSdfContact(sphere, x, s, 0.25, &c));  // φ = 0.25 (exact) is not < δ = 0.25
  ASSERT_TRUE(MakeSdfContact(sphere, x, s, 0.25 + 1e-9, &c));
  EXPECT_LT((c.surface_point - Vec3(0, 0.5, 0)).norm(), 1e-15);
  EXPECT_LT((c.normal - Vec3::UnitY()).norm(), 1e-15);
}

}  // namespace
}  // namespace sim
