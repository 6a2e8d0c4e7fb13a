import Raster

/// How an image source's corners map the image onto the map.
public enum ImagePlacement: String, Sendable, Equatable, CaseIterable {
    /// Linear in Web Mercator between the corners, as the reference engines draw image sources.
    case linear
    /// Each image row at its true latitude (a latitude/longitude grid, as weather composites are).
    case lonlat
}

/// Where an image goes: four corners [top-left, top-right, bottom-right, bottom-left].
public struct ImageCorners: Equatable, Sendable {
    public var topLeft: LngLat, topRight: LngLat, bottomRight: LngLat, bottomLeft: LngLat

    public init(topLeft: LngLat, topRight: LngLat, bottomRight: LngLat, bottomLeft: LngLat) {
        self.topLeft = topLeft; self.topRight = topRight; self.bottomRight = bottomRight; self.bottomLeft = bottomLeft
    }

    /// The corners of a west/south/east/north box.
    public init(_ b: LngLatBounds) {
        self.init(topLeft: LngLat(lng: b.west, lat: b.north), topRight: LngLat(lng: b.east, lat: b.north),
                  bottomRight: LngLat(lng: b.east, lat: b.south), bottomLeft: LngLat(lng: b.west, lat: b.south))
    }

    /// The Mapbox weather example's placement.
    public static let weatherExample = ImageCorners(
        topLeft: LngLat(lng: -80.425, lat: 46.437), topRight: LngLat(lng: -71.516, lat: 46.437),
        bottomRight: LngLat(lng: -71.516, lat: 37.936), bottomLeft: LngLat(lng: -80.425, lat: 37.936))

    public var all: [LngLat] { [topLeft, topRight, bottomRight, bottomLeft] }

    /// The west/south/east/north box around the four corners.
    public var bounds: LngLatBounds {
        LngLatBounds(west: min(topLeft.lng, topRight.lng, bottomRight.lng, bottomLeft.lng),
                     south: min(topLeft.lat, topRight.lat, bottomRight.lat, bottomLeft.lat),
                     east: max(topLeft.lng, topRight.lng, bottomRight.lng, bottomLeft.lng),
                     north: max(topLeft.lat, topRight.lat, bottomRight.lat, bottomLeft.lat))
    }

    /// True for a west/south/east/north box: north-up, edges along meridians and parallels.
    public var isAxisAligned: Bool {
        topLeft.lat == topRight.lat && bottomLeft.lat == bottomRight.lat
            && topLeft.lng == bottomLeft.lng && topRight.lng == bottomRight.lng
    }
}

/// An image source: a sequence of frames (one shown at a time) placed by four corners.
/// A frame that failed to decode is nil: the last good frame before it stays on screen.
public final class ImageSource: Sendable {
    public let corners: ImageCorners
    public let placement: ImagePlacement
    public let frames: [(any RasterTexture)?]
    public let names: [String]
    /// Each frame's valid time (seconds since 1970, UTC), nil where it has none (a demo loop, a
    /// folder of images); as many as `frames`.
    public let times: [Double?]
    /// Each frame's clear runs, where they were found before the frame was handed over (off the
    /// render thread); nil where the renderer finds them itself.
    public let runs: [ImageRuns?]

    public init(corners: ImageCorners, placement: ImagePlacement, frames: [(any RasterTexture)?], names: [String], times: [Double?]? = nil,
                runs: [ImageRuns?]? = nil) {
        self.corners = corners; self.placement = placement; self.frames = frames; self.names = names
        self.times = times.map { t in frames.indices.map { $0 < t.count ? t[$0] : nil } } ?? frames.map { _ in nil }
        self.runs = runs.map { r in frames.indices.map { $0 < r.count ? r[$0] : nil } } ?? frames.map { _ in nil }
    }

    /// The clear runs found for `image` (one of the frames), if any.
    public func runs(of image: any RasterTexture) -> ImageRuns? {
        guard let i = frames.firstIndex(where: { $0 === image }) else { return nil }
        return runs[i]
    }

    /// The image to show for frame `index` (taken modulo the count): the frame itself, or the
    /// closest good frame before it (wrapping), or nil when no frame is good.
    public func image(at index: Int) -> (any RasterTexture)? {
        guard !frames.isEmpty else { return nil }
        let n = frames.count
        for back in 0..<n {
            if let f = frames[((index - back) % n + n) % n] { return f }
        }
        return nil
    }
}
