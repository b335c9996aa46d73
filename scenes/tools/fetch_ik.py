"""Inverse kinematics of our Fetch (resources/robots/fetch) for scripting its scenes (standard
library only). Forward kinematics comes from the same joint tables that write the URDF
(resources/tools/make_robots.py), so the keyframes match the robot the simulator loads.

Solve(position, rotation) finds the seven arm angles that put the tool centre point (the origin
of gripper_link, between the finger pads) at a world pose, by damped least squares on the 6-D
pose error with a finite-difference Jacobian, clamped to the joint limits.
"""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "resources", "tools"))
import meshgen as mg  # noqa: E402
import make_robots  # noqa: E402
from urdfgen import forward_kinematics  # noqa: E402

ARM = ["shoulder_pan_joint", "shoulder_lift_joint", "upperarm_roll_joint", "elbow_flex_joint",
       "forearm_roll_joint", "wrist_flex_joint", "wrist_roll_joint"]
JOINTS = make_robots.fetch()[1]
LIMITS = {j.name: j.limits for j in JOINTS}

# the gripper pointing straight down with its fingers closing along world y:
# columns are the gripper's x (down), y (world y) and z = x cross y (world x)
DOWN_Y = [[0, 0, 1], [0, 1, 0], [-1, 0, 0]]


def tool_pose(q):
    """World pose (R, p) of gripper_link for joint values q (the base at the world origin)."""
    return forward_kinematics(JOINTS, q)["gripper_link"]


def _error(q, position, rotation):
    r, p = tool_pose(q)
    e = mg.sub(position, p)
    # orientation error: half the sum of column cross products (small-angle axis * angle)
    w = (0.0, 0.0, 0.0)
    for k in range(3):
        w = mg.add(w, mg.cross([r[i][k] for i in range(3)], [rotation[i][k] for i in range(3)]))
    return list(e) + list(mg.scale(w, 0.5))


def _solve_linear(a, b):
    """Gaussian elimination with partial pivoting for a small dense system."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            for k in range(c, n + 1):
                m[r][k] -= f * m[c][k]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][k] * x[k] for k in range(r + 1, n))) / m[r][r]
    return x


def solve(position, rotation, seed, fixed=None, iterations=300, tolerance=1e-7, posture=1e-3):
    """Arm angles {joint: rad} reaching the pose; `seed` starts the search and is also the
    preferred posture (a weak pull toward it, weight `posture`, picks among the redundant
    solutions of the 7-DOF arm); `fixed` holds the other joints (torso, fingers). Raises when
    the pose is out of reach."""
    q = dict(fixed or {})
    q.update(seed)
    damping = 1e-4
    for iteration in range(iterations):
        # the posture pull fades so the pose error converges to zero
        weight = posture * 0.95 ** iteration
        e = _error(q, position, rotation)
        if max(abs(v) for v in e) < tolerance:
            return {name: q[name] for name in ARM}
        # Jacobian by central differences, then (J^T J + lambda I) dq = J^T e
        jac = []
        for name in ARM:
            h = 1e-6
            qp, qm = dict(q), dict(q)
            qp[name] += h
            qm[name] -= h
            ep, em = _error(qp, position, rotation), _error(qm, position, rotation)
            jac.append([-(ep[i] - em[i]) / (2 * h) for i in range(6)])  # column of d(pose)/dq
        jtj = [[sum(jac[a][i] * jac[b][i] for i in range(6)) + (damping + weight if a == b else 0)
                for b in range(7)] for a in range(7)]
        jte = [sum(jac[a][i] * e[i] for i in range(6)) + weight * (seed[ARM[a]] - q[ARM[a]])
               for a in range(7)]
        dq = _solve_linear(jtj, jte)
        for name, d in zip(ARM, dq):
            value = q[name] + d
            if LIMITS[name] is not None:
                value = min(max(value, LIMITS[name][0]), LIMITS[name][1])
            q[name] = value
    raise ValueError("pose out of reach: %s (error %s)" % (position, _error(q, position, rotation)))


def rounded(q, digits=4):
    return {k: round(v, digits) for k, v in q.items()}


def check(q, position, fixed):
    """Distance between the solved tool point and the target [m]."""
    full = dict(fixed)
    full.update(q)
    return math.dist(tool_pose(full)[1], position)
