#!/usr/bin/env python3
"""Writes scenes/pneunet.json: a PneuNet soft gripper, seed 002 Table 2 ("PneuNet"; digest
nsn-and-friction.md section 13): three FEM fingers of linear isotropic silicone (Y = 0.01 GPa,
nu = 0.47, rho = 1200 kg/m^3) inflate, curl around a rigid ball (m = 0.32 kg, mu = 0.7) and lift
it.

Each finger is resources/meshes/pneunet_finger.msh: an inextensible base strip under five chamber
blocks. The fingers hang from a hub, base strips facing the ball, 120 degrees apart; their root
nodes are attached to the hub, which a prismatic joint lifts on the script. Inflation: the paper
adds "a uniform internal volumetric stress" to the tets of the chambers; the seed gives no
formula (digest errata 17, implementer's choice). Ours is activation growth (the tetmesh
`activation` `stretch` along a `direction`): the chamber tets' rest length along the finger grows
by STRETCH, ramped in over ACTIVATION_RAMP, as the inflated chambers push their walls apart
along the finger, so the chamber side lengthens against the base strip and the finger curls
like a bimetal strip. (An isotropic pressure, Psi = -p (J - 1), bent the fingers only about 10
degrees at p / K = 14 % and destabilized the solve beyond.) The ball's radius is not in the
paper; 45 mm makes the fingers' distal halves close around its lower half.
Solver: 4 Newton x 10 inner iterations with the woodbury FEM preconditioner (the exact inverse of
the element block; c dt / h = 248 for these fingers, and Table 2's 4 x 80 with the Jacobi
preconditioner leaves the stiff fingers' bending unconverged: they swing and let the ball go;
4 x 20 gives the same lift). Timeline: the chambers inflate over the first second, the hub
lifts 8 cm from 1.5 s to 2.5 s.
Standard library only; run from anywhere.
"""
import json
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))
FINGER = os.path.join(HERE, "..", "..", "resources", "meshes", "pneunet_finger.msh")
BALL_RADIUS = 0.045  # [m], our choice (see the module comment)
BALL_MASS = 0.32  # [kg], seed 002 Table 2
ROOT = 0.11  # height of the fingers' roots: their tips hang 1 cm above the ground [m]
INNER = BALL_RADIUS + 0.006  # radial distance of a base strip's inner face from the axis [m]
BASE_THICKNESS = 0.1 / 15 * 2  # z extent of the finger's base strip (make_objects.py) [m]
STRETCH = 1.3  # growth of the chamber tets along the finger [-], see the module comment
ACTIVATION_RAMP = 1.0  # [s]


def chamber_tets():
    """0-based indices of the finger's tets above its base strip (their centroid's z)."""
    nodes, tets, section = [], [], None
    with open(FINGER) as f:
        lines = iter(f.read().split("\n"))
    for line in lines:
        if line.startswith("$") and not line.startswith("$End"):
            section = line
            if section in ("$Nodes", "$Elements"):
                next(lines)  # the count
            continue
        if section == "$Nodes" and line and not line.startswith("$"):
            nodes.append(tuple(float(v) for v in line.split()[1:4]))
        elif section == "$Elements" and line and not line.startswith("$"):
            tets.append([int(v) - 1 for v in line.split()[5:9]])
    return [t for t, tet in enumerate(tets)
            if sum(nodes[i][2] for i in tet) / 4 > BASE_THICKNESS + 1e-9]


def quaternion(columns):
    """w, x, y, z of the rotation whose matrix has the given columns."""
    r = [[columns[c][row] for c in range(3)] for row in range(3)]
    w = math.sqrt(max(0.0, 1 + r[0][0] + r[1][1] + r[2][2])) / 2
    return [round(w, 8), round((r[2][1] - r[1][2]) / (4 * w), 8),
            round((r[0][2] - r[2][0]) / (4 * w), 8), round((r[1][0] - r[0][1]) / (4 * w), 8)]


def main():
    chambers = chamber_tets()
    objects = [{"name": "ground", "type": "plane", "material": "floor"},
               {"name": "ball", "type": "sphere", "material": "ball", "radius": BALL_RADIUS,
                "mass": BALL_MASS, "position": [0, 0, BALL_RADIUS]},
               {"name": "hub", "type": "cylinder", "material": "hub", "radius": 0.085,
                "length": 0.02, "mass": 0.5, "position": [0, 0, ROOT + 0.012]}]
    for k in range(3):
        phi = math.radians(90 + 120 * k)
        radial = (math.cos(phi), math.sin(phi), 0.0)
        tangent = (-math.sin(phi), math.cos(phi), 0.0)
        # finger x (its length) points down, its z (base strip to chambers) points outward
        q = quaternion([(0.0, 0.0, -1.0), tangent, radial])
        origin = [round(INNER * radial[0], 6), round(INNER * radial[1], 6), ROOT]
        objects.append({
            "name": f"finger{k}", "type": "tetmesh",
            "file": "../resources/meshes/pneunet_finger.msh", "material": "silicone",
            "position": origin, "quaternion_wxyz": q,
            "youngs_modulus": 1e7, "poisson_ratio": 0.47, "density": 1200,
            "material_model": "corotational",
            # the root nodes (finger x = 0) hang from the hub
            "attachments": [{"body": "hub", "box": {"min": [-1, -1, ROOT - 0.001],
                                                     "max": [1, 1, ROOT + 0.001]}}],
            # the finger's length is its mesh x
            "activation": [{"tets": chambers, "stretch": STRETCH, "direction": [1, 0, 0]}],
            "activation_ramp_time": ACTIVATION_RAMP})
    joints = [{"name": "lift", "type": "prismatic", "parent": "world", "child": "hub",
               "axis": [0, 0, 1], "limits": [0, 0.15],
               "drive": {"stiffness": 2e3, "damping": 100}}]
    script = [{"time": 1.5, "targets": {"lift": 0.0}},
              {"time": 2.5, "targets": {"lift": 0.08}}]
    scene = {
        "name": "PneuNet gripper",
        "description": "Three inflating PneuNet FEM fingers (Y 10 MPa, nu 0.47) curl around a "
                       "0.32 kg ball and lift it 7.5 cm (seed 002 Table 2)",
        "up": "z",
        "gravity": [0, 0, -9.81],
        # seed 002 Table 2 "PneuNet": dt 0.0083 s, 4 Newton iterations (its 80 Jacobi-preconditioned
        # inner iterations: 10 with the exact element block, see the module comment)
        "solver": {"name": "nsn", "dt": 0.0083, "newton_iterations": 4, "linear_iterations": 10,
                   "line_search": True, "fem_preconditioner": "woodbury"},
        "camera": {"target": [0, 0, 0.08], "distance": 0.5, "yaw_deg": 30, "pitch_deg": 20,
                   "fov_deg": 45},
        "materials": {"floor": {"friction": 0.7, "color": [0.45, 0.47, 0.50]},
                      "ball": {"friction": 0.7, "color": [0.90, 0.30, 0.20]},
                      "hub": {"friction": 0.7, "color": [0.30, 0.32, 0.36]},
                      "silicone": {"friction": 0.7, "density": 1200,
                                   "color": [0.92, 0.92, 0.88]}},
        "objects": objects,
        "joints": joints,
        "script": script,
    }
    with open(os.path.join(HERE, "..", "pneunet.json"), "w") as out:
        json.dump(scene, out, indent=1)
        out.write("\n")


if __name__ == "__main__":
    main()
