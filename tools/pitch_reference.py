"""MapLibre GL JS's Mercator camera (mercator_transform.ts _calcMatrices, gl-matrix semantics) in
numpy: screen position and clip w of ground points at a pitch and bearing, for issue 42's unit
tests. Facts from GL JS src/geo/projection/mercator_transform.ts and mercator_utils.ts. Run: python3 tools/pitch_reference.py (numpy); its
output is the table in Tests/MapCoreTests/PerspectiveTransformTests.swift."""
import math
import numpy as np

def perspective(fovy, aspect, near, far):
    f = 1 / math.tan(fovy / 2)
    m = np.zeros((4, 4))
    m[0, 0] = f / aspect; m[1, 1] = f
    m[2, 2] = (far + near) / (near - far); m[2, 3] = 2 * far * near / (near - far)
    m[3, 2] = -1
    return m

def scale(x, y, z): return np.diag([x, y, z, 1.0])
def translate(x, y, z):
    m = np.eye(4); m[:3, 3] = [x, y, z]; return m
def rot_x(a):
    c, s = math.cos(a), math.sin(a); m = np.eye(4); m[1, 1] = c; m[1, 2] = -s; m[2, 1] = s; m[2, 2] = c; return m
def rot_z(a):
    c, s = math.cos(a), math.sin(a); m = np.eye(4); m[0, 0] = c; m[0, 1] = -s; m[1, 0] = s; m[1, 1] = c; return m

def mercator(lng, lat):
    x = (180 + lng) / 360
    y = (180 - math.degrees(math.log(math.tan(math.pi / 4 + math.radians(lat) / 2)))) / 360
    return x, y

def camera(center, zoom, pitch_deg, bearing_deg, width, height, fov=0.6435011087932844):
    W = 512 * 2 ** zoom
    cx, cy = mercator(*center); x, y = cx * W, cy * W
    pitch = math.radians(pitch_deg); angle = -math.radians(bearing_deg)
    ctc = 0.5 / math.tan(fov / 2) * height
    # horizon (mercator_utils.ts): px above the centre
    horizon = ctc * min(0.85 * math.tan(math.pi / 2 - pitch), math.tan(math.radians(89.25) - pitch)) if pitch > 0 else float('inf')
    lowest = ctc
    ground = math.pi / 2 + pitch
    fov_above = fov * 0.5
    d1 = math.sin(fov_above) * lowest / math.sin(min(max(math.pi - ground - fov_above, 0.01), math.pi - 0.01))
    h_angle = math.atan(horizon / ctc) if math.isfinite(horizon) else math.pi / 2
    fov_h = 2 * h_angle * 0.5
    d2 = math.sin(fov_h) * lowest / math.sin(min(max(math.pi - ground - fov_h, 0.01), math.pi - 0.01))
    far = (math.cos(math.pi / 2 - pitch) * min(d1, d2) + lowest) * 1.01
    near = height / 50
    m = perspective(fov, width / height, near, far) @ scale(1, -1, 1) @ translate(0, 0, -ctc) @ rot_x(pitch) @ rot_z(angle) @ translate(-x, -y, 0)
    return m, W, ctc, near, far, horizon

def project(m, W, width, height, lng, lat):
    mx, my = mercator(lng, lat)
    p = m @ np.array([mx * W, my * W, 0, 1.0])
    return (p[0] / p[3] + 1) * width / 2, (1 - p[1] / p[3]) * height / 2, p[3]

if __name__ == '__main__':
    width, height = 800, 600
    center, zoom = (-74.0, 40.7), 10.0
    points = [(-74.0, 40.7), (-73.9, 40.75), (-74.1, 40.6), (-73.95, 40.9), (-74.2, 40.8)]
    for pitch in (0, 45, 60, 85):
        for bearing in (0, 30):
            m, W, ctc, near, far, hz = camera(center, zoom, pitch, bearing, width, height)
            print(f"pitch {pitch} bearing {bearing}: ctc {ctc:.6f} near {near:.6f} far {far:.6f} horizon {hz:.6f}")
            for lng, lat in points:
                sx, sy, w = project(m, W, width, height, lng, lat)
                print(f"  ({lng}, {lat}) -> x {sx:.6f} y {sy:.6f} w {w:.6f}")
