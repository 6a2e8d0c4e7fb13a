import Foundation
import MapCore
import MapData
import Raster

/// Loads radar frames: a directory of GIFs (and PNGs), sorted by name, or one (animated) GIF or
/// PNG file, each GIF frame a radar frame. Every frame is decoded here, before anything is shown,
/// so swapping frames later costs no decoding. A frame that cannot be decoded is reported (one
/// line naming the file and the reason) and left empty: the last good frame before it stays on
/// screen in its place.
public struct RadarFrames {
    public let images: [Pixmap?]
    public let names: [String]
    /// One line per bad file.
    public let problems: [String]
    /// The placement a world file (`.gfw`, `.wld`) beside the first frame gives, if any.
    public let worldFileBounds: LngLatBounds?

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Loads from `path` (a directory or a file).
    public static func load(path: String) throws -> RadarFrames {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw Failure(description: "\(path): no such file or directory")
        }
        var files: [String] = []
        if isDirectory.boolValue {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            files = entries.filter { ["gif", "png"].contains(($0 as NSString).pathExtension.lowercased()) }.sorted()
                .map { (path as NSString).appendingPathComponent($0) }
            guard !files.isEmpty else { throw Failure(description: "\(path): no .gif or .png frames in the directory") }
        } else {
            files = [path]
        }
        // The files are decoded at once on every core (a start-up cost), then taken in order.
        let decoded = DecodeSlots(count: files.count)
        let paths = files
        DispatchQueue.concurrentPerform(iterations: paths.count) { k in
            let file = paths[k]
            do {
                if (file as NSString).pathExtension.lowercased() == "png" {
                    decoded.set(k, .success(([try PNGCodec.read(path: file)], nil)))
                } else {
                    let gif = try GIFDecoder.read(path: file)
                    decoded.set(k, .success((gif.frames, gif.warning)))
                }
            } catch {
                decoded.set(k, .failure(error))
            }
        }
        var images: [Pixmap?] = [], names: [String] = [], problems: [String] = []
        for (k, file) in files.enumerated() {
            let name = (file as NSString).lastPathComponent
            switch decoded.get(k) {
            case let .success((frames, warning))?:
                if let w = warning { problems.append(w) }
                for (i, frame) in frames.enumerated() {
                    images.append(frame)
                    names.append(frames.count > 1 ? "\(name)#\(i)" : name)
                }
            case let .failure(error)?:
                problems.append("\(error)")
                images.append(nil); names.append(name)
            case nil:
                images.append(nil); names.append(name)
            }
        }
        if images.allSatisfy({ $0 == nil }) && files.count == 1 {
            throw Failure(description: problems.first ?? "\(path): no usable frame")
        }
        let world = try files.first.flatMap { try WorldFile.bounds(besideImage: $0, width: images.first??.width, height: images.first??.height) }
        return RadarFrames(images: images, names: names, problems: problems, worldFileBounds: world)
    }

    /// The image source these frames make, placed by `corners`.
    public func source(corners: ImageCorners, placement: ImagePlacement) -> ImageSource {
        ImageSource(corners: corners, placement: placement, frames: images.map { $0 }, names: names)
    }

    /// These frames as an untimed radar series (their clear runs found here, off the render
    /// thread); a frame that failed is a slot in error, and the good frame before it shows in
    /// its place.
    public func series(origin: RadarSeries.Origin, provider: String) -> RadarSeries {
        let slots = images.indices.map { i -> RadarSeries.Slot in
            guard let image = images[i] else { return .init(time: nil, status: .error, name: names[i], problem: "\(names[i]): cannot be decoded") }
            return .init(time: nil, status: .ok, image: image, runs: ImageRuns(image), name: names[i])
        }
        return RadarSeries(origin: origin, slots: slots, lastError: problems.last, provider: provider)
    }
}

/// ESRI world files: six numbers placing a north-up raster in longitude/latitude.
public enum WorldFile {
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

    public static func parse(_ text: String, width: Int, height: Int, origin: String) throws -> LngLatBounds {
        let words = text.split(whereSeparator: \.isWhitespace)
        let v = words.compactMap { Double($0) }.filter(\.isFinite)
        guard words.count == 6, v.count == 6 else {
            throw RadarFrames.Failure(description: "\(origin): a world file needs six numbers")
        }
        let (a, d, b, e, c, f) = (v[0], v[1], v[2], v[3], v[4], v[5])
        guard d == 0, b == 0 else { throw RadarFrames.Failure(description: "\(origin): rotated world files are not supported") }
        guard a > 0, e < 0 else { throw RadarFrames.Failure(description: "\(origin): pixel size must be positive in x and negative in y") }
        // (c, f) is the centre of the top-left pixel.
        let west = c - a / 2, north = f - e / 2
        let east = west + a * Double(width), south = north + e * Double(height)
        guard west >= -180, east <= 180, south >= -90, north <= 90, west < east, south < north else {
            throw RadarFrames.Failure(description: "\(origin): the image would cover [\(west), \(south), \(east), \(north)], outside longitude/latitude")
        }
        return LngLatBounds(west: west, south: south, east: east, north: north)
    }
}

/// One decode result per file, written by concurrent workers (each its own slot, under a lock).
private final class DecodeSlots: @unchecked Sendable {
    private var slots: [Result<([Pixmap], String?), any Error>?]
    private let lock = NSLock()
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ k: Int, _ r: Result<([Pixmap], String?), any Error>) { lock.lock(); slots[k] = r; lock.unlock() }
    func get(_ k: Int) -> Result<([Pixmap], String?), any Error>? { lock.lock(); defer { lock.unlock() }; return slots[k] }
}
