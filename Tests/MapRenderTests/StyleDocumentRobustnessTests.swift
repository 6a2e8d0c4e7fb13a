import Foundation
import MapCore
import MapData
import MapRender
import Raster
import Testing
import TestSupport

/// Hostile style documents, GeoJSON, sprites and images: each must either be refused with a
/// `StyleDocumentError` naming the JSON path, or render (small) without trapping or exploding in
/// memory, to the frame's end: a dot drawn after the hostile layers shows at the view's centre.
/// (How long they take is the benchmarks' business, not a unit test's.)
@Suite(.serialized) struct StyleDocumentRobustnessTests {
    // MARK: Helpers

    /// Renders a document as `nightmap render-test` does (camera from the document, zoom range
    /// 0...24 shifted by the pixel ratio, unlit, transparent), at `size` device pixels, with the
    /// dot over it unless `dot` is false (see `renderStyle`).
    @discardableResult
    func render(_ text: String, size: Int = 48, sprite: SpriteSheet? = nil, images: [String: ImageSource] = [:],
                pixelRatio: Double = 1, center: LngLat? = nil, zoom: Double? = nil, dot: Bool = true,
                sourceLocation: SourceLocation = #_sourceLocation) throws -> Pixmap {
        let doc = try StyleDocument(data: Data(text.utf8), name: "hostile.json")
        var features: [String: GeoJSONData] = [:]
        for (id, s) in doc.sources { if case let .geojson(.inline(d)) = s { features[id] = d } }
        let style = Style(document: doc, features: features, images: images, sprite: sprite)
        return try renderStyle(style, size: size, pixelRatio: pixelRatio, center: center ?? doc.center ?? LngLat(lng: 0, lat: 0),
                               zoom: zoom ?? doc.zoom ?? 0, dot: dot, sourceLocation: sourceLocation)
    }

    /// The dot: opaque green, 4 CSS pixels in radius, at the camera's centre, above every layer.
    static let dotColor = RGBA8(0, 255, 0)

    /// Adds the dot's source and layer over the style's layers.
    static func addDot(_ model: inout MapModel) throws {
        let c = model.camera.state.center
        let point = #"{"type": "Point", "coordinates": [\#(c.lng), \#(c.lat)]}"#
        try model.addSource("dot", geojson: GeoJSONData(json: JSON.parse(Data(point.utf8), name: "dot"), path: "dot"))
        var layer = LayerDefinition(id: "dot", type: .circle, source: "dot")
        try layer.setPaint("circle-color", .string("#00ff00"))
        try layer.setPaint("circle-radius", .number(4))
        try model.addLayer(layer)
    }

    /// Renders `style` as `render` does; with `dot`, the frame must end with the dot at the
    /// centre pixel: the renderer came through the hostile layers and drew what follows them.
    func renderStyle(_ style: Style, size: Int, pixelRatio: Double = 1, center: LngLat, zoom: Double, dot: Bool = true,
                     sourceLocation: SourceLocation = #_sourceLocation, edit: (inout MapModel) throws -> Void = { _ in }) throws -> Pixmap {
        var model = MapModel(style: style, size: ViewportSize(width: size, height: size), camera: CameraState(center: center, zoom: zoom),
                             bounds: CameraBounds(minZoom: 0, maxZoom: 24))
        model.lighting = false
        model.setPixelRatio(pixelRatio)
        model.advance(to: 0)
        try edit(&model)
        if dot { try Self.addDot(&model) }
        model.loadWantedTiles(now: 0)
        let pm = Pixmap(width: size, height: size)
        let renderer = FrameRenderer()
        renderer.clearColor = PremultipliedColor(packed: 0)
        renderer.render(model.frame(), into: pm)
        if dot {
            #expect(pm.color(atX: size / 2, y: size / 2) == Self.dotColor, "the frame did not end with the dot", sourceLocation: sourceLocation)
        }
        return pm
    }

    /// Parsing `text` must fail with a StyleDocumentError one of whose problems contains `path`.
    /// `text` is refused (not JSON or not version 8) or read with what it skips named, either
    /// way with a line naming `path`.
    func expectNamed(_ text: String, naming path: String, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            let document = try StyleDocument(data: Data(text.utf8), name: "hostile.json")
            #expect(document.warnings.contains { $0.contains(path) }, "\(document.warnings)", sourceLocation: sourceLocation)
        } catch let e as StyleDocumentError {
            #expect(e.problems.contains { $0.contains(path) }, "\(e.problems)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("expected a StyleDocumentError, got \(error)", sourceLocation: sourceLocation)
        }
    }

    /// A document with one GeoJSON source `g` holding `data` and the layers given (each with
    /// `"source": "g"` added unless it is a background).
    func document(_ data: String, layers: [String], center: String = "[0, 0]", zoom: Double = 0) -> String {
        #"{"version": 8, "center": \#(center), "zoom": \#(zoom), "sources": {"g": {"type": "geojson", "data": \#(data)}}, "layers": [\#(layers.joined(separator: ","))]}"#
    }

    /// Every kind of awkward geometry: an empty MultiPoint, 0- and 1-point lines, repeated
    /// points, a zero-area polygon, a one-point ring, empty rings and polygons, a sharp zigzag,
    /// a feature without geometry, features without properties, a GeometryCollection.
    static let awkward = #"""
    {"type": "FeatureCollection", "features": [
      {"type": "Feature", "properties": {"a": 1, "r": 1e308, "s": "x"}, "geometry": {"type": "Point", "coordinates": [0, 0]}},
      {"type": "Feature", "geometry": {"type": "MultiPoint", "coordinates": []}},
      {"type": "Feature", "properties": null, "geometry": {"type": "MultiPoint", "coordinates": [[1, 1], [1, 1], [2, 2]]}},
      {"type": "Feature", "geometry": {"type": "LineString", "coordinates": []}},
      {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[10, 10]]}},
      {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[5, 5], [5, 5], [5, 5]]}},
      {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[-40, 0], [40, 0.001], [-40, 0.002], [40, -30], [40, -30]]}},
      {"type": "Feature", "geometry": {"type": "MultiLineString", "coordinates": [[], [[1, 2]], [[0, 0], [0, 0]], [[-10, -10], [10, 10]]]}},
      {"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [10, 0], [20, 0], [0, 0]]]}},
      {"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[0, 0]]]}},
      {"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[]]}},
      {"type": "Feature", "geometry": {"type": "Polygon", "coordinates": []}},
      {"type": "Feature", "geometry": {"type": "MultiPolygon", "coordinates": [[], [[]], [[[-20, -20], [20, -20], [20, 20], [-20, 20], [-20, -20]], [[-5, -5], [5, -5], [5, 5], [-5, 5], [-5, -5]]]]}},
      {"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[-30, -30], [30, 30], [30, -30], [-30, 30], [-30, -30]]]}},
      {"type": "Feature", "geometry": null},
      {"type": "Feature", "properties": {}, "geometry": {"type": "GeometryCollection", "geometries": [
        {"type": "Point", "coordinates": [3, 3]}, {"type": "GeometryCollection", "geometries": []},
        {"type": "LineString", "coordinates": [[180, 85], [-180, -85]]}]}}
    ]}
    """#

    /// An 8 x 8 opaque icon, an SDF dot, and icons whose pixel ratio is absurdly small or large.
    static let sprite: SpriteSheet = {
        let plain = Pixmap(width: 8, height: 8)
        let sdf = Pixmap(width: 8, height: 8)
        for y in 0..<8 { for x in 0..<8 {
            plain.pixels[y * 8 + x] = 0xFF80_4020
            let d = hypot(Double(x) + 0.5 - 4, Double(y) + 0.5 - 4)
            sdf.pixels[y * 8 + x] = UInt32(max(0, min(255, (0.75 + (2 - d) / 8) * 255))) << 24
        } }
        return SpriteSheet(icons: [
            "n": SpriteIcon(name: "n", image: plain, pixelRatio: 1, sdf: false),
            "sdf": SpriteIcon(name: "sdf", image: sdf, pixelRatio: 1, sdf: true),
            "tiny": SpriteIcon(name: "tiny", image: plain, pixelRatio: 1e-300, sdf: false),
            "huge": SpriteIcon(name: "huge", image: plain, pixelRatio: 1e300, sdf: false),
        ])
    }()

    /// Where each hostile document is looked at: the whole world, the corners of the world at
    /// the deepest zoom layers are drawn at (they stop at 24), and at pixel ratio 2.
    static let cameras: [(center: LngLat, zoom: Double, ratio: Double)] = [
        (LngLat(lng: 0, lat: 0), 0, 1), (LngLat(lng: 3, lat: 2), 7.5, 1),
        (LngLat(lng: 180, lat: 85), 23.9, 1), (LngLat(lng: -180, lat: -85), 23.9, 1), (LngLat(lng: 0, lat: 0), 23.9, 2),
        (LngLat(lng: 5, lat: 5), 23.9, 1),
    ]

    /// A layer JSON (without id and source) that takes absurd values, rendered over `awkward`.
    static let hostileLayers: [String] = [
        // Circles.
        #"{"type": "circle", "paint": {"circle-radius": 1e308, "circle-stroke-width": 1e308, "circle-blur": -1e308}}"#,
        #"{"type": "circle", "paint": {"circle-radius": ["/", 1, 0], "circle-stroke-width": ["/", 1, 0], "circle-blur": ["/", 1, 0]}}"#,
        #"{"type": "circle", "paint": {"circle-radius": ["get", "r"], "circle-stroke-width": ["*", 1e300, 1e300], "circle-opacity": 0.5}}"#,
        #"{"type": "circle", "paint": {"circle-radius": 1e-300, "circle-stroke-width": 1e-300, "circle-blur": 1e308}}"#,
        #"{"type": "circle", "paint": {"circle-radius": 1e6, "circle-blur": 0.5, "circle-translate": [1e308, -1e308]}}"#,
        #"{"type": "circle", "paint": {"circle-radius": 3, "circle-translate": [1e7, 1e7]}}"#,
        #"{"type": "circle", "paint": {"circle-radius": ["-", 0, ["/", 1, 0]], "circle-blur": ["-", 0, ["/", 1, 0]]}}"#,
        // Lines.
        #"{"type": "line", "paint": {"line-width": 1e12}}"#,
        #"{"type": "line", "paint": {"line-width": 1e308, "line-gap-width": 1e308, "line-blur": 1e308}}"#,
        #"{"type": "line", "paint": {"line-width": ["/", 1, 0], "line-gap-width": ["/", 1, 0]}}"#,
        #"{"type": "line", "paint": {"line-width": 4, "line-blur": ["/", 1, 0]}}"#,
        #"{"type": "line", "paint": {"line-width": 4, "line-blur": 1e12, "line-opacity": 0.5}}"#,
        #"{"type": "line", "layout": {"line-join": "miter", "line-miter-limit": 1e308}, "paint": {"line-width": 10}}"#,
        #"{"type": "line", "layout": {"line-join": "miter", "line-miter-limit": ["/", 1, 0]}, "paint": {"line-width": 1e9, "line-gap-width": 5}}"#,
        #"{"type": "line", "layout": {"line-join": "miter", "line-miter-limit": -1e308}, "paint": {"line-width": 10, "line-gap-width": 1e308}}"#,
        #"{"type": "line", "layout": {"line-cap": "round", "line-join": "round"}, "paint": {"line-width": 1e6, "line-dasharray": [1, 1]}}"#,
        #"{"type": "line", "paint": {"line-width": 2, "line-dasharray": [1e-9, 1e-9]}}"#,
        #"{"type": "line", "paint": {"line-width": 1e12, "line-dasharray": [1e-9, 1e-9]}}"#,
        #"{"type": "line", "paint": {"line-width": 2, "line-dasharray": [1e308, 1e308]}}"#,
        #"{"type": "line", "paint": {"line-width": 2, "line-dasharray": [0, 0]}}"#,
        #"{"type": "line", "layout": {"line-cap": "round"}, "paint": {"line-width": 2, "line-dasharray": [0, 1e-9]}}"#,
        #"{"type": "line", "paint": {"line-width": 2, "line-dasharray": [1e-9, 1e308]}}"#,
        #"{"type": "line", "paint": {"line-width": 2, "line-dasharray": [0.2, 0.3], "line-translate": [1e308, 1e308]}}"#,
        #"{"type": "line", "paint": {"line-width": ["interpolate", ["exponential", 2], ["zoom"], 0, 1, 24, 16777216], "line-dasharray": [2, 1]}}"#,
        #"{"type": "line", "paint": {"line-width": 1e-300, "line-gap-width": 1e-300, "line-dasharray": [1, 1]}}"#,
        #"{"type": "line", "paint": {"line-offset": 1e308, "line-width": 3}}"#,
        #"{"type": "line", "layout": {"line-join": "round", "line-cap": "round"}, "paint": {"line-width": 1e9, "line-gap-width": 1e300, "line-blur": 1e308}}"#,
        #"{"type": "line", "layout": {"line-join": "bevel", "line-cap": "square"}, "paint": {"line-width": 5, "line-offset": -1e7, "line-translate": [1e308, 0]}}"#,
        // Fills.
        #"{"type": "fill", "paint": {"fill-translate": [1e308, 1e308], "fill-outline-color": "red"}}"#,
        #"{"type": "fill", "paint": {"fill-opacity": 0.5, "fill-outline-color": "red", "fill-color": ["get", "s"]}}"#,
        #"{"type": "fill", "paint": {"fill-antialias": false, "fill-translate": [-1e7, 1e7]}}"#,
        #"{"type": "fill", "paint": {"fill-antialias": false, "fill-translate": [1e308, -1e308]}}"#,
        // Icons.
        #"{"type": "symbol", "layout": {"icon-image": "n", "icon-size": 1e9}}"#,
        #"{"type": "symbol", "layout": {"icon-image": "n", "icon-size": 1e308, "icon-allow-overlap": true}}"#,
        #"{"type": "symbol", "layout": {"icon-image": "n", "icon-size": ["/", 1, 0], "icon-rotate": ["/", 1, 0]}}"#,
        #"{"type": "symbol", "layout": {"icon-image": "n", "icon-rotate": 1e308, "icon-offset": [1e308, -1e308]}}"#,
        #"{"type": "symbol", "layout": {"icon-image": "n"}, "paint": {"icon-translate": [1e308, -1e308], "text-translate": [-1e308, 1e308], "icon-translate-anchor": "viewport"}}"#,
        #"{"type": "symbol", "layout": {"icon-image": "n", "icon-rotate": ["-", 0, ["/", 1, 0]], "icon-size": 1e-300}}"#,
        #"{"type": "symbol", "layout": {"icon-image": "sdf", "icon-size": 3}, "paint": {"icon-halo-width": 1e308, "icon-halo-blur": ["/", 1, 0], "icon-halo-color": "red"}}"#,
        #"{"type": "symbol", "layout": {"icon-image": "sdf", "icon-size": 1e-9}, "paint": {"icon-halo-width": 2, "icon-halo-color": "red"}}"#,
        #"{"type": "symbol", "layout": {"icon-image": "tiny"}}"#,
        #"{"type": "symbol", "layout": {"icon-image": "tiny", "symbol-placement": "line"}}"#,
        #"{"type": "symbol", "layout": {"icon-image": "huge", "symbol-placement": "line", "symbol-spacing": 1}}"#,
        #"{"type": "symbol", "layout": {"icon-image": "n", "symbol-placement": "line", "symbol-spacing": ["-", 0, 5], "text-size": 0}}"#,
        #"{"type": "symbol", "layout": {"icon-image": "n", "symbol-placement": "line", "symbol-spacing": 1e308, "text-size": 1e308}}"#,
        #"{"type": "symbol", "layout": {"icon-image": "n", "symbol-placement": "line", "symbol-spacing": ["/", 1, 0], "icon-ignore-placement": true}}"#,
        #"{"type": "symbol", "layout": {"icon-image": "n", "symbol-placement": "line-center", "icon-offset": [1e7, 1e7]}}"#,
        #"{"type": "symbol", "layout": {"icon-image": ["get", "s"], "icon-anchor": ["get", "s"]}}"#,
        #"{"type": "symbol", "layout": {"icon-image": "n", "icon-size": ["get", "r"]}, "paint": {"icon-translate": [1e308, 1e308]}}"#,
        // Background.
        #"{"type": "background", "paint": {"background-color": "rgba(300, -5, 1e308, 2)", "background-opacity": ["/", 0, 0]}}"#,
    ]

    // MARK: Hostile paint over awkward geometry

    @Test(arguments: hostileLayers)
    func hostileLayerRenders(_ layer: String) throws {
        var json = layer
        json.removeFirst()
        let source = layer.contains(#""background""#) ? "" : #""source": "g", "#
        let full = #"{"id": "l", \#(source)\#(json)"#
        for camera in Self.cameras {
            let text = document(Self.awkward, layers: [full])
            try render(text, sprite: Self.sprite, pixelRatio: camera.ratio, center: camera.center, zoom: camera.zoom)
        }
    }

    @Test func emptyFeatureCollectionsAndFeaturelessSources() throws {
        let empties = [#"{"type": "FeatureCollection", "features": []}"#,
                       #"{"type": "Feature", "geometry": null}"#,
                       #"{"type": "GeometryCollection", "geometries": []}"#,
                       #"{"type": "MultiPolygon", "coordinates": []}"#]
        for data in empties {
            let layers = [#"{"id": "f", "type": "fill", "source": "g"}"#, #"{"id": "l", "type": "line", "source": "g", "paint": {"line-dasharray": [1, 1]}}"#,
                          #"{"id": "c", "type": "circle", "source": "g"}"#, #"{"id": "s", "type": "symbol", "source": "g", "layout": {"icon-image": "n"}}"#]
            let pm = try render(document(data, layers: layers), sprite: Self.sprite, dot: false)
            #expect(pm.color(atX: 24, y: 24).a == 0)
        }
    }

    @Test func filtersOnFeaturesWithoutProperties() throws {
        let filters = [#"["==", ["get", "x"], 1]"#, #"["==", "x", 1]"#, #"["has", "x"]"#, #"["!has", "x"]"#, #"["in", "x", 1, 2]"#,
                       #"["!", ["has", "x"]]"#, #"["<", ["get", "x"], 5]"#, #"[">", ["to-number", ["get", "x"]], -1]"#,
                       #"["==", ["geometry-type"], "Point"]"#, #"["==", ["id"], null]"#, #"["all"]"#, #"["any"]"#,
                       #"["match", ["get", "x"], [1, 2], true, false]"#, #"["==", ["at", ["number", ["get", "i"], 5], ["literal", [1]]], 1]"#,
                       #"["==", ["length", ["get", "x"]], 0]"#, #"["none", ["==", "$type", "Point"]]"#]
        for f in filters {
            let layer = #"{"id": "c", "type": "circle", "source": "g", "filter": \#(f)}"#
            try render(document(Self.awkward, layers: [layer]))
        }
    }

    @Test func deeplyNestedGeometryCollection() throws {
        // 120 levels (each is an object and an array: 240 of JSON's 256).
        var g = #"{"type": "Point", "coordinates": [0, 0]}"#
        for _ in 0..<120 { g = #"{"type": "GeometryCollection", "geometries": [\#(g)]}"# }
        let pm = try render(document(g, layers: [#"{"id": "c", "type": "circle", "source": "g", "paint": {"circle-color": "red"}}"#]), dot: false)
        #expect(pm.color(atX: 24, y: 24).r == 255)
        // Deeper than JSON allows: refused, with the document's name.
        for _ in 0..<20 { g = #"{"type": "GeometryCollection", "geometries": [\#(g)]}"# }
        expectNamed(document(g, layers: []), naming: "hostile.json")
    }

    @Test func nonsenseLongitudesAndLatitudes() throws {
        let data = #"""
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "geometry": {"type": "Point", "coordinates": [1e300, 1e300]}},
          {"type": "Feature", "geometry": {"type": "Point", "coordinates": [-1e300, -1e300]}},
          {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[-1e300, 0], [1e300, 1], [0, 2]]}},
          {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[-1e7, 0], [1e7, 0]]}},
          {"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[-1e300, -1e300], [1e300, -1e300], [1e300, 1e300], [-1e300, -1e300]]]}},
          {"type": "Feature", "geometry": {"type": "MultiPoint", "coordinates": [[540, 0], [-900, 0], [1e15, 0]]}}
        ]}
        """#
        let layers = [#"{"id": "f", "type": "fill", "source": "g", "paint": {"fill-opacity": 0.5}}"#,
                      #"{"id": "l", "type": "line", "source": "g", "paint": {"line-width": 3}}"#,
                      #"{"id": "d", "type": "line", "source": "g", "paint": {"line-width": 3, "line-dasharray": [2, 1]}}"#,
                      #"{"id": "c", "type": "circle", "source": "g"}"#,
                      #"{"id": "s", "type": "symbol", "source": "g", "layout": {"icon-image": "n"}}"#,
                      #"{"id": "t", "type": "symbol", "source": "g", "layout": {"icon-image": "n", "symbol-placement": "line", "symbol-spacing": 1}}"#]
        for camera in Self.cameras {
            try render(document(data, layers: layers), sprite: Self.sprite, pixelRatio: camera.ratio,
                       center: camera.center, zoom: camera.zoom)
        }
        // A centre far outside the world is wrapped, not trusted.
        try render(document(data, layers: layers, center: "[1e300, 0]", zoom: 3), sprite: Self.sprite)
    }

    static let basemapLayers: [String] = [
        #"{"type": "fill", "source-layer": "land", "paint": {"fill-opacity": ["/", 0, 0], "fill-translate": [1e308, 1e308]}}"#,
        #"{"type": "line", "source-layer": "coastline", "layout": {"line-join": "miter", "line-miter-limit": 1e308}, "paint": {"line-width": 1e12, "line-gap-width": 1e308, "line-blur": 1e308}}"#,
        #"{"type": "line", "source-layer": "coastline", "paint": {"line-width": 1e12, "line-dasharray": [1e-9, 1e-9]}}"#,
        #"{"type": "line", "source-layer": "states", "paint": {"line-width": ["/", 1, 0], "line-blur": ["/", 1, 0]}}"#,
        #"{"type": "line", "source-layer": "countries", "layout": {"line-miter-limit": 1e308}, "paint": {"line-width": 2, "line-dasharray": [0.1, 1e308]}}"#,
        #"{"type": "line", "source-layer": "countries", "paint": {"line-width": 2, "line-dasharray": [1e-9, 1e-9]}}"#,
    ]

    /// Layers of the bundled basemap's tiles (drawn by the typed line and fill paths, or feature
    /// by feature) with absurd paint.
    @Test(arguments: basemapLayers)
    func hostileBasemapLayer(_ layer: String) throws {
        let archive = try ResourceLocator.resourcesDirectory().appendingPathComponent("basemap/basemap.pmtiles").path
        var json = layer
        json.removeFirst()
        let text = #"{"version": 8, "sources": {"b": {"type": "vector", "url": "pmtiles://\#(archive)"}}, "layers": [{"id": "l", "source": "b", \#(json)]}"#
        let doc = try StyleDocument(data: Data(text.utf8), name: "t.json")
        let style = try StyleLoader.style(for: doc, resolver: ResourceResolver(styleDirectory: nil, assets: nil))
        for camera in Self.cameras {
            _ = try renderStyle(style, size: 48, pixelRatio: camera.ratio, center: camera.center, zoom: camera.zoom)
        }
    }

    // MARK: Sizes that grow with the input

    @Test func manyIconsAtHighZoomLeaveTheFrameWhole() throws {
        // 20 000 points a few pixels apart at zoom 20: icons collide with their neighbours only.
        var f: [String] = []
        for i in 0..<20_000 {
            let lng = Double(i % 200) * 0.00002, lat = Double(i / 200) * 0.00002
            f.append(#"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [\#(lng), \#(lat)]}}"#)
        }
        let data = #"{"type": "FeatureCollection", "features": [\#(f.joined(separator: ","))]}"#
        try render(document(data, layers: [#"{"id": "s", "type": "symbol", "source": "g", "layout": {"icon-image": "n"}}"#],
                            center: "[0.002, 0.002]", zoom: 20), sprite: Self.sprite)
    }

    @Test func iconsAlongManyLongLinesAreBounded() throws {
        // 300 lines around the world at zoom 22, an anchor wanted every pixel.
        var f: [String] = []
        for i in 0..<300 {
            f.append(#"{"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[-180, \#(Double(i) * 0.1)], [180, \#(Double(i) * 0.1)]]}}"#)
        }
        let data = #"{"type": "FeatureCollection", "features": [\#(f.joined(separator: ","))]}"#
        let layer = #"{"id": "s", "type": "symbol", "source": "g", "layout": {"icon-image": "n", "symbol-placement": "line", "symbol-spacing": 1, "text-size": 0, "icon-size": 0.01}}"#
        try render(document(data, layers: [layer], zoom: 22), sprite: Self.sprite)
    }

    @Test func longDashedLinesAtHighZoomLeaveTheFrameWhole() throws {
        // Zigzags across a zoom-18 tile (some 30,000 px at zoom 23.9, the deepest layers are drawn at), dashed every pixel.
        var coords: [String] = []
        for i in 0..<2000 { coords.append("[\(i % 2 == 0 ? -0.0005 : 0.0005), \(Double(i) * 0.0000001)]") }
        let data = #"{"type": "LineString", "coordinates": [\#(coords.joined(separator: ","))]}"#
        for dashes in ["[1, 1]", "[0.2, 0.1]", "[0, 0.15]"] {
            let layer = #"{"id": "d", "type": "line", "source": "g", "layout": {"line-cap": "round"}, "paint": {"line-width": 1, "line-dasharray": \#(dashes)}}"#
            try render(document(data, layers: [layer], zoom: 23.9), size: 64)
        }
        // Thousands of tiny dash lengths in one pattern.
        let many = (0..<5000).map { _ in "0.0001" }.joined(separator: ",") + ", 3"
        let layer = #"{"id": "d", "type": "line", "source": "g", "paint": {"line-width": 2, "line-dasharray": [\#(many)]}}"#
        try render(document(#"{"type": "LineString", "coordinates": [[-180, 0], [180, 0]]}"#, layers: [layer], zoom: 4), size: 64)
    }

    @Test func lineAnchorsAlwaysTerminate() {
        let cases: [([(x: Double, y: Double)], Double, Double, Double)] = [
            ([(0, 0), (1e17, 0)], 1, 0, 0),
            ([(0, 0), (1e17, 0)], 1, 10, 1),
            ([(1e17, 0), (2e17, 0)], 1, 0, 0),
            ([(0, 0), (.infinity, 0)], 1, 0, 0),
            ([(0, 0), (.nan, 0), (5, 5)], 1, 0, 0),
            ([(0, 0), (100, 0)], .infinity, 1, 1),
            ([(0, 0), (100, 0)], .nan, 1, 1),
            ([(0, 0), (100, 0)], 0, 0, 0),
            ([(0, 0), (100, 0)], -5, 0, 0),
            ([(0, 0), (100, 0)], 1e-300, 0, 1),
            ([(0, 0), (100, 0)], 10, .infinity, 1),
            ([(0, 0), (100, 0)], 10, 1, .nan),
            ([(3, 3), (3, 3)], 10, 1, 1),
        ]
        for (line, spacing, label, scale) in cases {
            let a = LineAnchors.anchors(line, spacing: spacing, maxAngle: .pi / 4, labelLength: label, boxScale: scale, overscaling: 1, hasText: true)
            _ = LineAnchors.centerAnchor(line, maxAngle: .pi / 4, labelLength: label, boxScale: scale, hasText: true)
            #expect(a.count <= 10_001, "\(line) spacing \(spacing)")
        }
    }

    // MARK: What is wrong in a document is named with its path

    @Test func invalidDocumentsNameThePath() {
        let point = #"{"type": "Point", "coordinates": [0, 0]}"#
        func layer(_ body: String) -> String { document(point, layers: [#"{"id": "l", "source": "g", \#(body)}"#]) }
        expectNamed(layer(#""type": "symbol", "layout": {"symbol-spacing": 0}"#), naming: "layers[0].layout.symbol-spacing")
        expectNamed(layer(#""type": "symbol", "layout": {"symbol-spacing": -5}"#), naming: "layers[0].layout.symbol-spacing")
        expectNamed(layer(#""type": "circle", "paint": {"circle-radius": -1}"#), naming: "layers[0].paint.circle-radius")
        expectNamed(layer(#""type": "line", "paint": {"line-width": "x"}"#), naming: "layers[0].paint.line-width")
        expectNamed(layer(#""type": "line", "paint": {"line-dasharray": [-1, 2]}"#), naming: "layers[0].paint.line-dasharray[0]")
        expectNamed(layer(#""type": "symbol", "layout": {"icon-size": -1}"#), naming: "layers[0].layout.icon-size")
        expectNamed(layer(#""type": "line", "paint": {"line-width": 1e400}"#), naming: "hostile.json")
        expectNamed(layer(#""type": "circle", "filter": ["==", 1]"#), naming: "layers[0].filter")
        expectNamed(layer(#""type": "hexagon""#), naming: "layers[0].type")
        expectNamed(layer(#""type": "circle", "minzoom": -1, "maxzoom": 1e300"#), naming: "layers[0].minzoom")
        expectNamed(document(#"{"type": "Point", "coordinates": [1]}"#, layers: []), naming: "sources.g.data.coordinates")
        expectNamed(document(#"{"type": "LineString", "coordinates": [[0, 0], [1, "x"]]}"#, layers: []),
                      naming: "sources.g.data.coordinates[1]")
        expectNamed(document(#"{"type": "Polygon", "coordinates": [[[0, 0], [1, 1], 5]]}"#, layers: []),
                      naming: "sources.g.data.coordinates[0][2]")
        expectNamed(document(#"{"type": "Hexagon", "coordinates": []}"#, layers: []), naming: "sources.g.data.type")
        expectNamed(document(#"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Point"}}]}"#, layers: []),
                      naming: "sources.g.data.features[0].geometry.coordinates")
        expectNamed(document(#"{"type": "FeatureCollection", "features": 3}"#, layers: []), naming: "sources.g.data.features")
        expectNamed(document(#"[]"#, layers: []), naming: "sources.g.data")
        expectNamed(document(point, layers: [], center: "[0, 91]"), naming: "center")
        expectNamed(document(point, layers: [], center: "[0, 0]", zoom: 25), naming: "zoom")
        expectNamed(#"{"version": 8, "sources": {}, "layers": {}}"#, naming: "layers")
        expectNamed(#"{"version": 8, "sources": {"i": {"type": "image", "url": "x.png", "coordinates": [[0, 0], [1, 1], [2, 2]]}}, "layers": []}"#,
                      naming: "sources.i.coordinates")
        expectNamed(#"{"version": 8, "sources": {"i": {"type": "image", "url": "x.png", "coordinates": [[0, 0], [1, 1], [2, "x"], [3, 3]]}}, "layers": []}"#,
                      naming: "sources.i.coordinates[2]")
        expectNamed(#"{"version": 8, "sources": {"i": {"type": "image", "url": "x.png", "coordinates": [[0, 0], [1, 1], [2, 95], [3, 3]]}}, "layers": []}"#,
                      naming: "sources.i.coordinates[2]")
        expectNamed(#"{"version": 8, "sources": {"i": {"type": "image", "url": "x.png", "coordinates": [[0, 0], [1e300, 1], [2, 2], [3, 3]]}}, "layers": []}"#,
                      naming: "sources.i.coordinates[1]")
        expectNamed(#"{"version": 8, "sources": {}, "layers": [], "transition": {"duration": -1}}"#, naming: "transition.duration")
        expectNamed("", naming: "hostile.json")
        expectNamed("[", naming: "hostile.json")
        expectNamed(String(repeating: "[", count: 100_000), naming: "hostile.json")
    }

    // MARK: Image sources

    @Test func degenerateImageCorners() throws {
        let image = Pixmap(width: 4, height: 4)
        // Texels whose channels are exactly half their alpha: the mid-grey an infinite contrast gain makes NaN of.
        for i in 0..<16 { image.pixels[i] = i % 2 == 0 ? 0xFFFF_0000 : 0xFE7F_7F7F }
        let p = LngLat(lng: 10, lat: 10)
        let cornerSets: [ImageCorners] = [
            ImageCorners(topLeft: p, topRight: p, bottomRight: p, bottomLeft: p),
            ImageCorners(topLeft: LngLat(lng: 0, lat: 0), topRight: LngLat(lng: 10, lat: 0),
                         bottomRight: LngLat(lng: 20, lat: 0), bottomLeft: LngLat(lng: 30, lat: 0)),
            ImageCorners(topLeft: LngLat(lng: -10, lat: 10), topRight: LngLat(lng: 10, lat: -10),
                         bottomRight: LngLat(lng: 10, lat: 10), bottomLeft: LngLat(lng: -10, lat: -10)),
            ImageCorners(LngLatBounds(west: 10, south: 10, east: 10, north: 10)),
            ImageCorners(LngLatBounds(west: -180, south: -90, east: 180, north: 90)),
            ImageCorners(LngLatBounds(west: -540, south: -85, east: 540, north: 85)),
        ]
        for corners in cornerSets {
            let c = corners.all.map { "[\($0.lng), \($0.lat)]" }.joined(separator: ",")
            let text = #"""
            {"version": 8, "sources": {"i": {"type": "image", "url": "x.png", "coordinates": [\#(c)]}}, "layers": [
              {"id": "r", "type": "raster", "source": "i"},
              {"id": "h", "type": "raster", "source": "i", "paint": {"raster-hue-rotate": ["/", 1, 0], "raster-contrast": 1,
               "raster-saturation": 1, "raster-brightness-min": 1, "raster-brightness-max": 0, "raster-fade-duration": 1e308}},
              {"id": "k", "type": "raster", "source": "i", "paint": {"raster-contrast": 1, "raster-saturation": -1, "raster-hue-rotate": 1e308}}]}
            """#
            for camera in Self.cameras {
                let source = ImageSource(corners: corners, placement: .linear, frames: [image], names: ["x.png"])
                try render(text, images: ["i": source], pixelRatio: camera.ratio, center: camera.center, zoom: camera.zoom)
            }
        }
    }

    // MARK: The style API

    @Test func styleAPIWithHostileValues() throws {
        let text = document(Self.awkward, layers: [#"{"id": "l", "type": "line", "source": "g"}"#, #"{"id": "c", "type": "circle", "source": "g"}"#])
        let doc = try StyleDocument(data: Data(text.utf8), name: "t.json")
        var features: [String: GeoJSONData] = [:]
        for (id, s) in doc.sources { if case let .geojson(.inline(d)) = s { features[id] = d } }
        let style = Style(document: doc, features: features, images: [:], sprite: Self.sprite)
        _ = try renderStyle(style, size: 48, center: LngLat(lng: 0, lat: 0), zoom: 2) { model in
            try model.setPaintProperty(layer: "l", "line-width", json: .number(1e308))
            try model.setPaintProperty(layer: "l", "line-blur", json: .number(1e308))
            try model.setPaintProperty(layer: "l", "line-dasharray", json: .array([.number(1e-9), .number(1e-9)]))
            try model.setLayoutProperty(layer: "l", "line-miter-limit", json: .number(1e308))
            try model.setPaintProperty(layer: "c", "circle-radius", json: .number(1e308))
            #expect(throws: StyleError.self) { try model.setPaintProperty(layer: "c", "circle-radius", json: .number(-1)) }
            #expect(throws: StyleError.self) { try model.setLayoutProperty(layer: "l", "line-cap", json: .string("x")) }
            #expect(throws: StyleError.self) { try model.setPaintProperty(layer: "nope", "circle-radius", json: .number(1)) }
            try model.updateGeoJSONSource("g", GeoJSONData(features: []))
            try model.updateGeoJSONSource("g", try GeoJSONData(json: try JSON.parse(Data(Self.awkward.utf8), name: "a"), path: "a"))
            var def = LayerDefinition(id: "s", type: .symbol, source: "g")
            try def.setLayout("icon-image", .string("n"))
            try def.setLayout("icon-size", .number(1e308))
            try def.setLayout("symbol-placement", .string("line"))
            try model.addLayer(def, below: "l")
            #expect(throws: StyleError.self) { try model.addLayer(def) }
            let far = ImageSource(corners: ImageCorners(LngLatBounds(west: -1e300, south: 0, east: 1e300, north: 1)), placement: .linear,
                                  frames: [Pixmap(width: 1, height: 1)], names: ["x"])
            #expect(throws: StyleError.self) { try model.addSource("far", image: far) }
            #expect(throws: StyleError.self) { try model.removeSource("g") }
        }
    }

    /// Absurd paint on the layers nightmap animates (`route`, `iss`, its vector rocket) stays
    /// finite and bounded in the frame, at every zoom.
    @Test func theDemoLayersStayFinite() throws {
        let text = #"""
        {"version": 8, "transition": {"duration": 1e308, "delay": 1e308}, "sources": {"g": {"type": "geojson", "data": {"type": "LineString", "coordinates": [[0, 0], [1, 1]]}},
                                                                                   "p": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}},
         "layers": [{"id": "route", "type": "line", "source": "g", "layout": {"line-miter-limit": ["/", 1, 0]},
                     "paint": {"line-width": ["/", 1, 0], "line-gap-width": 1e308, "line-blur": 1e308, "line-dasharray": [1e308, 1e-300],
                               "line-opacity-transition": {"duration": 1e308}}},
                    {"id": "iss", "type": "symbol", "source": "p", "layout": {"icon-image": "rocket", "icon-size": ["/", 1, 0], "icon-rotate": 1e308,
                     "icon-offset": [1e308, -1e308]}}]}
        """#
        let doc = try StyleDocument(data: Data(text.utf8), name: "t.json")
        var features: [String: GeoJSONData] = [:]
        for (id, source) in doc.sources { if case let .geojson(.inline(d)) = source { features[id] = d } }
        var style = Style(document: doc, features: features, images: [:])
        style.icons["rocket"] = VectorIcon(name: "rocket", width: 24, height: 24,
                                           shapes: [.init(color: .white, commands: [.move(0, 0), .line(24, 0), .line(24, 24), .close])])
        for zoom in [0.0, 5, 24] {
            let camera = CameraState(center: LngLat(lng: 0, lat: 0), zoom: zoom)
            var model = MapModel(style: style, size: ViewportSize(width: 64, height: 64), camera: camera)
            try model.setPaintProperty(layer: "route", "line-opacity", json: .number(0.5), at: 0)
            model.advance(to: 1)
            let frame = model.frame()
            var kinds = Set<String>()
            for item in frame.layers.flatMap({ $0.lineFeatures?.items ?? [] }) {
                do {
                    let line = item.paint
                    kinds.insert("line")
                    for v in [line.width, line.gapWidth, line.blur, line.miterLimit, line.opacity] + line.dasharray { #expect(v.isFinite) }
                }
            }
            for symbol in frame.layers.flatMap({ $0.symbols?.set.symbols ?? [] }) {
                if case let .vector(icon)? = symbol.icon?.image {
                    kinds.insert("icon")
                    #expect(icon.scale.isFinite && icon.scale * 24 <= 4 * frame.view.worldSize + 1e-6 && icon.rotate.isFinite)
                    #expect(icon.offset.x.isFinite && icon.offset.y.isFinite && icon.reach.isFinite)
                }
            }
            #expect(kinds == ["line", "icon"], "zoom \(zoom)")
            FrameRenderer().render(frame, into: Pixmap(width: 64, height: 64))
        }
    }

    // MARK: Files: sprites and resources

    /// A fresh folder with `files` written into it.
    func folder(_ files: [String: Data]) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nightmap-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, data) in files { try data.write(to: dir.appendingPathComponent(name)) }
        return dir
    }

    func sheet(_ w: Int, _ h: Int) throws -> Data {
        let pm = Pixmap(width: w, height: h)
        for i in 0..<(w * h) { pm.pixels[i] = 0xFF20_4080 }
        return try PNGCodec.encode(pm)
    }

    func loadSprite(_ json: String, sheet w: Int = 16, _ h: Int = 16) throws -> SpriteSheet {
        let dir = try folder(["sprite.json": Data(json.utf8), "sprite.png": try sheet(w, h)])
        defer { try? FileManager.default.removeItem(at: dir) }
        let resolver = ResourceResolver(styleDirectory: dir, assets: nil)
        return try SpriteLoader.load(base: "sprite", pixelRatio: 1, resolver: resolver)
    }

    @Test func hostileSpriteIndexes() throws {
        let refused = [
            #"{"a": {"x": 999999, "y": 0, "width": 999999, "height": 1}}"#,
            #"{"a": {"x": 0, "y": 0, "width": 1e300, "height": 1e300}}"#,
            #"{"a": {"x": 9223372036854775807, "y": 0, "width": 9223372036854775807, "height": 1}}"#,
            #"{"a": {"x": -1, "y": 0, "width": 1, "height": 1}}"#,
            #"{"a": {"x": 0.5, "y": 0, "width": 1, "height": 1}}"#,
            #"{"a": {"x": 0, "y": 0, "width": 0, "height": 1}}"#,
            #"{"a": {"x": 0, "y": 0, "width": 1, "height": 1, "pixelRatio": 0}}"#,
            #"{"a": {"x": 0, "y": 0, "width": 1, "height": 1, "pixelRatio": -1}}"#,
            #"{"a": 5}"#,
            #"[1, 2]"#,
            #"{"a": {"x": 0, "y": 0, "width": 17, "height": 1}}"#,
        ]
        for json in refused {
            #expect(throws: (any Error).self, "\(json)") { _ = try loadSprite(json) }
        }
        // Absurd pixel ratios load; icons drawn with them stay finite.
        let sprite = try loadSprite(#"{"tiny": {"x": 0, "y": 0, "width": 16, "height": 16, "pixelRatio": 1e-300}, "huge": {"x": 1, "y": 1, "width": 2, "height": 2, "pixelRatio": 1e300, "sdf": true}}"#)
        #expect(sprite.icons.count == 2)
        for name in ["tiny", "huge"] {
            for placement in ["point", "line", "line-center"] {
                let layer = #"{"id": "s", "type": "symbol", "source": "g", "layout": {"icon-image": "\#(name)", "symbol-placement": "\#(placement)"}}"#
                try render(document(Self.awkward, layers: [layer]), sprite: sprite)
            }
        }
    }

    @Test func spriteWithManyOverlappingIconsIsRefusedNotExploded() throws {
        // 50 000 names for the whole 1024 x 1024 sheet: 200 GB if each were copied out.
        var entries: [String] = []
        for i in 0..<50_000 { entries.append(#""i\#(i)": {"x": 0, "y": 0, "width": 1024, "height": 1024}"#) }
        #expect(throws: (any Error).self) { _ = try loadSprite("{\(entries.joined(separator: ","))}", sheet: 1024, 1024) }
    }

    @Test func resourcesThatAreNotFiles() throws {
        let dir = try folder(["ok.json": Data(#"{"type": "Point", "coordinates": [0, 0]}"#.utf8), "bad.png": Data("GIF89a".utf8)])
        defer { try? FileManager.default.removeItem(at: dir) }
        try? FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("zero.json").path, withDestinationPath: "/dev/zero")
        let resolver = ResourceResolver(styleDirectory: dir, assets: nil)
        for url in ["/dev/zero", "zero.json", "/dev/null", "/proc/self/status", dir.path, "missing.json", "local://x.json", "http://example.com/x.json",
                    "file://", "file:///dev/zero", "ftp://x", ""] {
            let text = #"{"version": 8, "sources": {"g": {"type": "geojson", "data": "\#(url)"}}, "layers": []}"#
            let doc = try StyleDocument(data: Data(text.utf8), name: "t.json")
            // The source is named and draws nothing; the style loads.
            var reported: [String] = []
            let style = try StyleLoader.style(for: doc, resolver: resolver, report: { reported.append($0) })
            #expect(reported.count == 1 && reported[0].hasPrefix("sources.g: ") && !reported[0].contains("\n"), "\(url): \(reported)")
            if case let .geojson(data)? = style.sources["g"] { #expect(data.features.isEmpty) } else { Issue.record("\(url): no empty source") }
        }
        for url in ["/dev/zero", "bad.png", "ok.json"] {
            #expect(throws: (any Error).self, "\(url)") { _ = try resolver.image(url) }
        }
        #expect(throws: StyleDocumentError.self) { _ = try StyleLoader.readDocument(path: "/dev/zero") }
        #expect(throws: StyleDocumentError.self) { _ = try StyleLoader.readDocument(path: dir.path) }
        let text = #"{"version": 8, "sources": {"g": {"type": "geojson", "data": "ok.json"}}, "layers": [], "sprite": "/dev/zero"}"#
        let doc = try StyleDocument(data: Data(text.utf8), name: "t.json")
        var reported: [String] = []
        let style = try StyleLoader.style(for: doc, resolver: resolver, report: { reported.append($0) })
        #expect(reported.count == 1 && reported[0].hasPrefix("sprite: /dev/zero.json"), "\(reported)")
        #expect(style.sprite?.icons.isEmpty == true)
    }

    @Test func gifWithManyHugeFramesUsesOnlyTheFirst() throws {
        // A 4096 x 4096 canvas with 1000 one-pixel frames: 64 GB if every frame were kept.
        var gif = Data("GIF89a".utf8)
        gif += [0x00, 0x10, 0x00, 0x10, 0x80, 0x00, 0x00]                 // 4096 x 4096, 2-colour global table
        gif += [0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF]
        for _ in 0..<1000 {
            gif += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0x00]                     // a 1 x 1 frame at 0, 0
            gif += [0x02, 0x02, 0x44, 0x01, 0x00]                           // LZW: clear, 0, end
        }
        gif += [0x3B]
        let dir = try folder(["big.gif": gif])
        defer { try? FileManager.default.removeItem(at: dir) }
        let image = try ResourceResolver(styleDirectory: dir, assets: nil).image("big.gif")
        #expect(image.width == 4096 && image.height == 4096)
    }
}

