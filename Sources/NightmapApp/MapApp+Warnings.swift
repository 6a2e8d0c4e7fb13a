import Foundation
import MapCore
import MapData

/// The NWS warnings as a client of the engine: the alerts in force at the map's instant go into
/// the style's `warnings` GeoJSON source (each a polygon feature with its event's NWS colour as
/// `color`, the least severe first so the most severe draw on top), drawn by the `warnings-fill`
/// and `warnings-line` layers; an alert leaves the source the moment it expires. `w` shows or
/// hides them; the pointer resting over some shows their panel. The attribution credits the NWS
/// while they are shown.
extension MapApp {
    public static let warningsSourceID = "warnings", warningsFillID = "warnings-fill", warningsLineID = "warnings-line"
    public static let warningsCredit = "Alerts: NOAA/National Weather Service"

    /// Whether the warnings layers are shown (`w`).
    public var showsWarnings: Bool { isShown(Self.warningsFillID) || isShown(Self.warningsLineID) }

    /// The alerts in force at the map's instant (not expired), most severe first, with their shapes.
    public var currentWarnings: [WarningsFeed.Warning] {
        guard let shown = warnings.shown else { return [] }
        let utc = clockOrigin + model.now
        return shown.warnings.filter { ($0.alert.expires ?? .infinity) > utc }
            .enumerated().sorted { (WarningsState.rank($0.element.alert), -$0.offset) > (WarningsState.rank($1.element.alert), -$1.offset) }
            .map(\.element)
    }

    /// The alerts from the feed, drawn from now.
    public mutating func showWarnings(_ shown: WarningsFeed.Shown) {
        warnings.shown = shown
        drawWarnings()
    }

    /// The alerts under a screen point (device pixels), most severe first; none while hidden.
    public func warnings(atX x: Double, y: Double) -> [WarningsFeed.Warning] {
        guard showsWarnings, let m = model.camera.view.ground(x: x, y: y) else { return [] }
        let p = MercatorPoint(x: m.x - m.x.rounded(.down), y: m.y)
        return currentWarnings.filter { w in w.shape.map { NWSZone.contains($0, p) } ?? false }
    }

    /// The pointer resting over the map (device pixels), or nil when it left, or a button is held.
    public mutating func setWarningPointer(_ p: WarningsState.ScreenPoint?) {
        warnings.pointer = p
        hoverWarnings()
    }

    /// When the warnings drawn next change by themselves (the next expiry, map seconds).
    var nextWarningExpiry: Double? { warnings.nextExpiry.map { $0 - clockOrigin } }

    mutating func advanceWarnings() {
        if let e = warnings.nextExpiry, clockOrigin + model.now >= e { drawWarnings() }
        hoverWarnings()
    }

    mutating func toggleWarnings() {
        toggleLayers([Self.warningsFillID, Self.warningsLineID])
        creditWarnings()
        hoverWarnings()
    }

    /// The current alerts into the source, when the set differs from the one drawn.
    mutating func drawWarnings() {
        let current = currentWarnings
        let utc = clockOrigin + model.now
        warnings.nextExpiry = current.compactMap { $0.alert.expires }.filter { $0 > utc }.min()
        let drawn = current.filter { $0.shape != nil }
        // (Each is known by its id and its shape's points: an alert's shape grows as its zones
        // come, and an answer that repeats the last one changes nothing, so nothing is redrawn.)
        let ids = drawn.map { w -> String in
            var h = Hasher()
            h.combine(w.shape?.coordinates)
            h.combine(w.shape?.partStarts)
            return "\(w.alert.id)#\(h.finalize())"
        }
        if model.style.geojson(Self.warningsSourceID) != nil, ids != warnings.drawnIDs {
            let features = drawn.reversed().compactMap { w -> GeoFeature? in
                guard let shape = w.shape else { return nil }
                let b = w.alert.color.bytes
                return GeoFeature(geometry: shape, evaluation: EvaluationFeature(
                    properties: ["color": .string(String(format: "#%02x%02x%02x", b.r, b.g, b.b)), "event": .string(w.alert.event),
                                 "severity": .string(w.alert.severity), "id": .string(w.alert.id), "kind": .string(Self.warningKind(w.alert.event))],
                    geometryType: "Polygon"))
            }
            try? model.updateGeoJSONSource(Self.warningsSourceID, GeoJSONData(features: features))
        }
        warnings.drawnIDs = ids
        creditWarnings()
        warnings.hoverKey = nil
        hoverWarnings()
    }

    /// "warning", "watch" or "other" (advisories, statements): the style draws warnings stronger.
    static func warningKind(_ event: String) -> String {
        event.hasSuffix("Warning") ? "warning" : event.hasSuffix("Watch") ? "watch" : "other"
    }

    /// The NWS in the attribution while warnings are shown.
    mutating func creditWarnings() {
        let wanted = showsWarnings && warnings.shown != nil
        guard wanted != credits.contains(Self.warningsCredit) else { return }
        if wanted { credits.append(Self.warningsCredit) } else { credits.removeAll { $0 == Self.warningsCredit } }
        showAttribution()
    }

    /// The panel for the warnings under the resting pointer, made again only when the pointer,
    /// the camera or the warnings drawn changed.
    mutating func hoverWarnings() {
        let key = WarningsState.HoverKey(pointer: warnings.pointer, camera: model.camera.state, drawn: warnings.drawnIDs,
                                         shown: showsWarnings, cached: warnings.shown?.origin == .cache)
        guard key != warnings.hoverKey else { return }
        warnings.hoverKey = key
        let panel = warnings.pointer.flatMap { p in
            WarningPanel.make(self.warnings(atX: p.x, y: p.y).map(\.alert), cached: key.cached, x: p.x, y: p.y)
        }
        if overlay.warningPanel != panel { overlay.warningPanel = panel }
    }
}
