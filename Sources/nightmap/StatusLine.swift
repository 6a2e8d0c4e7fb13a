import Foundation
import MapCore

/// The status line shown over the map: radar frame and timer, ISS source and age, frame rate.
enum StatusLine {
    static func compose(_ model: MapModel, framesPerSecond fps: Double?) -> String {
        var parts: [String] = []
        if let f = model.radarFrame { parts.append("radar \(f.index + 1)/\(f.count) \(f.playing ? "playing" : "paused")") }
        if let p = model.issNow {
            switch p.fix.source {
            case .live:
                parts.append("ISS live" + (p.ageSeconds >= 2 ? ", \(Int(p.ageSeconds)) s old" : ""))
            case .tle:
                if let epoch = model.issOrbitEpoch {
                    let days = (model.clockOrigin + model.now - epoch) / 86400
                    parts.append(days > 3 ? String(format: "ISS orbit, TLE %.0f days old: approximate", days) : "ISS orbit")
                } else {
                    parts.append("ISS orbit")
                }
            }
        }
        if let fps { parts.append(fps > 0 ? String(format: "%.0f fps", fps) : "idle") }
        parts.append("h: help")
        return parts.joined(separator: "  ·  ")
    }

    /// The data credits: the basemap, GeoNames (CC BY 4.0 requires it), the radar's nature.
    static func attribution(_ o: Options) -> String {
        var parts = ["Natural Earth", "GeoNames (CC BY 4.0)"]
        if o.radar == nil { parts.append("radar frames: synthetic demo data") }
        if o.issMode != .tle { parts.append("ISS: wheretheiss.at") }
        return parts.joined(separator: " · ")
    }
}
