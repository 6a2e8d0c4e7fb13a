import Foundation

/// A colour with its channels multiplied by its alpha, 0...1 each, as the DEM layers' shading
/// works with (MapLibre's uniforms).
public struct PremultipliedRGBA: Equatable, Sendable {
    public var r: Float, g: Float, b: Float, a: Float
    public init(r: Float, g: Float, b: Float, a: Float) { self.r = r; self.g = g; self.b = b; self.a = a }
    public init(_ c: Color) {
        let a = Float(min(max(c.a, 0), 1))
        r = Float(min(max(c.r, 0), 1)) * a; g = Float(min(max(c.g, 0), 1)) * a; b = Float(min(max(c.b, 0), 1)) * a; self.a = a
    }
    public static let clear = PremultipliedRGBA(r: 0, g: 0, b: 0, a: 0)
}

/// How a hillshade layer shades slopes (`hillshade-method`).
public enum HillshadeMethod: String, Sendable, Equatable {
    case standard, basic, combined, igor, multidirectional
}

/// One light of a hillshade: where it comes from and the colours it shades with.
public struct HillshadeLight: Equatable, Sendable {
    /// Its azimuth in radians, clockwise from the top of the screen (the bearing is added when
    /// the light is anchored to the viewport).
    public var azimuth: Float
    /// Its altitude above the horizon in radians.
    public var altitude: Float
    public var shadow: PremultipliedRGBA, highlight: PremultipliedRGBA
    public init(azimuth: Float, altitude: Float, shadow: PremultipliedRGBA, highlight: PremultipliedRGBA) {
        self.azimuth = azimuth; self.altitude = altitude; self.shadow = shadow; self.highlight = highlight
    }
}

/// What a hillshade layer draws: its DEM tiles and the shading, evaluated for the frame.
public struct HillshadeDraw: Equatable, Sendable {
    public var tiles: [DEMTileDraw]
    public var method: HillshadeMethod
    /// At least one; only the multidirectional method reads more than the first.
    public var lights: [HillshadeLight]
    public var exaggeration: Float
    public var accent: PremultipliedRGBA
    /// Tiles placed on the pixel grid of this step (device pixels per CSS pixel), as the
    /// reference engines place them while the camera is still; nil: placed exactly.
    public var gridStep: Double? = nil

    public init(tiles: [DEMTileDraw], method: HillshadeMethod, lights: [HillshadeLight], exaggeration: Float, accent: PremultipliedRGBA) {
        self.tiles = tiles; self.method = method; self.lights = lights; self.exaggeration = exaggeration; self.accent = accent
    }

    public static func == (a: HillshadeDraw, b: HillshadeDraw) -> Bool {
        a.method == b.method && a.gridStep == b.gridStep && a.lights == b.lights && a.exaggeration == b.exaggeration
            && a.accent == b.accent && DEMTileDraw.same(a.tiles, b.tiles)
    }
}

/// What a color-relief layer draws: its DEM tiles, coloured by elevation through a ramp.
public struct ColorReliefDraw: Equatable, Sendable {
    public var tiles: [DEMTileDraw]
    /// The ramp's stops (elevations ascending, quantised as the source's encoding writes them)
    /// with their colours, opacity applied; linear between them, clamped at the ends.
    public var elevations: [Float]
    public var colors: [PremultipliedRGBA]
    /// As `HillshadeDraw.gridStep`.
    public var gridStep: Double? = nil

    public init(tiles: [DEMTileDraw], elevations: [Float], colors: [PremultipliedRGBA]) {
        self.tiles = tiles; self.elevations = elevations; self.colors = colors
    }

    public static func == (a: ColorReliefDraw, b: ColorReliefDraw) -> Bool {
        a.gridStep == b.gridStep && a.elevations == b.elevations && a.colors == b.colors && DEMTileDraw.same(a.tiles, b.tiles)
    }
}

extension DEMTileDraw {
    /// The same tiles in the same squares (tiles never change once made).
    static func same(_ a: [DEMTileDraw], _ b: [DEMTileDraw]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.dem === $1.dem && $0.square == $1.square }
    }
}
