import Foundation
import MapCore
import MapData

/// What a tiled weather service gives a `TileLoopFeed`: its listing of frames (RainViewer's
/// index, GIBS's time domains), asked when due, and for each frame the tile to fetch for each
/// place. One conforming type per service: `RainViewerSource`, `CloudsSource`.
public protocol TileLoopSource: AnyObject, Sendable {
    /// Who makes the frames (attribution, status line, `state`).
    var provider: String { get }
    /// The frames' colour scale, when the service says it.
    var legend: ColorLegend? { get }
    /// The deepest zoom the service serves (deeper views stretch its tiles).
    var maxZoom: Int { get }
    /// Seconds between listings.
    var listingInterval: Double { get }
    /// Names the service in lines about its listing (the index's URL).
    var listingName: String { get }
    /// The disk cache's name for the service (a folder prefix).
    var cacheName: String { get }

    /// Asks the service for its listing (at most `timeout` seconds per request) and keeps it.
    /// Throws a line naming the URL and what is wrong.
    func list(now: Double, timeout: Double) throws -> TileLoopListing

    /// Keeps a listing `list` gave earlier, read back from the disk (the service gives none).
    func restore(_ document: Data, now: Double) throws

    /// The loop's frames for the listing kept and `times` (the radar's frames' times, for a
    /// service whose frames follow them; empty when there is no radar), oldest first.
    func frames(times: [Double]) -> [TileLoopFrame]

    /// Whether a tile answer is the service refusing the zoom rather than a tile.
    func isZoomRefusal(_ data: Data, zoom: Int) -> Bool
}

/// What a listing gave.
public struct TileLoopListing: Sendable {
    /// The listing's bytes, for the disk (nil: keep none).
    public var document: Data?
    /// Lines about parts of it passed over.
    public var skipped: [String]
    /// Whether the frames changed since the last listing.
    public var changed: Bool

    public init(document: Data?, skipped: [String] = [], changed: Bool) {
        self.document = document; self.skipped = skipped; self.changed = changed
    }
}

/// One frame of a tiled loop: its time (the slot's) and what to fetch for each tile.
public struct TileLoopFrame: Sendable {
    public let time: Double
    /// The tile's request, nil where the frame is clear (no satellite sees it).
    public let tile: @Sendable (TileID) -> TileRequest?

    public init(time: Double, tile: @escaping @Sendable (TileID) -> TileRequest?) { self.time = time; self.tile = tile }
}

/// One tile to fetch: its URL, and where the disk cache keeps it (a folder and a time).
public struct TileRequest: Hashable, Sendable {
    public let url: String
    public let cacheKey: String
    public let time: Double

    public init(url: String, cacheKey: String, time: Double) { self.url = url; self.cacheKey = cacheKey; self.time = time }

    /// The disk cache's folder of tile `t` of a service and layer named `name`.
    public static func cacheKey(_ name: String, _ t: TileID) -> String { "\(hash(name))-\(t.z)-\(t.x)-\(t.y)" }

    /// Eight hex digits for `name` (FNV-1a, its upper 32 bits).
    public static func hash(_ name: String) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in name.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        return String(format: "%08llx", h >> 32)
    }
}

/// A listing that could not be had: one line naming the URL and what is wrong.
public struct TileLoopFailure: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
