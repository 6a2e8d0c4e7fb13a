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
        if let full = radar(model) { parts.append(StatusPart(full, short: radar(model, short: true), essential: true)) }
        if let full = clouds(model) { parts.append(StatusPart(full, short: clouds(model, short: true), essential: false)) }
        if let full = iss(model) { parts.append(StatusPart(full, short: iss(model, short: true), essential: true)) }
        if let full = nextPass(model) { parts.append(StatusPart(full, short: nextPass(model, short: true), essential: true)) }
        if let full = warnings(model) { parts.append(StatusPart(full, short: warnings(model, short: true), essential: false)) }
        if let p = pointer { parts.append(StatusPart(coordinates(p), essential: false)) }
        if let fps { parts.append(StatusPart(fps > 0 ? String(format: "%.0f fps", fps) : "idle", essential: false)) }
        parts.append(StatusPart("h: help", essential: false))
        return parts
    }

    /// The whole line, every part at full length.
    static func text(_ parts: [StatusPart]) -> String {
        parts.map(\.text).joined(separator: OverlayLayout.statusSeparator)
    }

    /// The clouds while their layer shows frames: how old the newest is ("clouds 62 min old"),
    /// and cached when they are (nil otherwise).
    static func clouds(_ model: MapApp, short: Bool = false) -> String? {
        guard model.cloudsShown, let series = model.clouds, model.cloudsFrame != nil else { return nil }
        let cached = series.origin == .cache ? (short ? " (cached)" : " (cached: \(series.lastError.map(reason) ?? "source unreachable"))") : ""
        guard let newest = model.cloudsNewest else { return "clouds\(cached)" }
        return "clouds \(duration(max(0, model.clockOrigin + model.now - newest))) old\(cached)"
    }

    /// A problem line without the URL it starts with (a URL holds no ": ").
    static func reason(_ line: String) -> String { line.range(of: ": ").map { String(line[$0.upperBound...]) } ?? line }

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
        // Elements that disagree with the feed: the track is fitted to the fixes (or not drawn yet).
        let stale = tracker.elementsStale ? (short ? ", stale TLE" : tracker.fit == nil ? ", elements stale: no track" : ", elements stale: track fitted to the feed") : ""
        switch p.fix.source {
        case .live:
            return "ISS live" + (p.ageSeconds >= 2 ? ", \(Int(p.ageSeconds)) s old" : "") + stale + problem
        case .tle:
            if !stale.isEmpty { return "ISS orbit" + stale + problem }
            guard let epoch = model.issOrbitEpoch else { return "ISS orbit" + problem }
            let days = (model.clockOrigin + model.now - epoch) / 86400
            guard days > 3 else { return "ISS orbit" + problem }
            return (short ? "ISS orbit, old TLE" : String(format: "ISS orbit, TLE %.0f days old: approximate", days)) + problem
        }
    }

    /// With `o`: the next pass over the observer and how long until it rises (or sets, while it
    /// is up): "next pass 21:14 UTC (in 1 h 12 min), up to 47°, visible".
    static func nextPass(_ model: MapApp, short: Bool = false) -> String? {
        guard model.showsNextPass else { return nil }
        guard model.observer != nil else { return "no observer: --observer LAT,LON" }
        guard let p = model.nextPass else { return short ? "no pass" : "no pass in the next 2 days" }
        let now = model.clockOrigin + model.now
        if now >= p.rise {
            return short ? "ISS up, sets in \(countdown(p.set - now))"
                : String(format: "ISS up now (%.0f° at most), sets %@ UTC, in %@", p.maxElevation, RadarTime.hourMinute(p.set), countdown(p.set - now))
        }
        if short { return "pass in \(countdown(p.rise - now))" }
        return String(format: "next pass %@ UTC (in %@), up to %.0f°%@", RadarTime.hourMinute(p.rise), countdown(p.rise - now),
                      p.maxElevation, p.visible ? ", visible" : "")
    }

    /// The data credits but the radar's (the radar's series adds its own): the basemap,
    /// GeoNames (CC BY 4.0 requires it), the ISS feed.
    static func credits(_ o: Options) -> [String] {
        var parts = ["Natural Earth", "GeoNames (CC BY 4.0)"]
        if o.issMode != .tle { parts.append("ISS: wheretheiss.at") }
        return parts
    }

    /// An attribution as the status line shows it: HTML tags left out (TileJSON attributions are
    /// often links), the common entities decoded, runs of white space made one space.
    static func plainText(_ html: String) -> String {
        var out = "", inTag = false
        for c in html {
            if c == "<" { inTag = true; continue }
            if c == ">" && inTag { inTag = false; continue }
            if !inTag { out.append(c) }
        }
        for (entity, text) in [("&copy;", "©"), ("&nbsp;", " "), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
            out = out.replacingOccurrences(of: entity, with: text)
        }
        return out.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The radar frame shown: its time in UTC and local time, its place among the slots, and
    /// whether the loop plays ("radar 14:35 UTC (09:35 EST) 7/12 playing"); its age when it is
    /// more than 30 minutes old; what the frames are when not live, and for a cached loop why
    /// the source gave none (not in the `short` form). Nil without a radar.
    static func radar(_ model: MapApp, short: Bool = false, zone: TimeZone = .current) -> String? {
        guard let series = model.radar else { return nil }
        // A live radar that follows the view names its provider (IEM NEXRAD, RainViewer).
        let named = model.radarProviderCycles || model.radarProvider == .rainviewer
        let provider = !named || short || !(series.origin == .live || series.origin == .cache) ? "" : " \(series.provider)"
        guard let f = model.radarFrame else {
            return series.origin == .live && series.slots.isEmpty ? "radar\(provider): loading" : "radar\(provider): no frames"
        }
        let prefix = radarName(f.origin) + provider
        let state = f.playing ? "" : " paused"
        var problem = ""
        if !short, f.origin == .cache, let error = series.lastError {
            // The reason without the URL it starts with (a URL holds no ": ").
            problem = " (source: \(error.range(of: ": ").map { String(error[$0.upperBound...]) } ?? error))"
        }
        guard let time = f.time else {
            return short ? "\(prefix) \(f.slot + 1)/\(f.slots)\(state)" : "\(prefix) \(f.slot + 1)/\(f.slots) \(f.playing ? "playing" : "paused")\(problem)"
        }
        let age = model.clockOrigin + model.now - time
        let old = age > 30 * 60 ? ", \(duration(age)) old" : ""
        if short { return "\(prefix) \(RadarTime.hourMinute(time))Z \(f.slot + 1)/\(f.slots)\(state)\(old)" }
        return "\(prefix) \(RadarTime.hourMinute(time)) UTC (\(RadarTime.local(time, zone: zone))) \(f.slot + 1)/\(f.slots)"
            + " \(f.playing ? "playing" : "paused")\(old)\(problem)"
    }

    /// What the status line and the window title call frames of this origin.
    static func radarName(_ origin: RadarSeries.Origin) -> String {
        switch origin {
        case .demo: return "demo radar"
        case .cache: return "cached radar"
        case .live, .files: return "radar"
        }
    }

    /// "47 min", "2 h 5 min", "3 d 4 h".
    /// A countdown, rounded up: to the second within the hour ("12 min 05 s"), then as `duration`.
    static func countdown(_ seconds: Double) -> String {
        let s = max(0, Int(seconds.rounded(.up)))
        return s >= 3600 ? duration(seconds) : String(format: "%d min %02d s", s / 60, s % 60)
    }

    static func duration(_ seconds: Double) -> String {
        let m = Int((seconds / 60).rounded(.down))
        if m < 60 { return "\(m) min" }
        let h = m / 60
        if h < 48 { return m % 60 == 0 ? "\(h) h" : "\(h) h \(m % 60) min" }
        return h % 24 == 0 ? "\(h / 24) d" : "\(h / 24) d \(h % 24) h"
    }
}
