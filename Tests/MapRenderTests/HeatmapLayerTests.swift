import Foundation
import MapCore
@testable import MapRender
import Raster
import Testing

/// Heatmap layers: the density buffer against a brute-force sum of MapLibre's kernel, and the
/// colours the ramp gives it.
@Suite struct HeatmapLayerTests {
    static let size = ViewportSize(width: 200, height: 120)

    static func view(bearing: Double = 0) -> ViewTransform {
        ViewTransform(camera: CameraState(center: LngLat(lng: 0, lat: 0), zoom: 10, bearing: bearing), size: size)
    }

    /// Points given on screen, one feature per group, with its weight and radius (pixels).
    struct Group { var points: [(Double, Double)]; var weight: Double; var radius: Double }

    func draw(_ groups: [Group], _ view: ViewTransform, intensity: Double = 1, opacity: Double = 1,
              ramp: HeatmapRamp = .standard) -> HeatmapDraw {
        let items = groups.map { g in
            let parts = g.points.map { [view.mercator(x: $0.0, y: $0.1)] }
            return FeatureDraw<HeatmapPointPaint>.Item(paint: HeatmapPointPaint(weight: g.weight, radius: g.radius),
                                                       geometry: FeatureGeometry(kind: .points, parts: parts))
        }
        return HeatmapDraw(points: FeatureDraw(items: items), intensity: intensity, opacity: opacity, ramp: ramp)
    }

    func render(_ d: HeatmapDraw, _ view: ViewTransform, background: Color? = nil, renderer: FrameRenderer = FrameRenderer(),
                into pm: Pixmap? = nil, rows: Range<Int>? = nil) -> Pixmap {
        let pm = pm ?? Pixmap(width: Self.size.width, height: Self.size.height)
        renderer.clearColor = PremultipliedColor(packed: 0)
        var layers = [FrameDescription.DrawLayer(id: "h", .heatmap(d))]
        if let background { layers.insert(.init(id: "bg", .background(color: background, opacity: 1)), at: 0) }
        renderer.render(FrameDescription(view: view, layers: layers), into: pm, rows: rows ?? 0..<pm.height)
        return pm
    }

    /// The density at each buffer pixel summed point by point: weight x intensity / sqrt(2 pi) x
    /// exp(-4.5 |d / r|^2) where the pixel's centre is inside the point's quad (half-size S r,
    /// turned with the map by `bearing`), S where the kernel falls to 1 / 255 / 16.
    func bruteForce(_ groups: [Group], _ view: ViewTransform, intensity: Double, bearing: Double) -> [Double] {
        let cols = Self.size.width / 4, rows = Self.size.height / 4
        let b = bearing * .pi / 180
        let ax = (cos(b), -sin(b)), ay = (sin(b), cos(b))
        var out = [Double](repeating: 0, count: cols * rows)
        for g in groups {
            let k = g.weight * intensity / (2 * Double.pi).squareRoot()
            let s = (-2 * log(1.0 / 255 / 16 / k)).squareRoot() / 3
            for p in g.points {
                for j in 0..<rows {
                    for i in 0..<cols {
                        let dx = (Double(i) + 0.5) * 4 - p.0, dy = (Double(j) + 0.5) * 4 - p.1
                        guard abs(dx * ax.0 + dy * ax.1) < s * g.radius, abs(dx * ay.0 + dy * ay.1) < s * g.radius else { continue }
                        out[j * cols + i] += k * exp(-4.5 * (dx * dx + dy * dy) / (g.radius * g.radius))
                    }
                }
            }
        }
        return out
    }

    static let groups = [
        Group(points: [(50.3, 40.8), (58.1, 47.2), (150.6, 90.1)], weight: 1, radius: 12),
        Group(points: [(120.2, 30.7)], weight: 3.5, radius: 20),
        Group(points: [(5, 115)], weight: 0.25, radius: 7.5),
    ]

    @Test(arguments: [0.0, 30.0]) func densityIsTheKernelSum(bearing: Double) {
        let view = Self.view(bearing: bearing)
        let renderer = FrameRenderer()
        _ = render(draw(Self.groups, view, intensity: 0.8), view, renderer: renderer)
        let density = renderer.heatmaps.density
        let expected = bruteForce(Self.groups, view, intensity: 0.8, bearing: bearing)
        #expect(density.count == expected.count)
        var worst = 0.0, cut = 0
        for (a, e) in zip(density, expected) {
            worst = max(worst, abs(Double(a) - e))
            if e == 0 && a == 0 { cut += 1 }
        }
        #expect(worst < 1e-5)
        #expect(expected.max() ?? 0 > 0.3)
        #expect(cut > 0)
    }

    @Test func theQuadCutsTheKernel() {
        // One point on a buffer pixel's centre: its quad reaches S x r = 1.282 x 10 px, so the
        // pixel 12 px away still has density and the one 16 px away has none (the kernel there,
        // 4e-6, is below the cut, 1 / 255 / 16).
        let view = Self.view()
        let renderer = FrameRenderer()
        _ = render(draw([Group(points: [(42, 42)], weight: 1, radius: 10)], view), view, renderer: renderer)
        let d = renderer.heatmaps.density, cols = Self.size.width / 4
        #expect(abs(Double(d[10 * cols + 10]) - 0.3989422804014327) < 1e-6)
        #expect(abs(Double(d[10 * cols + 11]) - 0.3989422804014327 * exp(-4.5 * 0.16)) < 1e-6)
        #expect(d[10 * cols + 13] > 0)
        #expect(d[10 * cols + 14] == 0)
    }

    @Test func colourFromTheRamp() {
        // A wide kernel scaled so its peak density is 0.5: lime in the default ramp; far away the
        // layer below shows untouched.
        let view = Self.view()
        let intensity = 0.5 / 0.3989422804014327
        let pm = render(draw([Group(points: [(100, 60)], weight: 1, radius: 400)], view, intensity: intensity), view)
        let c = pm.color(atX: 100, y: 60)
        #expect(c.a == 255 && c.r <= 2 && c.g == 255 && c.b <= 2)
        let small = render(draw([Group(points: [(20, 20)], weight: 1, radius: 5)], view), view, background: .white)
        #expect(small.color(atX: 150, y: 90) == RGBA8(255, 255, 255))
        #expect(small.color(atX: 20, y: 20) != RGBA8(255, 255, 255))
    }

    @Test func opacityScalesTheColour() {
        let view = Self.view()
        let red = HeatmapRamp(colors: [UInt32](repeating: 0xFFFF_0000, count: HeatmapRamp.size))
        let pm = render(draw([Group(points: [(100, 60)], weight: 1, radius: 10)], view, opacity: 0.5, ramp: red), view)
        // A ramp red at every density paints every pixel, at half opacity.
        #expect(pm.color(atX: 3, y: 3) == RGBA8(255, 0, 0, 128))
        #expect(pm.color(atX: 100, y: 60) == RGBA8(255, 0, 0, 128))
    }

    @Test func bandsDrawTheWholeFrame() {
        let view = Self.view(bearing: 30)
        let d = draw(Self.groups, view)
        let whole = render(d, view)
        let banded = Pixmap(width: Self.size.width, height: Self.size.height)
        for band in [0..<37, 37..<38, 38..<90, 90..<120] { _ = render(d, view, into: banded, rows: band) }
        #expect(Array(whole.buffer) == Array(banded.buffer))
    }

    @Test func documentLayerDraws() throws {
        // Weights from the features, a radius in pixels and a step ramp: the heavier point is
        // blue at its centre, the lighter red, and nothing shows between them.
        let text = #"""
        {"version": 8, "sources": {"p": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
            {"type": "Feature", "properties": {"w": 2}, "geometry": {"type": "Point", "coordinates": [-20, 0]}},
            {"type": "Feature", "properties": {"w": 0.5}, "geometry": {"type": "Point", "coordinates": [20, 0]}}]}}},
         "layers": [{"id": "h", "type": "heatmap", "source": "p",
                     "paint": {"heatmap-weight": ["get", "w"], "heatmap-radius": 20,
                               "heatmap-color": ["step", ["heatmap-density"], "rgba(0, 0, 0, 0)", 0.05, "red", 0.5, "blue"]}}]}
        """#
        let doc = try StyleDocument(data: Data(text.utf8), name: "t.json")
        var features: [String: GeoJSONData] = [:]
        for (id, s) in doc.sources { if case let .geojson(.inline(d)) = s { features[id] = d } }
        let style = Style(document: doc, features: features, images: [:], sprite: nil)
        var model = MapModel(style: style, size: ViewportSize(width: 128, height: 64),
                             camera: CameraState(center: LngLat(lng: 0, lat: 0), zoom: 0), bounds: CameraBounds())
        model.lighting = false
        let pm = Pixmap(width: 128, height: 64)
        let renderer = FrameRenderer()
        renderer.clearColor = PremultipliedColor(packed: 0)
        renderer.render(model.frame(), into: pm)
        // (20 degrees at zoom 0 is 28.4 px from the centre.)
        #expect(pm.color(atX: 35, y: 32) == RGBA8(0, 0, 255))
        #expect(pm.color(atX: 92, y: 32) == RGBA8(255, 0, 0))
        #expect(pm.color(atX: 64, y: 32).a == 0)
    }

    @Test func cutVerticesOfTiledLinesAreLeftOut() {
        // A line through the view's centre, (0.5, 0.5) in Mercator: on every tile edge. With the
        // tiles' zoom given (a vector source's lines are cut there) that vertex adds nothing; a
        // point there, or the line of a GeoJSON source, keeps it.
        let view = Self.view()
        func centre(_ kind: FeatureGeometry.Kind, tileZoom: Int?) -> Float {
            let parts = kind == .points ? [[view.mercator(x: 100, y: 60)]] : [[view.mercator(x: 60, y: 60), view.mercator(x: 100, y: 60)]]
            let item = FeatureDraw<HeatmapPointPaint>.Item(paint: HeatmapPointPaint(weight: 1, radius: 8),
                                                           geometry: FeatureGeometry(kind: kind, parts: parts))
            let renderer = FrameRenderer()
            _ = render(HeatmapDraw(points: FeatureDraw(items: [item], tileZoom: tileZoom), intensity: 1, opacity: 1, ramp: .standard),
                       view, renderer: renderer)
            return renderer.heatmaps.density[14 * (Self.size.width / 4) + 24]     // (98, 58)
        }
        #expect(view.mercator(x: 100, y: 60).x == 0.5)
        #expect(centre(.lines, tileZoom: 10) == 0)
        #expect(centre(.lines, tileZoom: nil) > 0.2)
        #expect(centre(.points, tileZoom: 10) > 0.2)
    }

    @Test func everyPixelWithDensityIsDrawn() {
        // A ramp transparent at 0 and red above: a pixel is red where the density read bilinearly
        // from the buffer reaches the second texel (1.5 / 256), transparent below the first's
        // centre (0.5 / 256); the pass skips only pixels that read no density.
        var colors = [UInt32](repeating: 0xFFFF_0000, count: HeatmapRamp.size)
        colors[0] = 0
        let view = Self.view(bearing: 30)
        let renderer = FrameRenderer()
        let pm = render(draw(Self.groups, view, ramp: HeatmapRamp(colors: colors)), view, renderer: renderer)
        let d = renderer.heatmaps.density, cols = Self.size.width / 4, rows = Self.size.height / 4
        func at(_ i: Int, _ j: Int) -> Double { Double(d[min(max(j, 0), rows - 1) * cols + min(max(i, 0), cols - 1)]) }
        var wrong = 0, red = 0
        for y in 0..<Self.size.height {
            for x in 0..<Self.size.width {
                let u = (Double(x) + 0.5) / 4 - 0.5, v = (Double(y) + 0.5) / 4 - 0.5
                let i = Int(u.rounded(.down)), j = Int(v.rounded(.down))
                let fx = u - Double(i), fy = v - Double(j)
                let top = at(i, j) + (at(i + 1, j) - at(i, j)) * fx, bottom = at(i, j + 1) + (at(i + 1, j + 1) - at(i, j + 1)) * fx
                let density = top + (bottom - top) * fy
                let c = pm.color(atX: x, y: y)
                if density > 0.006 { red += 1; if c != RGBA8(255, 0, 0) { wrong += 1 } }
                if density < 0.0015 && c.a != 0 { wrong += 1 }
            }
        }
        #expect(red > 1000)
        #expect(wrong == 0)
    }
}
