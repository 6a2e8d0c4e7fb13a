import Foundation
import MapCore
import MapData
import MapRender
import Raster
import Testing

/// Style-document layers drawn through the model and the renderer: per-feature paint, circles as
/// the reference shader shades them, SDF icons, dashes laid out per tile.
@Suite struct StyleDocumentRenderTests {
    func render(_ text: String, size: Int = 64, sprite: SpriteSheet? = nil) throws -> Pixmap {
        let doc = try StyleDocument(data: Data(text.utf8), name: "t.json")
        var features: [String: GeoJSONData] = [:]
        for (id, s) in doc.sources { if case let .geojson(.inline(d)) = s { features[id] = d } }
        let style = Style(document: doc, features: features, images: [:], sprite: sprite)
        var model = MapModel(style: style, size: ViewportSize(width: size, height: size),
                             camera: CameraState(center: doc.center ?? LngLat(lng: 0, lat: 0), zoom: doc.zoom ?? 0), bounds: CameraBounds())
        model.lighting = false
        let pm = Pixmap(width: size, height: size)
        let renderer = FrameRenderer()
        renderer.clearColor = PremultipliedColor(packed: 0)
        renderer.render(model.frame(), into: pm)
        return pm
    }

    func points(_ props: [(Double, String)]) -> String {
        let f = props.map { #"{"type": "Feature", "properties": {"c": "\#($0.1)"}, "geometry": {"type": "Point", "coordinates": [\#($0.0), 0]}}"# }
        return #"{"type": "geojson", "data": {"type": "FeatureCollection", "features": [\#(f.joined(separator: ","))]}}"#
    }

    @Test func dataDrivenCircleColourPerFeature() throws {
        let pm = try render(#"""
        {"version": 8, "sources": {"p": \#(points([(-10, "red"), (10, "#00f")]))},
         "layers": [{"id": "c", "type": "circle", "source": "p",
                     "paint": {"circle-radius": 6, "circle-color": ["get", "c"]}}]}
        """#)
        // 10 degrees at zoom 0 is 14.2 px from the centre.
        #expect(pm.color(atX: 17, y: 31) == RGBA8(255, 0, 0))
        #expect(pm.color(atX: 46, y: 32) == RGBA8(0, 0, 255))
        #expect(pm.color(atX: 32, y: 32).a == 0)                // nothing between: transparent
    }

    @Test func constantPaintIsSharedByTheFeaturesItDraws() throws {
        // A fill layer whose paint reads no feature: a point first (not a fill's to draw) must
        // not stand for the polygons after it, and every polygon is drawn with the one paint.
        let pm = try render(#"""
        {"version": 8, "sources": {"p": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
            {"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [0, 0]}},
            {"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[-20, -5], [-10, -5], [-10, 5], [-20, 5], [-20, -5]]]}},
            {"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[10, -5], [20, -5], [20, 5], [10, 5], [10, -5]]]}}]}}},
         "layers": [{"id": "f", "type": "fill", "source": "p", "paint": {"fill-color": "#00ff00"}},
                    {"id": "c", "type": "circle", "source": "p", "filter": ["==", ["geometry-type"], "Point"], "paint": {"circle-color": "#ff0000", "circle-radius": 3}}]}
        """#)
        // (10 degrees at zoom 0 is 14.2 px.)
        #expect(pm.color(atX: 10, y: 32) == RGBA8(0, 255, 0) && pm.color(atX: 53, y: 32) == RGBA8(0, 255, 0))
        #expect(pm.color(atX: 32, y: 32) == RGBA8(255, 0, 0))
        #expect(pm.color(atX: 32, y: 10).a == 0)
    }

    @Test func circleStrokeAndBlurFollowTheShader() throws {
        let pm = try render(#"""
        {"version": 8, "sources": {"p": \#(points([(0, "x")]))},
         "layers": [{"id": "c", "type": "circle", "source": "p",
                     "paint": {"circle-radius": 10, "circle-color": "#ffffff", "circle-stroke-width": 4, "circle-stroke-color": "#000000"}}]}
        """#)
        #expect(pm.color(atX: 32, y: 32) == RGBA8(255, 255, 255))      // the disc
        #expect(pm.color(atX: 44, y: 32) == RGBA8(0, 0, 0))            // 12 px out: the stroke (10...14)
        #expect(pm.color(atX: 47, y: 32).a == 0)                       // beyond 14 px: nothing
        let blurred = try render(#"""
        {"version": 8, "sources": {"p": \#(points([(0, "x")]))},
         "layers": [{"id": "c", "type": "circle", "source": "p", "paint": {"circle-radius": 10, "circle-blur": 1}}]}
        """#)
        // Blur 1 fades from the centre to the rim with a smoothstep: half way out, half way faded.
        let a = Double(blurred.color(atX: 36, y: 32).a) / 255     // 4.5 px out of 10
        let t = 1 - 4.5 / 10
        #expect(abs(a - t * t * (3 - 2 * t)) < 0.03)
    }

    @Test func filterAndZoomFunction() throws {
        let pm = try render(#"""
        {"version": 8, "zoom": 2, "sources": {"p": \#(points([(-5, "a"), (5, "b")]))},
         "layers": [{"id": "c", "type": "circle", "source": "p", "filter": ["==", ["get", "c"], "b"],
                     "paint": {"circle-radius": {"stops": [[0, 1], [4, 9]]}, "circle-color": "#0f0"}}]}
        """#)
        // Zoom 2: radius 5; 5 degrees at zoom 2 is 28.4 px; only feature "b" passes the filter.
        #expect(pm.color(atX: 60, y: 32) == RGBA8(0, 255, 0))
        #expect(pm.color(atX: 3, y: 32).a == 0)
        #expect(pm.color(atX: 60, y: 38).a == 0)          // beyond the 5-px radius
    }

    @Test func sdfIconTakesIconColour() throws {
        // A 16 x 16 distance field: alpha falls off from the centre (0.75 at radius 4).
        let img = Pixmap(width: 16, height: 16)
        for y in 0..<16 { for x in 0..<16 {
            let d = hypot(Double(x) + 0.5 - 8, Double(y) + 0.5 - 8)
            let a = UInt32(max(0, min(255, (0.75 + (4 - d) / 16) * 255)))
            img.pixels[y * 16 + x] = a << 24
        } }
        let sprite = SpriteSheet(icons: ["dot": SpriteIcon(name: "dot", image: img, pixelRatio: 1, sdf: true)])
        let pm = try render(#"""
        {"version": 8, "sources": {"p": \#(points([(0, "x")]))},
         "layers": [{"id": "s", "type": "symbol", "source": "p", "layout": {"icon-image": "dot"},
                     "paint": {"icon-color": "#ff0000", "icon-halo-color": "#0000ff", "icon-halo-width": 2}}]}
        """#, sprite: sprite)
        #expect(pm.color(atX: 32, y: 32) == RGBA8(255, 0, 0))          // inside the 0.75 contour: icon-color
        let halo = pm.color(atX: 37, y: 32)                             // 5.5 px out: in the halo
        #expect(halo.b > 200 && halo.r < 60)
        #expect(pm.color(atX: 41, y: 32).a == 0)                       // past the image's edge (8 px)
    }

    @Test func dashesRestartWhereALineEntersATile() throws {
        // Zoom 1: tiles of 512 px; the edge between two lies at the centre, x = 128. The line starts
        // at x = -128, inside the left tile's buffer; the right tile's piece starts at its buffered
        // edge, x = 0. Dashes of 12 px with 8-px gaps (3 and 2 line widths of 4 px).
        let line = #"{"type": "geojson", "data": {"type": "LineString", "coordinates": [[-90, 0], [90, 0]]}}"#
        let pm = try render(#"""
        {"version": 8, "zoom": 1, "sources": {"l": \#(line)},
         "layers": [{"id": "l", "type": "line", "source": "l", "paint": {"line-width": 4, "line-dasharray": [3, 2]}}]}
        """#, size: 256)
        func alpha(_ x: Int) -> UInt8 { pm.color(atX: x, y: 127).a }
        // Left of the edge the pattern runs from x = -128: on at 100 (228 mod 20 = 8), off at 104.
        #expect(alpha(100) == 255 && alpha(104) == 0)
        // Right of it, from x = 0: on at 130 (10), off at 134 (14). One pattern along the whole
        // line would have a gap at 130 (258 mod 20 = 18).
        #expect(alpha(130) == 255 && alpha(134) == 0)
    }
}
