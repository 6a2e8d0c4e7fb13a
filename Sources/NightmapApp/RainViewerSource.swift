import Foundation
import MapCore
import MapData

/// RainViewer's radar as a `TileLoopSource` (or a server speaking its API, such as LibreWXR): the
/// index (`weather-maps.json`, read by `RainViewerIndex`) every 10 minutes, its newest 13 frames,
/// each a template of 256-pixel tiles, zoom 7 at most, colour scheme 2 (Universal Blue).
public final class RainViewerSource: TileLoopSource, @unchecked Sendable {
    public let indexURL: URL
    public let provider: String
    public var legend: ColorLegend? { RadarLegend.universalBlue }
    public var maxZoom: Int { RainViewerIndex.maxZoom }
    public var listingInterval: Double { 600 }
    public var listingName: String { indexURL.absoluteString }
    public var cacheName: String { "rainviewer-" + TileRequest.hash(indexURL.absoluteString) }

    /// Frames in the loop (the index's newest: two hours).
    public static let loopLength = 13
    /// The default index.
    public static let rainViewerIndex = "https://api.rainviewer.com/public/weather-maps.json"

    private let lock = NSLock()
    private var index: RainViewerIndex?

    public init(indexURL: URL) {
        self.indexURL = indexURL
        let host = indexURL.host ?? indexURL.absoluteString
        provider = host == "api.rainviewer.com" ? RadarProvider.rainviewer.name : host
    }

    public func list(now: Double, timeout: Double) throws -> TileLoopListing {
        let url = indexURL.absoluteString
        switch HTTPGet.run(indexURL, timeout: timeout, maxBytes: 1 << 20, maxRedirects: 5, accept: "application/json") {
        case let .failure(f):
            throw TileLoopFailure("\(url): \(f.reason)")
        case let .success(r):
            let read = try RainViewerIndex(data: r.body, url: url, now: now)
            lock.lock(); defer { lock.unlock() }
            let changed = read.generated != index?.generated || read.frames != index?.frames
            index = read
            return TileLoopListing(document: r.body, skipped: read.skipped.map { "\(url): \($0)" }, changed: changed)
        }
    }

    public func restore(_ document: Data, now: Double) throws {
        let read = try RainViewerIndex(data: document, url: indexURL.absoluteString, now: now)
        lock.lock(); index = read; lock.unlock()
    }

    public func frames(times: [Double]) -> [TileLoopFrame] {
        lock.lock(); let frames = index?.frames.suffix(Self.loopLength) ?? []; lock.unlock()
        let name = indexURL.absoluteString
        return frames.map { frame in
            TileLoopFrame(time: frame.time) { t in
                TileRequest(url: RainViewerIndex.url(frame, z: t.z, x: t.x, y: t.y), cacheKey: TileRequest.cacheKey(name, t), time: frame.time)
            }
        }
    }

    public func isZoomRefusal(_ data: Data, zoom: Int) -> Bool { RainViewerIndex.isZoomRefusal(data, zoom: zoom) }
}
