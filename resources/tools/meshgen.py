"""Small triangle-mesh toolkit for the project's own robot and object meshes (standard library only).

Shapes are built from parametric patches (surfaces of revolution, rounded boxes, grids), welded,
given area-weighted smooth vertex normals within each patch (so creases stay sharp between
patches), transformed, and written as Wavefront OBJ with `vn` normals. Closed patches (a lathe
profile from the axis back to the axis, a rounded box, a displaced sphere) are watertight after
welding, so they can serve as collision meshes with a volume.

Units are metres. Rotations are 3x3 row-major nested lists.
"""
import math


# --- small vector helpers --------------------------------------------------------------------

def add(a, b):
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def scale(a, s):
    return (a[0] * s, a[1] * s, a[2] * s)


def dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def norm(a):
    return math.sqrt(dot(a, a))


def normalized(a):
    n = norm(a)
    return (a[0] / n, a[1] / n, a[2] / n) if n > 0 else (0.0, 0.0, 1.0)


def rot_x(angle):
    c, s = math.cos(angle), math.sin(angle)
    return [[1, 0, 0], [0, c, -s], [0, s, c]]


def rot_y(angle):
    c, s = math.cos(angle), math.sin(angle)
    return [[c, 0, s], [0, 1, 0], [-s, 0, c]]


def rot_z(angle):
    c, s = math.cos(angle), math.sin(angle)
    return [[c, -s, 0], [s, c, 0], [0, 0, 1]]


def matmul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)] for i in range(3)]


def rpy(roll, pitch, yaw):
    """URDF convention: R = Rz(yaw) Ry(pitch) Rx(roll)."""
    return matmul(rot_z(yaw), matmul(rot_y(pitch), rot_x(roll)))


def apply(r, v):
    return (dot(r[0], v), dot(r[1], v), dot(r[2], v))


# --- meshes ----------------------------------------------------------------------------------

class Mesh:
    """Triangles over vertices; `patch` ids keep creases between patches when normals are made."""

    def __init__(self):
        self.vertices = []
        self.triangles = []
        self.patch = []  # patch id of each vertex

    def add_patch(self, vertices, triangles):
        base = len(self.vertices)
        pid = (max(self.patch) + 1) if self.patch else 0
        self.vertices.extend(vertices)
        self.patch.extend([pid] * len(vertices))
        self.triangles.extend((a + base, b + base, c + base) for a, b, c in triangles)
        return self

    def extend(self, other):
        base = len(self.vertices)
        pid = (max(self.patch) + 1) if self.patch else 0
        self.vertices.extend(other.vertices)
        self.patch.extend(p + pid for p in other.patch)
        self.triangles.extend((a + base, b + base, c + base) for a, b, c in other.triangles)
        return self

    def transformed(self, rotation=None, translation=(0, 0, 0)):
        out = Mesh()
        r = rotation or [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
        out.vertices = [add(apply(r, v), translation) for v in self.vertices]
        out.triangles = list(self.triangles)
        out.patch = list(self.patch)
        return out

    def scaled(self, sx, sy, sz):
        out = Mesh()
        out.vertices = [(v[0] * sx, v[1] * sy, v[2] * sz) for v in self.vertices]
        out.triangles = list(self.triangles)
        out.patch = list(self.patch)
        return out

    def weld(self, tolerance=1e-9):
        """Merges vertices of the same patch closer than `tolerance`; drops collapsed triangles."""
        key_of = {}
        remap = []
        vertices, patch = [], []
        for i, v in enumerate(self.vertices):
            key = (self.patch[i],) + tuple(round(c / tolerance) for c in v)
            if key not in key_of:
                key_of[key] = len(vertices)
                vertices.append(v)
                patch.append(self.patch[i])
            remap.append(key_of[key])
        triangles = []
        for a, b, c in self.triangles:
            a, b, c = remap[a], remap[b], remap[c]
            if a != b and b != c and a != c:
                triangles.append((a, b, c))
        self.vertices, self.patch, self.triangles = vertices, patch, triangles
        return self

    def weld_all(self, tolerance=1e-9):
        """Merges coincident vertices across patches too (one smooth, closed surface)."""
        self.patch = [0] * len(self.vertices)
        return self.weld(tolerance)

    def normals(self):
        acc = [(0.0, 0.0, 0.0)] * len(self.vertices)
        for a, b, c in self.triangles:
            n = cross(sub(self.vertices[b], self.vertices[a]), sub(self.vertices[c], self.vertices[a]))
            for i in (a, b, c):
                acc[i] = add(acc[i], n)  # area weighted: |n| is twice the area
        return [normalized(n) for n in acc]

    def volume(self):
        """Signed volume (positive for a closed, outward-oriented surface) [m^3]."""
        total = 0.0
        for a, b, c in self.triangles:
            total += dot(self.vertices[a], cross(self.vertices[b], self.vertices[c])) / 6
        return total

    def is_closed(self):
        """Every edge is shared by exactly two triangles with opposite directions."""
        edges = {}
        for a, b, c in self.triangles:
            for e in ((a, b), (b, c), (c, a)):
                edges[e] = edges.get(e, 0) + 1
        return all(count == 1 and edges.get((e[1], e[0]), 0) == 1 for e, count in edges.items())

    def bounds(self):
        lo = tuple(min(v[i] for v in self.vertices) for i in range(3))
        hi = tuple(max(v[i] for v in self.vertices) for i in range(3))
        return lo, hi

    def write_obj(self, path, header):
        normals = self.normals()
        with open(path, "w") as out:
            for line in header.splitlines():
                out.write("# " + line + "\n")
            out.write(f"# {len(self.vertices)} vertices, {len(self.triangles)} triangles\n")
            for v in self.vertices:
                out.write("v %.6f %.6f %.6f\n" % v)
            for n in normals:
                out.write("vn %.5f %.5f %.5f\n" % n)
            for a, b, c in self.triangles:
                out.write(f"f {a + 1}//{a + 1} {b + 1}//{b + 1} {c + 1}//{c + 1}\n")


def grid(point, nu, nv, wrap_u=False):
    """Patch from point(u, v), u, v in [0, 1]; nu x nv cells; wrap_u joins u = 1 back to u = 0."""
    columns = nu if wrap_u else nu + 1
    vertices = [point(i / nu, j / nv) for j in range(nv + 1) for i in range(columns)]
    triangles = []
    for j in range(nv):
        for i in range(nu):
            i1 = (i + 1) % columns if wrap_u else i + 1
            a, b = j * columns + i, j * columns + i1
            c, d = (j + 1) * columns + i1, (j + 1) * columns + i
            triangles += [(a, b, c), (a, c, d)]
    mesh = Mesh().add_patch(vertices, triangles)
    return mesh.weld()


# --- primitives ------------------------------------------------------------------------------

def lathe(profile, segments=32, smooth=True):
    """Surface of revolution about z of a profile [(r, z), ...] going up; r = 0 ends close it.

    smooth=True makes one patch (smooth normals along the profile); smooth=False makes one patch
    per profile segment, so every profile corner is a sharp rim.
    """
    pieces = [profile] if smooth else [profile[i:i + 2] for i in range(len(profile) - 1)]
    mesh = Mesh()
    for piece in pieces:
        def point(u, v, piece=piece):
            k = v * (len(piece) - 1)
            i = min(int(k), len(piece) - 2)
            t = k - i
            r = piece[i][0] * (1 - t) + piece[i + 1][0] * t
            z = piece[i][1] * (1 - t) + piece[i + 1][1] * t
            angle = 2 * math.pi * u
            return (r * math.cos(angle), r * math.sin(angle), z)
        mesh.extend(grid(point, segments, len(piece) - 1, wrap_u=True))
    return mesh


def arc(center_r, center_z, radius, start_deg, end_deg, steps):
    """Points of a circular arc in the (r, z) plane, angles from +r toward +z."""
    return [(center_r + radius * math.cos(math.radians(a)), center_z + radius * math.sin(math.radians(a)))
            for a in (start_deg + (end_deg - start_deg) * k / steps for k in range(steps + 1))]


def rounded_cylinder(radius, length, edge, segments=32, z0=None):
    """Closed cylinder along z centred at the origin (or from z0) with rounded rims of radius edge."""
    zb = -length / 2 if z0 is None else z0
    zt = zb + length
    edge = min(edge, radius * 0.99, length / 2 * 0.99)
    profile = [(0.0, zb)]
    profile += arc(radius - edge, zb + edge, edge, -90, 0, 4)
    profile += arc(radius - edge, zt - edge, edge, 0, 90, 4)
    profile += [(0.0, zt)]
    return lathe(profile, segments).weld_all()


def capsule_taper(r0, r1, length, segments=28, rings=6):
    """Closed solid from a sphere of radius r0 at z = 0 to one of radius r1 at z = length."""
    profile = arc(0, 0, r0, -90, 0, rings) + arc(0, length, r1, 0, 90, rings)
    return lathe(profile, segments).weld_all()


def sphere(radius, segments=24, rings=12):
    return lathe(arc(0, 0, radius, -90, 90, rings), segments).weld_all()


def _axis_samples(half, edge, band_steps, middle_steps):
    """Face coordinates along one axis: uniform in the middle, tangent-spaced in the rounded band."""
    inner = half - edge
    samples = [-inner + 2 * inner * k / middle_steps for k in range(middle_steps + 1)] if inner > 0 else [0.0]
    band = [inner + edge * math.tan(math.radians(45 * k / band_steps)) for k in range(1, band_steps + 1)]
    return sorted(set([-b for b in band] + samples + band))


def rounded_box(sx, sy, sz, edge, band_steps=3, middle_steps=2):
    """Closed box of full sizes (sx, sy, sz) centred at the origin with edges rounded by `edge`."""
    half = (sx / 2, sy / 2, sz / 2)
    edge = min(edge, 0.999 * min(half))
    inner = tuple(h - edge for h in half)
    samples = [_axis_samples(h, edge, band_steps, middle_steps) for h in half]

    def round_point(p):
        q = tuple(max(-inner[i], min(inner[i], p[i])) for i in range(3))
        d = sub(p, q)
        return add(q, scale(normalized(d), edge)) if norm(d) > 0 else p

    mesh = Mesh()
    for axis in range(3):
        for sign in (-1, 1):
            u_axis, v_axis = (axis + 1) % 3, (axis + 2) % 3
            if sign < 0:
                u_axis, v_axis = v_axis, u_axis  # keep the outward winding
            us, vs = samples[u_axis], samples[v_axis]
            vertices = []
            for v in vs:
                for u in us:
                    p = [0.0, 0.0, 0.0]
                    p[axis] = sign * half[axis]
                    p[u_axis], p[v_axis] = u, v
                    vertices.append(round_point(tuple(p)))
            triangles = []
            n = len(us)
            for j in range(len(vs) - 1):
                for i in range(n - 1):
                    a, b, c, d = j * n + i, j * n + i + 1, (j + 1) * n + i + 1, (j + 1) * n + i
                    triangles += [(a, b, c), (a, c, d)]
            mesh.add_patch(vertices, triangles)
    return mesh.weld_all(1e-7)


def displaced_sphere(radius, displacement, subdivisions=3):
    """Closed genus-0 surface: an icosphere whose vertex at unit direction d sits at radius *
    (1 + displacement(d)). Non-convex for large enough displacements."""
    t = (1 + math.sqrt(5)) / 2
    base = [(-1, t, 0), (1, t, 0), (-1, -t, 0), (1, -t, 0), (0, -1, t), (0, 1, t), (0, -1, -t),
            (0, 1, -t), (t, 0, -1), (t, 0, 1), (-t, 0, -1), (-t, 0, 1)]
    vertices = [normalized(v) for v in base]
    faces = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9), (5, 11, 4),
             (11, 10, 2), (10, 7, 6), (7, 1, 8), (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8),
             (3, 8, 9), (4, 9, 5), (2, 4, 11), (6, 2, 10), (8, 6, 7), (9, 8, 1)]
    for _ in range(subdivisions):
        midpoint = {}

        def mid(a, b):
            key = (min(a, b), max(a, b))
            if key not in midpoint:
                midpoint[key] = len(vertices)
                vertices.append(normalized(scale(add(vertices[a], vertices[b]), 0.5)))
            return midpoint[key]
        refined = []
        for a, b, c in faces:
            ab, bc, ca = mid(a, b), mid(b, c), mid(c, a)
            refined += [(a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca)]
        faces = refined
    points = [scale(d, radius * (1 + displacement(d))) for d in vertices]
    return Mesh().add_patch(points, faces)


def torus(major, minor, segments=36, rings=16):
    """Closed torus around z."""
    def point(u, v):
        a, b = 2 * math.pi * u, 2 * math.pi * v
        r = major + minor * math.cos(b)
        return (r * math.cos(a), r * math.sin(a), minor * math.sin(b))
    # v wraps too: build with an explicit second wrap
    columns, rows = segments, rings
    vertices = [point(i / columns, j / rows) for j in range(rows) for i in range(columns)]
    triangles = []
    for j in range(rows):
        for i in range(columns):
            a = j * columns + i
            b = j * columns + (i + 1) % columns
            c = ((j + 1) % rows) * columns + (i + 1) % columns
            d = ((j + 1) % rows) * columns + i
            triangles += [(a, b, c), (a, c, d)]
    return Mesh().add_patch(vertices, triangles)


def extrude(polygon, height, z0=0.0, center=(0.0, 0.0)):
    """Closed prism of a simple polygon [(x, y), ...] (counter-clockwise, star-shaped about
    `center`) from z0 to z0 + height; caps are fans from `center`."""
    n = len(polygon)
    mesh = Mesh()
    # side walls, one patch per edge so the corners stay sharp
    for i in range(n):
        (x0, y0), (x1, y1) = polygon[i], polygon[(i + 1) % n]
        vertices = [(x0, y0, z0), (x1, y1, z0), (x1, y1, z0 + height), (x0, y0, z0 + height)]
        mesh.add_patch(vertices, [(0, 1, 2), (0, 2, 3)])
    for z, up in ((z0, False), (z0 + height, True)):
        vertices = [(center[0], center[1], z)] + [(x, y, z) for x, y in polygon]
        triangles = [(0, 1 + i, 1 + (i + 1) % n) if up else (0, 1 + (i + 1) % n, 1 + i) for i in range(n)]
        mesh.add_patch(vertices, triangles)
    return mesh
