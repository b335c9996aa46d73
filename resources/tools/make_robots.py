#!/usr/bin/env python3
"""Writes the project's own robot models into resources/robots/ (standard library only):

  fetch/fetch.urdf                      Fetch mobile manipulator (base, torso lift, head, 7-DOF arm,
                                        parallel gripper), meshes in fetch/meshes/
  allegro/allegro_right.urdf            Allegro hand, right (16 actuated revolute joints)
  allegro/allegro_left.urdf             its mirror image
  humanoid/humanoid.urdf                a simple 13-body, 12-joint humanoid

Every number below is ours or a published specification; resources/robots/README.md says which.
Collision geometry is primitives (box, cylinder, sphere); visuals are OBJ meshes built here with
smooth normals. Inertials are computed from the collision primitives (urdfgen.inertial).
Run from anywhere: python3 resources/tools/make_robots.py
"""
import math
import os

import meshgen as mg
from urdfgen import Joint, Link, Primitive, forward_kinematics, write_urdf

ROBOTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "robots")
DEG = math.pi / 180
HALF_PI = math.pi / 2

# colours (linear RGBA)
WHITE = (0.90, 0.90, 0.91, 1)
GRAY = (0.33, 0.34, 0.36, 1)
DARK = (0.10, 0.10, 0.11, 1)
BLUE = (0.12, 0.36, 0.72, 1)
RUBBER = (0.16, 0.16, 0.17, 1)

ALONG_X = (0, HALF_PI, 0)  # rpy turning a z-axis cylinder onto x
ALONG_Y = (HALF_PI, 0, 0)  # ... onto y (Rx(90 deg) takes z to -y; a cylinder is symmetric)


def along_x(mesh, x0=0.0, y=0.0, z=0.0):
    """A mesh built along +z, turned onto +x and moved to start at (x0, y, z)."""
    return mesh.transformed(mg.rot_y(HALF_PI), (x0, y, z))


def along_y(mesh, x=0.0, y=0.0, z=0.0):
    return mesh.transformed(mg.rot_x(-HALF_PI), (x, y, z))


def merged(*meshes):
    out = mg.Mesh()
    for m in meshes:
        out.extend(m)
    return out


def rbox(size, center, edge):
    return mg.rounded_box(size[0], size[1], size[2], edge).transformed(None, center)


# --- Fetch ---------------------------------------------------------------------------------------

def fetch():
    links, joints = [], []

    # base: round shell with a dark bumper, the fixed torso tower at its back
    base_shell = mg.rounded_cylinder(0.28, 0.255, 0.03, 48, z0=0.10)
    bumper = mg.rounded_cylinder(0.272, 0.085, 0.012, 48, z0=0.02)
    tower = rbox((0.20, 0.27, 0.40), (-0.12, 0, 0.555), 0.03)
    laser_window = rbox((0.03, 0.22, 0.035), (0.262, 0, 0.075), 0.008)
    links.append(Link("base_link", 76.5,
                      [Primitive("cylinder", (0.28, 0.335), (0, 0, 0.1875)),
                       Primitive("box", (0.20, 0.27, 0.40), (-0.12, 0, 0.555))],
                      [("_shell", merged(base_shell, tower), WHITE),
                       ("_bumper", merged(bumper, laser_window), DARK)]))
    for side, y in (("r", -0.187), ("l", 0.187)):
        wheel = along_y(mg.rounded_cylinder(0.0605, 0.04, 0.01, 32))
        links.append(Link(f"{side}_wheel_link", 4.0,
                          [Primitive("cylinder", (0.0605, 0.04), rpy=ALONG_Y)],
                          [("", wheel, DARK)]))
        joints.append(Joint(f"{side}_wheel_joint", "continuous", "base_link", f"{side}_wheel_link",
                            (0, y, 0.0605), axis=(0, 1, 0), effort=8.85, velocity=17.4))

    # torso lift: a column sliding out of the tower, with the shoulder shelf and the head mount
    column = rbox((0.14, 0.22, 0.70), (-0.03, 0, 0.25), 0.025)
    shelf = rbox((0.15, 0.16, 0.06), (0.07, 0, 0.318), 0.02)
    links.append(Link("torso_lift_link", 11.0,
                      [Primitive("box", (0.14, 0.22, 0.70), (-0.03, 0, 0.25)),
                       Primitive("box", (0.15, 0.16, 0.06), (0.07, 0, 0.318))],
                      [("_column", column, WHITE), ("_shelf", shelf, GRAY)]))
    joints.append(Joint("torso_lift_joint", "prismatic", "base_link", "torso_lift_link",
                        (-0.086, 0, 0.377), axis=(0, 0, 1), limits=(0, 0.40), effort=450,
                        velocity=0.1))

    # head: pan turntable, tilting head with a dark face plate and two camera lenses
    neck = merged(mg.rounded_cylinder(0.055, 0.05, 0.01, 32, z0=0.0),
                  rbox((0.12, 0.08, 0.05), (0.06, 0, 0.035), 0.015))
    links.append(Link("head_pan_link", 2.2,
                      [Primitive("cylinder", (0.055, 0.05), (0, 0, 0.025)),
                       Primitive("box", (0.12, 0.08, 0.05), (0.06, 0, 0.035))],
                      [("", neck, GRAY)]))
    joints.append(Joint("head_pan_joint", "revolute", "torso_lift_link", "head_pan_link",
                        (0.053, 0, 0.603), axis=(0, 0, 1), limits=(-90 * DEG, 90 * DEG),
                        effort=0.32, velocity=1.57))
    head = rbox((0.15, 0.30, 0.12), (-0.01, 0, 0.035), 0.035)
    face = merged(rbox((0.02, 0.24, 0.07), (0.062, 0, 0.035), 0.008),
                  *[along_x(mg.rounded_cylinder(0.013, 0.012, 0.003, 24, z0=0.0), 0.068, y, 0.035)
                    for y in (-0.035, 0.035)])
    links.append(Link("head_tilt_link", 1.0,
                      [Primitive("box", (0.15, 0.30, 0.12), (-0.01, 0, 0.035))],
                      [("", head, WHITE), ("_face", face, DARK)]))
    joints.append(Joint("head_tilt_joint", "revolute", "head_pan_link", "head_tilt_link",
                        (0.143, 0, 0.058), axis=(0, 1, 0), limits=(-45 * DEG, 90 * DEG),
                        effort=0.68, velocity=1.57))

    # arm: alternating white links and grey joint housings, all along +x at the home pose
    pan_mesh = merged(mg.rounded_cylinder(0.06, 0.07, 0.012, 36, z0=0.0),
                      along_x(mg.capsule_taper(0.055, 0.055, 0.117), 0, 0, 0.06))
    links.append(Link("shoulder_pan_link", 2.5,
                      [Primitive("cylinder", (0.06, 0.07), (0, 0, 0.035)),
                       Primitive("cylinder", (0.055, 0.117), (0.0585, 0, 0.06), ALONG_X)],
                      [("", pan_mesh, GRAY)]))
    joints.append(Joint("shoulder_pan_joint", "revolute", "torso_lift_link", "shoulder_pan_link",
                        (0.1195, 0, 0.3486), axis=(0, 0, 1), limits=(-92 * DEG, 92 * DEG),
                        effort=33.82, velocity=1.256))

    arm = [
        # name, joint, kind, offset from parent joint, axis, limits (deg), effort, velocity, mass,
        # visual builder
        ("shoulder_lift", "revolute", (0.117, 0, 0.06), (0, 1, 0), (-70, 87), 131.76, 1.454, 2.6),
        ("upperarm_roll", "continuous", (0.219, 0, 0), (1, 0, 0), None, 76.94, 1.571, 2.3),
        ("elbow_flex", "revolute", (0.133, 0, 0), (0, 1, 0), (-129, 129), 66.18, 1.521, 2.1),
        ("forearm_roll", "continuous", (0.197, 0, 0), (1, 0, 0), None, 29.35, 1.571, 1.7),
        ("wrist_flex", "revolute", (0.1245, 0, 0), (0, 1, 0), (-125, 125), 25.7, 2.268, 1.7),
        ("wrist_roll", "continuous", (0.1385, 0, 0), (1, 0, 0), None, 7.36, 2.268, 0.15),
    ]
    # visuals and collisions of each arm link, in its own frame (x along the arm)
    shapes = {
        "shoulder_lift": (
            [("", merged(along_y(mg.rounded_cylinder(0.058, 0.13, 0.012, 36)),
                         along_x(mg.capsule_taper(0.055, 0.05, 0.219))), WHITE)],
            [Primitive("cylinder", (0.058, 0.13), rpy=ALONG_Y),
             Primitive("cylinder", (0.052, 0.16), (0.13, 0, 0), ALONG_X)]),
        "upperarm_roll": (
            [("", merged(along_x(mg.rounded_cylinder(0.05, 0.10, 0.008, 36, z0=0.0)),
                         along_y(mg.rounded_cylinder(0.052, 0.12, 0.012, 36), 0.133)), GRAY),
             ("_ring", along_x(mg.rounded_cylinder(0.0515, 0.012, 0.002, 36, z0=0.0), 0.004), BLUE)],
            [Primitive("cylinder", (0.05, 0.10), (0.05, 0, 0), ALONG_X),
             Primitive("cylinder", (0.052, 0.12), (0.133, 0, 0), ALONG_Y)]),
        "elbow_flex": (
            [("", along_x(mg.capsule_taper(0.05, 0.046, 0.197)), WHITE)],
            [Primitive("cylinder", (0.048, 0.13), (0.11, 0, 0), ALONG_X)]),
        "forearm_roll": (
            [("", merged(along_x(mg.rounded_cylinder(0.046, 0.09, 0.008, 36, z0=0.0)),
                         along_y(mg.rounded_cylinder(0.045, 0.10, 0.01, 36), 0.1245)), GRAY),
             ("_ring", along_x(mg.rounded_cylinder(0.0475, 0.012, 0.002, 36, z0=0.0), 0.004), BLUE)],
            [Primitive("cylinder", (0.046, 0.09), (0.045, 0, 0), ALONG_X),
             Primitive("cylinder", (0.045, 0.10), (0.1245, 0, 0), ALONG_Y)]),
        "wrist_flex": (
            [("", along_x(mg.capsule_taper(0.045, 0.04, 0.1385)), WHITE)],
            [Primitive("cylinder", (0.043, 0.08), (0.07, 0, 0), ALONG_X)]),
        "wrist_roll": (
            [("", along_x(mg.rounded_cylinder(0.042, 0.035, 0.006, 36, z0=0.0)), GRAY)],
            [Primitive("cylinder", (0.042, 0.035), (0.0175, 0, 0), ALONG_X)]),
    }
    parent = "shoulder_pan_link"
    for name, kind, offset, axis, limits, effort, velocity, mass in arm:
        visuals, collisions = shapes[name]
        links.append(Link(f"{name}_link", mass, collisions, visuals))
        joints.append(Joint(f"{name}_joint", kind, parent, f"{name}_link", offset, axis=axis,
                            limits=None if limits is None else (limits[0] * DEG, limits[1] * DEG),
                            effort=effort, velocity=velocity))
        parent = f"{name}_link"

    # gripper: palm housing behind two prismatic fingers; its origin is the tool centre point
    # between the finger pads
    palm = rbox((0.09, 0.13, 0.065), (-0.085, 0, 0), 0.015)
    rail = rbox((0.02, 0.13, 0.03), (-0.03, 0, 0), 0.005)
    links.append(Link("gripper_link", 1.5,
                      [Primitive("box", (0.09, 0.13, 0.065), (-0.085, 0, 0))],
                      [("", palm, WHITE), ("_rail", rail, GRAY)]))
    joints.append(Joint("gripper_axis", "fixed", "wrist_roll_link", "gripper_link", (0.16645, 0, 0)))
    for side, sign in (("l", 1), ("r", -1)):
        # at q = 0 the pad's inner face is at y = 0 (closed); q opens it by q along +/-y
        pad = rbox((0.055, 0.014, 0.032), (0, sign * 0.007, 0), 0.004)
        body = rbox((0.035, 0.014, 0.034), (-0.042, sign * 0.014, 0), 0.005)
        links.append(Link(f"{side}_gripper_finger_link", 0.08,
                          [Primitive("box", (0.055, 0.014, 0.032), (0, sign * 0.007, 0))],
                          [("_pad", pad, RUBBER), ("", body, GRAY)]))
        joints.append(Joint(f"{side}_gripper_finger_joint", "prismatic", "gripper_link",
                            f"{side}_gripper_finger_link", (0, 0, 0), axis=(0, sign, 0),
                            limits=(0, 0.05), effort=60, velocity=0.05))
    return links, joints


# --- Allegro hand -----------------------------------------------------------------------------

FINGER_LINKS = (0.0164, 0.054, 0.0384, 0.0267)  # knuckle, proximal, middle, distal [m]
THUMB_LINKS = (0.040, 0.0177, 0.0514, 0.0423)  # rotator, abductor, proximal, distal [m]
FINGER_WIDTH = (0.0196, 0.0275)  # link thickness (palm normal x) and width (y) [m]
TIP_RADIUS = 0.012  # rubber fingertip [m]
FINGER_LIMITS = ((-27, 27), (-11, 92), (-10, 98), (-13, 93))  # [deg]
THUMB_LIMITS = ((15, 80), (-6, 67), (-11, 94), (-9, 98))  # [deg]
FINGER_MASSES = (0.012, 0.065, 0.036, 0.010)  # [kg]
THUMB_MASSES = (0.018, 0.012, 0.040, 0.036)  # [kg]
TIP_MASS = 0.017  # [kg]
PALM_MASS = 0.45  # [kg]
ALLEGRO_DARK = (0.13, 0.13, 0.14, 1)
ALLEGRO_PALM = (0.22, 0.22, 0.24, 1)
ALLEGRO_METAL = (0.62, 0.64, 0.67, 1)
ALLEGRO_TIP = (0.88, 0.88, 0.86, 1)


def finger_segment(length):
    """A phalanx from z = 0 to z = length with rounded edges."""
    t, w = FINGER_WIDTH
    return rbox((t, w, length), (0, 0, length / 2), 0.005)


def fingertip():
    """Rubber fingertip around the tip link origin: a short cylinder capped by a hemisphere."""
    profile = [(0.0, -0.012)] + mg.arc(TIP_RADIUS - 0.003, -0.012 + 0.003, 0.003, -90, 0, 3)
    profile += mg.arc(0, 0, TIP_RADIUS, 0, 90, 8)
    return mg.lathe(profile, 28).weld_all()


def allegro():
    links, joints = [], []
    palm = rbox((0.041, 0.113, 0.095), (-0.0095, 0, -0.0475), 0.008)
    mount = mg.rounded_cylinder(0.03, 0.012, 0.003, 32, z0=-0.107)
    links.append(Link("palm_link", PALM_MASS,
                      [Primitive("box", (0.041, 0.113, 0.095), (-0.0095, 0, -0.0475))],
                      [("", palm, ALLEGRO_PALM), ("_mount", mount, ALLEGRO_METAL)]))
    t, w = FINGER_WIDTH

    def chain(first, base_xyz, base_rpy, axes, lengths, limits, masses, base_kind):
        parent = "palm_link"
        xyz, rpy = base_xyz, base_rpy
        for k in range(4):
            index = first + k
            name = f"link_{index}.0"
            length = lengths[k]
            if k == 0 and base_kind == "thumb":
                # the thumb's rotator reaches out of the palm's side to the abductor
                visual = rbox((0.022, 0.03, length), (0, 0, length / 2), 0.006)
                collision = Primitive("box", (0.022, 0.03, length), (0, 0, length / 2))
                colour = ALLEGRO_METAL
            else:
                visual = finger_segment(length)
                collision = Primitive("box", (t, w, length), (0, 0, length / 2))
                colour = ALLEGRO_DARK if k > 0 else ALLEGRO_METAL
            links.append(Link(name, masses[k], [collision], [("", visual, colour)]))
            joints.append(Joint(f"joint_{index}.0", "revolute", parent, name, xyz, rpy, axes[k],
                                (limits[k][0] * DEG, limits[k][1] * DEG), effort=15, velocity=7))
            parent, xyz, rpy = name, (0, 0, length), (0, 0, 0)
        tip = f"link_{first + 3}.0_tip"
        links.append(Link(tip, TIP_MASS, [Primitive("sphere", (TIP_RADIUS,))],
                          [("", fingertip(), ALLEGRO_TIP)]))
        joints.append(Joint(f"joint_{first + 3}.0_tip", "fixed", parent, tip, xyz))

    # index, middle, ring: 45 mm apart, the outer two splayed by 5 deg
    finger_axes = ((0, 0, 1), (0, 1, 0), (0, 1, 0), (0, 1, 0))
    for first, y, roll in ((0, 0.045, -5 * DEG), (4, 0.0, 0.0), (8, -0.045, 5 * DEG)):
        chain(first, (0, y, 0.0), (roll, 0, 0), finger_axes, FINGER_LINKS, FINGER_LIMITS,
              FINGER_MASSES, "finger")
    # thumb: its base frame has z out of the palm's +y side and y along the palm's -z, so joint 12
    # swings it about the palm's long axis toward the palm's front (+x); joint 13 raises it toward
    # the fingers; joints 14 and 15 curl it across the palm
    chain(12, (-0.018, 0.019, -0.046), (-HALF_PI, 0, 0),
          ((0, 1, 0), (1, 0, 0), (0, 1, 0), (0, 1, 0)), THUMB_LINKS, THUMB_LIMITS, THUMB_MASSES,
          "thumb")
    return links, joints


def mirror_y(links, joints):
    """The mirror image through the plane y = 0 (a left hand from a right hand)."""
    def mirror_mesh(mesh):
        out = mesh.scaled(1, -1, 1)
        out.triangles = [(a, c, b) for a, b, c in out.triangles]
        return out
    mirrored_links = []
    for link in links:
        collisions = [Primitive(p.kind, p.dims, (p.xyz[0], -p.xyz[1], p.xyz[2]),
                                (-p.rpy[0], p.rpy[1], -p.rpy[2])) for p in link.collisions]
        visuals = [(s, mirror_mesh(m), c) for s, m, c in link.visuals]
        mirrored_links.append(Link(link.name, link.mass, collisions, visuals))
    mirrored_joints = []
    for j in joints:
        # positions reflect; S R S = Rx(-r) Ry(p) Rz(-y); an axis (a pseudo-vector) maps to -S a
        mirrored_joints.append(Joint(j.name, j.kind, j.parent, j.child,
                                     (j.xyz[0], -j.xyz[1], j.xyz[2]), (-j.rpy[0], j.rpy[1], -j.rpy[2]),
                                     (-j.axis[0], j.axis[1], -j.axis[2]), j.limits, j.effort,
                                     j.velocity, j.damping))
    return mirrored_links, mirrored_joints


# --- humanoid ----------------------------------------------------------------------------------

SKIN = (0.86, 0.87, 0.90, 1)
JOINT_BLUE = (0.18, 0.42, 0.80, 1)


def humanoid():
    links, joints = [], []

    def limb(length, r0, r1):
        """A limb hanging down -z from its joint: radius r0 at the joint, r1 at the far end."""
        return mg.capsule_taper(r1, r0, length - r0 - r1).transformed(None, (0, 0, -length + r1))

    links.append(Link("pelvis", 8.0, [Primitive("box", (0.16, 0.28, 0.14))],
                      [("", rbox((0.16, 0.28, 0.14), (0, 0, 0), 0.04), SKIN)]))
    links.append(Link("torso", 18.0, [Primitive("box", (0.18, 0.34, 0.40), (0, 0, 0.21))],
                      [("", rbox((0.18, 0.34, 0.40), (0, 0, 0.21), 0.06), SKIN),
                       ("_waist", along_y(mg.rounded_cylinder(0.055, 0.2, 0.02, 28)), JOINT_BLUE)]))
    joints.append(Joint("waist", "revolute", "pelvis", "torso", (0, 0, 0.07), axis=(0, 1, 0),
                        limits=(-30 * DEG, 60 * DEG), effort=300, velocity=5))
    head = merged(mg.sphere(0.10, 28, 14).transformed(None, (0, 0, 0.14)),
                  mg.rounded_cylinder(0.045, 0.06, 0.01, 24, z0=0.0))
    links.append(Link("head", 4.0, [Primitive("sphere", (0.10,), (0, 0, 0.14))],
                      [("", head, SKIN)]))
    joints.append(Joint("neck", "revolute", "torso", "head", (0, 0, 0.41), axis=(0, 0, 1),
                        limits=(-60 * DEG, 60 * DEG), effort=50, velocity=5))
    for side, sign in (("l", 1), ("r", -1)):
        links.append(Link(f"upper_arm_{side}", 2.0,
                          [Primitive("cylinder", (0.045, 0.26), (0, 0, -0.14))],
                          [("", limb(0.28, 0.05, 0.042), SKIN),
                           ("_joint", mg.sphere(0.055, 20, 10), JOINT_BLUE)]))
        joints.append(Joint(f"shoulder_{side}", "revolute", "torso", f"upper_arm_{side}",
                            (0, sign * 0.22, 0.36), axis=(0, 1, 0),
                            limits=(-170 * DEG, 60 * DEG), effort=100, velocity=5))
        forearm = merged(limb(0.25, 0.042, 0.036),
                         mg.sphere(0.045, 20, 10).transformed(None, (0, 0, -0.29)))
        links.append(Link(f"forearm_{side}", 1.5,
                          [Primitive("cylinder", (0.038, 0.22), (0, 0, -0.12)),
                           Primitive("sphere", (0.045,), (0, 0, -0.29))],
                          [("", forearm, SKIN), ("_joint", mg.sphere(0.045, 20, 10), JOINT_BLUE)]))
        joints.append(Joint(f"elbow_{side}", "revolute", f"upper_arm_{side}", f"forearm_{side}",
                            (0, 0, -0.28), axis=(0, 1, 0), limits=(-150 * DEG, 0),
                            effort=60, velocity=5))
        links.append(Link(f"thigh_{side}", 7.0,
                          [Primitive("cylinder", (0.06, 0.34), (0, 0, -0.21))],
                          [("", limb(0.42, 0.07, 0.05), SKIN),
                           ("_joint", mg.sphere(0.07, 20, 10), JOINT_BLUE)]))
        joints.append(Joint(f"hip_{side}", "revolute", "pelvis", f"thigh_{side}",
                            (0, sign * 0.09, -0.07), axis=(0, 1, 0),
                            limits=(-120 * DEG, 30 * DEG), effort=300, velocity=5))
        links.append(Link(f"shin_{side}", 3.5,
                          [Primitive("cylinder", (0.048, 0.34), (0, 0, -0.21))],
                          [("", limb(0.42, 0.05, 0.04), SKIN),
                           ("_joint", mg.sphere(0.055, 20, 10), JOINT_BLUE)]))
        joints.append(Joint(f"knee_{side}", "revolute", f"thigh_{side}", f"shin_{side}",
                            (0, 0, -0.42), axis=(0, 1, 0), limits=(0, 150 * DEG),
                            effort=300, velocity=5))
        links.append(Link(f"foot_{side}", 1.0,
                          [Primitive("box", (0.26, 0.10, 0.06), (0.03, 0, -0.05))],
                          [("", rbox((0.26, 0.10, 0.06), (0.03, 0, -0.05), 0.02), SKIN),
                           ("_joint", mg.sphere(0.042, 20, 10), JOINT_BLUE)]))
        joints.append(Joint(f"ankle_{side}", "revolute", f"shin_{side}", f"foot_{side}",
                            (0, 0, -0.42), axis=(0, 1, 0), limits=(-45 * DEG, 45 * DEG),
                            effort=150, velocity=5))
    return links, joints


HEADERS = {
    "fetch": """Fetch mobile manipulator, authored for Contact Studio (not the vendor's description).
Kinematics (joint offsets, axes, limits, efforts, velocities) follow the published Fetch
specifications; geometry, masses and inertias are ours. See resources/robots/README.md.
Generated by resources/tools/make_robots.py; edit that script, not this file.""",
    "allegro": """Allegro Hand ({side}), authored for Contact Studio (not the vendor's description).
Finger spacing, link lengths and joint ranges follow the published Allegro Hand v4 specifications;
geometry, masses and inertias are ours. See resources/robots/README.md.
Generated by resources/tools/make_robots.py; edit that script, not this file.""",
    "humanoid": """A simple humanoid (13 bodies, 12 revolute joints) for the many-humanoids scene.
All dimensions and masses are ours. See resources/robots/README.md.
Generated by resources/tools/make_robots.py; edit that script, not this file.""",
}


def main():
    links, joints = fetch()
    write_urdf(os.path.join(ROBOTS, "fetch", "fetch.urdf"), "fetch", links, joints, HEADERS["fetch"])
    right = allegro()
    write_urdf(os.path.join(ROBOTS, "allegro", "allegro_right.urdf"), "allegro_right", *right,
               HEADERS["allegro"].format(side="right"), mesh_dir="meshes_right")
    left = mirror_y(*right)
    write_urdf(os.path.join(ROBOTS, "allegro", "allegro_left.urdf"), "allegro_left", *left,
               HEADERS["allegro"].format(side="left, the mirror image of the right hand"),
               mesh_dir="meshes_left")
    links, joints = humanoid()
    write_urdf(os.path.join(ROBOTS, "humanoid", "humanoid.urdf"), "humanoid", links, joints,
               HEADERS["humanoid"])
    # sanity: where the Fetch tool centre point is at the home pose
    poses = forward_kinematics(fetch()[1], {})
    print("fetch gripper_link at home:", tuple(round(c, 4) for c in poses["gripper_link"][1]))


if __name__ == "__main__":
    main()
