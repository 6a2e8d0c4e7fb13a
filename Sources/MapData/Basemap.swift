import Foundation
import MapCore

/// The embedded basemap's geometry: Natural Earth 10 m land, lakes, coastlines, country and
/// state/province borders (`Resources/style/nightmap.json` styles it).
public enum Basemap {
    /// Geometry files under `Resources/basemap/`, by source id.
    public static let sourceFiles = ["land", "lakes", "coastline", "countries", "states"]

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
