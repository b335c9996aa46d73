#!/usr/bin/env python3
"""Writes scenes/table_pile.json: 54 tables (4.7 kg, mu = 0.7) dropped into a pile (seed 002 Table 2,
"Table Pile": 54 bodies, 0 joints, non-convex objects; digest nsn-and-friction.md sections 13-14).

Each table is one rigid body of five boxes (a compound object): a 0.6 x 0.4 x 0.03 m top on four
0.04 x 0.04 x 0.30 m legs, 4.7 kg in all, so the pile interlocks the way non-convex shapes do. The
tables start in six layers of nine on a 3 x 3 grid, each turned and tilted by a deterministic
random angle, and fall onto the ground. Each table starts 5 mm clear of the ground and of every
table placed before it (raised from its layer's height where it would not be), so the pile begins
without interpenetration. Standard library only; run from anywhere.
"""
import itertools
import json
import math
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


def rotation(rpy_deg):
    """R = Rz(yaw) Ry(pitch) Rx(roll), the scene format's rpy_deg."""
    r, p, y = (math.radians(a) for a in rpy_deg)
    cr, sr, cp, sp = math.cos(r), math.sin(r), math.cos(p), math.sin(p)
    cy, sy = math.cos(y), math.sin(y)
    return [[cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
            [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
            [-sp, cp * sr, cp * cr]]


def world_boxes(shapes, rpy_deg, position):
    """Each box as (centre, axes (columns of R), half sizes) in the world."""
    rot = rotation(rpy_deg)
    boxes = []
    for shape in shapes:
        c = shape["position"]
        centre = [position[i] + sum(rot[i][k] * c[k] for k in range(3)) for i in range(3)]
        axes = [[rot[i][k] for i in range(3)] for k in range(3)]
        boxes.append((centre, axes, [size / 2 for size in shape["size"]]))
    return boxes


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def boxes_overlap(a, b, margin):
    """Separating-axis test of two boxes grown by `margin` [m]: False when an axis separates."""
    d = [b[0][i] - a[0][i] for i in range(3)]
    axes = a[1] + b[1] + [cross(u, v) for u in a[1] for v in b[1]]
    for axis in axes:
        length = math.sqrt(dot(axis, axis))
        if length < 1e-9:
            continue
        n = [x / length for x in axis]
        reach = sum(h * abs(dot(u, n)) for u, h in zip(a[1], a[2])) + \
            sum(h * abs(dot(u, n)) for u, h in zip(b[1], b[2]))
        if abs(dot(d, n)) > reach + margin:
            return False
    return True


def lowest_point(boxes):
    return min(c[2] - sum(h * abs(u[2]) for u, h in zip(axes, half)) for c, axes, half in boxes)


def main():
    rng = random.Random(54)
    objects = [{"name": "ground", "type": "plane", "material": "floor"}]
    origin = -(ROWS - 1) * SPACING / 2
    placed = []  # the world boxes of every table so far
    for layer in range(LAYERS):
        for row in range(ROWS):
            for column in range(ROWS):
                index = len(objects) - 1
                x = round(origin + column * SPACING + rng.uniform(-0.08, 0.08), 4)
                y = round(origin + row * SPACING + rng.uniform(-0.08, 0.08), 4)
                rpy = [round(rng.uniform(-25, 25), 1), round(rng.uniform(-25, 25), 1),
                       round(rng.uniform(0, 180), 1)]
                # the layer's height, raised in 1 cm steps until the table is 5 mm clear of the
                # ground and of every table placed before it
                z = 0.05 + layer * LAYER_HEIGHT
                while True:
                    boxes = world_boxes(table_shapes(), rpy, (x, y, z))
                    if lowest_point(boxes) >= 0.005 and not any(
                            boxes_overlap(a, b, 0.005) for a in boxes for other in placed
                            for b in other):
                        break
                    z += 0.01
                z = round(z, 4)
                placed.append(world_boxes(table_shapes(), rpy, (x, y, z)))
                objects.append({
                    "name": f"table_{index:02d}", "type": "compound", "material": "wood",
                    "mass": MASS, "color": COLORS[index % len(COLORS)],
                    "position": [x, y, z], "rpy_deg": rpy, "shapes": table_shapes()})
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
