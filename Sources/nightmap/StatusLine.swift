import Foundation
import MapCore

/// The status line shown over the map: radar frame and timer, ISS source and age, frame rate.
enum StatusLine {
    /// The parts in order of importance, which is also their order on screen: a narrow window
    /// drops them from the end (`OverlayLayout`). `pointer`: the place under the pointer;
    /// `notice`: a message that goes first (where Ctrl+S saved the view).
    static func compose(_ model: MapModel, framesPerSecond fps: Double?, pointer: LngLat? = nil, notice: String? = nil) -> String {
        var parts: [String] = []
        if let notice { parts.append(notice) }
        if let f = model.radarFrame { parts.append("radar \(f.index + 1)/\(f.count) \(f.playing ? "playing" : "paused")") }
        if let iss = iss(model) { parts.append(iss) }
        if let p = pointer { parts.append(coordinates(p)) }
        if let fps { parts.append(fps > 0 ? String(format: "%.0f fps", fps) : "idle") }
        parts.append("h: help")
        return parts.joined(separator: OverlayLayout.statusSeparator)
    }

    /// "41.8740° N, 75.7890° W": four decimals (about 10 m), longitude wrapped into -180...180.
    static func coordinates(_ p: LngLat) -> String {
        let lon = p.lng - 360 * ((p.lng + 180) / 360).rounded(.down)
        return String(format: "%.4f° %@, %.4f° %@", abs(p.lat), p.lat < 0 ? "S" : "N", abs(lon), lon < 0 ? "W" : "E")
    }

    /// Where the ISS position comes from, its age, and whether it is only approximate; nil
    /// when the map has no ISS.
    static func iss(_ model: MapModel) -> String? {
        guard let tracker = model.iss else { return nil }
        // What is wrong with the live feed, while it is (its reason without the URL).
        var problem = ""
        if tracker.mode != .tle, let failure = tracker.lastFailure {
            let reason = failure.reason.range(of: ": ", options: .backwards).map { String(failure.reason[$0.upperBound...]) } ?? failure.reason
            problem = " (feed: \(reason))"
        }
        guard let p = model.issNow else { return "ISS: no position" + problem }
        switch p.fix.source {
        case .live:
            return "ISS live" + (p.ageSeconds >= 2 ? ", \(Int(p.ageSeconds)) s old" : "") + problem
        case .tle:
            guard let epoch = model.issOrbitEpoch else { return "ISS orbit" + problem }
            let days = (model.clockOrigin + model.now - epoch) / 86400
            return (days > 3 ? String(format: "ISS orbit, TLE %.0f days old: approximate", days) : "ISS orbit") + problem
        }
    }

    /// The data credits: the basemap, GeoNames (CC BY 4.0 requires it), the radar's nature.
    static func attribution(_ o: Options) -> String {
        var parts = ["Natural Earth", "GeoNames (CC BY 4.0)"]
        if o.radar == nil { parts.append("radar frames: synthetic demo data") }
        if o.issMode != .tle { parts.append("ISS: wheretheiss.at") }
        return parts.joined(separator: " · ")
    }
}
