import Foundation
import MapCore
import MapData

/// Clouds from NASA GIBS's geostationary infrared (band 13, 10.3 µm, "clean" longwave window) as a
/// `TileLoopSource`: GOES-East, GOES-West and Himawari, each covering its own longitudes (the
/// nearest sub-satellite point wins: `GeostationarySatellite.covering`), 256-pixel WMTS tiles of
/// `GoogleMapsCompatible_Level6` (zoom 6 at most), 10-minute frames listed by DescribeDomains.
///
/// A frame follows a radar frame: for radar time t each satellite shows its latest frame at or
/// before t in the newest gapless stretch of its domain (clouds lag about an hour, so several
/// radar frames often share one); radar frames that would show the same clouds are one frame,
/// timed by the first of them. Without radar times the frame is each satellite's newest.
public final class CloudsSource: TileLoopSource, @unchecked Sendable {
    /// The WMTS base (`--clouds-url`), without a trailing slash.
    public let base: String
    public let satellites: [GeostationarySatellite]
    /// A WMS-T GetMap template for the longitudes no satellite of GIBS covers (Meteosat through
    /// EUMETView, `--clouds-gap-url`; off by default): `{bbox-epsg-3857}` the tile's box, `{time}`
    /// the frame's, `{width}` and `{height}` 256.
    public let gapTemplate: String?
    /// How far the gap's frames are taken behind the radar's time (10-minute frames that take a
    /// while to appear; a time the service does not have fails that tile alone).
    public static let gapLag = 1200.0
    public var provider: String { gapTemplate == nil ? "NASA EOSDIS GIBS" : "NASA EOSDIS GIBS, EUMETSAT" }
    public var legend: ColorLegend? { nil }
    public var maxZoom: Int { 6 }
    public var listingInterval: Double { 600 }
    public var listingName: String { base }
    public var cacheName: String { "clouds-" + TileRequest.hash(base) }

    /// The default base (the `best` imagery, reprojected to Web Mercator).
    public static let gibs = "https://gibs.earthdata.nasa.gov/wmts/epsg3857/best"
    /// The tile matrix set of the band-13 layers (2 km: zoom 6 at most).
    public static let matrixSet = "GoogleMapsCompatible_Level6"
    /// How far back the listing asks (the radar's two hours and the clouds' hour of lag, and more).
    public static let listingSpan = 6 * 3600.0

    private let lock = NSLock()
    /// Each satellite's newest gapless run, by layer.
    private var runs: [String: GIBSTimeDomain.Run] = [:]

    public init(base: String = CloudsSource.gibs, satellites: [GeostationarySatellite] = GeostationarySatellite.gibs, gapTemplate: String? = nil) {
        self.base = base.hasSuffix("/") ? String(base.dropLast()) : base
        self.satellites = satellites
        self.gapTemplate = gapTemplate
    }

    /// The gap's GetMap URL for tile `t` at `time`.
    public static func gapURL(_ template: String, time: Double, _ t: TileID) -> String {
        let half = 20037508.342789244, size = 2 * half / Double(1 << t.z)
        let minX = -half + Double(t.x) * size, maxY = half - Double(t.y) * size
        return template.replacingOccurrences(of: "{bbox-epsg-3857}", with: "\(minX),\(maxY - size),\(minX + size),\(maxY)")
            .replacingOccurrences(of: "{time}", with: RadarTime.iso(time))
            .replacingOccurrences(of: "{width}", with: "256").replacingOccurrences(of: "{height}", with: "256")
    }

    /// The DescribeDomains URL of `layer` for the span ending at `now`.
    public func domainURL(_ layer: String, now: Double) -> String {
        let start = RadarTime.iso(((now - Self.listingSpan) / 600).rounded(.down) * 600)
        let end = RadarTime.iso((now / 600).rounded(.up) * 600)
        return "\(base)/1.0.0/\(layer)/default/\(Self.matrixSet)/all/\(start)--\(end).xml"
    }

    /// The tile URL of `layer` at `time` (row before column, as WMTS REST has it).
    public func tileURL(_ layer: String, time: Double, _ t: TileID) -> String {
        "\(base)/\(layer)/default/\(RadarTime.iso(time))/\(Self.matrixSet)/\(t.z)/\(t.y)/\(t.x).png"
    }

    public func list(now: Double, timeout: Double) throws -> TileLoopListing {
        var found: [String: GIBSTimeDomain.Run] = [:]
        var documents: [String] = []
        var problems: [String] = []
        for s in satellites {
            let url = domainURL(s.layer, now: now)
            guard let u = URL(string: url) else { problems.append("\(url): not a URL"); continue }
            switch HTTPGet.run(u, timeout: timeout, maxBytes: 1 << 20, maxRedirects: 5, accept: "application/xml, text/xml") {
            case let .failure(f):
                problems.append("\(url): \(f.reason)")
            case let .success(r):
                do {
                    let domain = try GIBSTimeDomain(data: r.body, url: url)
                    guard let run = domain.lastRun else { problems.append("\(url): no times in the domain"); continue }
                    found[s.layer] = run
                    documents.append(Self.documentPart(layer: s.layer, run: run))
                } catch {
                    problems.append("\(error)")
                }
            }
        }
        // No satellite at all: the listing failed (the last one stays); some: theirs show, the
        // others' lines are said.
        guard !found.isEmpty else { throw TileLoopFailure(problems.first ?? "\(base): no satellite listed") }
        lock.lock(); defer { lock.unlock() }
        let changed = found != runs
        runs = found
        return TileLoopListing(document: Data(documents.joined(separator: "\n").utf8), skipped: problems, changed: changed)
    }

    /// One satellite's run as the listing kept on disk has it: `layer start end step`.
    static func documentPart(layer: String, run: GIBSTimeDomain.Run) -> String {
        "\(layer) \(Int(run.start)) \(Int(run.end)) \(Int(run.step))"
    }

    public func restore(_ document: Data, now: Double) throws {
        var found: [String: GIBSTimeDomain.Run] = [:]
        for line in String(decoding: document, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 4, satellites.contains(where: { $0.layer == parts[0] }),
                  let start = Double(parts[1]), let end = Double(parts[2]), let step = Double(parts[3]),
                  step > 0, end >= start, (end - start) / step < 1e6 else { continue }
            found[String(parts[0])] = GIBSTimeDomain.Run(start: start, end: end, step: step)
        }
        guard !found.isEmpty else { throw TileLoopFailure("\(base): the kept listing has no satellite") }
        lock.lock(); runs = found; lock.unlock()
    }

    public func frames(times: [Double]) -> [TileLoopFrame] {
        lock.lock(); let runs = self.runs; lock.unlock()
        guard !runs.isEmpty else { return [] }
        // Each radar time's cloud times, one per satellite (nil: none that early).
        func match(_ t: Double?) -> [String: Double] {
            var m: [String: Double] = [:]
            for (layer, run) in runs {
                m[layer] = t.map { GIBSTimeDomain.latest(in: run, atOrBefore: $0) } ?? run.start + Double(run.count - 1) * run.step
            }
            return m
        }
        var groups: [(time: Double, clouds: [String: Double])] = []
        if times.isEmpty {
            let newest = match(nil)
            groups = [(newest.values.max() ?? 0, newest)]
        } else {
            for t in times.sorted() {
                let m = match(t)
                guard !m.isEmpty else { continue }
                if groups.last?.clouds != m { groups.append((t, m)) }
            }
        }
        let satellites = self.satellites, gap = gapTemplate
        return groups.map { group in
            // (The gap's frame: the radar's time less the lag, on 10 minutes.)
            let gapTime = ((group.time - Self.gapLag) / 600).rounded(.down) * 600
            return TileLoopFrame(time: group.time) { [self] tile in
                // The satellite of the tile's middle longitude, and its frame for this one.
                let lng = (Double(tile.x) + 0.5) / Double(1 << tile.z) * 360 - 180
                guard let s = GeostationarySatellite.covering(longitude: lng, among: satellites) else {
                    guard let gap else { return nil }
                    return TileRequest(url: Self.gapURL(gap, time: gapTime, tile), cacheKey: TileRequest.cacheKey("gap " + gap, tile), time: gapTime)
                }
                guard let time = group.clouds[s.layer] else { return nil }
                return TileRequest(url: tileURL(s.layer, time: time, tile), cacheKey: TileRequest.cacheKey(s.layer + base, tile), time: time)
            }
        }
    }

    /// GIBS answers an empty tile where a satellite sees nothing, never a refusal by content.
    public func isZoomRefusal(_ data: Data, zoom: Int) -> Bool { false }

    /// The newest frame any satellite has (nil without a listing).
    public var newest: Double? {
        lock.lock(); defer { lock.unlock() }
        return runs.values.map { $0.start + Double($0.count - 1) * $0.step }.max()
    }
}
