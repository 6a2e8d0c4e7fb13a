import Foundation
import Testing
@testable import MapCore

/// The tiles of a pitched view (`GroundCover`): against a brute-force look at what the screen's
/// pixels see, and MapLibre's rule that the far ground gets coarser tiles past 60 degrees.
@Suite struct GroundCoverTests {
    static let size = ViewportSize(width: 800, height: 600)

    static func view(pitch: Double, bearing: Double, zoom: Double = 10.3) -> ViewTransform {
        ViewTransform(camera: CameraState(center: LngLat(lng: -74.0, lat: 40.7), zoom: zoom, bearing: bearing, pitch: pitch), size: size)
    }

    /// The tiles of zoom `z` under the screen's pixels, every `step` pixels.
    static func seen(_ v: ViewTransform, z: Int, step: Int = 4) -> Set<TileID> {
        guard let p = v.perspective else { return [] }
        var out = Set<TileID>()
        let n = Double(1 << z)
        for y in stride(from: Int(p.groundTopY.rounded(.up)) + 1, to: 600, by: step) {
            for x in stride(from: 0, through: 800, by: step) {
                guard let m = p.unproject(x: Double(x), y: Double(y)) else { continue }
                var tx = Int((m.x * n).rounded(.down)) % (1 << z)
                if tx < 0 { tx += 1 << z }
                if let t = TileID(z: z, x: tx, y: Int((m.y * n).rounded(.down))) { out.insert(t) }
            }
        }
        return out
    }

    @Test func belowTheSteepPitchEveryTileIsAtTheViewsZoomAndOnlyThoseSeen() throws {
        for (pitch, bearing) in [(45.0, 30.0), (60, 0), (30, -120)] {
            let v = Self.view(pitch: pitch, bearing: bearing)
            let cover = try #require(GroundCover(v))
            #expect(!cover.variableZoom)
            let tiles = cover.tiles(zoom: 10.3, tileSize: 512, round: false, minZoom: 0, maxZoom: 14)
            #expect(tiles.allSatisfy { $0.z == 10 })
            let seen = Self.seen(v, z: 10, step: 2)
            // Every tile a pixel sees is covered; every tile covered meets the ground seen
            // (pixels every 2 px may miss a sliver of a tile at the edge: one pixel's worth).
            #expect(seen.isSubset(of: Set(tiles)), "pitch \(pitch): \(seen.subtracting(tiles))")
            let extra = Set(tiles).subtracting(seen)
            #expect(extra.count <= 4, "pitch \(pitch): covered but unseen \(extra)")
            // A flat box would hold many more.
            let box = v.visibleMercator
            let flat = TileCover.tiles(z: 10, box: MercatorBox(minX: box.minX, minY: box.minY, maxX: box.maxX, maxY: box.maxY))
            if bearing != 0 { #expect(flat.count > tiles.count) }
        }
    }

    @Test func pastTheSteepPitchFarTilesAreCoarserAndTheyDoNotOverlap() throws {
        let v = Self.view(pitch: 80, bearing: 20, zoom: 14)
        let cover = try #require(GroundCover(v))
        #expect(cover.variableZoom)
        let tiles = cover.tiles(zoom: 14, tileSize: 512, round: false, minZoom: 0, maxZoom: 16)
        #expect(tiles.count > 4 && tiles.count < TileCover.limit)
        let zooms = Set(tiles.map(\.z))
        #expect(zooms.count >= 3, "\(zooms.sorted())")
        // The ground at the view's bottom (near the camera) gets finer tiles than the centre's
        // zoom, the ground at the top (near the horizon) coarser ones.
        let p = try #require(v.perspective)
        func zoom(atY y: Double) throws -> Int {
            let m = try #require(p.unproject(x: 400, y: y))
            let t = try #require(tiles.first { t in
                let n = Double(1 << t.z)
                return Int((m.x * n).rounded(.down)) == t.x && Int((m.y * n).rounded(.down)) == t.y
            })
            return t.z
        }
        #expect(try zoom(atY: 595) > 14)
        #expect(try zoom(atY: 300) == 14)
        let far = try zoom(atY: p.groundTopY + 2)
        #expect(far < 13, "\(far)")
        // No tile holds another.
        for a in tiles {
            for b in tiles where b.z > a.z {
                let shift = b.z - a.z
                #expect(!(b.x >> shift == a.x && b.y >> shift == a.y), "\(a) holds \(b)")
            }
        }
        // Every pixel's ground is in some tile.
        for t in Self.seen(v, z: 16, step: 16) {
            #expect(tiles.contains { $0.z <= 16 && t.x >> (16 - $0.z) == $0.x && t.y >> (16 - $0.z) == $0.y }, "\(t) uncovered")
        }
    }

    @Test func aFlatViewHasNoGroundCover() {
        #expect(GroundCover(Self.view(pitch: 0, bearing: 30)) == nil)
    }
}
