// A scene around one file that is not a scene: a URDF robot, a surface mesh or a tet mesh, on a
// ground plane with a camera that frames it. This is what the studio's File > Open and
// `contact-sim run robot.urdf` use for such files.
#pragma once

#include <string>

#include "engine/core/diagnostics.h"
#include "engine/io/scene_file.h"

namespace sim::io {

/// Ground clearance of the object's lowest point [m]: a robot with a fixed base is held just
/// above the ground, so its feet or wheels do not start inside it (a fixed base cannot yield to
/// the ground's push); free objects drop this far.
inline constexpr Real kDefaultSceneClearance = 0.001;

/// The default scene of `path` by its extension:
///   .urdf                         the robot with a fixed base, held in its zero pose by position
///                                 drives of stiffness 1000·m·g·(1 m) and damping 1% of it (m the
///                                 robot's mass: the gravity sag stays ~1e-3 rad), collision meshes
///                                 as convex hulls;
///   .msh .node .ele .vtk          a soft body (tetmesh object) with the default material;
///   meshes assimp reads           a rigid body with its SDF-backed mesh when the surface is
///                                 closed (mass from the default density), a fixed one otherwise.
/// The object is placed with its lowest point kDefaultSceneClearance above a ground plane at
/// z = 0 (Z up), centred on the origin in x and y, and the camera looks at its bounding box from
/// a distance that fits it in the view. Diagnostics of the file come as from a scene that loads
/// it (located in the file), without notes pointing into the generated scene. `progress` as for
/// LoadScene.
Expected<Scene> MakeDefaultSceneFor(const std::string& path, const LoadProgress& progress = {});

/// The `"hold_pose": {...}` JSON member a default scene gives a robot of `robot_mass` [kg]: a
/// stiffness of 1000·m·g·(1 m) and damping 1% of it.
std::string HoldPoseJson(Real robot_mass);

/// The world bounds of everything of `model` drawn or colliding in `state` (visuals, shapes,
/// particles; planes and unbounded fields add nothing) [m]; false when there is nothing bounded.
bool SceneBounds(const Model& model, const State& state, Vec3* lower, Vec3* upper);

/// `camera` turned to frame a box of `size` [m] standing on the ground at the origin, as a
/// default scene's: its bounding sphere fills ~80% of the vertical field of view.
void FrameOnGround(const Vec3& size, CameraSetup* camera);

/// LoadScene for a .json file, MakeDefaultSceneFor for every other file. With a `progress`, a
/// cancelled load returns the one kLoadCancelledMessage error about `path`.
Expected<Scene> LoadAnyScene(const std::string& path, const LoadProgress& progress = {});

}  // namespace sim::io
