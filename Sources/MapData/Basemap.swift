import Foundation
import MapCore

/// The embedded night basemap: Natural Earth 10 m land, lakes, coastlines, country and
/// state/province borders, styled for the night light preset (dark, monochrome, blue-grey).
public enum Basemap {
    /// Geometry files under `Resources/basemap/`, by source id.
    public static let sourceFiles = ["land", "lakes", "coastline", "countries", "states"]

    /// The palette: each feature class has its own colour and width.
    public enum Palette {
        public static let ocean = Color(rgb: 0x0B1016)
        public static let land = Color(rgb: 0x1A1F27)
        public static let lake = Color(rgb: 0x0D131A)
        public static let coastline = Color(rgb: 0x2F3946)
        public static let state = Color(rgb: 0x3C4553)
        public static let country = Color(rgb: 0x6B7686)
    }

    /// The basemap layers in draw order (ids are stable: tests and `nightmap state` list them).
    /// Its colours are designed for the night light preset, so they are emissive (strength 1):
    /// the light leaves them as they are, and only layers with a lower strength are lit.
    public static func layers() -> [Layer] {
        [
            Layer(id: "background", paint: .background(color: Palette.ocean, opacity: 1)),
            Layer(id: "land", source: "land", paint: .fill(FillPaint(color: Palette.land, emissiveStrength: 1))),
            Layer(id: "lakes", source: "lakes", paint: .fill(FillPaint(color: Palette.lake, emissiveStrength: 1))),
            Layer(id: "coastline", source: "coastline",
                  paint: .line(LinePaint(color: Palette.coastline, width: 0.9, emissiveStrength: 1))),
            Layer(id: "state-borders", source: "states", minZoom: 3,
                  paint: .line(LinePaint(color: Palette.state, width: 0.9, dasharray: [3, 2], emissiveStrength: 1))),
            Layer(id: "country-borders", source: "countries",
                  paint: .line(LinePaint(color: Palette.country, width: 1.4, emissiveStrength: 1))),
        ]
    }

    /// Loads the geometry from `resources/basemap/*.nmgeo` and returns the basemap style.
    public static func load(resources: URL) throws -> Style {
        Style(sources: try geometry(resources: resources), layers: layers())
    }

    /// The embedded geometry by name (a style document's `source-layer` for `nightmap://basemap`).
    public static func geometry(resources: URL) throws -> [String: GeometrySet] {
        var sources: [String: GeometrySet] = [:]
        for name in sourceFiles {
            let path = resources.appendingPathComponent("basemap/\(name).nmgeo").path
            sources[name] = try GeometryFile.read(path: path)
        }
        return sources
    }
}
