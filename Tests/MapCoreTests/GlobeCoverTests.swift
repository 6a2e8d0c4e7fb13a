import Foundation
import Testing
@testable import MapCore

/// The tiles of a globe view (`GlobeCover`): every tile a pixel of the disc sees is among them,
/// nothing of the far side is, and past covering zoom 4 nearer tiles are finer as in MapLibre
/// (straight down at zoom 7.95 the middle is zoom 8's, its render test fill-seams/checkerboard).
@Suite struct GlobeCoverTests {
    static func view(_ centre: LngLat, zoom: Double, pitch: Double = 0, bearing: Double = 0,
                     width: Int = 800, height: Int = 600) -> ViewTransform {
        ViewTransform(camera: CameraState(center: centre, zoom: zoom, bearing: bearing, pitch: pitch),
                      size: ViewportSize(width: width, height: height), globeness: 1)
    }

    /// The tiles of zoom `z` under the screen's pixels that show the sphere, every `step` pixels.
    static func seen(_ v: ViewTransform, z: Int, step: Int = 2) -> Set<TileID> {
        guard let g = v.globe else { return [] }
        var out = Set<TileID>()
        let n = Double(1 << z)
        for y in stride(from: 0, through: Int(g.height), by: step) {
            for x in stride(from: 0, through: Int(g.width), by: step) {
                guard let p = g.unproject(x: Double(x), y: Double(y)) else { continue }
                let m = WebMercator.project(p)
                let tx = min(Int((m.x * n).rounded(.down)), (1 << z) - 1)
                let ty = min(max(Int((m.y * n).rounded(.down)), 0), (1 << z) - 1)
                if let t = TileID(z: z, x: tx, y: ty) { out.insert(t) }
            }
        }
        return out
    }

    @Test func everyTileThatShowsIsCoveredAndTheFarSideIsNot() throws {
        for (centre, pitch, bearing) in [(LngLat(lng: 10, lat: 50), 0.0, 0.0), (LngLat(lng: -170, lat: -20), 40, 30),
                                         (LngLat(lng: 60, lat: 84), 20, -100)] {
            let v = Self.view(centre, zoom: 2.3, pitch: pitch, bearing: bearing)
            let cover = try #require(v.tileCover as? GlobeCover)
            let tiles = cover.tiles(zoom: 2.3, tileSize: 512, round: false, minZoom: 0, maxZoom: 14, bounds: .world)
            #expect(tiles.allSatisfy { $0.z == 2 }, "\(tiles)")
            let seen = Self.seen(v, z: 2)
            #expect(seen.isSubset(of: Set(tiles)), "\(centre): \(seen.subtracting(tiles))")
            // The tile holding the antipode is not drawn (nor much else unseen).
            let far = WebMercator.project(LngLat(lng: centre.lng > 0 ? centre.lng - 180 : centre.lng + 180, lat: -centre.lat * 0.9))
            let antipode = try #require(TileID(z: 2, x: Int(far.x * 4), y: min(Int(far.y * 4), 3)))
            #expect(!tiles.contains(antipode) || seen.contains(antipode), "\(centre): \(antipode)")
            #expect(Set(tiles).subtracting(seen).count <= 3, "\(centre): covered but unseen \(Set(tiles).subtracting(seen))")
        }
    }

    @Test func pastZoomFourTheNearTilesAreFinerThanTheCoveringZoom() throws {
        // MapLibre's fill-seams/checkerboard: zoom 7.95 straight down over Alaska.
        let v = Self.view(LngLat(lng: -151.855, lat: 61.590), zoom: 7.95, width: 256, height: 256)
        let cover = try #require(v.tileCover as? GlobeCover)
        let tiles = cover.tiles(zoom: 7.95, tileSize: 512, round: false, minZoom: 0, maxZoom: 14, bounds: .world)
        let m = WebMercator.project(LngLat(lng: -151.855, lat: 61.590))
        let middle = try #require(TileID(z: 8, x: Int(m.x * 256), y: Int(m.y * 256)))
        #expect(tiles.first == middle, "\(tiles)")
        #expect(tiles.allSatisfy { $0.z == 7 || $0.z == 8 }, "\(tiles)")
        // No tile covers another.
        for a in tiles {
            for b in tiles where b.z > a.z {
                #expect(!(b.x >> (b.z - a.z) == a.x && b.y >> (b.z - a.z) == a.y), "\(a) covers \(b)")
            }
        }
        // Every pixel's ground is covered by exactly one of them.
        for t in Self.seen(v, z: 8, step: 8) {
            let n = tiles.filter { $0 == t || ($0.z == 7 && $0.x == t.x / 2 && $0.y == t.y / 2) }.count
            #expect(n == 1, "\(t)")
        }
        // Below covering zoom 5 the zoom is the same everywhere.
        let low = Self.view(LngLat(lng: -151.855, lat: 61.590), zoom: 4.95, width: 256, height: 256)
        let lowTiles = try #require(low.tileCover).tiles(zoom: 4.95, tileSize: 512, round: false, minZoom: 0, maxZoom: 14, bounds: .world)
        #expect(lowTiles.allSatisfy { $0.z == 4 }, "\(lowTiles)")
    }

    @Test func theAntimeridianHasTheSameDetailOnBothSides() throws {
        let v = Self.view(LngLat(lng: 179.99, lat: 0), zoom: 6.2, width: 512, height: 512)
        let tiles = try #require(v.tileCover).tiles(zoom: 6.2, tileSize: 512, round: false, minZoom: 0, maxZoom: 14, bounds: .world)
        let west = tiles.filter { $0.x >= (1 << $0.z) / 2 }, east = tiles.filter { $0.x < (1 << $0.z) / 2 }
        #expect(!west.isEmpty && !east.isEmpty)
        let eastEdge = east.filter { $0.x == 0 }.map(\.z), westEdge = west.filter { $0.x == (1 << $0.z) - 1 }.map(\.z)
        #expect(Set(eastEdge) == Set(westEdge), "\(eastEdge) \(westEdge)")
        #expect(Set(eastEdge) == [6], "\(eastEdge)")
    }
}
