#!/usr/bin/env python3
"""Writes the Allegro hand scenes (resources/robots/allegro), seed 002 Table 2 and chapter 3 of
seed 000 (digest nsn-and-friction.md sections 13-14):

allegro_ball.json   a right hand, palm up, squeezes a soft tet-mesh ball lying in its palm, lets
                    go and squeezes again (seed 002 "Allegro Ball": 21 bodies, 427 tets; the
                    ball's material is not given: Y = 50 kPa, nu = 0.45, a foam-like 400 kg/m^3).
                    The hand hangs on a stiff vertical slide (`lift`) so that an operator can
                    lift the ball; its `teleop` targets are the palm's height, the fingertips and
                    the "power" and "pinch" synergies (hand_teleop).
allegro_grasp.json  four hands (two right, two mirrored left), palm up, each closes around an
                    irregular non-convex object (a star, a ring, a cross, a bone; mu = 0.8,
                    seed 002 "Allegro DexNet") and turns it over by 60 degrees about the forearm
                    axis toward its thumb, holds it, and turns back. The objects are compounds of
                    convex pieces (resources/meshes/grasp, see make_objects.py).
allegro_gel.json    a hand curls its fingers onto a soft gel sheet clamped at one edge, sweeping
                    the fingertips along x over it, then strokes them back and forth along x
                    (seed 000 chapter 3, T-Fig 9). The sheet's surface has a uniform structure
                    field with its grain along x, the stroke: hand-gel contacts have mu_major 1.2
                    along the grain and mu_minor 0.1 across it (mu 0.8 without grain), so the
                    fingertips grip and bunch the sheet up (peak lift about 14 mm).
allegro_gel_across.json  the same with the grain along y, across the stroke: the fingertips slide
                    over the sheet, which barely deforms (peak lift about 1 mm) - T-Fig 9 left.

Hands are held by joint drives (hold_pose) and moved by scripts: the fingers by their joints,
each hand by a revolute "wrist" (or a prismatic carriage) joint between the world and its palm.
Standard library only; run from anywhere.
"""
import json
import os
from xml.etree import ElementTree

HERE = os.path.dirname(os.path.abspath(__file__))
SCENES = os.path.join(HERE, "..")
RIGHT = "../resources/robots/allegro/allegro_right.urdf"
LEFT = "../resources/robots/allegro/allegro_left.urdf"
GRASP = "../resources/meshes/grasp/"
DT = 0.0083
G = 9.81
FINGER_FLEX = ("joint_1.0", "joint_2.0", "joint_3.0", "joint_5.0", "joint_6.0", "joint_7.0",
               "joint_9.0", "joint_10.0", "joint_11.0")
# palm up: the hand's +x (palm normal) turned to world +z, its fingers pointing along world -x
PALM_UP = [0, -90, 0]
# palm_link origin to the middle of the palm's face, in the world with PALM_UP [m]
PALM_FACE = (0.0475, 0.0, 0.011)
# Allegro finger drives: 3 N m/rad (about 0.1 N m per 2 degrees) squeeze gently; a stiffer hold
# would crush the soft ball
HOLD = {"stiffness": 3, "damping": 0.1}
# the Allegro Ball hand's vertical slide: 1e5 N/m (0.01 mm per N), critically damped for the
# 1 kg hand and a 0.05 kg ball (2 sqrt(k m) = 650 N s/m)
LIFT_STIFFNESS = 1e5
LIFT_DAMPING = 650


def close_targets(prefix, flex, thumb=(1.3, 0.6, 0.8, 0.8)):
    targets = {f"{prefix}{j}": flex for j in FINGER_FLEX}
    for j in ("joint_0.0", "joint_4.0", "joint_8.0"):
        targets[prefix + j] = 0.0
    for j, value in zip(("joint_12.0", "joint_13.0", "joint_14.0", "joint_15.0"), thumb):
        targets[prefix + j] = value
    return targets


def open_targets(prefix):
    targets = close_targets(prefix, 0.0, (0.6, 0.0, 0.0, 0.0))
    return targets


def scene(name, description, objects, joints, script, camera, materials, solver=(6, 50),
          friction_pairs=None):
    out = {"name": name, "description": description, "up": "z", "gravity": [0, 0, -G],
           "solver": {"name": "nsn", "dt": DT, "newton_iterations": solver[0],
                      "linear_iterations": solver[1]},
           "camera": camera, "materials": materials}
    if friction_pairs:
        out["friction_pairs"] = friction_pairs
    out.update({"objects": objects, "joints": joints, "script": script})
    return out


def allegro_ball():
    height = 0.25  # palm_link origin [m]
    face = [PALM_FACE[0], 0, height + PALM_FACE[2]]
    radius = 0.04  # resources/meshes/soft_ball.msh
    objects = [
        {"name": "ground", "type": "plane", "material": "floor"},
        {"name": "hand", "type": "urdf", "file": RIGHT, "fixed_base": False, "material": "hand",
         "position": [0, 0, height], "rpy_deg": PALM_UP, "hold_pose": HOLD,
         "initial_positions": {"joint_12.0": 0.6}},
        {"name": "ball", "type": "tetmesh", "file": "../resources/meshes/soft_ball.msh",
         "material": "foam", "position": [face[0], 0, face[2] + radius + 0.001],
         "youngs_modulus": 5e4, "poisson_ratio": 0.45, "density": 400}]
    squeeze = close_targets("*/", 1.3)
    release = open_targets("*/")
    script = [{"time": 0.8, "targets": release},
              {"time": 2.0, "targets": squeeze},
              {"time": 3.5, "targets": squeeze},
              {"time": 4.3, "targets": release},
              {"time": 5.5, "targets": close_targets("*/", 1.45)},
              {"time": 7.0, "targets": close_targets("*/", 1.45)},
              {"time": 8.0, "targets": release}]
    # the hand hangs on a vertical slide (the operator's lift, see hand_teleop): a stiff drive
    # whose target carries the hand's weight, so the scripted scene's palm stays where the welded
    # base held it (static offset 0 at rest, 0.01 mm per N of load)
    lift = {"name": "lift", "type": "prismatic", "parent": "world", "child": "hand",
            "anchor": [0, 0, height], "axis": [0, 0, 1], "limits": [-0.05, 0.15],
            "drive": {"stiffness": LIFT_STIFFNESS, "damping": LIFT_DAMPING,
                      "target_position": round(urdf_mass(RIGHT) * G / LIFT_STIFFNESS, 8)}}
    out = scene(
        "Allegro ball",
        "An Allegro hand squeezes a soft tet-mesh ball in its palm, twice (seed 002 Table 2)",
        objects, [lift], script,
        {"target": [0.03, 0, 0.3], "distance": 0.45, "yaw_deg": -130, "pitch_deg": 35,
         "fov_deg": 45},
        {"floor": {"friction": 0.8, "color": [0.45, 0.47, 0.50]},
         "hand": {"friction": 0.8, "color": [0.15, 0.15, 0.16]},
         "foam": {"friction": 0.8, "density": 400, "color": [0.95, 0.55, 0.10]}},
        solver=(6, 50))
    out["teleop"] = hand_teleop("hand/")
    return out


def urdf_mass(urdf):
    """Total mass of a robot file's links [kg]."""
    root = ElementTree.parse(os.path.join(SCENES, urdf)).getroot()
    return sum(float(link.find("inertial/mass").get("value")) for link in root.findall("link")
               if link.find("inertial") is not None)


def hand_teleop(prefix):
    """The operator's targets on an Allegro hand: the palm's height on its slide (position
    only: the slide is the chain's one joint), each fingertip's position through its finger's
    four joints (position only: three coordinates for four joints leave the IK a null space),
    and two synergies on one axis each: "power" closes every finger as the scripted squeeze,
    "pinch" brings the thumb and index tips together. Synergies come after the fingertips: a
    commanded synergy's joint targets replace the fingertip IK's (TeleopController writes the
    targets in this order)."""
    targets = [{"name": "palm", "type": "end_effector", "link": prefix + "palm_link",
                "orientation_weight": 0, "max_joint_speed": 0.2}]
    for finger, tip in (("index", "link_3.0_tip"), ("middle", "link_7.0_tip"),
                        ("ring", "link_11.0_tip"), ("thumb", "link_15.0_tip")):
        targets.append({"name": finger, "type": "end_effector", "link": prefix + tip,
                        "base": prefix + "palm_link", "orientation_weight": 0})
    opened = open_targets(prefix)
    closed = close_targets(prefix, 1.3)
    targets.append({"name": "power", "type": "synergy",
                    "joints": {j: [opened[j], closed[j]] for j in sorted(closed)}})
    pinch = {prefix + "joint_1.0": [0.0, 0.6], prefix + "joint_2.0": [0.0, 0.7],
             prefix + "joint_3.0": [0.0, 0.7], prefix + "joint_12.0": [0.6, 1.35],
             prefix + "joint_13.0": [0.0, 0.5], prefix + "joint_14.0": [0.0, 0.6],
             prefix + "joint_15.0": [0.0, 0.7]}
    targets.append({"name": "pinch", "type": "synergy", "joints": pinch})
    return targets


def compound(kind):
    """Irregular non-convex objects as unions of convex pieces (resources/meshes/grasp)."""
    if kind == "star":
        shapes = [{"type": "mesh", "collision": "hull", "file": GRASP + "star_core.obj"}]
        shapes += [{"type": "mesh", "collision": "hull", "file": GRASP + "star_spike.obj",
                    "rpy_deg": [0, 0, 72 * k]} for k in range(5)]
    elif kind == "ring":
        shapes = [{"type": "mesh", "collision": "hull", "file": GRASP + "ring_segment.obj",
                   "rpy_deg": [0, 0, 45 * k]} for k in range(8)]
    elif kind == "cross":
        shapes = [{"type": "box", "size": [0.076, 0.022, 0.024]},
                  {"type": "box", "size": [0.022, 0.076, 0.024]}]
    else:  # bone: a rod with two knobs
        shapes = [{"type": "cylinder", "radius": 0.008, "length": 0.07, "rpy_deg": [0, 90, 0]},
                  {"type": "sphere", "radius": 0.016, "position": [0.035, 0, 0]},
                  {"type": "sphere", "radius": 0.016, "position": [-0.035, 0, 0]}]
    return {"type": "compound", "material": "object", "shapes": shapes}


def allegro_grasp():
    height = 0.25
    spacing = 0.3
    objects = [{"name": "ground", "type": "plane", "material": "floor"}]
    joints = []
    roll_to_thumb = {}
    colors = {"star": [0.95, 0.75, 0.15], "ring": [0.20, 0.60, 0.90], "cross": [0.85, 0.25, 0.20],
              "bone": [0.90, 0.88, 0.80]}
    for k, (kind, side) in enumerate((("star", "right"), ("ring", "right"), ("cross", "left"),
                                      ("bone", "left"))):
        y = (k - 1.5) * spacing
        hand = f"hand{k}"
        objects.append({"name": hand, "type": "urdf", "file": RIGHT if side == "right" else LEFT,
                        "fixed_base": False, "material": "hand", "position": [0, y, height],
                        "rpy_deg": PALM_UP, "hold_pose": HOLD,
                        "initial_positions": {"joint_12.0": 0.6}})
        face = [PALM_FACE[0], y, height + PALM_FACE[2]]
        item = compound(kind)
        item.update({"name": kind, "color": colors[kind], "density": 500,
                     "position": [face[0] + 0.0025, y, face[2] + 0.016]})
        objects.append(item)
        # the forearm axis (world x) through the palm's face; a stiff drive turns the hand
        joints.append({"name": f"wrist{k}", "type": "revolute", "parent": "world", "child": hand,
                       "anchor": face, "axis": [1, 0, 0],
                       "drive": {"stiffness": 200, "damping": 10}})
        # toward the thumb: the right thumb is on +y, the mirrored left thumb on -y
        roll_to_thumb[f"wrist{k}"] = -60 if side == "right" else 60
    close = close_targets("*/", 1.4)
    level = {w: 0 for w in roll_to_thumb}
    script = [{"time": 1.0, "targets": open_targets("*/"), "targets_deg": level},
              {"time": 2.0, "targets": close, "targets_deg": level},
              {"time": 3.5, "targets": close, "targets_deg": roll_to_thumb},
              {"time": 5.0, "targets": close, "targets_deg": roll_to_thumb},
              {"time": 6.0, "targets": close, "targets_deg": level},
              {"time": 7.0, "targets": open_targets("*/"), "targets_deg": level}]
    return scene(
        "Allegro grasp",
        "Four Allegro hands close around irregular non-convex objects (mu 0.8), turn them over "
        "by 60 degrees and back (seed 002 Table 2, Allegro DexNet)",
        objects, joints, script,
        {"target": [0.03, 0, 0.28], "distance": 1.1, "yaw_deg": -140, "pitch_deg": 35,
         "fov_deg": 45},
        {"floor": {"friction": 0.8, "color": [0.45, 0.47, 0.50]},
         "hand": {"friction": 0.8, "color": [0.15, 0.15, 0.16]},
         "object": {"friction": 0.8, "density": 500}},
        solver=(8, 20))


def allegro_gel(grain_deg):
    """grain_deg: the structure field's grain on the sheet, from +x (the stroke) toward +y."""
    sheet_top = 0.10 + 0.016  # resources/meshes/gel_sheet.msh is 16 mm thick, from z = 0
    # palm down (hand +x to world -z), fingers along world +x; curled to 0.9 rad, the fingertip
    # spheres (12 mm) reach 103 mm below the palm_link origin (forward kinematics of the robot
    # tables), so they press 3 mm into the gel
    height = sheet_top + 0.100
    objects = [
        {"name": "ground", "type": "plane", "material": "floor"},
        {"name": "stand", "type": "box", "fixed": True, "material": "floor",
         "size": [0.2, 0.2, 0.1], "position": [0, 0, 0.05]},
        {"name": "gel", "type": "tetmesh", "file": "../resources/meshes/gel_sheet.msh",
         "material": "gel", "position": [0, 0, 0.10], "youngs_modulus": 2e4,
         "poisson_ratio": 0.45, "density": 1050,
         # clamp the sheet's rim (fixed nodes in a box)
         "fixed": {"box": {"min": [-0.1, -0.1, 0.099], "max": [-0.07, 0.1, 0.2]}},
         # uniform grain on the surface, in the sheet's rest frame seen from above
         "structure_field": {"procedural": "uniform", "angle_deg": grain_deg,
                             "projection": {"type": "planar", "axis": "z"}}},
        {"name": "carriage", "type": "box", "material": "floor", "mass": 0.5,
         "size": [0.02, 0.02, 0.02], "position": [-0.09, 0, height + 0.06]},
        {"name": "hand", "type": "urdf", "file": RIGHT, "fixed_base": False, "material": "hand",
         "position": [-0.04, 0, height], "rpy_deg": [0, 90, 0], "hold_pose": HOLD}]
    joints = [
        {"name": "stroke", "type": "prismatic", "parent": "world", "child": "carriage",
         "axis": [1, 0, 0], "limits": [-0.02, 0.06], "drive": {"stiffness": 2e3, "damping": 60}},
        {"name": "mount", "type": "fixed", "parent": "carriage", "child": "hand"}]
    curl = {f"*/{j}": 0.9 for j in FINGER_FLEX}
    script = [{"time": 1.0, "targets": dict(curl, stroke=0.0)}]
    for cycle in range(3):
        t = 2.0 + 2.0 * cycle
        script.append({"time": t, "targets": dict(curl, stroke=0.05)})
        script.append({"time": t + 1.0, "targets": dict(curl, stroke=0.0)})
    along = grain_deg == 0
    return scene(
        "Allegro gel" + ("" if along else " (across the grain)"),
        "An Allegro hand strokes a soft gel sheet clamped at one edge " +
        ("along its grain: the fingertips grip and bunch the sheet up" if along else
         "across its grain: the fingertips slide and the sheet barely deforms") +
        " (seed 000 chapter 3, T-Fig 9)",
        objects, joints, script,
        {"target": [0.02, 0, 0.15], "distance": 0.55, "yaw_deg": -120, "pitch_deg": 30,
         "fov_deg": 45},
        {"floor": {"friction": 0.6, "color": [0.45, 0.47, 0.50]},
         "hand": {"friction": 0.8, "color": [0.15, 0.15, 0.16]},
         "gel": {"friction": 0.9, "density": 1050, "color": [0.45, 0.80, 0.70]}},
        solver=(6, 50),
        friction_pairs=[{"materials": ["hand", "gel"], "friction": 0.8, "friction_major": 1.2,
                         "friction_minor": 0.1}])


def main():
    for name, build in (("allegro_ball", allegro_ball), ("allegro_grasp", allegro_grasp),
                        ("allegro_gel", lambda: allegro_gel(0)),
                        ("allegro_gel_across", lambda: allegro_gel(90))):
        with open(os.path.join(SCENES, name + ".json"), "w") as out:
            json.dump(build(), out, indent=1)
            out.write("\n")


if __name__ == "__main__":
    main()
