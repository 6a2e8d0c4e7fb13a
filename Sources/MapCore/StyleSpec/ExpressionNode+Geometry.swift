import Foundation

// The nodes that read the feature's geometry: `within` and `distance`.

/// How MapLibre sees a feature's geometry when it evaluates an expression: in the coordinates of
/// the tile it was cut into (8192 units a side), at the zoom of that tile. This engine keeps
/// features whole, so they are put on the same grid of the whole world at that zoom.
enum TileGrid {
    static let extent = 8192.0
    /// GeoJSON tiles stop at zoom 18 (deeper views overzoom them); vector tiles are cut at
    /// their own zoom, whose grid the features already lie on.
    static let maximumZoom = 18.0

    /// Units per world (x and y 0...1) at the tile zoom of the evaluation zoom.
    static func scale(zoom: Double) -> Double {
        let z = zoom.isFinite ? Swift.min(Swift.max(zoom.rounded(.down), 0), maximumZoom) : 0
        return exp2(z) * extent
    }

    /// A longitude and latitude in Web Mercator (x, y 0...1; the latitude not clamped), as
    /// `getTileCoordinates` projects it before scaling to the grid.
    static func mercator(lng: Double, lat: Double) -> PlanePoint {
        PlanePoint((180 + lng) / 360, (180 - (180 / Double.pi * log(tan(Double.pi / 4 + lat * Double.pi / 360)))) / 360)
    }

    /// A feature's position (normalised Web Mercator) on the grid.
    @inline(__always) static func point(mercatorX x: Double, _ y: Double, scale: Double) -> PlanePoint {
        PlanePoint((x * scale).rounded(.toNearestOrAwayFromZero), (y * scale).rounded(.toNearestOrAwayFromZero))
    }

    /// A grid position back in longitude and latitude (`getLngLatFromTileCoord`).
    @inline(__always) static func lngLat(_ p: PlanePoint, scale: Double) -> PlanePoint {
        let x = p.x / scale, y = p.y / scale
        return PlanePoint(x * 360 - 180, 360 / Double.pi * atan(exp((180 - y * 360) * Double.pi / 180)) - 90)
    }
}

/// `["within", geojson]`: whether every point of a point feature, or every line of a line
/// feature, lies strictly inside one of the polygons (holes excluded, the boundary outside).
/// Polygon features and features without geometry are never within.
final class WithinNode: Node, @unchecked Sendable {
    /// Polygons (rings of positions in Web Mercator).
    let polygons: [[[PlanePoint]]]

    /// `polygons`: rings of longitude, latitude.
    init(polygons: [[[PlanePoint]]]) {
        self.polygons = polygons.map { $0.map { $0.map { TileGrid.mercator(lng: $0.x, lat: $0.y) } } }
        super.init([], readsFeature: true)
    }

    override func evaluate(_ c: EvaluationContext, _ f: inout Frame) throws -> StyleValue {
        guard let g = c.feature?.geometry, !g.isEmpty, g.kind != .polygons else { return .bool(false) }
        let scale = TileGrid.scale(zoom: c.zoom)
        var polyBox = PlaneBox()
        let tilePolygons = polygons.map { rings in
            rings.map { ring in
                ring.map { p -> PlanePoint in
                    let q = TileGrid.point(mercatorX: p.x, p.y, scale: scale)
                    polyBox.add(q)
                    return q
                }
            }
        }
        // Points more than half a world from the polygons' box are taken from the next world copy.
        func shifted(_ p: PlanePoint) -> PlanePoint {
            guard p.x < polyBox.minX || p.x > polyBox.maxX else { return p }
            let half = scale / 2
            var shift = p.x - polyBox.minX > half ? -scale : (polyBox.minX - p.x > half ? scale : 0)
            if shift == 0 { shift = p.x - polyBox.maxX > half ? -scale : (polyBox.maxX - p.x > half ? scale : 0) }
            return PlanePoint(p.x + shift, p.y)
        }
        let xy = g.coordinates
        if g.kind == .points {
            var box = PlaneBox()
            var points: [PlanePoint] = []
            points.reserveCapacity(xy.count / 2)
            for i in 0..<(xy.count / 2) {
                let p = shifted(TileGrid.point(mercatorX: xy[2 * i], xy[2 * i + 1], scale: scale))
                box.add(p)
                points.append(p)
            }
            guard box.isWithin(polyBox) else { return .bool(false) }
            for p in points where !tilePolygons.contains(where: { PlaneGeometry.pointWithinPolygon(p, $0) }) { return .bool(false) }
            return .bool(true)
        }
        var box = PlaneBox()
        var lines: [[PlanePoint]] = []
        for part in 0..<g.partCount {
            lines.append(g.part(part).map { i in
                let p = TileGrid.point(mercatorX: xy[2 * i], xy[2 * i + 1], scale: scale)
                box.add(p)
                return p
            })
        }
        if box.maxX - box.minX <= scale / 2 {
            box = PlaneBox()
            for k in lines.indices {
                for j in lines[k].indices {
                    lines[k][j] = shifted(lines[k][j])
                    box.add(lines[k][j])
                }
            }
        }
        guard box.isWithin(polyBox) else { return .bool(false) }
        for line in lines where !tilePolygons.contains(where: { PlaneGeometry.lineWithinPolygon(line, $0) }) { return .bool(false) }
        return .bool(true)
    }
}

/// `["distance", geojson]`: the shortest distance in metres from the feature to the geometries
/// (0 where they touch, cross or one contains the other), measured with a cheap ruler at the
/// feature's first position. The feature's parts are joined into one set of points, one line,
/// or its polygons; its positions are those of the tile grid. NaN for an empty feature.
final class DistanceNode: Node, @unchecked Sendable {
    let geometries: [SimpleGeometry]

    init(geometries: [SimpleGeometry]) {
        self.geometries = geometries
        super.init([], readsFeature: true)
    }

    override func evaluate(_ c: EvaluationContext, _ f: inout Frame) throws -> StyleValue {
        guard let g = c.feature?.geometry, !g.isEmpty else { return .number(.nan) }
        let scale = TileGrid.scale(zoom: c.zoom)
        let xy = g.coordinates
        func position(_ i: Int) -> PlanePoint {
            TileGrid.lngLat(TileGrid.point(mercatorX: xy[2 * i], xy[2 * i + 1], scale: scale), scale: scale)
        }
        switch g.kind {
        case .points, .lines:
            let isLine = g.kind == .lines
            let points = (0..<(xy.count / 2)).map(position)
            let ruler = CheapRuler(latitude: points[0].y)
            var best = Double.infinity
            for geometry in geometries {
                switch geometry {
                case .point(let p): best = Swift.min(best, GeometryDistance.sets(points, isLine, [p], false, ruler))
                case .line(let line): best = Swift.min(best, GeometryDistance.sets(points, isLine, line, true, ruler))
                case .polygon(let rings): best = Swift.min(best, GeometryDistance.toPolygon(points, isLine, rings, ruler))
                }
                if best == 0 { break }
            }
            return .number(best)
        case .polygons:
            var polygons: [[[PlanePoint]]] = []
            for k in 0..<(g.polygonStarts.count - 1) {
                polygons.append((g.polygonStarts[k]..<g.polygonStarts[k + 1]).map { g.part($0).map(position) })
            }
            guard let first = polygons.first?.first?.first else { return .number(.nan) }
            let ruler = CheapRuler(latitude: first.y)
            var best = Double.infinity
            for geometry in geometries {
                for polygon in polygons {
                    switch geometry {
                    case .point(let p): best = Swift.min(best, GeometryDistance.toPolygon([p], false, polygon, ruler))
                    case .line(let line): best = Swift.min(best, GeometryDistance.toPolygon(line, true, polygon, ruler))
                    case .polygon(let rings): best = Swift.min(best, GeometryDistance.polygons(polygon, rings, ruler))
                    }
                    if best == 0 { return .number(0) }
                }
            }
            return .number(best)
        }
    }
}

/// The distances MapLibre's `distance` computes between point sets, lines and polygons
/// (longitude, latitude; metres). MapLibre prunes pairs by their boxes; every pair is measured
/// here, which gives the same minimum.
enum GeometryDistance {
    /// Between two point sets, each a set of points or one line (`isLine`).
    static func sets(_ a: [PlanePoint], _ aIsLine: Bool, _ b: [PlanePoint], _ bIsLine: Bool, _ ruler: CheapRuler) -> Double {
        guard let a0 = a.first, let b0 = b.first else { return .nan }
        var best = ruler.distance(a0, b0)
        if best == 0 { return 0 }
        switch (aIsLine, bIsLine) {
        case (true, true):
            guard a.count >= 2, b.count >= 2 else { return best }
            for i in 0..<(a.count - 1) {
                for j in 0..<(b.count - 1) {
                    if PlaneGeometry.segmentsCross(a[i], a[i + 1], b[j], b[j + 1]) { return 0 }
                    best = Swift.min(best, ruler.segmentDistance(a[i], a[i + 1], b[j], b[j + 1]))
                }
            }
        case (true, false), (false, true):
            let (line, points) = aIsLine ? (a, b) : (b, a)
            for p in points {
                best = Swift.min(best, ruler.distance(p, toLine: line[...]))
                if best == 0 { return 0 }
            }
        case (false, false):
            for p in a {
                for q in b {
                    best = Swift.min(best, ruler.distance(p, q))
                    if best == 0 { return 0 }
                }
            }
        }
        return best
    }

    /// From points or a line to a polygon (rings): 0 when a position is inside or on it, or the
    /// line crosses an edge.
    static func toPolygon(_ points: [PlanePoint], _ isLine: Bool, _ rings: [[PlanePoint]], _ ruler: CheapRuler) -> Double {
        guard let p0 = points.first, let r0 = rings.first?.first else { return .nan }
        var best = ruler.distance(p0, r0)
        if best == 0 { return 0 }
        if isLine {
            for p in points where PlaneGeometry.pointWithinPolygon(p, rings, trueIfOnBoundary: true) { return 0 }
            guard points.count >= 2 else { return best }
            for i in 0..<(points.count - 1) {
                for ring in rings {
                    var k = ring.count - 1
                    for j in ring.indices {
                        defer { k = j }
                        if PlaneGeometry.segmentsCross(points[i], points[i + 1], ring[k], ring[j]) { return 0 }
                        best = Swift.min(best, ruler.segmentDistance(points[i], points[i + 1], ring[k], ring[j]))
                    }
                }
            }
            return best
        }
        for p in points {
            if PlaneGeometry.pointWithinPolygon(p, rings, trueIfOnBoundary: true) { return 0 }
            for ring in rings {
                if let front = ring.first, let back = ring.last { best = Swift.min(best, ruler.distance(p, back, front)) }
                best = Swift.min(best, ruler.distance(p, toLine: ring[...]))
            }
        }
        return best
    }

    /// Between the feature's polygon `a` and the argument's polygon `b`.
    static func polygons(_ a: [[PlanePoint]], _ b: [[PlanePoint]], _ ruler: CheapRuler) -> Double {
        var boxA = PlaneBox(), boxB = PlaneBox()
        for ring in a { for p in ring { boxA.add(p) } }
        for ring in b { for p in ring { boxB.add(p) } }
        func intersects(_ x: [[PlanePoint]], _ y: [[PlanePoint]]) -> Bool {
            x.contains { ring in ring.contains { PlaneGeometry.pointWithinPolygon($0, y, trueIfOnBoundary: true) } }
        }
        if boxA.isWithin(boxB) ? intersects(a, b) : intersects(b, a) { return 0 }
        var best = Double.infinity
        for ring1 in a {
            var l = ring1.count - 1
            for i in ring1.indices {
                defer { l = i }
                for ring2 in b {
                    var k = ring2.count - 1
                    for j in ring2.indices {
                        defer { k = j }
                        if PlaneGeometry.segmentsCross(ring1[l], ring1[i], ring2[k], ring2[j]) { return 0 }
                        best = Swift.min(best, ruler.segmentDistance(ring1[l], ring1[i], ring2[k], ring2[j]))
                    }
                }
            }
        }
        return best
    }
}
