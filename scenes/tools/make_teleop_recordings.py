#!/usr/bin/env python3
"""Writes the recorded teleop demonstrations in resources/teleop/recordings: the action streams an
operator sends while steering the teleop targets of a shipped scene (docs/scene-format.md
"Teleop"), in the recording format that `contact-sim replay` reads (format
"contact-studio-teleop-recording", version 1; `step` is State::step before the step that applies
the action).

The operator moves like a hand on a gizmo or a stick: an end effector's pose target follows
smooth paths between waypoints (a set_pose every EVERY steps, or a held pose_velocity), the
gripper closes on a trigger (axis_rate) and opens on a button (set_axis). The waypoints are the
scripted scenes' own (make_fetch_scenes.py, make_allegro_scenes.py): the script shows the task,
the recording does it by teleop.

fetch_tomato_pick.json  Fetch picks the soft tomato, puts it on the spring scale and lets go.
allegro_ball_lift.json  the Allegro hand closes its power grasp on the ball and lifts it 8 cm.
fetch_teleop_pick.json  the mobile Fetch drives to the shelf and picks the can.
Standard library only; run from anywhere.
"""
import json
import math
import os

import make_fetch_scenes as fetch

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "..", "resources", "teleop", "recordings")
DT = 0.0083  # the scenes' time step [s]
EVERY = 3  # a pose target every 3 steps (40 Hz): a gizmo dragged at the display's pace
# the gripper pointing down, fingers closing along world y (fetch_ik.DOWN_Y: 90 deg about y)
DOWN = [math.sqrt(0.5), 0.0, math.sqrt(0.5), 0.0]


def step_at(time):
    """The step whose start is `time` [s]."""
    return int(round(time / DT))


class Recording:
    def __init__(self, scene, seconds):
        self.scene = scene
        self.steps = step_at(seconds)
        self.actions = []

    def add(self, time, kind, target, **values):
        action = {"step": step_at(time), "kind": kind, "target": target}
        action.update(values)
        self.actions.append(action)

    def move(self, target, t0, t1, p0, p1, quaternion=DOWN):
        """set_pose along the straight line p0 -> p1 from t0 to t1 [s], with a smooth start and
        stop (3u^2 - 2u^3), every EVERY steps and at t1."""
        s0, s1 = step_at(t0), step_at(t1)
        for s in list(range(s0, s1, EVERY)) + [s1]:
            u = (s - s0) / (s1 - s0)
            u = u * u * (3 - 2 * u)
            p = [round(a + u * (b - a), 6) for a, b in zip(p0, p1)]
            self.actions.append({"step": s, "kind": "set_pose", "target": target,
                                 "position": p, "quaternion_wxyz": [round(c, 9) for c in quaternion]})

    def write(self, name):
        self.actions.sort(key=lambda a: a["step"])  # stable: same-step actions keep their order
        os.makedirs(OUT, exist_ok=True)
        header = {"format": "contact-studio-teleop-recording", "version": 1,
                  "scene": "../../../scenes/" + self.scene, "steps": self.steps}
        # one action a line: the file reads (and diffs) as the stream it is
        lines = [f" {json.dumps(k)}: {json.dumps(v)}," for k, v in header.items()]
        actions = ",\n".join("  " + json.dumps(a) for a in self.actions)
        with open(os.path.join(OUT, name), "w") as f:
            f.write("{\n" + "\n".join(lines) + '\n "actions": [\n' + actions + "\n ]\n}\n")


def fetch_tomato_pick():
    """The scripted pick of fetch_tomato by teleop: down onto the tomato, close the gripper on a
    trigger, lift, carry over the scale, lower, open, back up."""
    rec = Recording("fetch_tomato.json", 10.0)
    tomato = (0.65, 0.12)
    sx, sy = fetch.SCALE
    grasp_z = fetch.TABLE_TOP + 0.030 + 0.005
    place_z = fetch.TABLE_TOP + 0.088 + 0.030 + 0.004
    start = (0.55, 0.12, 1.0)
    rec.add(0.0, "set_axis", "gripper", value=0.0)
    rec.move("arm", 0.0, 1.5, start, (tomato[0], tomato[1], 0.87))
    rec.move("arm", 1.5, 2.5, (tomato[0], tomato[1], 0.87), (tomato[0], tomato[1], grasp_z))
    # a trigger pulled over 0.67 s and held
    rec.add(2.5, "axis_rate", "gripper", value=1.5)
    rec.move("arm", 3.3, 4.3, (tomato[0], tomato[1], grasp_z), (tomato[0], tomato[1], 0.92))
    rec.move("arm", 4.3, 5.0, (tomato[0], tomato[1], 0.92), (0.65, -0.04, 0.94))
    rec.move("arm", 5.0, 5.8, (0.65, -0.04, 0.94), (sx, sy, 0.92))
    rec.move("arm", 5.8, 6.8, (sx, sy, 0.92), (sx, sy, place_z))
    rec.add(6.9, "axis_rate", "gripper", value=0.0)
    rec.add(6.9, "set_axis", "gripper", value=0.0)
    # up and away on the stick: 0.16 m/s up for 0.8 s, then back toward the robot
    rec.add(7.4, "pose_velocity", "arm", linear=[0, 0, 0.16], angular=[0, 0, 0])
    rec.add(8.2, "pose_velocity", "arm", linear=[-0.1, 0.2, 0.03], angular=[0, 0, 0])
    rec.add(9.0, "pose_velocity", "arm", linear=[0, 0, 0], angular=[0, 0, 0])
    rec.write("fetch_tomato_pick.json")


def allegro_ball_lift():
    """Open, close the power grasp on the ball on a trigger, lift the palm 8 cm, hold."""
    rec = Recording("allegro_ball.json", 4.0)
    rec.add(0.0, "set_axis", "power", value=0.0)
    rec.add(0.5, "axis_rate", "power", value=1.0)  # closed after 1 s
    palm = (0.0, 0.0, 0.25)  # palm_link's origin, on the slide
    rec.move("palm", 2.0, 3.0, palm, (palm[0], palm[1], palm[2] + 0.08), quaternion=[1, 0, 0, 0])
    rec.write("allegro_ball_lift.json")


def fetch_teleop_pick():
    """Drive the base 0.85 m to the shelf on the stick (the arm's target rides along with the
    torso it is fixed in), then pick the can from above and lift it 12 cm."""
    rec = Recording("fetch_teleop.json", 8.0)
    speed, drive = 0.4, 0.85  # [m/s], [m]
    stop = drive / speed
    rec.add(0.0, "set_axis", "gripper", value=0.0)
    rec.add(0.0, "base_velocity", "base", linear=[speed, 0, 0])
    rec.add(stop, "base_velocity", "base", linear=[0, 0, 0])
    can_x, can_top = fetch.SHELF_X + 0.10, fetch.SHELF_BOARD + 0.11
    start = (drive + 0.55, 0.0, 1.0)
    above = (can_x, 0.0, can_top + 0.10)
    grasp = (can_x, 0.0, can_top - 0.035)
    t = stop + 0.3
    rec.move("arm", t, t + 1.0, start, above)
    rec.move("arm", t + 1.0, t + 2.0, above, grasp)
    rec.add(t + 2.1, "axis_rate", "gripper", value=2.0)
    rec.move("arm", t + 2.8, t + 3.8, grasp, (can_x - 0.05, 0.0, grasp[2] + 0.12))
    rec.write("fetch_teleop_pick.json")


def main():
    fetch_tomato_pick()
    allegro_ball_lift()
    fetch_teleop_pick()


if __name__ == "__main__":
    main()
