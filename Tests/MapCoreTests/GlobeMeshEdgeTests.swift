import Foundation
import Raster
import Testing
@testable import MapCore

/// The globe's edge as MapLibre's GPU cuts its mesh (`SphereProjection.meshEdgeSpans`): each
/// row's span lies inside the true circle, by a hair that shrinks as the mesh grows finer; and
/// the terrain's mesh of a style (`Style.terrainMesh`).
@Suite struct GlobeMeshEdgeTests {
    static func projection(mesh: SurfaceMesh?, zoom: Double = 1, pitch: Double = 0) -> (SphereProjection, GlobeTransform) {
        let globe = GlobeTransform(center: LngLat(lng: 20, lat: 10), zoom: zoom, pitch: pitch, bearing: 15, width: 400, height: 400)
        return (globe.surface(mercator: nil, globeness: 1, mesh: mesh), globe)
    }

    /// The largest amount, in pixels, by which the mesh's spans fall inside the circle's, and
    /// whether any span reaches past it.
    static func inset(_ s: SphereProjection) -> (deepest: Double, past: Bool, rows: Int) {
        var deepest = 0.0, past = false, rows = 0
        for y in 0..<400 {
            let py = Double(y) + 0.5
            guard let circle = s.discSpan(py, radius: 1) else {
                if s.discSpan(py) != nil { past = true }
                continue
            }
            guard let mesh = s.discSpan(py) else { continue }
            rows += 1
            if mesh.0 < circle.0 - 1e-9 || mesh.1 > circle.1 + 1e-9 { past = true }
            // (Rows where the circle's edge runs nearly level are left out: there a hair inside
            // in y is a long way in x.)
            if circle.1 - circle.0 > 20 { deepest = max(deepest, mesh.0 - circle.0, circle.1 - mesh.1) }
        }
        return (deepest, past, rows)
    }

    @Test func theMeshCutsTheDiscAHairInsideTheCircle() {
        // MapLibre's tile mesh at zoom 1 (128 squares round the world), a terrain's (512), and a
        // coarse one (16): always inside, the finer the closer.
        var insets: [Double] = []
        for cells in [16, 128, 512] {
            let (s, _) = Self.projection(mesh: SurfaceMesh(cells: cells, diagonal: .rising))
            let r = Self.inset(s)
            #expect(!r.past, "\(cells) squares")
            #expect(r.rows > 250)
            insets.append(r.deepest)
        }
        #expect(insets[0] > 1, "\(insets)")        // 16 squares: a polygon, pixels inside
        #expect(insets[1] < 1, "\(insets)")        // 128: about half a pixel
        #expect(insets[1] > insets[2] && insets[2] > 0, "\(insets)")
        // Pitched, the far edge too.
        let (pitched, _) = Self.projection(mesh: SurfaceMesh(cells: 128, diagonal: .falling), zoom: 1.5, pitch: 50)
        #expect(!Self.inset(pitched).past)
    }

    @Test func blendingIntoMercatorTheEdgeIsTheSpheres() {
        let globe = GlobeTransform(center: LngLat(lng: 20, lat: 10), zoom: 1, pitch: 0, bearing: 0, width: 400, height: 400)
        let s = globe.surface(mercator: nil, globeness: 0.5)
        for y in stride(from: 100.5, to: 300, by: 20) {
            let a = s.discSpan(y), b = s.discSpan(y, radius: 1)
            #expect(a?.0 == b?.0 && a?.1 == b?.1)
        }
    }

    @Test func aStylesTerrainDrapesTheGroundOnItsMesh() throws {
        func style(_ terrain: String, tileSize: Int = 256) throws -> Style {
            let text = #"{"version": 8, \#(terrain) "sources": {"dem": {"type": "raster-dem", "tiles": ["x/{z}/{x}/{y}"], "tileSize": \#(tileSize)}, "v": {"type": "vector", "tiles": ["v/{z}/{x}/{y}"]}}, "layers": []}"#
            let doc = try StyleDocument(data: Data(text.utf8), name: "t.json")
            var tiles: [String: TileSet] = [:]
            if case let .raster(d)? = doc.sources["dem"] { tiles["dem"] = TileSet(definition: d, kind: .raster) }
            if case let .vector(d)? = doc.sources["v"] { tiles["v"] = TileSet(definition: d, kind: .vector) }
            return Style(document: doc, features: [:], images: [:], tiles: tiles)
        }
        // 128 squares a terrain tile; the terrain's tiles twice the raster-dem source's size.
        #expect(try style(#""terrain": {"source": "dem"},"#).terrainMesh(zoom: 1) == SurfaceMesh(cells: 256, diagonal: .falling))
        #expect(try style(#""terrain": {"source": "dem"},"#).terrainMesh(zoom: 2.7) == SurfaceMesh(cells: 512, diagonal: .falling))
        #expect(try style(#""terrain": {"source": "dem"},"#, tileSize: 512).terrainMesh(zoom: 2.7) == SurfaceMesh(cells: 256, diagonal: .falling))
        #expect(try style(#""terrain": {"source": "dem"},"#).terrainMesh(zoom: -0.5) == SurfaceMesh(cells: 128, diagonal: .falling))
        // None without a terrain, or with one naming what is not a raster-dem source.
        #expect(try style("").terrainMesh(zoom: 1) == nil)
        #expect(try style(#""terrain": {"source": "v"},"#).terrainMesh(zoom: 1) == nil)
        #expect(try style(#""terrain": {"source": "nowhere"},"#).terrainMesh(zoom: 1) == nil)
    }
}
