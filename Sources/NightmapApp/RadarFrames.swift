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

    /// Loads from `path` (a directory or a file). PNG frames placed by a world file that are
    /// larger than the `box` (default: theirs) needs at zoom `maxZoom`, or whose box is only part
    /// of theirs (a whole mosaic), are cropped and sampled to it while they are read.
    public static func load(path: String, box: LngLatBounds? = nil, maxZoom: Double = 5.99) throws -> RadarFrames {
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
        let sampling = try mosaicSampling(files.first, box: box, maxZoom: maxZoom)
        // The files are decoded at once on every core (a start-up cost), then taken in order.
        let decoded = DecodeSlots(count: files.count)
        let paths = files
        DispatchQueue.concurrentPerform(iterations: paths.count) { k in
            let file = paths[k]
            do {
                if (file as NSString).pathExtension.lowercased() == "png" {
                    if let m = sampling {
                        guard let data = FileManager.default.contents(atPath: file) else { throw Failure(description: "\(file): cannot read file") }
                        decoded.set(k, .success(([try RadarImage.decode(data, name: file, grid: m.grid, box: m.box, width: m.width, height: m.height)], nil)))
                    } else {
                        decoded.set(k, .success(([try PNGCodec.read(path: file)], nil)))
                    }
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
        let world = try sampling?.box ?? files.first.flatMap { try WorldFile.bounds(besideImage: $0, width: images.first??.width, height: images.first??.height) }
        return RadarFrames(images: images, names: names, problems: problems, worldFileBounds: world)
    }

    /// How PNG frames placed by a world file are sampled to `box` (their own when nil), or nil
    /// when they are read as they are: no world file, not PNG, or no larger than needed.
    static func mosaicSampling(_ first: String?, box: LngLatBounds?, maxZoom: Double) throws
        -> (grid: RadarImage.Grid, box: LngLatBounds, width: Int, height: Int)? {
        guard let first, (first as NSString).pathExtension.lowercased() == "png", let grid = try WorldFile.grid(besideImage: first),
              let handle = FileHandle(forReadingAtPath: first) else { return nil }
        let head = (try? handle.read(upToCount: 24)) ?? Data()
        try? handle.close()
        guard let size = RadarImage.declaredSize(head) else { return nil }
        let own = LngLatBounds(west: grid.west, south: grid.north - grid.dy * Double(size.height),
                               east: grid.west + grid.dx * Double(size.width), north: grid.north)
        let target = box ?? own
        let want = RadarFeed.Source.requestSize(box: target, maxZoom: maxZoom)
        guard target != own || size.width * size.height > want.width * want.height else { return nil }
        return (grid, target, want.width, want.height)
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

/// One decode result per file, written by concurrent workers (each its own slot, under a lock).
private final class DecodeSlots: @unchecked Sendable {
    private var slots: [Result<([Pixmap], String?), any Error>?]
    private let lock = NSLock()
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ k: Int, _ r: Result<([Pixmap], String?), any Error>) { lock.lock(); slots[k] = r; lock.unlock() }
    func get(_ k: Int) -> Result<([Pixmap], String?), any Error>? { lock.lock(); defer { lock.unlock() }; return slots[k] }
}
