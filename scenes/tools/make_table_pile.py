#!/usr/bin/env python3
"""Writes scenes/table_pile.json: 54 tables (4.7 kg, mu = 0.7) dropped into a pile (seed 002 Table 2,
"Table Pile": 54 bodies, 0 joints, non-convex objects; digest nsn-and-friction.md sections 13-14).

Each table is one rigid body of five boxes (a compound object): a 0.6 x 0.4 x 0.03 m top on four
0.04 x 0.04 x 0.30 m legs, 4.7 kg in all, so the pile interlocks the way non-convex shapes do. The
tables start in six layers of nine on a 3 x 3 grid, each turned and tilted by a deterministic
random angle, and fall onto the ground. Standard library only; run from anywhere.
"""
import json
import os
import random

TOP = (0.6, 0.4, 0.03)  # [m]
LEG = (0.04, 0.04, 0.30)  # [m]
MASS = 4.7  # [kg], seed 002 Table 2
FRICTION = 0.7  # seed 002 Table 2
LAYERS, ROWS = 6, 3
SPACING = 0.75  # grid pitch [m]
LAYER_HEIGHT = 0.45  # [m]
COLORS = [[0.72, 0.50, 0.30], [0.60, 0.40, 0.24], [0.80, 0.62, 0.40]]


def table_shapes():
    """Top above four legs; the object's origin is at the foot of the legs."""
    top_z = LEG[2] + TOP[2] / 2
    shapes = [{"type": "box", "size": list(TOP), "position": [0, 0, top_z]}]
    x = TOP[0] / 2 - LEG[0] / 2 - 0.02
    y = TOP[1] / 2 - LEG[1] / 2 - 0.02
    for sx in (-1, 1):
        for sy in (-1, 1):
            shapes.append({"type": "box", "size": list(LEG),
                           "position": [round(sx * x, 4), round(sy * y, 4), LEG[2] / 2]})
    return shapes


def main():
    rng = random.Random(54)
    objects = [{"name": "ground", "type": "plane", "material": "floor"}]
    origin = -(ROWS - 1) * SPACING / 2
    for layer in range(LAYERS):
        for row in range(ROWS):
            for column in range(ROWS):
                index = len(objects) - 1
                objects.append({
                    "name": f"table_{index:02d}", "type": "compound", "material": "wood",
                    "mass": MASS, "color": COLORS[index % len(COLORS)],
                    "position": [round(origin + column * SPACING + rng.uniform(-0.08, 0.08), 4),
                                 round(origin + row * SPACING + rng.uniform(-0.08, 0.08), 4),
                                 round(0.05 + layer * LAYER_HEIGHT, 4)],
                    "rpy_deg": [round(rng.uniform(-25, 25), 1), round(rng.uniform(-25, 25), 1),
                                round(rng.uniform(0, 180), 1)],
                    "shapes": table_shapes()})
    scene = {
        "name": "Table pile",
        "description": "54 tables (4.7 kg, five boxes each, mu 0.7) fall into an interlocking pile "
                       "(seed 002 Table 2)",
        "up": "z",
        "gravity": [0, 0, -9.81],
        # seed 002 Table 2: dt 0.0083 s, 4 Newton x 20 linear iterations
        "solver": {"name": "nsn", "dt": 0.0083, "newton_iterations": 4, "linear_iterations": 20},
        "camera": {"target": [0, 0, 0.6], "distance": 5.5, "yaw_deg": 35, "pitch_deg": 30,
                   "fov_deg": 45},
        "materials": {"floor": {"friction": FRICTION, "color": [0.45, 0.47, 0.50]},
                      "wood": {"friction": FRICTION, "density": 600}},
        "objects": objects,
    }
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "table_pile.json")
    with open(path, "w") as out:
        json.dump(scene, out, indent=1)
        out.write("\n")


if __name__ == "__main__":
    main()
