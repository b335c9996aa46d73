#!/usr/bin/env python3
"""Writes scenes/humanoids.json: many humanoids (resources/robots/humanoid, 13 bodies and 12
joints each) standing on the ground in one solve, squatting and raising their arms on a script.

Seed 002 Table 2 "Humanoid Run" solves 5200 bodies / 4800 joints (400 humanoids of 13 bodies,
digest nsn-and-friction.md section 14.1) in one system on a GPU. This scene uses the same
per-humanoid structure and time step (dt 0.0083 s, 4 Newton iterations) with COUNT humanoids,
sized so one step stays interactive on a 2-core CPU; raise COUNT for larger runs
(`python3 scenes/tools/make_humanoids.py 400 /tmp/humanoids_400.json`). It takes 20 linear (PCR)
iterations per Newton iteration where the paper took 10: with 10, the drives of 25 humanoids in
one global Krylov solve lag enough that 5 to 10 of them fall during the squats (measured); with
20 all of them stay up.

The humanoids are free-floating (no fixed base), held by joint drives (hold_pose), their feet
flat on the ground. The script keeps hip + knee + ankle = 0, so the feet stay flat and the
pelvis stays above the ankles. Standard library only; run from anywhere.
"""
import json
import math
import os
import sys

COUNT = 25
SPACING = 1.7  # [m]: outstretched arms (0.6 m) of neighbours never meet
# start: knees slightly bent (hip, knee, ankle) [rad]; pelvis height above the soles then is
# 0.07 + 2 * 0.42 cos(0.2) + 0.08 m (hip offset, thigh and shin, ankle to sole; robots README)
BEND = 0.2
PELVIS_Z = 0.07 + 2 * 0.42 * math.cos(BEND) + 0.08 + 0.002


def pose(squat, arms, bow):
    """Targets for all humanoids: squat depth (hip angle), arm raise, waist bow [rad]."""
    return {"*/hip_l": -squat, "*/hip_r": -squat, "*/knee_l": 2 * squat, "*/knee_r": 2 * squat,
            "*/ankle_l": -squat, "*/ankle_r": -squat, "*/shoulder_l": -arms,
            "*/shoulder_r": -arms, "*/elbow_l": -0.3 - 0.5 * arms, "*/elbow_r": -0.3 - 0.5 * arms,
            "*/waist": bow}


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else COUNT
    here = os.path.dirname(os.path.abspath(__file__))
    path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "..", "humanoids.json")
    urdf = os.path.relpath(os.path.join(here, "..", "..", "resources", "robots", "humanoid",
                                        "humanoid.urdf"), os.path.dirname(os.path.abspath(path)))
    side = math.ceil(math.sqrt(count))
    objects = [{"name": "ground", "type": "plane", "material": "floor"}]
    for i in range(count):
        row, column = divmod(i, side)
        objects.append({
            "name": f"h{i:03d}", "type": "urdf", "file": urdf, "fixed_base": False,
            "material": "skin",
            "position": [round((column - (side - 1) / 2) * SPACING, 4),
                         round((row - (side - 1) / 2) * SPACING, 4), round(PELVIS_Z, 4)],
            "rpy_deg": [0, 0, (i * 37) % 360],
            "initial_positions": {"hip_l": -BEND, "hip_r": -BEND, "knee_l": 2 * BEND,
                                  "knee_r": 2 * BEND, "ankle_l": -BEND, "ankle_r": -BEND,
                                  "elbow_l": -0.3, "elbow_r": -0.3},
            # drives stiff enough that a squat sags < 0.05 rad (about 70 N m per knee)
            "hold_pose": {"stiffness": 2000, "damping": 60}})
    script = []
    for cycle in range(3):
        t0 = 0.5 + cycle * 3.0
        script.append({"time": t0 + 1.0, "targets": pose(0.6, 1.2, 0.2)})
        script.append({"time": t0 + 2.0, "targets": pose(BEND, 0.0, 0.0)})
        script.append({"time": t0 + 3.0, "targets": {"*/neck": 0.6 if cycle % 2 == 0 else -0.6}})
    scene = {
        "name": "Humanoids",
        "description": f"{count} humanoids (13 bodies, 12 joints each) squat and raise their arms "
                       "on a script, all in one solve (seed 002 Table 2, Humanoid Run)",
        "up": "z",
        "gravity": [0, 0, -9.81],
        # seed 002 Table 2 "Humanoid Run": dt 0.0083 s, 4 Newton iterations (20 linear
        # iterations instead of 10: see the module comment)
        "solver": {"name": "nsn", "dt": 0.0083, "newton_iterations": 4, "linear_iterations": 20},
        "camera": {"target": [0, 0, 0.8], "distance": 2.2 * side, "yaw_deg": 30, "pitch_deg": 25,
                   "fov_deg": 45},
        "materials": {"floor": {"friction": 0.9, "color": [0.45, 0.47, 0.50]},
                      "skin": {"friction": 0.9, "color": [0.86, 0.87, 0.90]}},
        "objects": objects,
        "script": script,
    }
    with open(path, "w") as out:
        json.dump(scene, out, indent=1)
        out.write("\n")


if __name__ == "__main__":
    main()
