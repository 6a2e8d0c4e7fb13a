import Raster
import Synchronization

/// Read-only map geometry in normalised Web Mercator, stored at several levels of detail and cut
/// into chunks with bounding boxes so that a frame touches only what it shows.
///
/// Polygon rings follow the non-zero convention (holes wound opposite to their exteriors);
/// chunks of one polygon layer share cut edges that cancel when they are filled together.
public final class GeometrySet: Sendable {
    public enum Kind: UInt32, Sendable { case polygons = 1, lines = 2 }

    public struct Chunk: Sendable {
        public let minX: Double, minY: Double, maxX: Double, maxY: Double
        /// Indices into `partOffsets` / `partLengths`.
        public let parts: Range<Int>
        public init(minX: Double, minY: Double, maxX: Double, maxY: Double, parts: Range<Int>) {
            self.minX = minX; self.minY = minY; self.maxX = maxX; self.maxY = maxY; self.parts = parts
        }
    }

    public struct Level: Sendable {
        public let minZoom: Double
        public let maxZoom: Double
        /// Indices into `chunks`.
        public let chunks: Range<Int>
        public init(minZoom: Double, maxZoom: Double, chunks: Range<Int>) {
            self.minZoom = minZoom; self.maxZoom = maxZoom; self.chunks = chunks
        }
    }

    public let name: String
    public let kind: Kind
    public let levels: [Level]
    public let chunks: [Chunk]
    /// First point of each part, as an index into `points` pairs.
    public let partOffsets: [Int]
    public let partLengths: [Int]
    /// x, y pairs.
    public let points: [Double]
    /// Each part's edges in blocks of `blockLength`, with the box of the points they join, so
    /// that a frame passes over the blocks that lie wholly off screen without projecting their
    /// points (a chunk is far larger than the window at the zooms it serves). Block b of a part
    /// holds its edges from point b * blockLength on, at most `blockLength` of them; a polygon
    /// ring's last edge, back to its first point, is in its last block.
    public let blockLength: Int
    /// Part p's blocks are `blockStart[p] ..< blockStart[p + 1]`.
    public let blockStart: [Int]
    /// minX, minY, maxX, maxY of each block.
    public let blockBoxes: [Double]
    /// `unitVectors()`, once worked out.
    private let units = Mutex<[Double]?>(nil)

    public init(name: String, kind: Kind, levels: [Level], chunks: [Chunk], partOffsets: [Int],
                partLengths: [Int], points: [Double], blockLength: Int = 16) {
        self.name = name; self.kind = kind; self.levels = levels; self.chunks = chunks
        self.partOffsets = partOffsets; self.partLengths = partLengths; self.points = points
        let length = max(1, blockLength)
        self.blockLength = length
        var starts = [Int](), boxes = [Double]()
        starts.reserveCapacity(partOffsets.count + 1)
        for (offset, n) in zip(partOffsets, partLengths) {
            starts.append(boxes.count / 4)
            let edges = kind == .polygons ? n : max(0, n - 1)
            var first = 0
            while first < edges {
                let last = min(first + length, edges)          // the block joins points first...last
                var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
                for k in first...last {
                    let i = 2 * (offset + (k < n ? k : 0))
                    minX = min(minX, points[i]); maxX = max(maxX, points[i])
                    minY = min(minY, points[i + 1]); maxY = max(maxY, points[i + 1])
                }
                boxes.append(minX); boxes.append(minY); boxes.append(maxX); boxes.append(maxY)
                first = last
            }
        }
        starts.append(boxes.count / 4)
        blockStart = starts
        blockBoxes = boxes
    }

    /// The level to draw at `zoom`: the one whose range holds it, else the nearest.
    public func level(forZoom zoom: Double) -> Level? {
        if let l = levels.first(where: { zoom >= $0.minZoom && zoom < $0.maxZoom }) { return l }
        if let first = levels.first, zoom < first.minZoom { return first }
        return levels.last
    }

    public var pointCount: Int { points.count / 2 }

    /// Each point's place on the globe's unit sphere (`SphereProjection.unit`), three values a
    /// point, worked out the first time the set is drawn on the globe and kept: a set is drawn
    /// frame after frame, and a point's three transcendental functions cost more than the rest
    /// of putting its edges on the globe.
    public func unitVectors() -> [Double] {
        units.withLock { kept in
            if let kept { return kept }
            let n = points.count / 2
            var u = [Double](repeating: 0, count: 3 * n)
            for i in 0..<n {
                let v = SphereProjection.unit(points[2 * i], points[2 * i + 1])
                u[3 * i] = v.x; u[3 * i + 1] = v.y; u[3 * i + 2] = v.z
            }
            kept = u
            return u
        }
    }
}

extension GeometrySet {
    /// A single-level, single-chunk line set built from polylines in longitude/latitude.
    public static func lines(name: String, _ polylines: [[LngLat]]) -> GeometrySet {
        var points: [Double] = [], offsets: [Int] = [], lengths: [Int] = []
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for line in polylines where line.count >= 2 {
            offsets.append(points.count / 2)
            lengths.append(line.count)
            for p in line {
                let m = WebMercator.project(p)
                let x = m.x, y = m.y
                points.append(x); points.append(y)
                minX = min(minX, x); minY = min(minY, y); maxX = max(maxX, x); maxY = max(maxY, y)
            }
        }
        let chunks = offsets.isEmpty ? [] : [Chunk(minX: minX, minY: minY, maxX: maxX, maxY: maxY, parts: 0..<offsets.count)]
        return GeometrySet(name: name, kind: .lines, levels: [Level(minZoom: 0, maxZoom: 99, chunks: 0..<chunks.count)],
                           chunks: chunks, partOffsets: offsets, partLengths: lengths, points: points)
    }
}

extension GeometrySet {
    /// Features drawn alike (one paint for all, no filter) as one set of one level, a chunk per
    /// feature: polygons' rings (`lines` false, for a fill), or lines with polygons' outlines
    /// (`lines` true, for a line layer; an outline without tile cuts when the polygon has one,
    /// else its rings, closed).
    public convenience init(name: String, features: [GeoFeature], lines: Bool) {
        var points: [Double] = [], offsets: [Int] = [], lengths: [Int] = [], chunks: [Chunk] = []
        for f in features {
            let g: FeatureGeometry
            switch (f.geometry.kind, lines) {
            case (.polygons, false), (.lines, true): g = f.geometry
            case (.polygons, true): g = f.geometry.outline ?? f.geometry
            default: continue
            }
            let close = lines && g.kind == .polygons
            let firstPart = offsets.count
            var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
            for i in 0..<g.partCount {
                let r = g.part(i)
                guard r.count >= (lines ? 2 : 3) else { continue }
                offsets.append(points.count / 2)
                lengths.append(r.count + (close ? 1 : 0))
                for k in r {
                    let x = g.coordinates[2 * k], y = g.coordinates[2 * k + 1]
                    points.append(x); points.append(y)
                }
                if close { points.append(g.coordinates[2 * r.lowerBound]); points.append(g.coordinates[2 * r.lowerBound + 1]) }
                minX = min(minX, g.minX); minY = min(minY, g.minY); maxX = max(maxX, g.maxX); maxY = max(maxY, g.maxY)
            }
            if offsets.count > firstPart {
                chunks.append(Chunk(minX: minX, minY: minY, maxX: maxX, maxY: maxY, parts: firstPart..<offsets.count))
            }
        }
        self.init(name: name, kind: lines ? .lines : .polygons, levels: [Level(minZoom: 0, maxZoom: 99, chunks: 0..<chunks.count)],
                  chunks: chunks, partOffsets: offsets, partLengths: lengths, points: points)
    }
}
