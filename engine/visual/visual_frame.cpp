// MakeVisualFrame: the render snapshot of a state. Everything is converted to float once here, so
// the renderer never touches Model or State.
//
// Soft-body vertex normals are area-weighted: n_i = normalize(Σ_t (x_b − x_a) × (x_c − x_a)) over
// the boundary triangles t = (a, b, c) around node i (the cross product's length is twice the
// triangle's area). Contact points are midway between the two surfaces: a side's surface point is
// its core point moved by its radius towards the other side (n points from B to A).
#include "engine/visual/visual_frame.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "engine/fem/strain_measures.h"
#include "engine/state/contacts.h"
#include "engine/state/state.h"

namespace sim {

namespace {

std::array<float, 3> ToFloat(const Vec3& v) {
  return {static_cast<float>(v.x()), static_cast<float>(v.y()), static_cast<float>(v.z())};
}


// world pose of something fixed in `body` at `X_B` (world frame when body is the world)
Pose WorldPose(const State& state, int body, const Pose& X_B) {
  return body == kWorldBody ? X_B : state.body_X_WB[body] * X_B;
}


// primitive sizes as VisualShape::size expects them; false for types drawn as meshes
bool PrimitiveSize(const ShapeGeometry& geometry, std::array<float, 3>* size) {
  switch (geometry.type) {
    case ShapeType::kBox:
      *size = ToFloat(geometry.half_extents);
      return true;
    case ShapeType::kSphere:
      *size = {static_cast<float>(geometry.radius), 0, 0};
      return true;
    case ShapeType::kCapsule:
    case ShapeType::kCylinder:
      *size = {static_cast<float>(geometry.radius), static_cast<float>(geometry.half_length), 0};
      return true;
    case ShapeType::kPlane:
      *size = {kPlaneDrawHalfSize, kPlaneGridCell, 0};
      return true;
    case ShapeType::kConvexHull:  // drawn from their visual meshes (shape_visual_mesh)
    case ShapeType::kMesh:
    case ShapeType::kSdf:
    case ShapeType::kNone:
      return false;
  }
  return false;
}


// index of `mesh` in frame->meshes, appended on first use
class MeshTable {
 public:
  explicit MeshTable(VisualFrame* frame) : frame_(frame) {}
  int Index(const std::shared_ptr<const VisualMesh>& mesh) {
    const auto [it, inserted] =
        index_.try_emplace(mesh.get(), static_cast<int>(frame_->meshes.size()));
    if (inserted) frame_->meshes.push_back(mesh);
    return it->second;
  }

 private:
  VisualFrame* frame_;
  std::unordered_map<const VisualMesh*, int> index_;
};


void AddShapes(const Model& model, const State& state, const std::vector<char>& body_has_visual,
               MeshTable* mesh_table, VisualFrame* frame) {
  for (int s = 0; s < model.shape_count(); ++s) {
    const ShapeGeometry& geometry = model.shape_geometry[s];
    const int body = model.shape_body[s];
    const std::array<float, 12> X_WS = PoseToRows(WorldPose(state, body, model.shape_X_BS[s]));
    const auto& rgb = model.shape_color[s];
    const std::array<float, 4> color = {rgb[0], rgb[1], rgb[2], 1.0f};
    // the world keeps its shapes (ground) even when it has visuals
    const bool collision_only = body != kWorldBody && body_has_visual[body];
    VisualShape shape;
    if (PrimitiveSize(geometry, &shape.size)) {
      shape.type = geometry.type;
      shape.X_WS = X_WS;
      shape.color = color;
      shape.body = body;
      shape.collision_only = collision_only && geometry.type != ShapeType::kPlane;
      frame->shapes.push_back(shape);
      continue;
    }
    // hull, mesh and SDF shapes draw their surface mesh, when the loader built one
    const bool has_mesh =
        s < static_cast<int>(model.shape_visual_mesh.size()) && model.shape_visual_mesh[s];
    if (!has_mesh) continue;
    VisualMeshInstance instance;
    instance.mesh = mesh_table->Index(model.shape_visual_mesh[s]);
    instance.X_WS = X_WS;
    instance.color = color;
    instance.body = body;
    instance.shape = s;
    instance.collision_only = collision_only;
    frame->mesh_instances.push_back(instance);
  }
}


void AddVisuals(const Model& model, const State& state, MeshTable* mesh_table, VisualFrame* frame) {
  for (int v = 0; v < model.visual_count(); ++v) {
    const int body = model.visual_body[v];
    const std::array<float, 12> X_WV = PoseToRows(WorldPose(state, body, model.visual_X_BV[v]));
    const ShapeGeometry& geometry = model.visual_geometry[v];
    if (geometry.type == ShapeType::kMesh) {
      if (!model.visual_mesh[v]) continue;
      VisualMeshInstance instance;
      instance.mesh = mesh_table->Index(model.visual_mesh[v]);
      instance.X_WS = X_WV;
      instance.color = model.visual_color[v];
      instance.body = body;
      frame->mesh_instances.push_back(instance);
      continue;
    }
    VisualShape shape;
    if (!PrimitiveSize(geometry, &shape.size) || geometry.type == ShapeType::kPlane) continue;
    shape.type = geometry.type;
    shape.X_WS = X_WV;
    shape.color = model.visual_color[v];
    // a primitive visual has no file colours to fall back to
    if (shape.color[3] <= 0) shape.color[3] = 1;
    shape.body = body;
    frame->shapes.push_back(shape);
  }
}


// free particles (of no soft body) as spheres of their contact radius, in their material's colour
void AddFreeParticles(const Model& model, const State& state, VisualFrame* frame) {
  std::vector<char> in_soft_body(model.particle_count(), 0);
  for (const SoftBody& body : model.soft_bodies) {
    std::fill_n(in_soft_body.begin() + body.first_particle, body.particle_count, 1);
  }
  for (int p = 0; p < model.particle_count(); ++p) {
    if (in_soft_body[p]) continue;
    VisualShape shape;
    shape.type = ShapeType::kSphere;
    shape.size = {static_cast<float>(model.particle_radius[p]), 0, 0};
    shape.X_WS = PoseToRows(Pose{state.particle_x_W[p], Quat::Identity()});
    const int material =
        p < static_cast<int>(model.particle_material.size()) ? model.particle_material[p] : -1;
    const bool has_material = material >= 0 && material < static_cast<int>(model.materials.size());
    const std::array<float, 3> rgb =
        has_material ? model.materials[material].color : std::array<float, 3>{0.7f, 0.7f, 0.7f};
    shape.color = {rgb[0], rgb[1], rgb[2], 1.0f};
    shape.particle = true;
    frame->shapes.push_back(shape);
  }
}


// attachments (the held particle and the point holding it) and the particles that never move
void AddHolds(const Model& model, const State& state, VisualFrame* frame) {
  frame->attachments.resize(model.attachment_count());
  for (int a = 0; a < model.attachment_count(); ++a) {
    VisualAttachment& out = frame->attachments[a];
    const int body = model.attachment_body[a];
    out.particle = ToFloat(state.particle_x_W[model.attachment_particle[a]]);
    out.anchor = ToFloat(body == kWorldBody ? model.attachment_p_B[a]
                                            : state.body_X_WB[body] * model.attachment_p_B[a]);
    out.body = body;
    out.body_com = body == kWorldBody ? out.anchor : ToFloat(state.body_X_WB[body].p);
  }
  frame->fixed_particles.clear();
  for (int p = 0; p < model.particle_count(); ++p) {
    if (model.particle_is_fixed(p))
      frame->fixed_particles.push_back(ToFloat(state.particle_x_W[p]));
  }
}


// deformed boundary of soft body `index`: node positions, area-weighted normals, strain
void FillSoftBody(const Model& model, const State& state, int index, VisualSoftBody* out) {
  const SoftBody& body = model.soft_bodies[index];
  const int n = body.particle_count;
  out->soft_body = index;
  out->positions.resize(n);
  for (int i = 0; i < n; ++i)
    out->positions[i] = ToFloat(state.particle_x_W[body.first_particle + i]);
  out->indices.resize(3 * body.surface.size());
  out->normals.assign(n, {0, 0, 0});
  for (std::size_t t = 0; t < body.surface.size(); ++t) {
    // the face normal's length is twice the area, which weights it
    const std::array<int, 3>& tri = body.surface[t];
    const Vec3& a = state.particle_x_W[tri[0]];
    const Vec3 face = (state.particle_x_W[tri[1]] - a).cross(state.particle_x_W[tri[2]] - a);
    for (int k = 0; k < 3; ++k) {
      const int node = tri[k] - body.first_particle;
      out->indices[3 * t + k] = static_cast<std::uint32_t>(node);
      for (int c = 0; c < 3; ++c) out->normals[node][c] += static_cast<float>(face[c]);
    }
  }
  for (std::array<float, 3>& normal : out->normals) {
    const float length =
        std::sqrt(normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]);
    if (length > 0) {
      for (float& c : normal) c /= length;
    }
  }
  CalcSoftBodyNodeStrain(model, state, index, &out->volumetric_strain, &out->von_mises);
  const bool has_material =
      body.material >= 0 && body.material < static_cast<int>(model.materials.size());
  const std::array<float, 3> rgb =
      has_material ? model.materials[body.material].color : std::array<float, 3>{0.7f, 0.7f, 0.7f};
  out->color = {rgb[0], rgb[1], rgb[2], 1.0f};
}


VisualContact MakeContact(const State& state, const Contact& contact) {
  VisualContact out;
  out.point = ToFloat(ContactMidpoint(state, contact));
  out.normal = ToFloat(contact.normal_W);
  out.normal_force = static_cast<float>(std::max<Real>(contact.normal_force, 0));
  const Real lambda_t = contact.friction_force[0];
  const Real lambda_b = contact.friction_force[1];
  out.friction_force = ToFloat(lambda_t * contact.tangent_W + lambda_b * contact.bitangent_W);
  // on the elliptic cone's limit: |A^½ λ_f| = λ_n with A = diag(1/μ_t², 1/μ_b²) (digest §2.12)
  const auto ratio = [](Real lambda, Real mu) { return mu > 0 ? lambda / mu : 0; };
  const Real cone =
      std::hypot(ratio(lambda_t, contact.friction_t), ratio(lambda_b, contact.friction_b));
  out.sliding = contact.normal_force > 0 && cone >= (1 - kSlidingTolerance) * contact.normal_force;
  out.tangent = ToFloat(contact.tangent_W);
  out.friction_t = static_cast<float>(contact.friction_t);
  out.friction_b = static_cast<float>(contact.friction_b);
  out.anisotropy = static_cast<float>(contact.anisotropy);
  out.gap = static_cast<float>(contact.gap);
  out.body_a = contact.a.body;
  out.body_b = contact.b.body;
  out.shape_a = contact.a.shape;
  out.shape_b = contact.b.shape;
  out.particle_a = contact.a.particle();
  out.particle_b = contact.b.particle();
  out.soft_body_a = contact.a.soft_body;
  out.soft_body_b = contact.b.soft_body;
  return out;
}

}  // namespace


std::array<float, 12> PoseToRows(const Pose& X) {
  std::array<float, 12> rows;
  const Mat3 R = X.q.toRotationMatrix();
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) rows[r * 4 + c] = static_cast<float>(R(r, c));
    rows[r * 4 + 3] = static_cast<float>(X.p[r]);
  }
  return rows;
}


Pose PoseFromRows(const std::array<float, 12>& rows) {
  Mat3 R;
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) R(r, c) = rows[r * 4 + c];
  }
  return Pose{Vec3(rows[3], rows[7], rows[11]), Quat(R).normalized()};
}


std::string ContactSideName(const Model& model, std::int32_t body, std::int32_t particle,
                            std::int32_t soft_body) {
  if (soft_body >= 0 && soft_body < static_cast<int>(model.soft_bodies.size())) {
    return model.soft_bodies[soft_body].name;
  }
  if (particle >= 0 && particle < model.particle_count()) return model.particle_name[particle];
  if (body >= 0 && body < model.body_count()) return model.body_name[body];
  return "world";
}


void FillVisualFrame(const Model& model, const State& state, const Contacts* contacts,
                     VisualFrame* frame) {
  frame->time = state.time;
  frame->step = state.step;
  frame->up = ToFloat(model.options.up);
  frame->shapes.clear();
  frame->meshes.clear();
  frame->mesh_instances.clear();
  frame->contacts.clear();
  frame->structure_glyphs.clear();

  // shapes and visuals; a body with visuals shows its shapes only as collision geometry
  std::vector<char> body_has_visual(model.body_count(), 0);
  for (int v = 0; v < model.visual_count(); ++v) {
    if (model.visual_body[v] != kWorldBody) body_has_visual[model.visual_body[v]] = 1;
  }
  MeshTable mesh_table(frame);
  AddShapes(model, state, body_has_visual, &mesh_table, frame);
  AddVisuals(model, state, &mesh_table, frame);
  AddFreeParticles(model, state, frame);

  // deformed soft bodies
  frame->soft_bodies.resize(model.soft_bodies.size());
  for (std::size_t i = 0; i < model.soft_bodies.size(); ++i) {
    FillSoftBody(model, state, static_cast<int>(i), &frame->soft_bodies[i]);
  }

  // the last step's contacts with their forces
  if (contacts != nullptr) {
    frame->contacts.reserve(contacts->items.size());
    for (const Contact& contact : contacts->items) {
      frame->contacts.push_back(MakeContact(state, contact));
    }
  }

  AppendStructureGlyphs(model, state, &frame->structure_glyphs);

  // body (COM) frames and joint frames for the markers
  frame->bodies.resize(model.body_count());
  for (int b = 0; b < model.body_count(); ++b) {
    frame->bodies[b].X_WB = PoseToRows(state.body_X_WB[b]);
    frame->bodies[b].mass = static_cast<float>(model.body_mass[b]);
    frame->bodies[b].is_static = model.body_static[b] != 0;
    // a state of poses only (a pose snapshot) has no twists
    if (b < static_cast<int>(state.body_v_W.size()))
      frame->bodies[b].v_W = ToFloat(state.body_v_W[b]);
    if (b < static_cast<int>(state.body_w_W.size()))
      frame->bodies[b].w_W = ToFloat(state.body_w_W[b]);
  }
  frame->joints.resize(model.joint_count());
  for (int j = 0; j < model.joint_count(); ++j) {
    VisualJoint& joint = frame->joints[j];
    const Pose X_WJ = WorldPose(state, model.joint_child[j], model.joint_X_CJ[j]);
    joint.type = model.joint_type[j];
    joint.X_WJ = PoseToRows(X_WJ);
    joint.axis_W = ToFloat(X_WJ.q * model.joint_axis[j]);
    joint.parent = model.joint_parent[j];
    joint.child = model.joint_child[j];
  }
  AddHolds(model, state, frame);
}


VisualFrame MakeVisualFrame(const Model& model, const State& state) {
  VisualFrame frame;
  FillVisualFrame(model, state, nullptr, &frame);
  return frame;
}


VisualFrame MakeVisualFrame(const Model& model, const State& state, const Contacts& contacts) {
  VisualFrame frame;
  FillVisualFrame(model, state, &contacts, &frame);
  return frame;
}

}  // namespace sim
