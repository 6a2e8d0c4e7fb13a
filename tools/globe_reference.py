"""MapLibre GL JS's globe camera (vertical_perspective_transform.ts _calcMatrices and
_computeClippingPlane, globe_utils.ts, gl-matrix semantics) in numpy: where points of the sphere
land on screen, their clip w, whether the horizon hides them, and the Mercator-to-globe blend of
_projection_globe.vertex.glsl, for issue 43's unit tests. Facts from GL JS 5.14:
src/geo/projection/vertical_perspective_transform.ts, globe_utils.ts, globe_projection.ts and
src/shaders/_projection_globe.vertex.glsl. Run: python3 tools/globe_reference.py (numpy); its output
is the table in Tests/MapCoreTests/GlobeTransformTests.swift."""
import math
import numpy as np

from pitch_reference import perspective, translate, rot_x, rot_z, scale, camera as mercator_camera, mercator


def rot_y(a):
    c, s = math.cos(a), math.sin(a)
    m = np.eye(4); m[0, 0] = c; m[0, 2] = s; m[2, 0] = -s; m[2, 2] = c
    return m


def surface(lng, lat):
    """The unit vector of (lng, lat): y north, z towards (0, 0)."""
    l, p = math.radians(lng), math.radians(lat)
    return np.array([math.sin(l) * math.cos(p), math.sin(p), math.cos(l) * math.cos(p)])


def globe(center, zoom, pitch_deg, bearing_deg, width, height, fov=0.6435011087932844):
    W = 512 * 2 ** zoom
    R = W / (2 * math.pi * math.cos(math.radians(center[1])))
    ctc = 0.5 / math.tan(fov / 2) * height
    pitch, bearing = math.radians(pitch_deg), math.radians(bearing_deg)
    m = (perspective(fov, width / height, 0.5, ctc + 2 * R) @ translate(0, 0, -ctc) @ rot_x(-pitch) @ rot_z(bearing)
         @ translate(0, 0, -R) @ rot_x(math.radians(center[1])) @ rot_y(-math.radians(center[0])) @ scale(R, R, R))
    # The clipping plane through the horizon's tangent points (_computeClippingPlane).
    d_cam_c = ctc / R + 1.0                       # camera to the globe's centre, on the unit sphere (pitch 0 distance along the axis)
    # The camera in the unit sphere's frame (_calcMatrices: _cameraPosition).
    cam = np.array([0, 0, ctc / R, 1.0])
    cam = rot_x(pitch) @ cam
    cam = rot_z(-bearing) @ cam
    cam = cam + np.array([0, 0, 1, 0])
    cam = rot_x(-math.radians(center[1])) @ cam
    cam = rot_y(math.radians(center[0])) @ cam
    cam = cam[:3]
    dist = np.linalg.norm(cam)
    n = cam / dist
    D = 1 / dist
    return m, R, ctc, n, D, W


def project(m, width, height, p):
    c = m @ np.array([p[0], p[1], p[2], 1.0])
    return (c[0] / c[3] + 1) * width / 2, (1 - c[1] / c[3]) * height / 2, c[3], c


if __name__ == '__main__':
    width, height = 800, 600
    points = [(10.0, 50.0), (30.0, 40.0), (-60.0, 10.0), (120.0, -30.0), (14.0, 51.0), (10.3, 50.2)]
    for zoom, pitch, bearing in ((0, 0, 0), (3, 0, 0), (3, 45, 30), (11.5, 30, -20), (12, 0, 0)):
        center = (10.0, 50.0)
        m, R, ctc, n, D, W = globe(center, zoom, pitch, bearing, width, height)
        print(f"zoom {zoom} pitch {pitch} bearing {bearing}: R {R:.6f} ctc {ctc:.6f} plane {n[0]:.9f} {n[1]:.9f} {n[2]:.9f} {-D:.9f}")
        g = min(max(12 - zoom, 0), 1)
        mm, MW, *_ = mercator_camera(center, zoom, pitch, bearing, width, height)
        for lng, lat in points:
            s = surface(lng, lat)
            x, y, w, c = project(m, width, height, s)
            seen = float(s @ n) - D >= 0
            # The blend: clip x, y, w mixed from Mercator's and the globe's by globeness g.
            mx, my = mercator(lng, lat)
            mc = mm @ np.array([mx * MW, my * MW, 0, 1.0])
            bc = mc + (c - mc) * g
            bx, by = (bc[0] / bc[3] + 1) * width / 2, (1 - bc[1] / bc[3]) * height / 2
            print(f"  ({lng}, {lat}) -> x {x:.6f} y {y:.6f} w {w:.6f} seen {seen} blended g {g} x {bx:.6f} y {by:.6f}")
