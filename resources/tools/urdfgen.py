"""Writes URDF robots from link/joint tables (standard library only).

A link gives its mass, its collision primitives and its visual meshes; the inertial (centre of mass
and inertia tensor) is computed here from the collision primitives at uniform density, scaled to
the link's mass, so every number in the file follows from the geometry and the mass we chose.
Visual meshes are written as OBJ files next to the URDF and referenced by relative path.
"""
import math
import os

import meshgen as mg


class Primitive:
    """A collision primitive of a link: kind is box (size), cylinder (radius, length along z) or
    sphere (radius); pose xyz/rpy in the link frame."""

    def __init__(self, kind, dims, xyz=(0, 0, 0), rpy=(0, 0, 0)):
        self.kind, self.dims, self.xyz, self.rpy = kind, dims, tuple(xyz), tuple(rpy)

    def volume(self):
        if self.kind == "box":
            return self.dims[0] * self.dims[1] * self.dims[2]
        if self.kind == "cylinder":
            return math.pi * self.dims[0] ** 2 * self.dims[1]
        return 4 / 3 * math.pi * self.dims[0] ** 3

    def unit_inertia(self):
        """Principal inertia per unit mass about the centroid, primitive axes [m^2]."""
        if self.kind == "box":
            x, y, z = self.dims
            return ((y * y + z * z) / 12, (x * x + z * z) / 12, (x * x + y * y) / 12)
        if self.kind == "cylinder":
            r, h = self.dims
            lateral = (3 * r * r + h * h) / 12
            return (lateral, lateral, r * r / 2)
        r = self.dims[0]
        return (0.4 * r * r,) * 3

    def xml(self):
        if self.kind == "box":
            geometry = '<box size="%.5f %.5f %.5f"/>' % tuple(self.dims)
        elif self.kind == "cylinder":
            geometry = '<cylinder radius="%.5f" length="%.5f"/>' % tuple(self.dims)
        else:
            geometry = '<sphere radius="%.5f"/>' % self.dims[0]
        return ('    <collision>\n      <origin xyz="%s" rpy="%s"/>\n      <geometry>%s</geometry>\n'
                '    </collision>\n' % (fmt(self.xyz), fmt(self.rpy), geometry))


def fmt(values):
    return " ".join("%.6g" % v for v in values)


def inertial(mass, primitives):
    """COM and inertia tensor (link frame, about the COM) of `mass` spread over the primitives."""
    volumes = [p.volume() for p in primitives]
    total = sum(volumes)
    com = (0.0, 0.0, 0.0)
    for p, v in zip(primitives, volumes):
        com = mg.add(com, mg.scale(p.xyz, v / total))
    tensor = [[0.0] * 3 for _ in range(3)]
    for p, v in zip(primitives, volumes):
        m = mass * v / total
        r = mg.rpy(*p.rpy)
        principal = p.unit_inertia()
        # R diag(I) R^T plus the parallel-axis term m (|d|^2 E - d d^T)
        d = mg.sub(p.xyz, com)
        for i in range(3):
            for j in range(3):
                rotated = sum(r[i][k] * principal[k] * r[j][k] for k in range(3)) * m
                shift = m * ((mg.dot(d, d) if i == j else 0) - d[i] * d[j])
                tensor[i][j] += rotated + shift
    return com, tensor


class Link:
    def __init__(self, name, mass, collisions, visuals=()):
        """visuals: [(suffix, Mesh in the link frame, (r, g, b, a))]."""
        self.name, self.mass = name, mass
        self.collisions = list(collisions)
        self.visuals = list(visuals)


class Joint:
    def __init__(self, name, kind, parent, child, xyz=(0, 0, 0), rpy=(0, 0, 0), axis=(1, 0, 0),
                 limits=None, effort=None, velocity=None, damping=None):
        """limits: (lower, upper) in rad or m; effort [N m or N]; velocity [rad/s or m/s]."""
        self.name, self.kind, self.parent, self.child = name, kind, parent, child
        self.xyz, self.rpy, self.axis = tuple(xyz), tuple(rpy), tuple(axis)
        self.limits, self.effort, self.velocity, self.damping = limits, effort, velocity, damping


def write_urdf(path, robot_name, links, joints, header, mesh_dir="meshes"):
    """Writes the URDF and one OBJ per visual into <dir of path>/<mesh_dir>/."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(os.path.join(folder, mesh_dir), exist_ok=True)
    lines = ['<?xml version="1.0"?>']
    lines += ["<!--"] + ["  " + line for line in header.strip().splitlines()] + ["-->"]
    lines.append('<robot name="%s">' % robot_name)
    for link in links:
        lines.append('  <link name="%s">' % link.name)
        if link.mass > 0 and link.collisions:
            com, tensor = inertial(link.mass, link.collisions)
            lines.append('    <inertial>\n      <origin xyz="%s" rpy="0 0 0"/>\n'
                         '      <mass value="%.5g"/>\n'
                         '      <inertia ixx="%.4e" ixy="%.4e" ixz="%.4e" iyy="%.4e" iyz="%.4e"'
                         ' izz="%.4e"/>\n    </inertial>'
                         % (fmt(com), link.mass, tensor[0][0], tensor[0][1], tensor[0][2],
                            tensor[1][1], tensor[1][2], tensor[2][2]))
        for suffix, mesh, rgba in link.visuals:
            file_name = "%s%s.obj" % (link.name, suffix)
            mesh.write_obj(os.path.join(folder, mesh_dir, file_name),
                           "%s: visual of link %s (generated by resources/tools/make_robots.py)"
                           % (robot_name, link.name))
            lines.append('    <visual>\n      <origin xyz="0 0 0" rpy="0 0 0"/>\n'
                         '      <geometry><mesh filename="%s/%s"/></geometry>\n'
                         '      <material name="%s%s"><color rgba="%s"/></material>\n    </visual>'
                         % (mesh_dir, file_name, link.name, suffix, fmt(rgba)))
        for primitive in link.collisions:
            lines.append(primitive.xml().rstrip("\n"))
        lines.append("  </link>")
    for joint in joints:
        lines.append('  <joint name="%s" type="%s">' % (joint.name, joint.kind))
        lines.append('    <parent link="%s"/>\n    <child link="%s"/>' % (joint.parent, joint.child))
        lines.append('    <origin xyz="%s" rpy="%s"/>' % (fmt(joint.xyz), fmt(joint.rpy)))
        if joint.kind != "fixed":
            lines.append('    <axis xyz="%s"/>' % fmt(joint.axis))
        if joint.kind in ("revolute", "prismatic", "continuous"):
            attributes = 'effort="%.5g" velocity="%.5g"' % (joint.effort or 10, joint.velocity or 1)
            if joint.limits is not None:
                attributes = 'lower="%.5g" upper="%.5g" ' % joint.limits + attributes
            lines.append("    <limit %s/>" % attributes)
        if joint.damping:
            lines.append('    <dynamics damping="%.5g"/>' % joint.damping)
        lines.append("  </joint>")
    lines.append("</robot>")
    with open(path, "w") as out:
        out.write("\n".join(lines) + "\n")


# --- forward kinematics over the same tables (used to place scenes and check the designs) ------

def transform(xyz, rpy):
    return (mg.rpy(*rpy), tuple(xyz))


def compose(a, b):
    ra, pa = a
    rb, pb = b
    return (mg.matmul(ra, rb), mg.add(mg.apply(ra, pb), pa))


def axis_motion(joint, q):
    if joint.kind in ("revolute", "continuous"):
        x, y, z = mg.normalized(joint.axis)
        c, s, t = math.cos(q), math.sin(q), 1 - math.cos(q)
        r = [[t * x * x + c, t * x * y - s * z, t * x * z + s * y],
             [t * x * y + s * z, t * y * y + c, t * y * z - s * x],
             [t * x * z - s * y, t * y * z + s * x, t * z * z + c]]
        return (r, (0.0, 0.0, 0.0))
    if joint.kind == "prismatic":
        return ([[1, 0, 0], [0, 1, 0], [0, 0, 1]], mg.scale(mg.normalized(joint.axis), q))
    return ([[1, 0, 0], [0, 1, 0], [0, 0, 1]], (0.0, 0.0, 0.0))


def forward_kinematics(joints, q, base=None):
    """World (or base-relative) pose of every link: {link: (R, p)}; q maps joint name -> value."""
    base = base or ([[1, 0, 0], [0, 1, 0], [0, 0, 1]], (0.0, 0.0, 0.0))
    children = {j.child for j in joints}
    roots = {j.parent for j in joints} - children
    poses = {r: base for r in roots}
    pending = list(joints)
    while pending:
        remaining = []
        for j in pending:
            if j.parent not in poses:
                remaining.append(j)
                continue
            poses[j.child] = compose(compose(poses[j.parent], transform(j.xyz, j.rpy)),
                                     axis_motion(j, q.get(j.name, 0.0)))
        if len(remaining) == len(pending):
            raise ValueError("joint tree is disconnected")
        pending = remaining
    return poses
