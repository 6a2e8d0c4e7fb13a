import Foundation
import MapCore
import Raster

/// Fill layers: polygons of geometry sets (tiled layers drawn alike, with their blocks passed over off
/// screen) and of GeoJSON features, scan-converted with exact-area anti-aliasing.
extension FrameRenderer {
    func drawFill(_ g: GeometrySet, _ paint: FillPaint, _ p: Placement, _ pixmap: Pixmap,
                          over background: PremultipliedColor? = nil) {
        guard let level = g.level(forZoom: p.zoom) else {
            if let background { pixmap.clear(background, rows: rows) }
            return
        }
        if p.turn == nil { addFillEdges(g, level, p, pixmap, AxisMap.self) } else { addFillEdges(g, level, p, pixmap, RotatedMap.self) }
        if let background {
            rasterizer.fill(pixmap, color: paint.color.premultiplied(opacity: paint.opacity), over: background, rule: .nonZero)
        } else {
            rasterizer.fill(pixmap, color: paint.color.premultiplied(opacity: paint.opacity), rule: .nonZero)
        }
    }

    /// The visible edges of a polygon layer's rings into the rasterizer, mapped by `M`.
    func addFillEdges<M: ScreenMap>(_ g: GeometrySet, _ level: GeometrySet.Level, _ p: Placement, _ pixmap: Pixmap, _: M.Type) {
        let top = Double(rows.lowerBound), bottom = Double(rows.upperBound), right = Double(pixmap.width)
        g.points.withUnsafeBufferPointer { pts in
            g.blockBoxes.withUnsafeBufferPointer { boxes in
                p.forEachVisibleChunk(g, level, margin: 1, M.self) { chunk, map in
                    @inline(__always) func point(_ i: Int) -> Point { map.point(pts[2 * i], pts[2 * i + 1]) }
                    for part in chunk.parts {
                        let start = g.partOffsets[part], n = g.partLengths[part]
                        guard n >= 3 else { continue }
                        // Block by block: the edges of a block wholly above, below or right of
                        // the rows drawn add nothing (the rasterizer would drop each); those of
                        // a block wholly left of them become edges along x = 0, whose sum is
                        // the one edge from the block's first point to its last. (Projection
                        // keeps the order of coordinates, so the projected box holds every
                        // projected point; at a bearing the box holds the rotated one's corners.)
                        var first = 0
                        for b in g.blockStart[part]..<g.blockStart[part + 1] {
                            let last = min(first + g.blockLength, n)
                            defer { first = last }
                            let (minX, minY, maxX, maxY) = map.box(boxes, b)
                            if maxY <= top || minY >= bottom || minX >= right { continue }
                            if maxX <= 0 {
                                rasterizer.addEdge(point(start + first), point(start + (last < n ? last : 0)))
                                continue
                            }
                            var prev = point(start + first)
                            for k in (first + 1)...last {
                                let cur = point(start + (k < n ? k : 0))
                                rasterizer.addEdge(prev, cur)
                                prev = cur
                            }
                        }
                    }
                }
            }
        }
    }

    /// Every ring of a polygon feature as edges in the rasterizer.
    func addRings<M: ScreenMap>(_ g: FeatureGeometry, _ map: M) {
        let c = g.coordinates
        for part in 0..<g.partCount {
            let r = g.part(part)
            guard r.count >= 3 else { continue }
            var prev = map.point(c[2 * (r.upperBound - 1)], c[2 * (r.upperBound - 1) + 1])
            for i in r {
                let cur = map.point(c[2 * i], c[2 * i + 1])
                rasterizer.addEdge(prev, cur)
                prev = cur
            }
        }
    }
}
