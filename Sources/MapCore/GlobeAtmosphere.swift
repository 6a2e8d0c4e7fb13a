import Foundation

/// The glow of the air around MapLibre's globe (`atmosphere.fragment.glsl`, after wwwtyro's
/// glsl-atmosphere; `draw_sky.ts` `drawAtmosphere`; 3D-AND-LAYERS.md (b)): each pixel's line of
/// sight marched through a shell of air 100 km thick around an Earth-sized planet, Rayleigh and
/// Mie scattering of the sun's light summed at 5 steps along it, the light reaching each step
/// attenuated over 3 steps towards the sun. The globe is scaled up to the Earth's radius for it,
/// the camera with it.
public enum GlobeAtmosphere {
    /// What a frame draws of it: how strongly (`atmosphere-blend` times the globeness) and the
    /// direction of the sun in the camera's frame.
    public struct Draw: Equatable, Sendable {
        public var blend: Double
        public var sun: SIMD3<Double>
        public init(blend: Double, sun: SIMD3<Double>) { self.blend = blend; self.sun = sun }
    }

    /// The sun of the style's light at `position` [radial, azimuthal, polar] (degrees): the
    /// light's direction reversed, as `draw_sky.ts` takes it. Anchored to the viewport it stays
    /// put on screen; anchored to the map (`camera` given) it turns with the globe: by the
    /// camera's pitch and bearing and the centre's latitude and longitude (`getSunPos`).
    public static func sun(lightPosition p: [Double], mapAnchored camera: CameraState? = nil) -> SIMD3<Double> {
        let q = p.count == 3 && p.allSatisfy(\.isFinite) ? p : [1.15, 210, 30]
        let azimuth = (q[1] + 90) * Double.pi / 180, polar = q[2] * Double.pi / 180
        var sun = -SIMD3(q[0] * cos(azimuth) * sin(polar), q[0] * sin(azimuth) * sin(polar), q[0] * cos(polar))
        guard let camera else { return sun }
        let rad = Double.pi / 180
        // Rx(-pitch) Rz(bearing) Rx(lat) Ry(-lng) applied to the sun: the innermost first.
        sun = GlobeTransform.turned(sun, by: GlobeTransform.rotationY(-camera.center.lng * rad))
        sun = GlobeTransform.turned(sun, by: GlobeTransform.rotationX(camera.center.lat * rad))
        sun = GlobeTransform.turned(sun, by: GlobeTransform.rotationZ(camera.bearing * rad))
        return GlobeTransform.turned(sun, by: GlobeTransform.rotationX(-camera.pitch * rad))
    }

    public static let planetRadius = 6371e3, airRadius = 6471e3
    static let rayleigh = SIMD3<Double>(5.5e-6, 13.0e-6, 22.4e-6), mie = 21e-6
    static let rayleighHeight = 8e3, mieHeight = 1.2e3, mieDirection = 0.758, sunIntensity = 22.0
    static let steps = 5, lightSteps = 3

    /// The scattered light along `ray` from `origin` (metres from the planet's centre), the sun
    /// towards `sun`: its colour and the air's opacity (1: none in the way), before exposure.
    public static func scatter(ray: SIMD3<Double>, origin r0: SIMD3<Double>, sun: SIMD3<Double>) -> (color: SIMD3<Double>, opacity: Double) {
        let r = normalized(ray), s = normalized(sun)
        guard var p = intersect(r0, r, airRadius) else { return (.zero, 1) }
        p.near = max(p.near, 0)
        if let ground = intersect(r0, r, planetRadius), ground.near > 0 { p.far = min(p.far, ground.near) }
        let step = (p.far - p.near) / Double(steps)
        var time = p.near + step / 2
        var totalRayleigh = SIMD3<Double>.zero, totalMie = SIMD3<Double>.zero
        var depthRayleigh = 0.0, depthMie = 0.0
        let mu = (r * s).sum(), mumu = mu * mu, gg = mieDirection * mieDirection
        let phaseRayleigh = 3 / (16 * Double.pi) * (1 + mumu)
        let phaseMie = 3 / (8 * Double.pi) * ((1 - gg) * (mumu + 1)) / (pow(1 + gg - 2 * mu * mieDirection, 1.5) * (2 + gg))
        for _ in 0..<steps {
            let position = r0 + r * time
            let height = length(position) - planetRadius
            let stepRayleigh = exp(-height / rayleighHeight) * step, stepMie = exp(-height / mieHeight) * step
            depthRayleigh += stepRayleigh; depthMie += stepMie
            // (Towards the sun: as far as the air reaches. The shader's far root, 0 past the air.)
            let lightStep = (intersect(position, s, airRadius)?.far ?? -1e5) / Double(lightSteps)
            var lightTime = lightStep / 2, lightRayleigh = 0.0, lightMie = 0.0
            for _ in 0..<lightSteps {
                let h = length(position + s * lightTime) - planetRadius
                lightRayleigh += exp(-h / rayleighHeight) * lightStep
                lightMie += exp(-h / mieHeight) * lightStep
                lightTime += lightStep
            }
            let exponent = -(rayleigh * (depthRayleigh + lightRayleigh) + SIMD3(repeating: mie * (depthMie + lightMie)))
            let attenuation = SIMD3(exp(exponent.x), exp(exponent.y), exp(exponent.z))
            totalRayleigh += stepRayleigh * attenuation
            totalMie += stepMie * attenuation
            time += step
        }
        let opacity = exp(-(length(rayleigh) * length(totalRayleigh) + mie * length(totalMie)))
        let color = sunIntensity * (phaseRayleigh * rayleigh * totalRayleigh + phaseMie * mie * totalMie)
        return (color, opacity)
    }

    /// What the atmosphere's pixel adds, premultiplied (drawn ONE, ONE_MINUS_SRC_ALPHA over the
    /// frame), at `blend` (the sky's atmosphere-blend times the globeness): exposure, then a
    /// gamma of 2.2 on colour and opacity both, as MapLibre's shader gives them.
    public static func pixel(ray: SIMD3<Double>, origin: SIMD3<Double>, sun: SIMD3<Double>, blend: Double) -> SIMD4<Double> {
        let (c, opacity) = scatter(ray: ray, origin: origin, sun: sun)
        let g = 1 / 2.2
        let rgb = SIMD3(pow(1 - exp(-c.x), g), pow(1 - exp(-c.y), g), pow(1 - exp(-c.z), g))
        return SIMD4(rgb, 1 - pow(opacity, g)) * blend
    }

    /// The two distances along `direction` from `origin` where the sphere of `radius` about the
    /// centre is crossed; nil when it is not.
    static func intersect(_ origin: SIMD3<Double>, _ direction: SIMD3<Double>, _ radius: Double) -> (near: Double, far: Double)? {
        let a = (direction * direction).sum(), b = 2 * (direction * origin).sum(), c = (origin * origin).sum() - radius * radius
        let d = b * b - 4 * a * c
        guard d >= 0 else { return nil }
        return ((-b - d.squareRoot()) / (2 * a), (-b + d.squareRoot()) / (2 * a))
    }

    static func length(_ v: SIMD3<Double>) -> Double { (v * v).sum().squareRoot() }
    static func normalized(_ v: SIMD3<Double>) -> SIMD3<Double> { v / length(v) }
}

extension GlobeTransform {
    /// The line of sight of screen pixel (x, y) in the camera's frame (x right, y up, the camera
    /// looking down -z), as the atmosphere's quad interpolates it.
    public func viewDirection(x: Double, y: Double) -> SIMD3<Double> {
        let nx = x / width * 2 - 1, ny = 1 - y / height * 2
        let f = 1 / tan(fieldOfView / 2)
        return SIMD3(nx * (width / height) / f, ny / f, -1)
    }

    /// The camera, in the camera's frame, relative to the globe scaled up to the Earth's radius
    /// (metres): the origin of every line of sight through the atmosphere.
    public var atmosphereCamera: SIMD3<Double> {
        // The globe's centre in the camera's frame: back R along the turned view axis, then ctc.
        let centre = SIMD3(0, -radius * sin(pitch), -(radius * cos(pitch) + cameraToCenterDistance))
        return -centre * (GlobeAtmosphere.planetRadius / radius)
    }
}
