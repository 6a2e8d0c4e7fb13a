import Foundation
import MapCore

/// ESRI world files: six numbers placing a north-up raster in longitude/latitude.
public enum WorldFile {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// The bounds of a `width` x `height` image from the world file beside it (`name.gfw` or
    /// `name.wld`), or nil when there is none.
    public static func bounds(besideImage path: String, width: Int?, height: Int?) throws -> LngLatBounds? {
        let base = (path as NSString).deletingPathExtension
        for ext in ["gfw", "wld", "GFW", "WLD"] {
            let candidate = base + "." + ext
            guard let text = try? String(contentsOfFile: candidate, encoding: .utf8) else { continue }
            guard let w = width, let h = height else { return nil }
            return try parse(text, width: w, height: h, origin: candidate)
        }
        return nil
    }

    /// The grid of the world file beside the image at `path` (`name.gfw` or `name.wld`), or nil
    /// when there is none.
    public static func grid(besideImage path: String) throws -> RadarImage.Grid? {
        let base = (path as NSString).deletingPathExtension
        for ext in ["gfw", "wld", "GFW", "WLD"] {
            let candidate = base + "." + ext
            guard let text = try? String(contentsOfFile: candidate, encoding: .utf8) else { continue }
            return try grid(text, origin: candidate)
        }
        return nil
    }

    public static func parse(_ text: String, width: Int, height: Int, origin: String) throws -> LngLatBounds {
        let g = try grid(text, origin: origin)
        let east = g.west + g.dx * Double(width), south = g.north - g.dy * Double(height)
        guard g.west >= -180, east <= 180, south >= -90, g.north <= 90, g.west < east, south < g.north else {
            throw Failure(description: "\(origin): the image would cover [\(g.west), \(south), \(east), \(g.north)], outside longitude/latitude")
        }
        return LngLatBounds(west: g.west, south: south, east: east, north: g.north)
    }

    /// The pixel grid a world file describes: the top-left corner of pixel (0, 0) (the file
    /// gives that pixel's centre) and a pixel's size in degrees.
    public static func grid(_ text: String, origin: String) throws -> RadarImage.Grid {
        let words = text.split(whereSeparator: \.isWhitespace)
        let v = words.compactMap { Double($0) }.filter(\.isFinite)
        guard words.count == 6, v.count == 6 else {
            throw Failure(description: "\(origin): a world file needs six numbers")
        }
        let (a, d, b, e, c, f) = (v[0], v[1], v[2], v[3], v[4], v[5])
        guard d == 0, b == 0 else { throw Failure(description: "\(origin): rotated world files are not supported") }
        guard a > 0, e < 0 else { throw Failure(description: "\(origin): pixel size must be positive in x and negative in y") }
        // (c, f) is the centre of the top-left pixel.
        return RadarImage.Grid(west: c - a / 2, north: f - e / 2, dx: a, dy: -e)
    }
}
