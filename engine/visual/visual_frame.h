// VisualFrame: the render-ready snapshot the simulation publishes and the renderer reads. Plain
// float data, no engine internals, so the renderer (Vulkan) and any other consumer (recorder, test)
// never touch Model or State while the solver is stepping.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/geometry/visual_mesh.h"
#include "engine/model/model.h"
#include "engine/visual/structure_glyphs.h"

namespace sim {

struct State;
struct Contacts;

/// One shape instance to draw.
struct VisualShape {
  ShapeType type = ShapeType::kNone;
  /// Shape parameters [m]: box half extents (x, y, z); sphere (r, -, -); capsule and cylinder
  /// (r, half length, -); plane: (half size of the drawn square, grid cell size, -).
  std::array<float, 3> size = {0, 0, 0};
  /// Shape-to-world transform, row-major 3×4 [R | p] (p in m).
  std::array<float, 12> X_WS = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
  std::array<float, 4> color = {0.7f, 0.7f, 0.7f, 1.0f};  ///< linear RGBA
  std::int32_t body = kWorldBody;                         ///< owning body, for picking
  /// A collision shape of a body that has visuals: drawn only when the viewer shows collision
  /// geometry.
  bool collision_only = false;
  /// a ghost of the body at its drives' target pose (drive_ghosts.h), drawn see-through
  bool drive_target = false;
  /// a compared lane overlaid on lane 0: drawn see-through in `color` (its lane colour)
  bool lane_ghost = false;
  bool particle = false;  ///< a free particle's sphere (it moves, though of no body)
};

/// One placed instance of a VisualMesh (a visual, or the surface of a hull/mesh/SDF shape).
struct VisualMeshInstance {
  std::int32_t mesh = -1;  ///< index into VisualFrame::meshes
  /// Mesh-to-world transform, row-major 3×4 [R | p] (p in m).
  std::array<float, 12> X_WS = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
  /// linear RGBA; alpha 0 draws the mesh parts' own colours and textures
  std::array<float, 4> color = {0.7f, 0.7f, 0.7f, 1.0f};
  std::int32_t body = kWorldBody;  ///< owning body, for picking
  std::int32_t shape = -1;         ///< the collision shape it draws, or −1 for a visual
  bool collision_only = false;     ///< as VisualShape::collision_only
  bool drive_target = false;       ///< as VisualShape::drive_target
  bool lane_ghost = false;         ///< as VisualShape::lane_ghost
};

/// The boundary surface of one soft body as deformed at this frame.
struct VisualSoftBody {
  std::int32_t soft_body = -1;                  ///< index into Model::soft_bodies
  std::vector<std::array<float, 3>> positions;  ///< one per node of the body, world [m]
  /// smooth (area-weighted) unit vertex normals of the surface nodes; zero for interior nodes
  std::vector<std::array<float, 3>> normals;
  std::vector<std::uint32_t> indices;    ///< boundary triangles over local node ids, CCW
  std::vector<float> volumetric_strain;  ///< J − 1 per node [-]
  std::vector<float> von_mises;          ///< von Mises stress per node [Pa]
  std::array<float, 4> color = {0.7f, 0.7f, 0.7f, 1.0f};  ///< linear RGBA
};

/// A contact and the force the solver found for it (the last step's).
struct VisualContact {
  std::array<float, 3> point = {0, 0, 0};           ///< world, midway between the surfaces [m]
  std::array<float, 3> normal = {0, 0, 1};          ///< unit, from side B to side A
  float normal_force = 0;                           ///< λ_n [N], ≥ 0
  std::array<float, 3> friction_force = {0, 0, 0};  ///< tangential force on A, world [N]
  bool sliding = false;  ///< friction at the cone's limit (slip); else stick
  /// the friction cone (contacts.h): principal tangent t (unit, world) and the coefficients
  /// along t and along b = n × t; μ_t ≠ μ_b where a structure field made it anisotropic [-]
  std::array<float, 3> tangent = {1, 0, 0};
  float friction_t = 0;
  float friction_b = 0;
  float anisotropy = 0;  ///< the structure fields' blend d of the cone (contacts.h) [-]
  float gap = 0;         ///< signed distance of the surfaces at the step's end [m]
  /// the two sides: body (kWorldBody for the static world or a particle side), shape (−1 on a
  /// particle side), first particle and soft body (−1 when none)
  std::int32_t body_a = kWorldBody, body_b = kWorldBody;
  std::int32_t shape_a = -1, shape_b = -1;
  std::int32_t particle_a = -1, particle_b = -1;
  std::int32_t soft_body_a = -1, soft_body_b = -1;
  std::int32_t lane = 0;  ///< the compared lane it belongs to (0 without --compare)
};

/// The mouse perturbation spring of the studio (ctrl+drag), drawn as an arrow.
struct VisualDrag {
  bool active = false;
  std::int32_t body = kWorldBody;  ///< dragged body, or kWorldBody when a particle is dragged
  std::int32_t particle = -1;      ///< dragged particle (FEM node), or −1
  std::array<float, 3> anchor = {0, 0, 0};  ///< grabbed point on the body, world [m]
  std::array<float, 3> target = {0, 0, 0};  ///< where the mouse pulls it, world [m]
  float force = 0;                          ///< spring force magnitude [N]
};

/// A teleop end effector's pose target and where the end effector is, for the viewer's gizmo.
struct VisualTeleopTarget {
  /// Target-to-world transform, row-major 3×4 [R | p] (p in m).
  std::array<float, 12> X_WT = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
  std::array<float, 3> actual = {0, 0, 0};  ///< the end effector's position, world [m]
  bool gizmo = false;  ///< the operator's active target: drawn with the drag handles
};

/// A body's frame at its centre of mass, for the viewer's centre-of-mass markers.
struct VisualBody {
  /// Body-to-world transform (origin at the COM), row-major 3×4 [R | p] (p in m).
  std::array<float, 12> X_WB = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
  float mass = 0;  ///< [kg]; 0 for static bodies
  bool is_static = false;
  std::array<float, 3> v_W = {0, 0, 0};  ///< linear velocity of the COM, world [m/s]
  std::array<float, 3> w_W = {0, 0, 0};  ///< angular velocity, world [rad/s]
};

/// A joint's frame as fixed in its child body, for the viewer's joint-frame markers.
struct VisualJoint {
  JointType type = JointType::kNone;
  /// Joint-to-world transform (the frame fixed in the child), row-major 3×4 [R | p] (p in m).
  std::array<float, 12> X_WJ = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
  std::array<float, 3> axis_W = {0, 0, 1};  ///< unit motion axis in world (revolute, prismatic)
  std::int32_t parent = kWorldBody, child = kWorldBody;
};

/// A particle held at a point of a body or of the world (an attachment), for the viewer's markers.
struct VisualAttachment {
  std::array<float, 3> particle = {0, 0, 0};  ///< the held particle, world [m]
  std::array<float, 3> anchor = {0, 0, 0};    ///< the point that holds it, world [m]
  std::int32_t body = kWorldBody;             ///< the holding body, or kWorldBody
  std::array<float, 3> body_com = {0, 0, 0};  ///< the holding body's centre of mass, world [m]
};

struct VisualFrame {
  double time = 0;                      ///< simulated time [s]
  std::uint64_t step = 0;               ///< steps taken
  std::array<float, 3> up = {0, 0, 1};  ///< world up axis
  std::vector<VisualShape> shapes;
  /// Mesh assets referenced by mesh_instances: the same pointers from frame to frame (they are
  /// the Model's), so a renderer uploads each once.
  std::vector<std::shared_ptr<const VisualMesh>> meshes;
  std::vector<VisualMeshInstance> mesh_instances;
  std::vector<VisualSoftBody> soft_bodies;
  std::vector<VisualContact> contacts;  ///< empty unless contacts were passed in
  /// dashes along the structure fields' grain on every surface that has a field
  std::vector<VisualStructureGlyph> structure_glyphs;
  // interaction state the studio adds before publishing (not produced by MakeVisualFrame)
  std::int32_t selected_body = kWorldBody;  ///< highlighted body, or kWorldBody for none
  VisualDrag drag;
  std::vector<VisualTeleopTarget> teleop_targets;  ///< end effectors, while teleoperating
  // markers for the viewer's toggles, filled by MakeVisualFrame
  std::vector<VisualBody> bodies;             ///< one per body (index = body id)
  std::vector<VisualJoint> joints;            ///< one per joint (index = joint id)
  std::vector<VisualAttachment> attachments;  ///< one per attachment (index = attachment id)
  /// particles that never move (clamped FEM nodes), world [m]
  std::vector<std::array<float, 3>> fixed_particles;
};

/// Builds the snapshot of `state`: world poses of every shape (the collision shapes of bodies that
/// have visuals marked collision_only), mesh instances of visuals and of hull/mesh/SDF shapes,
/// free particles (those of no soft body) as spheres of their contact radius, the deformed
/// surfaces of soft bodies with normals and per-node strain, body and joint frames, attachments
/// and fixed particles, the structure glyphs of surfaces with structure fields
/// (structure_glyphs.h).
/// `contacts` empty. Cost: linear in shapes, visuals, joints and tets (about 1 ms for a 7k-tet
/// soft body on one core).
VisualFrame MakeVisualFrame(const Model& model, const State& state);

/// As above, plus the last step's `contacts` (after the solve, with its forces) in
/// VisualFrame::contacts.
VisualFrame MakeVisualFrame(const Model& model, const State& state, const Contacts& contacts);

/// Fills `*frame` as MakeVisualFrame does (`contacts` may be null), reusing its vectors' storage:
/// for a producer that recycles frames (triple buffer slots). Leaves `selected_body` and `drag`
/// as they were.
void FillVisualFrame(const Model& model, const State& state, const Contacts* contacts,
                     VisualFrame* frame);

/// Row-major 3×4 [R | p] of a pose in float (the frames' transform layout), and back.
std::array<float, 12> PoseToRows(const Pose& X);
Pose PoseFromRows(const std::array<float, 12>& rows);

/// The name of a contact side as reports print it: its soft body's, its particle's or its body's
/// name, or "world" for the static world.
std::string ContactSideName(const Model& model, std::int32_t body, std::int32_t particle,
                            std::int32_t soft_body);

/// A contact counts as sliding when its friction force reaches the cone limit within this
/// fraction: √(λ_t²/μ_t² + λ_b²/μ_b²) ≥ (1 − kSlidingTolerance)·λ_n [-].
inline constexpr float kSlidingTolerance = 0.02f;

/// Drawn half size of an infinite plane [m] and its grid cell [m].
inline constexpr float kPlaneDrawHalfSize = 50.0f;
inline constexpr float kPlaneGridCell = 0.5f;

}  // namespace sim
