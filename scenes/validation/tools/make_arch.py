#!/usr/bin/env python3
"""Generates scenes/validation/arch.json: a corbelled arch of 20 box blocks, and checks its statics.

Only boxes are available (wedge voussoirs need convex hulls), so the arch is corbelled: two mirrored
piers of 10 courses each. Going up, every course's inner face steps 0.09 m toward the centre and its
outer face 0.02 m, so the blocks widen upward and the two top blocks meet face to face at x = 0.

The design rule checked here: each pier stands on its own, without thrust from the other pier and
without friction. At every horizontal joint (the ground included) the centre of mass of all blocks
above must lie inside the contact face (the overlap of the two blocks' faces) with a margin of at
least 10% of the supporting block's width. Blocks are face-flush (gap 0) and must not overlap.

Standard library only. Run from anywhere: python3 scenes/validation/tools/make_arch.py
"""

import json
import os
import sys

COURSES = 10  # blocks per pier
INNER_STEP = 0.09  # inward step of the inner face per course [m]
OUTER_STEP = 0.02  # inward step of the outer face per course [m]
BOTTOM_WIDTH = 0.70  # x size of the bottom block [m]
DEPTH = 0.5  # y size of every block [m]
MIN_MARGIN = 0.10  # required COM margin, fraction of the supporting face width
FRICTION = 0.6


def height(k):
    """Course heights shrink upward, 0.24 m to 0.168 m."""
    return 0.24 - 0.008 * k


def mass(k):
    """Explicit masses, bottom heaviest: 110 kg to 20 kg (so the mass ratio is 5.5)."""
    return 110.0 - 10.0 * k


def left_pier():
    """Blocks of the left pier, bottom first: dicts with x0, x1 (x extent), z0, z1, mass."""
    inner0 = -INNER_STEP * (COURSES - 1)  # inner face of the bottom block; the top one ends at 0
    blocks = []
    z = 0.0
    for k in range(COURSES):
        x1 = inner0 + INNER_STEP * k
        x0 = inner0 - BOTTOM_WIDTH + OUTER_STEP * k
        blocks.append({"x0": x0, "x1": x1, "z0": z, "z1": z + height(k), "mass": mass(k)})
        z += height(k)
    blocks[-1]["x1"] = 0.0  # exactly at the crown
    return blocks


def mirrored(blocks):
    return [dict(b, x0=-b["x1"], x1=-b["x0"]) for b in blocks]


def check_statics(pier, label):
    """COM of the blocks above each joint against the contact face; returns the smallest margin."""
    worst = float("inf")
    for j in range(len(pier)):
        above = pier[j:]
        total = sum(b["mass"] for b in above)
        com = sum(b["mass"] * 0.5 * (b["x0"] + b["x1"]) for b in above) / total
        if j == 0:
            lo, hi = pier[0]["x0"], pier[0]["x1"]  # the ground supports the whole bottom face
            support = pier[0]["x1"] - pier[0]["x0"]
            name = "ground/0"
        else:
            below, top = pier[j - 1], pier[j]
            lo, hi = max(below["x0"], top["x0"]), min(below["x1"], top["x1"])
            support = below["x1"] - below["x0"]
            name = "%d/%d" % (j - 1, j)
        margin = min(com - lo, hi - com) / support
        worst = min(worst, margin)
        print("  %s joint %-8s above %6.1f kg  COM x %+.4f  contact [%+.4f, %+.4f]  margin %5.1f%%"
              % (label, name, total, com, lo, hi, 100 * margin))
    return worst


def check_contacts(blocks):
    """Every block rests face-flush on the ground or a block; no two blocks interpenetrate."""
    problems = []
    tol = 1e-9
    for i, b in enumerate(blocks):
        if abs(b["z0"]) > tol and not any(
                abs(c["z1"] - b["z0"]) < tol and min(c["x1"], b["x1"]) - max(c["x0"], b["x0"]) > tol
                for c in blocks):
            problems.append("block %d is not supported face to face" % i)
        for j in range(i + 1, len(blocks)):
            c = blocks[j]
            overlap_x = min(b["x1"], c["x1"]) - max(b["x0"], c["x0"])
            overlap_z = min(b["z1"], c["z1"]) - max(b["z0"], c["z0"])
            if overlap_x > tol and overlap_z > tol:
                problems.append("blocks %d and %d overlap" % (i, j))
    return problems


def scene(left, right):
    """The scene as an ordered dict; one material "contact" for blocks and ground, so
    materials.contact.friction sets μ everywhere."""
    stone = ([0.68, 0.64, 0.56], [0.74, 0.70, 0.62])  # alternating course colours

    def block(name, k, b):
        return {
            "name": name,
            "type": "box",
            "material": "contact",
            "color": stone[k % 2],
            "size": [round(b["x1"] - b["x0"], 9), DEPTH, round(b["z1"] - b["z0"], 9)],
            "position": [round(0.5 * (b["x0"] + b["x1"]), 9), 0,
                         round(0.5 * (b["z0"] + b["z1"]), 9)],
            "mass": b["mass"],
        }

    objects = [{"name": "ground", "type": "plane", "material": "contact",
                "color": [0.28, 0.30, 0.33]}]
    objects += [block("left_%d" % k, k, b) for k, b in enumerate(left)]
    objects += [block("right_%d" % k, k, b) for k, b in enumerate(right)]
    rise = left[-1]["z1"]
    return {
        "name": "Corbelled arch (validation)",
        "description": "20 blocks in two self-standing corbelled piers meeting at the crown; "
                       "friction 0.6, 110 kg (bottom) to 20 kg (top) blocks; must stay at rest",
        "up": "z",
        "gravity": [0, 0, -9.81],
        "solver": {"name": "nsn", "dt": 1.0 / 120.0, "newton_iterations": 6,
                   "linear_iterations": 20},
        "camera": {"target": [0, 0, round(0.5 * rise, 3)], "distance": 7, "yaw_deg": -70,
                   "pitch_deg": 12, "fov_deg": 45},
        "materials": {"contact": {"friction": FRICTION, "color": [0.70, 0.66, 0.58]}},
        "objects": objects,
    }


def to_text(data):
    """JSON with one top-level key per line and one object per line (short, diffable)."""
    lines = []
    for key, value in data.items():
        if key == "objects":
            items = ",\n".join("    " + json.dumps(o) for o in value)
            lines.append('  "objects": [\n' + items + "\n  ]")
        else:
            lines.append("  " + json.dumps(key) + ": " + json.dumps(value))
    return "{\n" + ",\n".join(lines) + "\n}\n"


HEADER = """\
// Validation scene: a self-supporting corbelled arch of 20 box blocks (generated by
// tools/make_arch.py; edit the script, not this file).
//
// Two mirrored piers of 10 courses. Going up, each course's inner face steps 0.09 m toward the
// centre and its outer face 0.02 m, so the blocks widen upward (0.70 m to 1.33 m) and the two top
// blocks meet face to face at x = 0 (gap 0). Course heights 0.24 m to 0.168 m (rise 2.04 m, clear
// span 1.62 m at the ground), depth 0.5 m. Masses are explicit: 110 kg at the bottom down to 20 kg
// at the top (10 kg per course).
//
// Reference: static equilibrium. Each pier stands on its own, with neither crown thrust nor
// friction: at every horizontal joint the centre of mass of the blocks above lies inside the
// contact face with a margin of at least 10%% of the supporting block's width (smallest margin
// %(margin).1f%%, see the script's output). So the exact solution is rest with zero tangential
// contact force; any sliding, tilting or creep is solver error. Friction 0.6 everywhere (material
// "contact", ground included; override with materials.contact.friction), dt 1/120 s, 6 Newton
// iterations of 20 linear iterations.
"""


def main():
    left = left_pier()
    right = mirrored(left)
    print("corbelled arch: %d blocks" % (len(left) + len(right)))
    for k, b in enumerate(left):
        print("  course %d: width %.3f m  height %.3f m  x [%+.3f, %+.3f]  z [%.3f, %.3f]  %5.1f kg"
              % (k, b["x1"] - b["x0"], b["z1"] - b["z0"], b["x0"], b["x1"], b["z0"], b["z1"],
                 b["mass"]))
    print("statics of each pier on its own (margin: COM to the nearer contact-face edge / "
          "supporting width):")
    worst = min(check_statics(left, "left "), check_statics(right, "right"))
    problems = check_contacts(left + right)
    masses = [b["mass"] for b in left + right]
    if min(masses) < 15 or max(masses) > 110:
        problems.append("masses outside [15, 110] kg")
    if worst < MIN_MARGIN:
        problems.append("smallest COM margin %.1f%% is below %.0f%%"
                        % (100 * worst, 100 * MIN_MARGIN))
    print("smallest margin %.1f%% (required %.0f%%); face-flush, no overlaps, masses in [15, 110] "
          "kg: %s" % (100 * worst, 100 * MIN_MARGIN, "no" if problems else "yes"))
    for p in problems:
        print("error: " + p, file=sys.stderr)
    if problems:
        return 1

    text = to_text(scene(left, right))
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "arch.json")
    with open(out, "w") as f:
        f.write(HEADER % {"margin": 100 * worst})
        f.write(text)
    print("wrote " + os.path.normpath(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
