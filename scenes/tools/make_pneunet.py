#!/usr/bin/env python3
"""Writes scenes/pneunet.json: a PneuNet soft gripper, seed 002 Table 2 ("PneuNet"; digest
nsn-and-friction.md section 13): three FEM fingers of linear isotropic silicone (Y = 0.01 GPa,
nu = 0.47, rho = 1200 kg/m^3) inflate, curl around a rigid ball (m = 0.32 kg, mu = 0.7) and lift
it.

Each finger is resources/meshes/pneunet_finger.msh: an inextensible base strip under five chamber
blocks. The fingers hang from a hub, base strips facing the ball, 120 degrees apart; their root
nodes are attached to the hub, which a prismatic joint lifts on the script. Inflation follows the
paper: a uniform internal stress (the tetmesh `activation` of issue 5, a pressure in Pa ramped in
over `activation_ramp_time`) in every tet of the chambers, none in the base strip, so the
chambers lengthen and the finger curls toward its base strip. The seed gives no pressure; 8 MPa
(a volumetric strain of p / K = 8e6 / 5.6e7 = 14 % in the chambers, K = Y / (3 (1 - 2 nu))) is
our choice. Solver: 4 x 150 with the line search (without the line search the fingers diverged
within 0.2 s at 4 x 80; at 4 x 80 with it they diverged at 1.3-1.6 s as the pressure ramps in,
flagged by the step status `runaway`; 4 x 150 runs the whole 5 s). Not reproduced yet: the
fingers curl but do not hold the ball when the hub lifts it (ball friction 0.7 or 1.2, ball mass
0.32 or 0.1 kg alike).
Standard library only; run from anywhere.
"""
import json
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))
FINGER = os.path.join(HERE, "..", "..", "resources", "meshes", "pneunet_finger.msh")
BALL_RADIUS = 0.035  # [m]
BALL_MASS = 0.32  # [kg], seed 002 Table 2
ROOT = 0.115  # height of the fingers' roots [m]
INNER = BALL_RADIUS + 0.006  # radial distance of a base strip's inner face from the axis [m]
BASE_THICKNESS = 0.1 / 15 * 2  # z extent of the finger's base strip (make_objects.py) [m]
PRESSURE = 8e6  # [Pa], see the module comment


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
               {"name": "hub", "type": "cylinder", "material": "hub", "radius": 0.07,
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
            "activation": [{"tets": chambers, "pressure": PRESSURE}],
            "activation_ramp_time": 1.5})
    joints = [{"name": "lift", "type": "prismatic", "parent": "world", "child": "hub",
               "axis": [0, 0, 1], "limits": [0, 0.15],
               "drive": {"stiffness": 2e3, "damping": 100}}]
    script = [{"time": 2.5, "targets": {"lift": 0.0}},
              {"time": 4.0, "targets": {"lift": 0.08}}]
    scene = {
        "name": "PneuNet gripper",
        "description": "Three inflating PneuNet FEM fingers (Y 10 MPa, nu 0.47) curl toward a "
                       "0.32 kg ball; the hub lifts, the fingers do not hold the ball yet "
                       "(seed 002 Table 2)",
        "up": "z",
        "gravity": [0, 0, -9.81],
        # seed 002 Table 2 "PneuNet": 4 Newton x 80 linear iterations, dt 0.0083 s
        "solver": {"name": "nsn", "dt": 0.0083, "newton_iterations": 4, "linear_iterations": 150,
                   "line_search": True},
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
