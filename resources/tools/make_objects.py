#!/usr/bin/env python3
"""Writes the project's own object meshes into resources/meshes/ (standard library only):

  tomato.msh          the Fetch scene's tomato: a slightly flattened ball (35 mm radius, 30 mm
                      half height), 384 tets (Gmsh 2.2 ASCII)
  soft_ball.msh       the Allegro scene's ball (40 mm radius), 384 tets
  pneunet_finger.msh  a PneuNet finger: an inextensible base strip under five chamber blocks,
                      100 x 20 x 27 mm, 900 tets
  gel_sheet.msh       a soft 160 x 160 x 16 mm sheet, 3072 tets (the Allegro stroking scene)
  grasp/*.obj         closed convex pieces of the irregular objects of the Allegro grasping scene
                      (a five-pointed star: core and spike; a ring: one of eight sectors; a
                      lumpy rock: two pebbles); the scene unites them into non-convex compounds

Tet meshes come from a structured hexahedral grid, every cube cut into six tets around its main
diagonal (Kuhn's subdivision, which is conforming across faces), then mapped: the balls with the
elliptical cube-to-ball map x' = x sqrt(1 - y^2/2 - z^2/2 + y^2 z^2 / 3) (and cyclic), which
keeps the tets well shaped; the finger and the sheet are unions of grid cubes. Every tet is
written positively oriented. Run from anywhere: python3 resources/tools/make_objects.py
"""
import itertools
import math
import os

import meshgen as mg

MESHES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "meshes")


# --- tetrahedral meshes ------------------------------------------------------------------------

def signed_volume(a, b, c, d):
    return mg.dot(mg.sub(b, a), mg.cross(mg.sub(c, a), mg.sub(d, a))) / 6


def voxel_tets(cells):
    """Nodes and tets of a set of unit grid cubes {(i, j, k)}: six Kuhn tets per cube."""
    index, nodes, tets = {}, [], []

    def node(p):
        if p not in index:
            index[p] = len(nodes)
            nodes.append(p)
        return index[p]
    for (i, j, k) in sorted(cells):
        for order in itertools.permutations(range(3)):
            corner = [i, j, k]
            path = [tuple(corner)]
            for axis in order:
                corner[axis] += 1
                path.append(tuple(corner))
            tets.append(tuple(node(p) for p in path))
    return nodes, tets


def orient(nodes, tets):
    """Every tet positively oriented; returns the smallest volume (must be > 0)."""
    out, smallest = [], float("inf")
    for t in tets:
        v = signed_volume(*(nodes[i] for i in t))
        if v < 0:
            t = (t[0], t[2], t[1], t[3])
            v = -v
        smallest = min(smallest, v)
        out.append(t)
    return out, smallest


def write_msh(path, nodes, tets, header):
    with open(path, "w") as out:
        out.write("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n")
        out.write("$Comments\n")
        for line in header.splitlines():
            out.write(line + "\n")
        out.write("$EndComments\n")
        out.write("$Nodes\n%d\n" % len(nodes))
        for n, p in enumerate(nodes):
            out.write("%d %.7g %.7g %.7g\n" % (n + 1, p[0], p[1], p[2]))
        out.write("$EndNodes\n$Elements\n%d\n" % len(tets))
        for e, t in enumerate(tets):
            out.write("%d 4 2 1 1 %d %d %d %d\n" % (e + 1, t[0] + 1, t[1] + 1, t[2] + 1, t[3] + 1))
        out.write("$EndElements\n")


def ball(radius, height_scale, cells):
    """A ball of `cells`^3 cubes mapped onto radius (z scaled by height_scale) [m]."""
    grid = {(i, j, k) for i in range(cells) for j in range(cells) for k in range(cells)}
    nodes, tets = voxel_tets(grid)
    mapped = []
    for p in nodes:
        x, y, z = (2 * c / cells - 1 for c in p)
        bx = x * math.sqrt(max(0.0, 1 - y * y / 2 - z * z / 2 + y * y * z * z / 3))
        by = y * math.sqrt(max(0.0, 1 - z * z / 2 - x * x / 2 + z * z * x * x / 3))
        bz = z * math.sqrt(max(0.0, 1 - x * x / 2 - y * y / 2 + x * x * y * y / 3))
        mapped.append((radius * bx, radius * by, radius * bz * height_scale))
    return mapped, tets


def pneunet_finger():
    """Finger along +x from 0 to 0.1 m, base strip (z in [0, 2h]) under five chamber blocks
    (z in [2h, 4h]) separated by one-cell gaps; y across the 20 mm width. h = 0.1 / 15 m."""
    h = 0.1 / 15
    cells = set()
    for i in range(15):
        for j in range(3):
            for k in range(2):
                cells.add((i, j, k))
            if i % 3 != 0:  # chambers: cells 1-2, 4-5, ..., 13-14 along x
                for k in range(2, 4):
                    cells.add((i, j, k))
    nodes, tets = voxel_tets(cells)
    return [(p[0] * h, (p[1] - 1.5) * h, p[2] * h) for p in nodes], tets


def sheet(size, thickness, cells_xy, cells_z):
    cells = {(i, j, k) for i in range(cells_xy) for j in range(cells_xy) for k in range(cells_z)}
    nodes, tets = voxel_tets(cells)
    hx = size / cells_xy
    hz = thickness / cells_z
    return [((p[0] - cells_xy / 2) * hx, (p[1] - cells_xy / 2) * hx, p[2] * hz) for p in nodes], tets


# --- irregular objects as unions of convex pieces -------------------------------------------------
# Each non-convex grasp object is a compound of closed convex pieces (a convex decomposition), so
# every contact goes through the robust convex-hull narrow phase: with the present collision
# library a non-convex triangle mesh colliding through its SDF rocks on a plane and makes
# contacts far from the hand's boxes (measured), while few-faced convex hulls rest. The scenes
# place the pieces with the rotations written next to each file.

STAR_OUTER, STAR_INNER, STAR_HEIGHT = 0.042, 0.018, 0.026  # [m]
RING_MAJOR, RING_MINOR_HALF, RING_HEIGHT, RING_SEGMENTS = 0.030, 0.011, 0.022, 8  # [m]


def star_core():
    corners = [(STAR_INNER * math.cos(math.pi / 2 + math.pi / 5 + k * 2 * math.pi / 5),
                STAR_INNER * math.sin(math.pi / 2 + math.pi / 5 + k * 2 * math.pi / 5))
               for k in range(5)]
    return mg.extrude(corners, STAR_HEIGHT, -STAR_HEIGHT / 2).weld_all()


def star_spike():
    """The spike pointing along +y; the scene turns copies by 72 degrees about z."""
    a0, a1 = math.pi / 2 - math.pi / 5, math.pi / 2 + math.pi / 5
    tri = [(STAR_INNER * math.cos(a0), STAR_INNER * math.sin(a0)), (0.0, STAR_OUTER),
           (STAR_INNER * math.cos(a1), STAR_INNER * math.sin(a1))]
    center = (sum(p[0] for p in tri) / 3, sum(p[1] for p in tri) / 3)
    return mg.extrude(tri, STAR_HEIGHT, -STAR_HEIGHT / 2, center).weld_all()


def ring_segment():
    """One of eight annulus sectors (centred on +x); the scene turns copies by 45 degrees."""
    half = math.pi / RING_SEGMENTS
    r0, r1 = RING_MAJOR - RING_MINOR_HALF, RING_MAJOR + RING_MINOR_HALF
    quad = [(r0 * math.cos(-half), r0 * math.sin(-half)), (r1 * math.cos(-half), r1 * math.sin(-half)),
            (r1 * math.cos(half), r1 * math.sin(half)), (r0 * math.cos(half), r0 * math.sin(half))]
    return mg.extrude(quad, RING_HEIGHT, -RING_HEIGHT / 2, (RING_MAJOR, 0.0)).weld_all()


def rock_piece(seed):
    """A lumpy convex-ish pebble: an icosahedron with its vertices pushed in and out."""
    def bumps(d):
        x, y, z = d
        return 0.25 * math.sin(3 * x + seed) * math.cos(2 * y - seed) - 0.25 * z * z + 0.1 * seed * x
    return mg.displaced_sphere(0.022, bumps, 0).weld_all()


GRASP_PIECES = {
    "star_core": star_core, "star_spike": star_spike, "ring_segment": ring_segment,
    "rock_a": lambda: rock_piece(0.3), "rock_b": lambda: rock_piece(1.7),
}


def main():
    os.makedirs(MESHES, exist_ok=True)
    tet_meshes = {
        "tomato": (ball(0.035, 30 / 35, 4),
                   "Tomato for scenes/fetch_tomato.json: 35 mm radius, 30 mm half height.\n"
                   "Generated by resources/tools/make_objects.py (elliptical cube-to-ball map)."),
        "soft_ball": (ball(0.040, 1.0, 4),
                      "Soft ball for scenes/allegro_ball.json: 40 mm radius.\n"
                      "Generated by resources/tools/make_objects.py (elliptical cube-to-ball map)."),
        "pneunet_finger": (pneunet_finger(),
                           "PneuNet finger for scenes/pneunet.json: 100 x 20 x 27 mm, base strip\n"
                           "z in [0, 13.3] mm under five chamber blocks z in [13.3, 26.7] mm.\n"
                           "Generated by resources/tools/make_objects.py (grid cubes, 6 tets each)."),
        "gel_sheet": (sheet(0.16, 0.016, 16, 2),
                      "Soft sheet for scenes/allegro_gel.json: 160 x 160 x 16 mm.\n"
                      "Generated by resources/tools/make_objects.py (grid cubes, 6 tets each)."),
    }
    for name, ((nodes, tets), header) in tet_meshes.items():
        tets, smallest = orient(nodes, tets)
        if smallest <= 0:
            raise SystemExit(f"{name}: a degenerate tet ({smallest})")
        write_msh(os.path.join(MESHES, name + ".msh"), nodes, tets, header)
        volume = sum(signed_volume(*(nodes[i] for i in t)) for t in tets)
        print(f"{name}.msh: {len(nodes)} nodes, {len(tets)} tets, volume {volume * 1e6:.2f} cm^3, "
              f"smallest tet {smallest * 1e9:.3f} mm^3")
    os.makedirs(os.path.join(MESHES, "grasp"), exist_ok=True)
    for name, build in GRASP_PIECES.items():
        mesh = build()
        if not mesh.is_closed() or mesh.volume() <= 0:
            raise SystemExit(f"grasp/{name}: not a closed, outward surface")
        mesh.write_obj(os.path.join(MESHES, "grasp", f"{name}.obj"),
                       f"grasp/{name}: convex piece of an irregular object for "
                       "scenes/allegro_grasp.json\ngenerated by resources/tools/make_objects.py")
        lo, hi = mesh.bounds()
        print(f"grasp/{name}.obj: {len(mesh.triangles)} triangles, volume "
              f"{mesh.volume() * 1e6:.1f} cm^3, size "
              + " x ".join(f"{(hi[i] - lo[i]) * 1000:.0f}" for i in range(3)) + " mm")


if __name__ == "__main__":
    main()
