import Foundation
import MapCore
import MapData
import Raster

/// NASA GIBS's WMTS on 127.0.0.1 for tests: DescribeDomains answers in the real shape (one
/// gapless 10-minute run per layer, ending at the layer's `newest`) and band-13 tiles
/// `{layer}/default/{time}/GoogleMapsCompatible_Level6/{z}/{y}/{x}.png`: transparent 256-pixel
/// PNGs with one opaque square whose colour tells the layer (`colour(layer:)`) and whose place
/// tells the frame's time (`marker(time:)`). Any target can be answered badly instead (`bad`).
public final class GIBSStandIn: @unchecked Sendable {
    public let server: LocalHTTPServer
    private let lock = NSLock()
    private var newestTimes: [String: Double]
    private var badAnswers: [String: LocalHTTPServer.Behaviour] = [:]
    private var pngs: [String: Data] = [:]

    /// `newest`: each layer's newest frame (Unix seconds, on 10 minutes).
    public init(newest: [String: Double]) throws {
        newestTimes = newest
        let box = Box()
        server = try LocalHTTPServer(.route { target in box.standIn?.answer(target) ?? .status(500, "not ready") })
        box.standIn = self
    }

    public func stop() { server.stop() }

    /// The WMTS base (`--clouds-url`).
    public var base: String { "http://127.0.0.1:\(server.port)/wmts/epsg3857/best" }

    public var bad: [String: LocalHTTPServer.Behaviour] {
        get { lock.lock(); defer { lock.unlock() }; return badAnswers }
        set { lock.lock(); badAnswers = newValue; lock.unlock() }
    }

    /// The tiles asked for: (layer, time, tile).
    public var tilesAsked: [(layer: String, time: Double, tile: TileID)] { server.targets.compactMap(tile) }
    /// The DescribeDomains asked for, by layer.
    public var domainsAsked: [String] {
        server.targets.compactMap { t in
            let p = t.split(separator: "/").map(String.init)
            return p.count > 5 && p[3] == "1.0.0" ? p[4] : nil
        }
    }

    /// A layer's square colour.
    public static func colour(layer: String) -> RGBA8 {
        switch layer {
        case GeostationarySatellite.goesEast.layer: return RGBA8(255, 40, 40, 255)
        case GeostationarySatellite.goesWest.layer: return RGBA8(40, 255, 40, 255)
        case "gap": return gapColour
        default: return RGBA8(40, 40, 255, 255)
        }
    }

    /// The square's side and its top-left pixel for a frame time (ten places, by the time's
    /// 10-minute slot).
    public static let side = 12
    public static func marker(time: Double) -> (x: Int, y: Int) {
        let k = Int((time / 600).rounded()) % 10
        return (20 + k * 20, 120)
    }

    func tile(_ target: String) -> (layer: String, time: Double, tile: TileID)? {
        // wmts epsg3857 best {layer} default {time} GoogleMapsCompatible_Level6 z y x.png
        let p = target.split(separator: "/").map(String.init)
        guard p.count == 10, p[0] == "wmts", p[4] == "default", p[6] == "GoogleMapsCompatible_Level6",
              let time = NWSAlerts.time(p[5]), let z = Int(p[7]), let y = Int(p[8]), let x = Int(p[9].replacingOccurrences(of: ".png", with: "")),
              let t = TileID(z: z, x: x, y: y) else { return nil }
        return (p[3], time, t)
    }

    /// A WMS-T GetMap template on this server for the satellites' gap (`--clouds-gap-url`): its
    /// tiles have a square of `gapColour` where `marker(time:)` puts it.
    public var gapTemplate: String {
        "http://127.0.0.1:\(server.port)/geoserver/wms?SERVICE=WMS&VERSION=1.1.1&REQUEST=GetMap&LAYERS=mtg_fd:ir105_hrfi&SRS=EPSG:3857&BBOX={bbox-epsg-3857}&WIDTH={width}&HEIGHT={height}&FORMAT=image/png&TIME={time}"
    }
    public static let gapColour = RGBA8(255, 255, 40, 255)
    /// The gap's GetMaps asked for: (BBOX, TIME).
    public var gapAsked: [(bbox: String, time: String)] {
        server.targets.filter { $0.hasPrefix("/geoserver/wms?") }.map { t in
            let q = Self.query(t)
            return (q["BBOX"] ?? "", q["TIME"] ?? "")
        }
    }

    static func query(_ target: String) -> [String: String] {
        var q: [String: String] = [:]
        for p in (target.split(separator: "?").last ?? "").split(separator: "&") {
            let kv = p.split(separator: "=", maxSplits: 1).map(String.init)
            if kv.count == 2 { q[kv[0]] = kv[1] }
        }
        return q
    }

    func answer(_ target: String) -> LocalHTTPServer.Behaviour {
        if let b = bad[target] { return b }
        if target.hasPrefix("/geoserver/wms?") {
            guard let time = Self.query(target)["TIME"].flatMap(NWSAlerts.time) else { return .status(400, "no TIME") }
            return .image(png(layer: "gap", time: time, tile: TileID(z: 0, x: 0, y: 0)!), type: "image/png")
        }
        let p = target.split(separator: "/").map(String.init)
        if p.count > 5 && p[3] == "1.0.0" {
            lock.lock(); let newest = newestTimes[p[4]]; lock.unlock()
            guard let newest else { return .status(400, "<ExceptionReport>Invalid layer</ExceptionReport>") }
            let start = newest - 6 * 3600
            return .json("""
                <?xml version="1.0" encoding="UTF-8"?>
                <Domains xmlns="http://www.opengis.net/wmts/1.0" xmlns:ows="http://www.opengis.net/ows/1.1">
                  <DimensionDomain>
                    <ows:Identifier>time</ows:Identifier>
                    <Domain>\(Self.iso(start))/\(Self.iso(newest))/PT10M</Domain>
                    <Size>37</Size>
                  </DimensionDomain>
                </Domains>
                """)
        }
        guard let (layer, time, t) = tile(target) else { return .status(404, "<html><body>Not Found</body></html>") }
        lock.lock(); let newest = newestTimes[layer]; lock.unlock()
        guard let newest, time <= newest else { return .status(404, "<ExceptionReport>TIME out of range</ExceptionReport>") }
        return .image(png(layer: layer, time: time, tile: t), type: "image/png")
    }

    public static func iso(_ t: Double) -> String {
        let f = ISO8601DateFormatter()
        f.timeZone = TimeZone(identifier: "UTC")
        return f.string(from: Date(timeIntervalSince1970: t))
    }

    /// The PNG of a tile.
    public func png(layer: String, time: Double, tile: TileID) -> Data {
        let key = "\(layer)/\(time)"
        lock.lock()
        if let d = pngs[key] { lock.unlock(); return d }
        lock.unlock()
        let p = Pixmap(width: 256, height: 256)
        let m = Self.marker(time: time)
        let c = PremultipliedColor(Self.colour(layer: layer)).packed
        for y in m.y..<(m.y + Self.side) { for x in m.x..<(m.x + Self.side) { p.pixels[y * 256 + x] = c } }
        let data = (try? PNGCodec.encode(p)) ?? Data()
        lock.lock(); pngs[key] = data; lock.unlock()
        return data
    }

    private final class Box: @unchecked Sendable { weak var standIn: GIBSStandIn? }
}
