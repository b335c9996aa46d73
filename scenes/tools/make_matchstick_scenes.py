#!/usr/bin/env python3
"""Writes the chapter-3 (Matchstick friction) scenes of seed 000 with isotropic friction
(digest nsn-and-friction.md section 14.3; the chapter gives no numbers, so every value here is
ours). Painted structure fields and anisotropic friction come in a later issue; until then these
scenes show the isotropic baseline the anisotropic runs are compared with:

sliding_boxes.json  boxes launched across a plane in different directions (figure 6: channeling,
                    spreading, slaloming with structure fields); isotropic friction keeps every
                    path straight.
log_slide.json      logs slide down a sloped ravine toward a cube-shaped building (figures 7-8:
                    the field steers them toward or around it).
Standard library only; run from anywhere.
"""
import json
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def write(name, scene):
    with open(os.path.join(HERE, "..", name + ".json"), "w") as out:
        json.dump(scene, out, indent=1)
        out.write("\n")


def sliding_boxes():
    objects = [{"name": "ground", "type": "plane", "material": "field"}]
    colors = [[0.85, 0.30, 0.20], [0.95, 0.70, 0.20], [0.30, 0.65, 0.35], [0.20, 0.50, 0.85],
              [0.55, 0.35, 0.75], [0.90, 0.45, 0.65]]
    for k in range(6):
        heading = math.radians(-25 + 10 * k)
        speed = 3.0 + 0.3 * k  # [m/s]: mu g = 2.9 m/s^2 stops them within 1.6-3.5 m
        objects.append({"name": f"box{k}", "type": "box", "material": "box", "color": colors[k],
                        "size": [0.2, 0.2, 0.1], "position": [-2.0, (k - 2.5) * 0.35, 0.05],
                        "rpy_deg": [0, 0, math.degrees(heading)],
                        "velocity": [round(speed * math.cos(heading), 4),
                                     round(speed * math.sin(heading), 4), 0]})
    return {
        "name": "Sliding boxes",
        "description": "Six boxes launched across a plane in a fan of directions (seed 000 chapter "
                       "3; isotropic friction until painted structure fields come)",
        "up": "z", "gravity": [0, 0, -9.81],
        "solver": {"name": "nsn", "dt": 0.0083, "newton_iterations": 6, "linear_iterations": 20},
        "camera": {"target": [0, 0, 0], "distance": 5.5, "yaw_deg": -60, "pitch_deg": 45,
                   "fov_deg": 45},
        "materials": {"field": {"friction": 0.3, "color": [0.55, 0.60, 0.50]},
                      "box": {"friction": 0.3, "density": 500}},
        "objects": objects,
    }


def log_slide():
    slope = 20.0  # the ravine's fall [deg]
    length = 8.0  # [m]
    width = 1.4  # between the ravine's walls [m]
    s, c = math.sin(math.radians(slope)), math.cos(math.radians(slope))
    objects = [{"name": "ground", "type": "plane", "material": "ground"}]
    # the ravine: a slab falling toward +x between two walls (its top face's centre at `centre`)
    centre = length / 2 * s + 0.05
    objects.append({"name": "ravine", "type": "compound", "fixed": True, "material": "slope",
                    "position": [0, 0, centre], "rpy_deg": [0, slope, 0],
                    "shapes": [{"type": "box", "size": [length, width + 0.4, 0.1],
                                "position": [0, 0, -0.05]},
                               {"type": "box", "size": [length, 0.2, 0.5],
                                "position": [0, (width + 0.2) / 2, 0.25]},
                               {"type": "box", "size": [length, 0.2, 0.5],
                                "position": [0, -(width + 0.2) / 2, 0.25]}]})
    # a cube-shaped building at the foot of the ravine
    foot = length / 2 * c + 1.2
    objects.append({"name": "building", "type": "box", "fixed": True, "material": "building",
                    "size": [1.2, 1.2, 1.2], "position": [foot, 0, 0.6]})
    for k in range(4):
        along = -length / 2 + 0.9 + 1.0 * k  # distance along the slab from its centre [m]
        across = 0.35 * (k % 2 - 0.5)
        # lying on the slab, axis along the fall line, 1 cm above it
        x = along * c + 0.13 * s
        z = centre - along * s + 0.13 * c
        objects.append({"name": f"log{k}", "type": "cylinder", "material": "log",
                        "radius": 0.12, "length": 1.0,
                        "position": [round(x, 4), round(across, 4), round(z, 4)],
                        "rpy_deg": [0, 90 + slope, 0]})
    return {
        "name": "Log slide",
        "description": "Logs slide down a sloped ravine toward a cube-shaped building (seed 000 "
                       "chapter 3; isotropic friction until painted structure fields come)",
        "up": "z", "gravity": [0, 0, -9.81],
        "solver": {"name": "nsn", "dt": 0.0083, "newton_iterations": 6, "linear_iterations": 20},
        "camera": {"target": [1.0, 0, 1.0], "distance": 11, "yaw_deg": -120, "pitch_deg": 30,
                   "fov_deg": 45},
        "materials": {"ground": {"friction": 0.6, "color": [0.45, 0.50, 0.40]},
                      "slope": {"friction": 0.25, "color": [0.55, 0.48, 0.38]},
                      "building": {"friction": 0.5, "color": [0.80, 0.78, 0.72]},
                      "log": {"friction": 0.25, "density": 600, "color": [0.55, 0.35, 0.20]}},
        "objects": objects,
    }


def main():
    write("sliding_boxes", sliding_boxes())
    write("log_slide", log_slide())


if __name__ == "__main__":
    main()
