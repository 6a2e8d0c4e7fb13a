import Foundation
import MapCore
import MapData
import Raster

/// RainViewer's Weather Maps API on 127.0.0.1 for tests: `/public/weather-maps.json` in the
/// shape of the real index (its `host` this server, frames ten minutes apart with opaque
/// paths), and each frame's tiles `{path}/256/{z}/{x}/{y}/2/1_0.png`: transparent 256-pixel
/// PNGs with one opaque square whose colour tells the frame (`colour(frame:)`) and whose place
/// tells the tile (`marker(tile:)`). Any target can be answered badly instead (`bad`).
public final class RainViewerStandIn: @unchecked Sendable {
    public let server: LocalHTTPServer
    /// The frames' times, oldest first.
    public let times: [Double]
    /// When the index was made.
    public let generated: Double
    private let lock = NSLock()
    private var badAnswers: [String: LocalHTTPServer.Behaviour] = [:]
    private var badZooms: [Int: LocalHTTPServer.Behaviour] = [:]
    private var pngs: [String: Data] = [:]
    /// Every tile of a frame the same (its square where tile 0/0/0's is): cheap to serve by the thousand.
    public var uniform = false

    /// The newest frame at `newest`, `count` frames ten minutes apart.
    public init(newest: Double, count: Int = 13) throws {
        times = (0..<count).map { newest - Double(count - 1 - $0) * 600 }
        generated = newest + 37
        let box = Box()
        server = try LocalHTTPServer(.route { target in box.standIn?.answer(target) ?? .status(500, "not ready") })
        box.standIn = self
    }

    public func stop() { server.stop() }

    public var indexURL: URL { URL(string: "http://127.0.0.1:\(server.port)/public/weather-maps.json")! }

    /// Frame `k`'s opaque path (a hash, never its time).
    public static func path(_ k: Int) -> String { "/v2/radar/" + String(format: "%012llx", (UInt64(k) &+ 7) &* 0x9E37_79B9_7F4A_7C15 >> 16) }

    /// Answers by request target (path and query).
    public var bad: [String: LocalHTTPServer.Behaviour] {
        get { lock.lock(); defer { lock.unlock() }; return badAnswers }
        set { lock.lock(); badAnswers = newValue; lock.unlock() }
    }

    /// Answers for every tile of a zoom.
    public var badZoom: [Int: LocalHTTPServer.Behaviour] {
        get { lock.lock(); defer { lock.unlock() }; return badZooms }
        set { lock.lock(); badZooms = newValue; lock.unlock() }
    }

    /// The tiles asked for, in order: (frame, tile).
    public var tilesAsked: [(frame: Int, tile: TileID)] { server.targets.compactMap(tile) }
    /// How often the index was asked.
    public var indexAsked: Int { server.targets.filter { $0.hasPrefix("/public/weather-maps.json") }.count }

    /// Frame `k`'s square colour (opaque, distinct per frame).
    public static func colour(frame k: Int) -> RGBA8 { RGBA8(UInt8(40 + (k * 16) % 200), 200, UInt8(255 - (k * 16) % 200), 255) }

    /// The square's side, and its top-left pixel in tile `t` (depends on the tile, so a tile
    /// drawn in another's place shows).
    public static let side = 16
    public static func marker(tile t: TileID) -> (x: Int, y: Int) { (16 + (t.x * 37 + t.z * 5) % 200, 16 + (t.y * 53 + t.z * 3) % 200) }

    /// The index document.
    public var index: String {
        let frames = times.indices.map { #"{"time":\#(Int(times[$0])),"path":"\#(Self.path($0))"}"# }.joined(separator: ",")
        return #"{"version":"2.0","generated":\#(Int(generated)),"host":"http://127.0.0.1:\#(server.port)","radar":{"past":[\#(frames)],"nowcast":[]},"satellite":{"infrared":[]}}"#
    }

    func tile(_ target: String) -> (frame: Int, tile: TileID)? {
        let parts = target.split(separator: "/").map(String.init)
        // v2 radar <hash> 256 z x y 2 1_0.png
        guard parts.count == 9, parts[0] == "v2", parts[1] == "radar", parts[3] == "256",
              let k = times.indices.first(where: { Self.path($0) == "/v2/radar/" + parts[2] }),
              let z = Int(parts[4]), let x = Int(parts[5]), let y = Int(parts[6]), let t = TileID(z: z, x: x, y: y) else { return nil }
        return (k, t)
    }

    func answer(_ target: String) -> LocalHTTPServer.Behaviour {
        if let b = bad[target] { return b }
        if target.hasPrefix("/public/weather-maps.json") { return .json(index) }
        guard let (k, t) = tile(target) else { return .status(404, "<html><body>Not Found</body></html>") }
        if let b = badZoom[t.z] { return b }
        return .image(png(frame: k, tile: uniform ? TileID(z: 0, x: 0, y: 0) ?? t : t), type: "image/png")
    }

    /// The PNG of frame `k`'s tile `t`.
    public func png(frame k: Int, tile t: TileID) -> Data {
        let key = "\(k)/\(t)"
        lock.lock()
        if let d = pngs[key] { lock.unlock(); return d }
        lock.unlock()
        let p = Pixmap(width: 256, height: 256)
        let m = Self.marker(tile: t)
        let c = PremultipliedColor(Self.colour(frame: k)).packed
        for y in m.y..<(m.y + Self.side) { for x in m.x..<(m.x + Self.side) { p.pixels[y * 256 + x] = c } }
        let data = (try? PNGCodec.encode(p)) ?? Data()
        lock.lock(); pngs[key] = data; lock.unlock()
        return data
    }

    private final class Box: @unchecked Sendable { weak var standIn: RainViewerStandIn? }
}
