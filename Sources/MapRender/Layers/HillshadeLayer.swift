import Foundation
import MapCore
import Raster

/// Hillshade layers: each DEM tile's prepared slopes (see `DEMTile`) sampled bilinearly at
/// every screen pixel, corrected for the Mercator scale at its latitude and shaded by the
/// layer's method (MapLibre's hillshade fragment shader).
final class HillshadeRenderLayer: RenderLayer {
    /// The standard method's curves and the multidirectional method's lights of the last draw
    /// (kept while its paint stays).
    private var tables: [Float] = []
    private var lights: [HillshadeShader.Light] = []
    private var tablesFor: (exaggeration: Float, lights: [HillshadeLight])?

    func draw(_ draw: HillshadeDraw, _ p: Placement, _ t: RenderTarget, _ rasterizer: inout Rasterizer) {
        if tablesFor.map({ $0.exaggeration != draw.exaggeration || $0.lights != draw.lights }) ?? true {
            tables = HillshadeShader.slopeTables(exaggeration: draw.exaggeration)
            lights = HillshadeShader.lights(draw.lights)
            tablesFor = (draw.exaggeration, draw.lights)
        }
        let placement = draw.gridStep.map { p.pixelAligned(width: t.width, step: $0) } ?? p
        tables.withUnsafeBufferPointer { tables in
            lights.withUnsafeBufferPointer { lights in
                guard let base = tables.baseAddress else { return }
                DEMTileWalk.draw(draw.tiles, placement, t, HillshadeShader(draw, tables: base, lights: lights))
            }
        }
    }
}

/// The shading of one pixel from its slope, by method.
struct HillshadeShader: DEMPixelShader {
    let method: HillshadeMethod
    let azimuth: Float, sinAlt: Float, cosAlt: Float, cosAz: Float, sinAz: Float
    let intensity: Float
    let shadow: PremultipliedRGBA, highlight: PremultipliedRGBA, accent: PremultipliedRGBA
    /// One light of the multidirectional method: (cos, sin) of its azimuth turned by π, of its
    /// altitude, and its colours divided by the number of lights.
    struct Light { let cosAz: Float, sinAz: Float, sinAlt: Float, cosAlt: Float, shadow: PremultipliedRGBA, highlight: PremultipliedRGBA }
    let lights: UnsafeBufferPointer<Light>
    /// The standard method's accent strengths by slope angle (0...π/2 in `steps` steps,
    /// linear between), then its shade strengths: (1 − cos s)·k and sin s·k, s the slope scaled
    /// by the exaggeration, k = clamp(2·exaggeration).
    let accentBySlope: UnsafePointer<Float>, shadeBySlope: UnsafePointer<Float>
    static let steps = DEMTile.latitudeSteps

    init(_ d: HillshadeDraw, tables: UnsafePointer<Float>, lights: UnsafeBufferPointer<Light>) {
        method = d.method
        let first = d.lights.first ?? HillshadeLight(azimuth: 335 * .pi / 180, altitude: .pi / 4, shadow: .clear, highlight: .clear)
        // The shader's azimuth: the direction turned by π (the light comes from it).
        azimuth = first.azimuth + .pi
        cosAz = cos(azimuth); sinAz = sin(azimuth)
        sinAlt = sin(first.altitude); cosAlt = cos(first.altitude)
        intensity = d.exaggeration
        shadow = first.shadow; highlight = first.highlight; accent = d.accent
        self.lights = lights
        accentBySlope = tables; shadeBySlope = tables + (Self.steps + 1)
    }

    static func lights(_ lights: [HillshadeLight]) -> [Light] {
        let share = 1 / Float(max(lights.count, 1))
        return lights.map { l in
            Light(cosAz: -cos(l.azimuth), sinAz: -sin(l.azimuth), sinAlt: sin(l.altitude), cosAlt: cos(l.altitude),
                  shadow: scaled(l.shadow, share), highlight: scaled(l.highlight, share))
        }
    }

    /// The standard method's accent strengths, then its shade strengths, by slope angle.
    static func slopeTables(exaggeration: Float) -> [Float] {
        // The slope scaled exponentially by the exaggeration (as `interpolate` with a base
        // would), so higher exaggerations shade more opaquely.
        let base = 1.875 - Double(exaggeration) * 1.75, baseMax = pow(base, .pi / 2) - 1
        let strength = Double(min(max(exaggeration * 2, 0), 1))
        var accents: [Float] = [], shades: [Float] = []
        accents.reserveCapacity(steps + 1); shades.reserveCapacity(steps + 1)
        for i in 0...steps {
            let slope = Double(i) / Double(steps) * .pi / 2
            let scaled = exaggeration != 0.5 ? (pow(base, slope) - 1) / baseMax * (.pi / 2) : slope
            accents.append(Float((1 - cos(scaled)) * strength)); shades.append(Float(sin(scaled) * strength))
        }
        return accents + shades
    }

    func shade(_ tile: DEMTileView, u: Float, v: Float) -> PremultipliedRGBA {
        let (r, g) = Self.sample(tile, u: u, v: v)
        let k = Self.lookup(tile.inverseCosines, v)
        return shade(dx: (r * 8 - 4) * k, dy: (g * 8 - 4) * k)
    }

    /// `table` (`steps` + 1 values over 0...1) at `t`, linear between its values.
    @inline(__always) static func lookup(_ table: UnsafePointer<Float>, _ t: Float) -> Float {
        let f = min(max(t, 0), 1) * Float(steps)
        let i = min(Int(f), steps - 1)
        return table[i] + (table[i + 1] - table[i]) * (f - Float(i))
    }

    /// The slope bytes (east, south) at (u, v) as 0...1, bilinear between texel centres,
    /// clamped at the tile's edges.
    @inline(__always) static func sample(_ tile: DEMTileView, u: Float, v: Float) -> (Float, Float) {
        let dim = tile.dim, s = tile.slopes
        let fx = u * Float(dim) - 0.5, fy = v * Float(dim) - 0.5
        let ix = ShadingMath.floor(fx), iy = ShadingMath.floor(fy)
        let wx = fx - Float(ix), wy = fy - Float(iy)
        let x0 = min(max(ix, 0), dim - 1), x1 = min(max(ix + 1, 0), dim - 1)
        let y0 = min(max(iy, 0), dim - 1), y1 = min(max(iy + 1, 0), dim - 1)
        @inline(__always) func at(_ x: Int, _ y: Int, _ c: Int) -> Float { Float(s[(y * dim + x) * 2 + c]) }
        @inline(__always) func lerp(_ c: Int) -> Float {
            let top = at(x0, y0, c) + (at(x1, y0, c) - at(x0, y0, c)) * wx
            let bottom = at(x0, y1, c) + (at(x1, y1, c) - at(x0, y1, c)) * wx
            return (top + (bottom - top) * wy) / 255
        }
        return (lerp(0), lerp(1))
    }

    /// The colour for a slope (metres per metre toward the east and the south).
    func shade(dx: Float, dy: Float) -> PremultipliedRGBA {
        switch method {
        case .standard: return standard(dx, dy)
        case .basic: return basic(dx * intensity * 2, dy * intensity * 2)
        case .multidirectional: return multidirectional(dx * intensity * 2, dy * intensity * 2)
        case .combined: return combined(dx * intensity * 2, dy * intensity * 2)
        case .igor: return igor(dx * intensity * 2, dy * intensity * 2)
        }
    }

    @inline(__always) static func aspect(_ dx: Float, _ dy: Float) -> Float {
        dx != 0 ? ShadingMath.atan2(dy, -dx) : .pi / 2 * (dy > 0 ? 1 : -1)
    }

    /// GLSL's mod: x − y·floor(x/y).
    @inline(__always) static func mod(_ x: Float, _ y: Float) -> Float {
        let q = x / y
        guard abs(q) < 1e9 else { return 0 }
        return x - y * Float(ShadingMath.floor(q))
    }

    func standard(_ dx: Float, _ dy: Float) -> PremultipliedRGBA {
        let slope = ShadingMath.atanPositive(0.625 * (dx * dx + dy * dy).squareRoot()) * (2 / .pi)
        let aspect = Self.aspect(dx, dy)
        let a = Self.lookup(accentBySlope, slope)
        let shade = abs(Self.mod((aspect + azimuth) / .pi + 0.5, 2) - 1)
        let k = Self.lookup(shadeBySlope, slope)
        let s = PremultipliedRGBA(r: (shadow.r + (highlight.r - shadow.r) * shade) * k, g: (shadow.g + (highlight.g - shadow.g) * shade) * k,
                                  b: (shadow.b + (highlight.b - shadow.b) * shade) * k, a: (shadow.a + (highlight.a - shadow.a) * shade) * k)
        let keep = 1 - s.a
        return PremultipliedRGBA(r: accent.r * a * keep + s.r, g: accent.g * a * keep + s.g, b: accent.b * a * keep + s.b, a: accent.a * a * keep + s.a)
    }

    /// The cosine of the angle between the light and the surface's normal.
    @inline(__always) func incidence(_ dx: Float, _ dy: Float) -> Float {
        (sinAlt - (dy * cosAz * cosAlt - dx * sinAz * cosAlt)) / (1 + dx * dx + dy * dy).squareRoot()
    }

    func basic(_ dx: Float, _ dy: Float) -> PremultipliedRGBA {
        let k = min(max(incidence(dx, dy), 0), 1)
        if k > 0.5 { return Self.scaled(highlight, 2 * k - 1) }
        return Self.scaled(shadow, 1 - 2 * k)
    }

    /// The basic method for each light, averaged.
    func multidirectional(_ dx: Float, _ dy: Float) -> PremultipliedRGBA {
        let norm = 1 / (1 + dx * dx + dy * dy).squareRoot()
        var out = PremultipliedRGBA.clear
        for l in lights {
            let k = min(max((l.sinAlt - (dy * l.cosAz * l.cosAlt - dx * l.sinAz * l.cosAlt)) * norm, 0), 1)
            out = Self.sum(out, k > 0.5 ? Self.scaled(l.highlight, 2 * k - 1) : Self.scaled(l.shadow, 1 - 2 * k))
        }
        return out
    }

    func combined(_ dx: Float, _ dy: Float) -> PremultipliedRGBA {
        let angle = min(max(acos(min(max(incidence(dx, dy), -1), 1)), 0), .pi / 2)
        let steep = ShadingMath.atanPositive((dx * dx + dy * dy).squareRoot()) * 4 / (.pi * .pi)
        return Self.sum(Self.scaled(shadow, angle * steep), Self.scaled(highlight, (.pi / 2 - angle) * steep))
    }

    func igor(_ dx: Float, _ dy: Float) -> PremultipliedRGBA {
        let aspect = Self.aspect(dx, dy)
        let slope = ShadingMath.atanPositive((dx * dx + dy * dy).squareRoot()) * 2 / .pi
        let facing = 1 - abs(Self.mod((aspect + azimuth) / .pi + 0.5, 2) - 1)
        return Self.sum(Self.scaled(shadow, slope * facing), Self.scaled(highlight, slope * (1 - facing)))
    }

    @inline(__always) static func scaled(_ c: PremultipliedRGBA, _ k: Float) -> PremultipliedRGBA {
        PremultipliedRGBA(r: c.r * k, g: c.g * k, b: c.b * k, a: c.a * k)
    }

    @inline(__always) static func sum(_ a: PremultipliedRGBA, _ b: PremultipliedRGBA) -> PremultipliedRGBA {
        PremultipliedRGBA(r: a.r + b.r, g: a.g + b.g, b: a.b + b.b, a: a.a + b.a)
    }
}
