import Foundation
import MapCore

/// The ISS's style: its ground track (the last 45 minutes solid, the next 90 dashed) and the
/// rocket icon, turned to the direction of travel, with a marker at the window's edge pointing to
/// it when it is out of sight. The icon is drawn from vector paths in `Resources/icons/rocket.svg`.
public enum IssLayers {
    public static let trackPast = "iss-track-past"
    public static let trackFuture = "iss-track-future"
    public static let symbol = "iss"

    /// The rocket's paint in the live-data example (nightmap's default style says the same).
    public static let examplePaint = SymbolPaint(iconImage: "rocket", iconSize: 1.5, emissiveStrength: 1)

    /// The ground track layers and the rocket layer; `paint` is the style's ISS layer (its icon is
    /// the bundled vector rocket, turned to the heading, with an arrow at the edge when out of sight).
    public static func make(resources: URL, paint: SymbolPaint = examplePaint) throws -> (icons: [String: VectorIcon], layers: [Layer]) {
        let rocket = try SVGIcon.read(path: resources.appendingPathComponent("icons/rocket.svg").path, name: "rocket")
        let trackColor = Color(rgb: 0x9FD3FF)
        let layers = [
            Layer(id: trackPast, source: trackPast,
                  paint: .line(LinePaint(color: trackColor, width: 1.5, opacity: 0.7, join: .round, emissiveStrength: 1))),
            Layer(id: trackFuture, source: trackFuture,
                  paint: .line(LinePaint(color: trackColor, width: 1.5, opacity: 0.7, join: .round, dasharray: [3, 3], emissiveStrength: 1))),
            Layer(id: symbol, source: symbol,
                  paint: .symbol(SymbolPaint(iconImage: "rocket", iconSize: paint.iconSize, iconRotate: paint.iconRotate,
                                             iconAnchor: paint.iconAnchor, iconOpacity: paint.iconOpacity,
                                             emissiveStrength: paint.emissiveStrength, rotateWithBearing: true, edgeMarker: true))),
        ]
        return (["rocket": rocket], layers)
    }
}
