import Foundation
import MapData
import Raster

/// A time-enabled WMS on 127.0.0.1 for tests: a GetMap with `TIME=...Z` gets a transparent
/// PNG of the asked `WIDTH` x `HEIGHT` with one opaque magenta square whose place depends on the
/// slot (`marker(slot:)`), and any slot can be answered badly instead (`bad`).
public final class WMSStandIn: @unchecked Sendable {
    public let server: LocalHTTPServer
    /// Slot 0's time (seconds since 1970) and the seconds between slots.
    public let base: Double, step: Double
    private let lock = NSLock()
    private var badAnswers: [String: LocalHTTPServer.Behaviour] = [:]

    /// The square's side and the distance between neighbouring slots' squares, in pixels.
    public let side: Int, spacing: Int
    public static let colour = RGBA8(255, 0, 255, 255)

    public init(base: Double, step: Double = 300, side: Int = 4, spacing: Int = 8) throws {
        self.base = base; self.step = step; self.side = side; self.spacing = spacing
        let box = Box()
        server = try LocalHTTPServer(.route { target in box.standIn?.answer(target) ?? .status(500, "not ready") })
        box.standIn = self
    }

    public func stop() { server.stop() }

    /// `{time}`-style template for this server's GetMap (bbox and size are placeholders too).
    public var template: String {
        "http://127.0.0.1:\(server.port)/wms?SERVICE=WMS&REQUEST=GetMap&LAYERS=radar&SRS=EPSG:4326&BBOX={bbox}&WIDTH={width}&HEIGHT={height}&FORMAT=image/png&TRANSPARENT=true&TIME={time}"
    }

    /// Answers for the slots named by their `TIME` value (`2026-12-01T15:30:00Z`).
    public var bad: [String: LocalHTTPServer.Behaviour] {
        get { lock.lock(); defer { lock.unlock() }; return badAnswers }
        set { lock.lock(); badAnswers = newValue; lock.unlock() }
    }

    /// The TIME values asked for, in order.
    public var timesAsked: [String] { server.targets.compactMap { Self.query($0)["TIME"] } }

    /// The square's top-left pixel in an image of `width` x `height` for slot `k` (0: `base`):
    /// along the middle row, `spacing` pixels per slot (wrapping), so neighbours never overlap.
    public func marker(slot k: Int, width: Int, height: Int) -> (x: Int, y: Int) {
        let across = max(1, (width - side) / spacing)
        return (2 + spacing * (((k % across) + across) % across), height / 2 - side / 2)
    }

    func answer(_ target: String) -> LocalHTTPServer.Behaviour {
        let q = Self.query(target)
        guard let time = q["TIME"], let w = q["WIDTH"].flatMap(Int.init), let h = q["HEIGHT"].flatMap(Int.init), w > 0, h > 0, w * h <= 1 << 24 else {
            return .status(400, "<ServiceExceptionReport><ServiceException>missing TIME, WIDTH or HEIGHT</ServiceException></ServiceExceptionReport>")
        }
        if let b = bad[time] { return b }
        guard let t = Self.parse(time) else { return .status(400, "bad TIME") }
        let k = Int(((t - base) / step).rounded())
        return .image(png(width: w, height: h, slot: k), type: "image/png")
    }

    /// The PNG served for slot `k`.
    public func png(width: Int, height: Int, slot k: Int) -> Data {
        let p = Pixmap(width: width, height: height)
        let m = marker(slot: k, width: width, height: height)
        for y in m.y..<min(height, m.y + side) where y >= 0 {
            for x in m.x..<min(width, m.x + side) where x >= 0 { p[x, y] = Self.colour.premultiplied.packed }
        }
        return try! PNGCodec.encode(p)
    }

    static func query(_ target: String) -> [String: String] {
        guard let q = target.split(separator: "?", maxSplits: 1).dropFirst().first else { return [:] }
        var out: [String: String] = [:]
        for pair in q.split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1)
            guard kv.count == 2 else { continue }
            out[String(kv[0]).uppercased()] = String(kv[1]).removingPercentEncoding ?? String(kv[1])
        }
        return out
    }

    static func parse(_ iso: String) -> Double? {
        let f = ISO8601DateFormatter()
        return f.date(from: iso)?.timeIntervalSince1970
    }

    /// Lets the route closure reach the stand-in made after the server.
    private final class Box: @unchecked Sendable { weak var standIn: WMSStandIn? }
}
