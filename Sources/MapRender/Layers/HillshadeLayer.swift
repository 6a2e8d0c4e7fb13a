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

/// The shading of runs of pixels from their slopes, by method.
struct HillshadeShader: DEMRowShader {
    let method: HillshadeMethod
    /// The cosine and sine of the first light's azimuth turned by π (the shader's: the light
    /// comes from it), and of its altitude.
    let cosAz: Float, sinAz: Float, sinAlt: Float, cosAlt: Float
    let intensity: Float
    let shadow: PremultipliedRGBA, highlight: PremultipliedRGBA, accent: PremultipliedRGBA
    /// One light of the multidirectional method: (cos, sin) of its azimuth turned by π, of its
    /// altitude, and its colours divided by the number of lights.
    struct Light { let cosAz: Float, sinAz: Float, sinAlt: Float, cosAlt: Float, shadow: PremultipliedRGBA, highlight: PremultipliedRGBA }
    let lights: UnsafeBufferPointer<Light>
    /// The standard method's strengths, by q = t / (1 + t) of the steepness t = 0.625·|slope|
    /// (0...1 in `steps` steps, linear between): pairs of the accent's, (1 − cos s)·k, and the
    /// shade's, sin s·k, s = atan t scaled by the exaggeration, k = clamp(2·exaggeration).
    let bySteepness: UnsafePointer<Float>
    static let steps = DEMTile.latitudeSteps

    init(_ d: HillshadeDraw, tables: UnsafePointer<Float>, lights: UnsafeBufferPointer<Light>) {
        method = d.method
        let first = d.lights.first ?? HillshadeLight(azimuth: 335 * .pi / 180, altitude: .pi / 4, shadow: .clear, highlight: .clear)
        // The shader's azimuth: the direction turned by π (the light comes from it).
        let azimuth = first.azimuth + .pi
        cosAz = cos(azimuth); sinAz = sin(azimuth)
        sinAlt = sin(first.altitude); cosAlt = cos(first.altitude)
        intensity = d.exaggeration
        shadow = first.shadow; highlight = first.highlight; accent = d.accent
        self.lights = lights
        bySteepness = tables
    }

    static func lights(_ lights: [HillshadeLight]) -> [Light] {
        let share = 1 / Float(max(lights.count, 1))
        return lights.map { l in
            Light(cosAz: -cos(l.azimuth), sinAz: -sin(l.azimuth), sinAlt: sin(l.altitude), cosAlt: cos(l.altitude),
                  shadow: scaled(l.shadow, share), highlight: scaled(l.highlight, share))
        }
    }

    /// The standard method's strengths by steepness (see `bySteepness`).
    static func slopeTables(exaggeration: Float) -> [Float] {
        // The slope scaled exponentially by the exaggeration (as `interpolate` with a base
        // would), so higher exaggerations shade more opaquely.
        let base = 1.875 - Double(exaggeration) * 1.75, baseMax = pow(base, .pi / 2) - 1
        let strength = Double(min(max(exaggeration * 2, 0), 1))
        var out: [Float] = []
        out.reserveCapacity(2 * (steps + 1))
        for i in 0...steps {
            let q = Double(i) / Double(steps)
            let slope = i == steps ? .pi / 2 : atan(q / (1 - q))
            let scaled = exaggeration != 0.5 ? (pow(base, slope) - 1) / baseMax * (.pi / 2) : slope
            out.append(Float((1 - cos(scaled)) * strength)); out.append(Float(sin(scaled) * strength))
        }
        return out
    }

    func shade(_ tile: DEMTileView, _ run: DEMRun, _ pixels: UnsafeMutablePointer<UInt32>) {
        switch method {
        case .standard: Self.walk(tile, run, pixels, Standard(shader: self))
        default: Self.walk(tile, run, pixels, Other(shader: self, steeper: intensity * 2))
        }
    }

    /// The standard method (the default), inlined.
    struct Standard: DEMColoring {
        let shader: HillshadeShader
        @inline(__always) func color(_ dx: Float, _ dy: Float) -> PremultipliedRGBA { shader.standard(dx, dy) }
    }

    /// The other methods, each of the slope times twice the exaggeration.
    struct Other: DEMColoring {
        let shader: HillshadeShader, steeper: Float
        @inline(__always) func color(_ dx: Float, _ dy: Float) -> PremultipliedRGBA {
            let x = dx * steeper, y = dy * steeper
            switch shader.method {
            case .standard: return shader.standard(dx, dy)
            case .basic: return shader.basic(x, y)
            case .multidirectional: return shader.multidirectional(x, y)
            case .combined: return shader.combined(x, y)
            case .igor: return shader.igor(x, y)
            }
        }
    }

    /// The slope (metres per metre toward the east and the south) at each pixel of the run,
    /// shaded by `coloring` and blended over it: the slope bytes bilinear between texel centres
    /// (clamped at the tile's edges by the slopes' border), corrected for the Mercator scale
    /// at the pixel's latitude.
    @inline(__always) static func walk<C: DEMColoring>(_ tile: DEMTileView, _ run: DEMRun, _ pixels: UnsafeMutablePointer<UInt32>, _ coloring: C) {
        let dim = Double(tile.dim), stride = tile.stride, row = 2 * stride, s = tile.slopes
        let fx0 = Float(run.u * dim - 0.5), fy0 = Float(run.v * dim - 0.5), dfx = Float(run.du * dim), dfy = Float(run.dv * dim)
        let last = Float(dim - 0.5)
        let v0 = Float(run.v), dv = Float(run.dv)
        let steady = run.dv == 0, k0 = lookup(tile.inverseCosines, v0)
        let unit: Float = 8 / 255
        if steady {
            // Along a row of the map (no bearing): one row of texels, each column's vertical
            // blend made once and kept while the pixels step across it and the next.
            let fy = min(max(fy0, -0.5), last)
            let iy = Int(fy + 1), wy = fy + 1 - Float(iy)
            let top = s + iy * row, bottom = top + row
            @inline(__always) func column(_ x: Int) -> (Float, Float) {
                let t0 = Float(top[2 * x]), t1 = Float(top[2 * x + 1]), b0 = Float(bottom[2 * x]), b1 = Float(bottom[2 * x + 1])
                return (t0 + (b0 - t0) * wy, t1 + (b1 - t1) * wy)
            }
            var at = -2, west = (Float(0), Float(0)), east = west
            DEMTileWalk.fourAtATime(run.count, pixels, { i in
                let fx = min(max(fx0 + Float(i) * dfx, -0.5), last)
                // The bordered grid's column west of the sample (⌊fx⌋ + 1).
                let ix = Int(fx + 1), wx = fx + 1 - Float(ix)
                if ix != at {
                    west = ix == at + 1 ? east : column(ix)
                    east = column(ix + 1)
                    at = ix
                }
                let r = west.0 + (east.0 - west.0) * wx, g = west.1 + (east.1 - west.1) * wx
                return ((r * unit - 4) * k0, (g * unit - 4) * k0)
            }, coloring)
            return
        }
        DEMTileWalk.fourAtATime(run.count, pixels, { i in
            let fi = Float(i)
            let fx = min(max(fx0 + fi * dfx, -0.5), last), fy = min(max(fy0 + fi * dfy, -0.5), last)
            // ⌊f⌋ + 1 (the bordered grid's column and row) for f ≥ -1.
            let ix = Int(fx + 1), iy = Int(fy + 1)
            let wx = fx + 1 - Float(ix), wy = fy + 1 - Float(iy)
            let p = s + (iy * stride + ix) * 2
            @inline(__always) func lerp(_ c: Int) -> Float {
                let a = Float(p[c]), b = Float(p[c + 2]), cc = Float(p[row + c]), d = Float(p[row + c + 2])
                let top = a + (b - a) * wx
                return top + (cc + (d - cc) * wx - top) * wy
            }
            let k = lookup(tile.inverseCosines, v0 + fi * dv)
            return ((lerp(0) * unit - 4) * k, (lerp(1) * unit - 4) * k)
        }, coloring)
    }

    /// `table` (`steps` + 1 values over 0...1) at `t`, linear between its values.
    @inline(__always) static func lookup(_ table: UnsafePointer<Float>, _ t: Float) -> Float {
        let f = min(max(t, 0), 1) * Float(steps)
        let i = min(Int(f), steps - 1)
        return table[i] + (table[i + 1] - table[i]) * (f - Float(i))
    }

    /// How far the slope faces away from the light (0: toward it, 1: away), in half turns:
    /// |((aspect + azimuth)/π + 0.5) mod 2 − 1| with aspect = atan2(dy, −dx), the angle
    /// between the downhill direction turned by the azimuth and the vertical, as one arctangent.
    @inline(__always) func facing(_ dx: Float, _ dy: Float) -> Float {
        ShadingMath.atan2Upper(abs(dx * cosAz + dy * sinAz), dy * cosAz - dx * sinAz) * (1 / .pi)
    }

    @inline(__always) func standard(_ dx: Float, _ dy: Float) -> PremultipliedRGBA {
        let t = 0.625 * (dx * dx + dy * dy).squareRoot()
        let f = t / (1 + t) * Float(Self.steps)
        let i = min(Int(f), Self.steps - 1), w = f - Float(i)
        let row = bySteepness + 2 * i
        let a = row[0] + (row[2] - row[0]) * w, k = row[1] + (row[3] - row[1]) * w
        let shade = facing(dx, dy)
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
        let c = min(max(incidence(dx, dy), -1), 1)
        let angle = min(ShadingMath.atan2Upper(max(1 - c * c, 0).squareRoot(), c), .pi / 2)
        let steep = ShadingMath.atanPositive((dx * dx + dy * dy).squareRoot()) * 4 / (.pi * .pi)
        return Self.sum(Self.scaled(shadow, angle * steep), Self.scaled(highlight, (.pi / 2 - angle) * steep))
    }

    func igor(_ dx: Float, _ dy: Float) -> PremultipliedRGBA {
        let slope = ShadingMath.atanPositive((dx * dx + dy * dy).squareRoot()) * 2 / .pi
        let toward = 1 - facing(dx, dy)
        return Self.sum(Self.scaled(shadow, slope * toward), Self.scaled(highlight, slope * (1 - toward)))
    }

    @inline(__always) static func scaled(_ c: PremultipliedRGBA, _ k: Float) -> PremultipliedRGBA {
        PremultipliedRGBA(r: c.r * k, g: c.g * k, b: c.b * k, a: c.a * k)
    }

    @inline(__always) static func sum(_ a: PremultipliedRGBA, _ b: PremultipliedRGBA) -> PremultipliedRGBA {
        PremultipliedRGBA(r: a.r + b.r, g: a.g + b.g, b: a.b + b.b, a: a.a + b.a)
    }
}
