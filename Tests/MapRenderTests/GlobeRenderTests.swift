import Foundation
import MapCore
import MapData
import MapRender
import Raster
import Testing

/// The map drawn on the globe (issue 43): fills, lines, rasters and symbols where MapLibre's
/// globe camera puts them (`GlobeTransform`, tested against numpy values on its own); polygons
/// over a pole and across the antimeridian whole; nothing from the far side.
@Suite struct GlobeRenderTests {
    /// `style` drawn at `size` x `size` on the globe (the style's projection), transparent where
    /// nothing is drawn; and its view.
    func render(_ style: String, size: Int = 256, height: Int? = nil) throws -> (Pixmap, ViewTransform) {
        let doc = try StyleDocument(data: Data(style.utf8), name: "t.json")
        var features: [String: GeoJSONData] = [:]
        for (id, s) in doc.sources { if case let .geojson(.inline(d)) = s { features[id] = d } }
        let map = Style(document: doc, features: features, images: [:])
        var model = MapModel(style: map, size: ViewportSize(width: size, height: height ?? size),
                             camera: CameraState(center: doc.center ?? LngLat(lng: 0, lat: 0), zoom: doc.zoom ?? 0,
                                                 bearing: doc.bearing, pitch: doc.pitch),
                             bounds: CameraBounds(minZoom: -2, maxZoom: 22, maxPitch: 85))
        model.lighting = false
        let pm = Pixmap(width: size, height: height ?? size)
        let renderer = FrameRenderer()
        renderer.clearColor = PremultipliedColor(packed: 0)
        let frame = model.frame()
        renderer.render(frame, into: pm)
        return (pm, frame.view)
    }

    /// A fill of `polygon` on the globe (no atmosphere unless `atmosphere`: its glow is outside the disc).
    func style(center: (Double, Double), zoom: Double = 1, bearing: Double = 0, pitch: Double = 0, polygon: [(Double, Double)],
               background: Bool = false, atmosphere: Double = 0) -> String {
        let ring = (polygon + [polygon[0]]).map { "[\($0.0), \($0.1)]" }.joined(separator: ",")
        let bg = background ? ##"{"id": "b", "type": "background", "paint": {"background-color": "#0000ff"}},"## : ""
        return ##"""
        {"version": 8, "center": [\##(center.0), \##(center.1)], "zoom": \##(zoom), "bearing": \##(bearing), "pitch": \##(pitch),
         "projection": {"type": "globe"}, "sky": {"atmosphere-blend": \##(atmosphere)},
         "sources": {"p": {"type": "geojson", "data": {"type": "Polygon", "coordinates": [[\##(ring)]]}}},
         "layers": [\##(bg){"id": "f", "type": "fill", "source": "p", "paint": {"fill-color": "#ff0000", "fill-antialias": false}}]}
        """##
    }

    static let red = RGBA8(255, 0, 0), blue = RGBA8(0, 0, 255)

    /// The colour at the screen point where `view` shows `place` (which must be in the window).
    func color(_ pm: Pixmap, _ view: ViewTransform, _ place: LngLat) -> RGBA8 {
        let s = view.screen(place)
        let x = Int(s.x.rounded(.down)), y = Int(s.y.rounded(.down))
        guard x >= 0, x < pm.width, y >= 0, y < pm.height else {
            Issue.record("\(place) is off the window, at \(s)")
            return RGBA8(0, 0, 0, 0)
        }
        return pm.color(atX: x, y: y)
    }

    @Test func aPolygonOverAPoleCoversTheCapWhole() throws {
        // The cap north of 60° (a ring round the world at 60° N, closed over the pole), seen from
        // over 70° N: the pole itself is red, as is 70° N all round; 57° N is not.
        // (At zoom -1: so far north the globe is large, its radius the world's over cos 70°.)
        let (pm, view) = try render(style(center: (20, 70), zoom: -1, polygon: [(-180, 60), (180, 60), (180, 90), (-180, 90)]))
        #expect(view.globe != nil)
        #expect(color(pm, view, LngLat(lng: 0, lat: 89.9)) == Self.red, "the pole")
        for lng in stride(from: -60.0, through: 100, by: 40) {
            #expect(color(pm, view, LngLat(lng: lng, lat: 70)) == Self.red, "70° N at \(lng)°")
        }
        #expect(color(pm, view, LngLat(lng: 20, lat: 57)).a == 0, "57° N")
        #expect(color(pm, view, LngLat(lng: 20, lat: 61)) == Self.red, "61° N")
    }

    @Test func aPolygonAcrossTheAntimeridianIsWhole() throws {
        // 170° E to 170° W (190° E), 10° S to 10° N, seen from over the antimeridian.
        let (pm, view) = try render(style(center: (180, 0), polygon: [(170, -10), (190, -10), (190, 10), (170, 10)]))
        for lng in [172.0, 178, 179.9, -179.9, -178, -172] {
            #expect(color(pm, view, LngLat(lng: lng, lat: 0)) == Self.red, "\(lng)°")
        }
        #expect(color(pm, view, LngLat(lng: 165, lat: 0)).a == 0)
        #expect(color(pm, view, LngLat(lng: -165, lat: 0)).a == 0)
    }

    @Test func theWorldCoversTheDiscAndNothingBeyond() throws {
        // A fill of the whole world, seen turned and tilted: the disc is red to its edge, space
        // around it empty; the centre of the globe on screen is red at any bearing.
        for (bearing, pitch) in [(0.0, 0.0), (45, 15), (-120, 40)] {
            let (pm, view) = try render(style(center: (10, -15), bearing: bearing, pitch: pitch,
                                              polygon: [(-180, -85), (-180, 85), (180, 85), (180, -85)]))
            guard let globe = view.globe else { Issue.record("no globe"); continue }
            var inside = 0, outside = 0, wrong = 0
            // (Pixels within a pixel of the sphere's edge are left out: the edge is the mesh's,
            // a hair inside the circle.)
            func seen(_ x: Int, _ y: Int) -> [LngLat?] {
                [(0.5, 0.5), (-0.5, 0.5), (1.5, 0.5), (0.5, -0.5), (0.5, 1.5)].map { globe.unproject(x: Double(x) + $0.0, y: Double(y) + $0.1) }
            }
            for y in stride(from: 2, to: 256, by: 6) {
                for x in stride(from: 2, to: 256, by: 6) {
                    let c = pm.color(atX: x, y: y)
                    let around = seen(x, y)
                    if around.allSatisfy({ $0 != nil }), let p = around[0] {
                        // (Far north and south, past 85°, is not in the polygon.)
                        if abs(p.lat) < 84 { inside += 1; if c != Self.red { wrong += 1 } }
                    } else if around.allSatisfy({ $0 == nil }) {
                        outside += 1; if c.a != 0 { wrong += 1 }
                    }
                }
            }
            #expect(inside > 300 && outside > 300)
            #expect(wrong == 0, "bearing \(bearing), pitch \(pitch)")
        }
    }

    @Test func aPolygonOnTheFarSideDrawsNothing() throws {
        // 20° around the point opposite the centre: wholly behind the globe.
        let (pm, _) = try render(style(center: (0, 0), polygon: [(160, -20), (200, -20), (200, 20), (160, 20)], background: true))
        var red = 0, blue = 0
        for y in 0..<256 { for x in 0..<256 { let c = pm.color(atX: x, y: y); if c == Self.red { red += 1 } else if c == Self.blue { blue += 1 } } }
        #expect(red == 0)
        #expect(blue > 10_000)          // (the background: the seen disc, as MapLibre draws it)
    }

    /// Heatmap points on the globe at zoom 0 (`points`: longitudes on the equator).
    func heatmap(_ points: [Double]) -> String {
        let coords = points.map { "[\($0), 0]" }.joined(separator: ",")
        return ##"""
        {"version": 8, "center": [0, 0], "zoom": 0, "projection": {"type": "globe"}, "sky": {"atmosphere-blend": 0},
         "sources": {"p": {"type": "geojson", "data": {"type": "MultiPoint", "coordinates": [\##(coords)]}}},
         "layers": [{"id": "h", "type": "heatmap", "source": "p", "paint": {"heatmap-radius": 12}}]}
        """##
    }

    @Test func heatmapKernelsLieOnTheSphere() throws {
        // A kernel 60° east of the centre is a round patch on the sphere, foreshortened on
        // screen: narrower across than up and down. One on the far side adds nothing.
        let (pm, view) = try render(heatmap([0, 60]))
        #expect(color(pm, view, LngLat(lng: 0, lat: 0)).a > 100)
        let s = view.screen(LngLat(lng: 60, lat: 0))
        let cx = Int(s.x.rounded(.down)), cy = Int(s.y.rounded(.down))
        #expect(cx > 128 && cx < 230 && cy > 100 && cy < 156)
        var across = 0, down = 0
        for d in -40...40 {
            if cx + d >= 0, cx + d < 256, pm.color(atX: cx + d, y: cy).a > 20 { across += 1 }
            if cy + d >= 0, cy + d < 256, pm.color(atX: cx, y: cy + d).a > 20 { down += 1 }
        }
        #expect(across > 4 && Double(across) < 0.75 * Double(down), "\(across) \(down)")
        let (far, _) = try render(heatmap([0, 60, 180]))
        var same = true
        for i in 0..<(256 * 256) where far.pixels[i] != pm.pixels[i] { same = false; break }
        #expect(same)
        #expect(pm.pixels[0] == 0 && pm.pixels[255] == 0)
    }

    @Test func theAtmosphereGlowsBeyondTheEdgeOnTheSunsSide() throws {
        // The default light puts the sun behind the globe, up and to the right of it: a halo
        // there, none opposite; over the globe's face, the shader's value blended over it.
        let polygon = [(-180.0, -85.0), (-180, 85), (180, 85), (180, -85)]
        let (plain, view) = try render(style(center: (0, 0), polygon: polygon))
        let (glowing, _) = try render(style(center: (0, 0), polygon: polygon, atmosphere: 1))
        guard let globe = view.globe, let top = (0..<128).first(where: { globe.unproject(x: 128.5, y: Double($0) + 0.5) != nil }) else {
            Issue.record("no globe"); return
        }
        let bottom = (128..<256).first(where: { globe.unproject(x: 128.5, y: Double($0) + 0.5) == nil }) ?? 255
        // Just above the globe's top edge and just below its bottom edge (the air is a hundredth
        // of the globe's radius thick: a pixel or two here).
        #expect(plain.color(atX: 128, y: top - 1).a == 0)
        #expect(glowing.color(atX: 128, y: top - 1).a > 0, "no glow above")
        let sun = GlobeAtmosphere.sun(lightPosition: [1.15, 210, 30])
        for (x, y) in [(128, 128), (128, top + 2), (60, 128), (200, 100)] {
            let shader = GlobeAtmosphere.pixel(ray: globe.viewDirection(x: Double(x) + 0.5, y: Double(y) + 0.5),
                                               origin: globe.atmosphereCamera, sun: sun, blend: 1)
            let under = plain.color(atX: x, y: y), got = glowing.color(atX: x, y: y)
            func expected(_ c: Double, _ u: UInt8) -> Double { min(255, c * 255 + Double(u) * (1 - shader.w)) }
            #expect(abs(Double(got.r) - expected(shader.x, under.r)) <= 1.5 && abs(Double(got.g) - expected(shader.y, under.g)) <= 1.5
                    && abs(Double(got.b) - expected(shader.z, under.b)) <= 1.5, "(\(x), \(y)): \(got) over \(under), shader \(shader * 255)")
        }
        #expect(glowing.color(atX: 128, y: top + 2) != plain.color(atX: 128, y: top + 2), "no glow over the face")
        let above = glowing.color(atX: 128, y: top - 1), below = glowing.color(atX: 128, y: bottom)
        #expect(Int(above.r) + Int(above.g) + Int(above.b) > Int(below.r) + Int(below.g) + Int(below.b), "the sun's side is not brighter")
    }

    @Test func theAtmosphereSeenCloseAndTiltedLeavesTheMapAsItIs() throws {
        // Close to the ground and tilted, the air's lines of sight grow long and the shader's
        // exponentials overflow (NaN): the glow there is nothing, and what is under it stays.
        let polygon = [(-180.0, -85.0), (-180, 85), (180, 85), (180, -85)]
        for (zoom, pitch) in [(7.0, 60.0), (9, 60), (7, 45)] {
            let (plain, _) = try render(style(center: (10, 40), zoom: zoom, pitch: pitch, polygon: polygon), size: 1280, height: 720)
            let (glowing, _) = try render(style(center: (10, 40), zoom: zoom, pitch: pitch, polygon: polygon, atmosphere: 0.8), size: 1280, height: 720)
            var erased = 0
            for i in 0..<(1280 * 720) where plain.pixels[i] != 0 && glowing.pixels[i] == 0 { erased += 1 }
            #expect(erased == 0, "zoom \(zoom) pitch \(pitch): \(erased) pixels erased")
        }
    }

    @Test func theGlobeBlendsIntoMercatorByZoom12() throws {
        // At zoom 12 the globe is gone: the same picture as Web Mercator's.
        let polygon = [(13.40, 52.49), (13.43, 52.49), (13.43, 52.51), (13.40, 52.51)]
        let (globe, gv) = try render(style(center: (13.418, 52.499), zoom: 12, polygon: polygon))
        let mercator = style(center: (13.418, 52.499), zoom: 12, polygon: polygon).replacingOccurrences(of: #""type": "globe""#, with: #""type": "mercator""#)
        let (flat, fv) = try render(mercator)
        #expect(gv.globe == nil && fv.globe == nil)
        #expect(Array(globe.buffer) == Array(flat.buffer))
        // At 11.5 it is half way: the polygon's corner lies between where either puts it.
        let (_, half) = try render(style(center: (13.418, 52.499), zoom: 11.5, polygon: polygon))
        #expect(half.globeness == 0.5)
    }
}
