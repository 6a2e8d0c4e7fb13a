import MapCore
import Raster
import Testing
@testable import NightmapApp

/// The tiles of one zoom that cover a view, as one image (issue 41): the zoom a 256-pixel raster
/// source would draw at, capped and lowered for large views, the antimeridian, the image.
@Suite struct TileMosaicTests {
    static func view(lng: Double, lat: Double, zoom: Double, width: Double = 1280, height: Double = 720)
        -> (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        let world = WebMercator.worldSize(zoom: zoom), m = WebMercator.project(LngLat(lng: lng, lat: lat))
        return (m.x - width / 2 / world, m.y - height / 2 / world, m.x + width / 2 / world, m.y + height / 2 / world)
    }

    @Test func aViewTakesTheTilesOfTheNearestZoomThatCoverIt() throws {
        // Zoom 3 (a 4096-pixel world): x 5.5 ... 10.5 and y 6.59 ... 9.41 in zoom-4 tiles.
        let m = try #require(TileMosaic.covering(Self.view(lng: 0, lat: 0, zoom: 3), zoom: 3, maxZoom: 7))
        #expect(m == TileMosaic(z: 4, x0: 5, y0: 6, columns: 6, rows: 4))
        #expect(m.tiles.count == 24)
        #expect(m.tiles.first?.tile == TileID(z: 4, x: 5, y: 6))
        #expect(TileMosaic.covering(Self.view(lng: 0, lat: 0, zoom: 3.4), zoom: 3.4, maxZoom: 7)?.z == 4)
        #expect(TileMosaic.covering(Self.view(lng: 0, lat: 0, zoom: 3.6), zoom: 3.6, maxZoom: 7)?.z == 5)
        // Deeper than the service: its deepest tiles, stretched.
        #expect(TileMosaic.covering(Self.view(lng: 0, lat: 0, zoom: 12), zoom: 12, maxZoom: 7)?.z == 7)
        #expect(TileMosaic.covering(Self.view(lng: 1, lat: 1, zoom: 12), zoom: 12, maxZoom: 7)?.tiles.count == 1)
        #expect(TileMosaic.covering((0, 0, .nan, 1), zoom: 3, maxZoom: 7) == nil)
    }

    @Test func aLargeViewTakesALowerZoomWithinTheTileLimit() throws {
        let big = Self.view(lng: 0, lat: 0, zoom: 3, width: 3840, height: 2160)
        let m = try #require(TileMosaic.covering(big, zoom: 3, maxZoom: 7, tileLimit: 48))
        #expect(m.z == 3)
        #expect(m.columns * m.rows <= 48)
        // The world view: the world once, clamped to its rows.
        let world = try #require(TileMosaic.covering((-0.4, -0.2, 1.4, 1.2), zoom: 0.5, maxZoom: 7))
        #expect(world.x0 == 0 && world.columns == 1 << world.z && world.y0 == 0 && world.rows == 1 << world.z)
    }

    @Test func acrossTheAntimeridianColumnsWrapAndTheCornersRunPast180() throws {
        let m = try #require(TileMosaic.covering(Self.view(lng: 180, lat: 0, zoom: 3), zoom: 3, maxZoom: 7))
        #expect(m.x0 == 13)
        #expect(m.tile(column: 0, row: 0)?.x == 13)
        #expect(m.tile(column: 3, row: 0)?.x == 0)          // (16 wraps to 0)
        let c = m.corners
        #expect(abs(c.topLeft.lng - 112.5) < 1e-9 && abs(c.topRight.lng - 247.5) < 1e-9)
        #expect(abs(c.topLeft.lat - WebMercator.lat(y: 6.0 / 16)) < 1e-9)
        let west = try #require(TileMosaic.covering(Self.view(lng: -180, lat: 0, zoom: 3), zoom: 3, maxZoom: 7))
        #expect(west.x0 == -3 && west.tile(column: 0, row: 0)?.x == 13)
    }

    @Test func aMosaicCoversViewsWithinItAndNotOnesPastIt() throws {
        let v = Self.view(lng: 0, lat: 0, zoom: 3)
        let m = try #require(TileMosaic.covering(v, zoom: 3, maxZoom: 7))
        #expect(m.covers(v))
        #expect(m.covers((v.minX + 0.01, v.minY, v.maxX + 0.01, v.maxY)))       // (x up to 11/16)
        #expect(!m.covers((v.minX + 0.05, v.minY, v.maxX + 0.05, v.maxY)))
        #expect(!m.covers((v.minX, v.minY - 0.05, v.maxX, v.maxY - 0.05)))
    }

    @Test func composedTilesLandInTheirPlaces() throws {
        let m = TileMosaic(z: 2, x0: 1, y0: 1, columns: 2, rows: 1)
        let a = Pixmap(width: 256, height: 256), b = Pixmap(width: 256, height: 256), wrong = Pixmap(width: 128, height: 128)
        a.pixels[0] = 0xFF00_00FF
        b.pixels[255 * 256 + 255] = 0xFFFF_0000
        let image = m.compose([TileID(z: 2, x: 1, y: 1)!: a, TileID(z: 2, x: 2, y: 1)!: b, TileID(z: 2, x: 3, y: 1)!: wrong])
        #expect(image.width == 512 && image.height == 256)
        #expect(image.pixels[0] == 0xFF00_00FF)
        #expect(image.pixels[255 * 512 + 511] == 0xFFFF_0000)
        #expect(image.pixels[255 * 512 + 255] == 0)
    }
}
