// Painting structure fields against the contact stage (engine/edit/structure_paint.h,
// engine/step/contact_material.h): a ray hit locates the field coordinates and axis that a
// contact at that point samples, on a plane, a rotated box, a mesh with UVs and a deformed soft
// body; a comb stroke's axis is the one the contact stage lifts onto the stroke's direction, also
// under a projection tilted against the surface; an erased patch gives isotropic cones at the
// next AssignContactMaterials; a procedural field baked for painting reproduces its formula.
#include "engine/edit/structure_paint.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <numbers>

#include "engine/collision/collision.h"
#include "engine/geometry/collision_mesh.h"
#include "engine/step/contact_material.h"
#include "tests/support/model_builder.h"

namespace sim {
namespace {

using test_support::AddBody;
using test_support::AddWorldShape;
using test_support::MakeEmptyModel;

constexpr Real kPi = std::numbers::pi;

// a procedural field of `kind` centred at `center`, projected by `projection`
std::shared_ptr<StructureField> Procedural(StructureFieldKind kind, const Vec2& center,
                                           FieldProjection projection) {
  auto field = std::make_shared<StructureField>();
  field->kind = kind;
  field->procedural.center = center;
  field->projection.kind = projection;
  return field;
}

Quat Turn(Real angle, const Vec3& axis) {
  return Quat(Eigen::AngleAxis<Real>(angle, axis.normalized()));
}

// the world axis at `spot` as the contact stage lifts it: the sample through T_u, T_v
Vec3 SpotAxis(const Model& model, const PaintSpot& spot) {
  const StructureSample s = model.structure_fields[spot.field]->Sample(spot.uv);
  return s.direction.x() * spot.tangent_u_W + s.direction.y() * spot.tangent_v_W;
}

// a contact whose side B lies where `hit` is, with B's outward normal as the contact normal
Contact ContactAt(const Model& model, const State& state, const RayHit& hit, const Vec3& normal) {
  Contact contact;
  contact.normal_W = normal;
  ContactSide& b = contact.b;
  if (hit.soft_body >= 0) {
    const SoftBody& soft = model.soft_bodies[hit.soft_body];
    b.particles = soft.surface[hit.triangle];
    b.weights = hit.barycentric;
    b.soft_body = hit.soft_body;
    return contact;
  }
  b.shape = hit.shape;
  b.body = model.shape_body[hit.shape];
  b.p_B = b.body == kWorldBody ? hit.point : state.body_X_WB[b.body].Inverse() * hit.point;
  const ShapeGeometry& geometry = model.shape_geometry[hit.shape];
  if (hit.triangle >= 0 && geometry.mesh && geometry.mesh->surface.has_uvs()) {
    // a face contact carries the UVs of its point, as the mesh collision gives them
    const TriangleMesh& surface = geometry.mesh->surface;
    b.feature_kind = FeatureKind::kFace;
    b.feature_index = hit.triangle;
    b.barycentric = hit.barycentric;
    for (int k = 0; k < 3; ++k) {
      b.uv += hit.barycentric(k) * surface.uvs[surface.triangles[hit.triangle][k]];
    }
    b.has_uv = true;
  }
  return contact;
}

// the unit square z = 0 as two triangles, its UVs twice its coordinates (UV area 4·A: k = 2)
ShapeGeometry UvSquare() {
  TriangleMesh square;
  square.vertices = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 1, 0), Vec3(0, 1, 0)};
  square.triangles = {{0, 1, 2}, {0, 2, 3}};
  square.uvs = {Vec2(0, 0), Vec2(2, 0), Vec2(2, 2), Vec2(0, 2)};
  return test_support::MeshShape(square, {.build_sdf = false});
}

// a one-tet soft body (rest nodes (0,0,0), (1,0,0), (0,1,0), (0,0,1)) placed by x = F·X + c
int AddSoftTet(Model* model, State* state, const Mat3& F, const Vec3& c) {
  const std::vector<Vec3> rest = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)};
  const std::vector<std::array<int, 3>> local = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
  SoftBody soft;
  soft.name = "jelly";
  soft.first_particle = model->particle_count();
  soft.particle_count = 4;
  soft.rest_positions = rest;
  for (int i = 0; i < 4; ++i) {
    test_support::AddParticle(model, state, "jelly_" + std::to_string(i), 0.1, 0.01,
                              F * rest[i] + c);
  }
  const int base = soft.first_particle;
  soft.tets = {{base, base + 1, base + 2, base + 3}};
  for (const auto& t : local) soft.surface.push_back({base + t[0], base + t[1], base + t[2]});
  Diagnostics diagnostics;
  soft.collision = BuildSoftBodyCollision("jelly", rest, local, 8, "test", &diagnostics);
  EXPECT_NE(soft.collision, nullptr) << diagnostics.Format();
  model->soft_bodies.push_back(soft);
  return static_cast<int>(model->soft_bodies.size()) - 1;
}


// a hit on each kind of surface locates the (u, v) of its projection and the axis the contact
// stage samples there: the same vector (same formulas; 1e-12 for rounding of O(1) numbers)
TEST(LocatePaint, AgreesWithTheContactStage) {
  Model model = MakeEmptyModel();
  State state;
  // the ground plane (planar), a box turned 30° about z and 20° about x (triplanar), a mesh
  // square with UVs on a turned body ("uv"), a sheared soft tet (triplanar of its rest frame)
  AddWorldShape(&model, test_support::Plane(), Pose{});
  const Pose X_box{Vec3(0, 0, 1), Turn(kPi / 6, Vec3::UnitZ()) * Turn(kPi / 9, Vec3::UnitX())};
  AddBody(&model, &state, "box", test_support::Box(Vec3(0.3, 0.2, 0.1)), 1, X_box);
  const Pose X_tile{Vec3(3, 0, 1), Turn(0.3, Vec3(0.2, 1, 0.5))};
  AddBody(&model, &state, "tile", UvSquare(), 1, X_tile);
  Mat3 F;
  F << 1.2, 0.3, 0.1, -0.2, 0.9, 0.2, 0.1, 0.1, 1.1;
  const int soft = AddSoftTet(&model, &state, F, Vec3(-3, 0, 0.5));
  model.structure_fields = {
      Procedural(StructureFieldKind::kRadial, Vec2(0.3, -0.2), FieldProjection::kPlanar),
      Procedural(StructureFieldKind::kVortex, Vec2(0.05, 0.02), FieldProjection::kTriplanar),
      Procedural(StructureFieldKind::kRadial, Vec2(0.8, 1.1), FieldProjection::kUv),
      Procedural(StructureFieldKind::kRadial, Vec2(0.2, 0.3), FieldProjection::kTriplanar)};
  model.shape_structure_field = {0, 1, 2};
  model.soft_bodies[soft].structure_field = 3;

  const auto check = [&](const Vec3& target, int field) {
    const RayHit hit = Raycast(model, state, target + Vec3(0.05, -0.1, 2), Vec3(-0.05, 0.1, -2));
    const std::optional<PaintSpot> spot = LocatePaint(model, state, hit);
    EXPECT_TRUE(spot.has_value());
    if (!spot) return PaintSpot{};
    EXPECT_EQ(spot->field, field);
    const SideStructure side =
        SampleSideStructure(model, state, ContactAt(model, state, hit, spot->normal_W), false);
    EXPECT_GT(side.strength, 0);
    EXPECT_LT((side.axis_W - SpotAxis(model, *spot)).norm(), 1e-12) << "field " << field;
    EXPECT_NEAR(std::abs(spot->normal_W.dot(hit.normal)), 1, 1e-12);
    return *spot;
  };
  // the plane: (u, v) = (x, y) of the hit, 1 field unit per metre
  const PaintSpot ground = check(Vec3(1.5, 1.5, 0), 0);
  EXPECT_LT((ground.uv - Vec2(1.5, 1.5)).norm(), 1e-12);
  EXPECT_EQ(ground.units_per_metre, 1);
  // the box's top (local +z): triplanar along z, (u, v) = the local (x, y) of the point
  const Vec3 top_S(0.1, -0.05, 0.1);
  const PaintSpot box = check(X_box * top_S, 1);
  EXPECT_LT((box.uv - top_S.head<2>()).norm(), 1e-12);
  EXPECT_LT((box.tangent_u_W - X_box.q * Vec3::UnitX()).norm(), 1e-12);
  // the mesh: its UVs, twice the local coordinates, and k = sqrt(A_uv / A) = 2
  const PaintSpot tile = check(X_tile * Vec3(0.6, 0.3, 0), 2);
  EXPECT_LT((tile.uv - Vec2(1.2, 0.6)).norm(), 1e-12);
  EXPECT_NEAR(tile.units_per_metre, 2, 1e-12);
  // the soft tet's slanted face x + y + z = 1 (rest), reached from above
  const PaintSpot jelly = check(F * Vec3(0.3, 0.3, 0.4) + Vec3(-3, 0, 0.5), 3);
  EXPECT_EQ(jelly.soft_body, soft);
  // nothing to paint on a surface without a field (the ground, its field removed) or off the scene
  model.shape_structure_field = {-1, 1, 2};
  EXPECT_FALSE(LocatePaint(model, state, Raycast(model, state, Vec3(5, 5, 2), -Vec3::UnitZ())));
  EXPECT_FALSE(LocatePaint(model, state, RayHit{}));
}


// k on a soft body is sqrt(A_rest / A_now): grown uniformly by 2, every area is 4×, k = 1/2
TEST(LocatePaint, SoftBodyRadiusFollowsTheDeformedSurface) {
  Model model = MakeEmptyModel();
  State state;
  const int soft = AddSoftTet(&model, &state, 2 * Mat3::Identity(), Vec3::Zero());
  model.structure_fields = {
      Procedural(StructureFieldKind::kUniform, Vec2::Zero(), FieldProjection::kTriplanar)};
  model.soft_bodies[soft].structure_field = 0;
  const RayHit hit = Raycast(model, state, Vec3(0.5, 0.5, 5), -Vec3::UnitZ());
  const std::optional<PaintSpot> spot = LocatePaint(model, state, hit);
  ASSERT_TRUE(spot.has_value());
  EXPECT_NEAR(spot->units_per_metre, 0.5, 1e-12);
  // the rest point is the hit point halved: (0.25, 0.25, 0.5) on the face x + y + z = 1, whose
  // normal is closest to z (ties go to z), so (u, v) = (x, y)
  EXPECT_LT((spot->uv - Vec2(0.25, 0.25)).norm(), 1e-12);
}


// comb: the tangent-space angle of a stroke is the axis the contact stage lifts onto the
// stroke's direction. On a box turned 30° about z and 25° about x whose planar projection is
// tilted 21.8° (axis (0, 0.4, 1)) from its top face, T_u and T_v are not tangent to the face,
// so this checks the least-squares inverse; then a comb dab writes that axis, which the contact
// stage reads back parallel to the stroke (float texels: 1e-6)
TEST(PaintComb, AxisFollowsTheStrokeOnATurnedBody) {
  Model model = MakeEmptyModel();
  State state;
  const Pose X_box{Vec3(0, 0, 1), Turn(kPi / 6, Vec3::UnitZ()) * Turn(0.436, Vec3::UnitX())};
  AddBody(&model, &state, "box", test_support::Box(Vec3(0.4, 0.3, 0.1)), 1, X_box);
  auto field = Procedural(StructureFieldKind::kUniform, Vec2::Zero(), FieldProjection::kPlanar);
  field->projection.axis = Vec3(0, 0.4, 1).normalized();
  model.structure_fields = {field};
  model.shape_structure_field = {0};
  const Vec3 top_W = X_box * Vec3(0.05, 0.02, 0.1);
  const RayHit hit = Raycast(model, state, top_W + Vec3(0, 0, 2), -Vec3::UnitZ());
  const std::optional<PaintSpot> spot = LocatePaint(model, state, hit);
  ASSERT_TRUE(spot.has_value());
  ASSERT_TRUE(BakeForPainting(model, 0, spot->uv));
  const Vec3 e1 = X_box.q * Vec3::UnitX(), e2 = X_box.q * Vec3::UnitY();  // the face's tangents
  const Vec3 n = spot->normal_W;
  Brush comb{.tool = BrushTool::kComb, .radius = 0.05, .hardness = 1};
  for (Real phi = -3; phi < 3.2; phi += 0.37) {
    const Vec3 stroke = 0.01 * (std::cos(phi) * e1 + std::sin(phi) * e2);
    const std::optional<Real> theta = TangentSpaceAngle(*spot, stroke);
    ASSERT_TRUE(theta.has_value());
    // lifted and projected as the contact stage does: parallel to the stroke
    Vec3 s = std::cos(*theta) * spot->tangent_u_W + std::sin(*theta) * spot->tangent_v_W;
    s -= s.dot(n) * n;
    EXPECT_NEAR(std::abs(s.normalized().dot(stroke.normalized())), 1, 1e-12) << phi;
    // painted, then sampled by the contact stage at the spot
    const DirtyTexels dirty = ApplyDab(field.get(), comb, DabAt(*spot, comb, stroke));
    EXPECT_FALSE(dirty.empty());
    Vec3 axis = SampleSideStructure(model, state, ContactAt(model, state, hit, n), false).axis_W;
    axis -= axis.dot(n) * n;
    EXPECT_NEAR(std::abs(axis.normalized().dot(stroke.normalized())), 1, 1e-6) << phi;
  }
  // no motion (the first dab of a stroke), or motion along the normal: no axis, no change
  EXPECT_FALSE(TangentSpaceAngle(*spot, Vec3::Zero()));
  EXPECT_FALSE(TangentSpaceAngle(*spot, n));
  EXPECT_TRUE(ApplyDab(field.get(), comb, DabAt(*spot, comb, n)).empty());
}


// erase to isotropic: a plain box on a grained ground meets t = the ground's axis and d = its
// strength (one-sided rule): (μ_t, μ_b) = (μ_major, μ_minor) = (0.8, 0.2). Erasing the ground
// under it (w = 0 exactly at every texel the contacts' bilinear samples read: the 0.5 m disc
// covers the box's corners at 0.14 m by far more than a texel) makes its cones isotropic at the
// next AssignContactMaterials, μ_t = μ_b = μ = 0.5; a box 2 m away keeps its anisotropic cone
TEST(PaintErase, ContactsOnAnErasedPatchAreIsotropic) {
  Model model = MakeEmptyModel(0.5);
  model.materials[0].friction_major = 0.8;
  model.materials[0].friction_minor = 0.2;
  State state;
  AddWorldShape(&model, test_support::Plane(), Pose{});
  // body 0 on the patch to erase, body 1 2 m away
  for (const Real x : {0.3, 2.3}) {
    AddBody(&model, &state, "box", test_support::Box(Vec3::Constant(0.1)), 1,
            Pose{Vec3(x, 0.2, 0.0995), Quat::Identity()});
  }
  const int erased = 0;
  auto field = Procedural(StructureFieldKind::kUniform, Vec2::Zero(), FieldProjection::kPlanar);
  field->procedural.angle = 0.3;
  model.structure_fields = {field};
  model.shape_structure_field = {0, -1, -1};
  Contacts contacts;
  CollisionStats stats;
  const auto cones = [&]() {
    DetectContacts(model, state, 0.01, &contacts, &stats);
    AssignContactMaterials(model, state, &contacts);
    return contacts.items;
  };
  ASSERT_EQ(cones().size(), 8u);  // four corners per box
  for (const Contact& c : contacts.items) {
    EXPECT_NEAR(c.friction_t, 0.8, 1e-12);
    EXPECT_NEAR(c.friction_b, 0.2, 1e-12);
  }
  // baked (the plane is unbounded: a 10 m window around the dab), then erased under one box
  const Vec2 center(0.3, 0.2);
  ASSERT_TRUE(BakeForPainting(model, 0, center));
  const Brush eraser{.tool = BrushTool::kErase, .radius = 0.5, .hardness = 1};
  EXPECT_FALSE(ApplyDab(field.get(), eraser, FieldDab{center, 0.5}).empty());
  for (const Contact& c : cones()) {
    const bool on_patch = c.a.body == erased || c.b.body == erased;
    EXPECT_NEAR(c.friction_t, on_patch ? 0.5 : 0.8, 1e-6);
    EXPECT_NEAR(c.friction_b, on_patch ? 0.5 : 0.2, 1e-6);
    if (on_patch) {
      EXPECT_EQ(c.friction_t, c.friction_b);
    }
  }
}


// a bake reproduces the formula where the surfaces are. The channel pad of sliding_boxes (12 m ×
// 2.4 m, planar along z, lanes along x, width 0.5 m, 45° turn): window 12 × 2.4 m plus a texel
// each side, pitch h = 12 / 1022 m, 1024 × (ceil(2.4 / h) + 2 = 207) texels. The axis turns at
// most turn/width = 1.571 rad/m, 0.018 rad per texel; filtering between texel centres is off by
// at most half of that at the clamp's kink (0.0092 rad): 0.01 allowed
TEST(PaintBake, ReproducesTheProceduralFieldOnItsSurfaces) {
  Model model = MakeEmptyModel();
  AddWorldShape(&model, test_support::Box(Vec3(6, 1.2, 0.01)),
                Pose{Vec3(0, 3, 0.01), Quat::Identity()});
  auto channel = Procedural(StructureFieldKind::kChannel, Vec2::Zero(), FieldProjection::kPlanar);
  channel->procedural.width = 0.5;
  channel->procedural.turn = kPi / 4;
  channel->procedural.strength = 0.7;
  model.structure_fields = {channel};
  model.shape_structure_field = {0};
  const StructureField procedural = *channel;
  ASSERT_TRUE(BakeForPainting(model, 0, Vec2::Zero()));
  EXPECT_FALSE(BakeForPainting(model, 0, Vec2::Zero()));  // it has texels now
  const Real h = 12.0 / 1022;
  EXPECT_EQ(channel->width(), 1024);
  EXPECT_EQ(channel->height(), 207);
  EXPECT_NEAR(channel->tile_size.x(), 1024 * h, 1e-12);
  EXPECT_NEAR(channel->tile_size.y(), 207 * h, 1e-12);
  const auto angle_between = [](const Vec2& a, const Vec2& b) {
    return std::acos(std::min<Real>(1, std::abs(a.dot(b))));
  };
  Real worst = 0;
  for (Real u = -6; u <= 6; u += 0.0937) {
    for (Real v = -1.2; v <= 1.2; v += 0.0411) {
      const StructureSample baked = channel->Sample({u, v});
      worst = std::max(worst, angle_between(baked.direction, procedural.Sample({u, v}).direction));
      EXPECT_NEAR(baked.strength, 0.7, 1e-6);
    }
  }
  EXPECT_LT(worst, 0.01);

  // a plane's window is 10 m wide around the first dab: a radial field centred at the origin,
  // baked around (20, 5), matches its formula up to 4.9 m from there (it turns at 1/r ≤ 1/15
  // rad/m there, 7e-4 rad per 9.8 mm texel)
  Model ground = MakeEmptyModel();
  AddWorldShape(&ground, test_support::Plane(), Pose{});
  auto radial = Procedural(StructureFieldKind::kRadial, Vec2::Zero(), FieldProjection::kPlanar);
  ground.structure_fields = {radial};
  ground.shape_structure_field = {0};
  const StructureField formula = *radial;
  ASSERT_TRUE(BakeForPainting(ground, 0, Vec2(20, 5)));
  EXPECT_EQ(radial->width(), 1024);
  EXPECT_NEAR(radial->tile_size.x(), 1024 * 10.0 / 1022, 1e-12);
  for (const Vec2& uv : {Vec2(15.1, 0.1), Vec2(24.9, 9.9), Vec2(20, 5), Vec2(16, 9)}) {
    EXPECT_LT(angle_between(radial->Sample(uv).direction, formula.Sample(uv).direction), 1e-3)
        << uv.transpose();
  }
}

}  // namespace
}  // namespace sim
