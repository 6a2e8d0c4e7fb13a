import Foundation
import MapCore
import NightmapApp

/// The status line shown over the map: radar frame and timer, ISS source and age, frame rate.
enum StatusLine {
    /// The parts in order of importance, which is also their order on screen: what the map shows
    /// and where its data comes from stay (shortened in a narrow window), the pointer's
    /// coordinates, the frame rate and the help hint may go (`OverlayLayout`). `pointer`: the
    /// place under the pointer; `notice`: a message that goes first (where Ctrl+S saved the view).
    static func compose(_ model: MapApp, framesPerSecond fps: Double?, pointer: LngLat? = nil, notice: StatusPart? = nil) -> [StatusPart] {
        var parts: [StatusPart] = []
        if let notice { parts.append(notice) }
        if let f = model.radarFrame {
            parts.append(StatusPart("radar \(f.index + 1)/\(f.count) \(f.playing ? "playing" : "paused")",
                                    short: "radar \(f.index + 1)/\(f.count)\(f.playing ? "" : " paused")", essential: true))
        }
        if let full = iss(model) { parts.append(StatusPart(full, short: iss(model, short: true), essential: true)) }
        if let p = pointer { parts.append(StatusPart(coordinates(p), essential: false)) }
        if let fps { parts.append(StatusPart(fps > 0 ? String(format: "%.0f fps", fps) : "idle", essential: false)) }
        parts.append(StatusPart("h: help", essential: false))
        return parts
    }

    /// The whole line, every part at full length.
    static func text(_ parts: [StatusPart]) -> String {
        parts.map(\.text).joined(separator: OverlayLayout.statusSeparator)
    }

    /// "41.8740° N, 75.7890° W": four decimals (about 10 m), longitude wrapped into -180...180.
    static func coordinates(_ p: LngLat) -> String {
        let lon = p.lng - 360 * ((p.lng + 180) / 360).rounded(.down)
        return String(format: "%.4f° %@, %.4f° %@", abs(p.lat), p.lat < 0 ? "S" : "N", abs(lon), lon < 0 ? "W" : "E")
    }

    /// Where the ISS position comes from, its age, and whether it is only approximate; nil
    /// when the map has no ISS. `short`: without the feed's problem, and "old TLE" for the age.
    static func iss(_ model: MapApp, short: Bool = false) -> String? {
        guard let tracker = model.iss else { return nil }
        // What is wrong with the live feed, while it is (its reason without the URL).
        var problem = ""
        if !short, tracker.mode != .tle, let failure = tracker.lastFailure {
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
            guard days > 3 else { return "ISS orbit" + problem }
            return (short ? "ISS orbit, old TLE" : String(format: "ISS orbit, TLE %.0f days old: approximate", days)) + problem
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
