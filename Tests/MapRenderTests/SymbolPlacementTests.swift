import Foundation
import MapCore
import MapData
@testable import MapRender
import Raster
import Testing

/// Symbol placement: text positions tried in order, icon and text together unless optional,
/// `symbol-sort-key`, one collision space for every symbol layer, labels kept within MapLibre's
/// padding around the window, and places found wherever the camera is (the antimeridian too).
@Suite struct SymbolPlacementTests {
    /// Labels set in nightmap's own fonts.
    static let glyphs: LocalGlyphs = {
        do { return BundledAssets.localGlyphs(resources: try ResourceLocator.resourcesDirectory()) } catch { fatalError("\(error)") }
    }()

    /// A 7x7 square image (the place dot's box).
    static let square = VectorIcon(name: "square", width: 7, height: 7,
                                   shapes: [.init(color: .white, commands: [.move(0, 0), .line(7, 0), .line(7, 7), .line(0, 7), .close])])

    /// A model of `layers` (JSON) over the GeoJSON source `points`, holding `features`.
    static func model(_ layers: String, _ features: [(LngLat, [String: StyleValue])], size: ViewportSize = ViewportSize(width: 400, height: 300),
                      camera: CameraState = CameraState(center: LngLat(lng: 0, lat: 0), zoom: 4)) throws -> MapModel {
        let text = """
        { "version": 8, "sources": { "points": { "type": "geojson", "data": { "type": "FeatureCollection", "features": [] } } },
          "layers": \(layers) }
        """
        let document = try StyleDocument(data: Data(text.utf8), name: "symbols.json")
        let data = GeoJSONData(features: features.map { p, props in
            GeoFeature(geometry: FeatureGeometry(kind: .points, parts: [[WebMercator.project(p)]]), evaluation: EvaluationFeature(properties: props))
        })
        var style = Style(document: document, features: ["points": data], images: [:])
        style.glyphs = glyphs
        style.icons["square"] = square
        var m = MapModel(style: style, size: size, camera: camera)
        m.jump(to: camera)
        return m
    }

    static func placed(_ m: MapModel) -> [String: [PlacedSymbol]] {
        let frame = m.frame()
        let placement = SymbolPlacement()
        placement.place(frame)
        var out: [String: [PlacedSymbol]] = [:]
        for (i, l) in frame.layers.enumerated() where l.symbols != nil { out[l.id] = placement.symbols(layer: i) }
        return out
    }

    static func layer(_ id: String, _ layout: String) -> String {
        #"{ "id": "\#(id)", "type": "symbol", "source": "points", "layout": { "text-font": ["DejaVu Sans Book"], \#(layout) } }"#
    }

    /// `text-variable-anchor` with a radial offset: the first position that fits wins; a label
    /// blocked on the right goes left of its point, then above, then below.
    @Test func variableAnchorsAreTriedInOrder() throws {
        let layout = #""text-field": ["get", "name"], "text-size": 13, "text-variable-anchor": ["left", "right", "bottom", "top"], "text-radial-offset": 0.5"#
        // One label alone: to the right of its point, 6.5 px (0.5 em) away, centred on it.
        var m = try Self.model("[\(Self.layer("a", layout))]", [(LngLat(lng: 0, lat: 0), ["name": .string("Alpha")])])
        let s = m.camera.view.screen(LngLat(lng: 0, lat: 0))
        let alone = try #require(Self.placed(m)["a"]?.first?.text)
        // (Boxes are grown by text-padding, 2 px, and the offset reaches the grown box, as in
        // MapLibre; a one-line box is 1.2 em high, centred.)
        #expect(abs(alone.box.minX - (s.x + 6.5)) < 1e-9, "not 0.5 em right of its point: \(alone.box)")
        #expect(abs((alone.box.minY + alone.box.maxY) / 2 - s.y) < 1e-9, "not centred on its point")
        #expect(abs(alone.box.maxY - alone.box.minY - (1.2 * 13 + 4)) < 1e-9)
        // A second, higher-ranked point just right of it takes the right side: the first label goes left.
        m = try Self.model("[\(Self.layer("a", layout + #", "symbol-sort-key": ["get", "order"]"#))]",
                           [(LngLat(lng: 0, lat: 0), ["name": .string("Alpha"), "order": .number(2)]),
                            (LngLat(lng: 1.5, lat: 0), ["name": .string("Beta"), "order": .number(1)])])
        let both = try #require(Self.placed(m)["a"])
        #expect(both.map { $0.text?.string } == ["Beta", "Alpha"], "the lower sort key is placed first")
        let alpha = try #require(both.last?.text)
        #expect(alpha.box.maxX <= s.x - 6.5 + 2 + 1e-9 && alpha.origin.x < s.x, "Alpha is not left of its point: \(alpha.box)")
    }

    /// An icon and its text show together or not at all; with `text-optional` the icon stays
    /// when its text has no room.
    @Test func iconAndTextShowTogetherUnlessOptional() throws {
        let features: [(LngLat, [String: StyleValue])] = [(LngLat(lng: 0, lat: 0), ["name": .string("Wide label that cannot fit")]),
                                                          (LngLat(lng: 0.4, lat: 0), ["name": .string("B")])]
        for optional in [false, true] {
            let layout = #""icon-image": "square", "icon-padding": 0, "text-field": ["get", "name"], "text-size": 13, "text-anchor": "left", "text-offset": [0.5, 0], "text-optional": \#(optional), "symbol-sort-key": ["get", "order"]"#
            var f = features
            f[0].1["order"] = .number(2); f[1].1["order"] = .number(1)
            let m = try Self.model("[\(Self.layer("a", layout))]", f)
            let placed = try #require(Self.placed(m)["a"])
            // B (first) has its icon and text; the wide label meets B's text.
            #expect(placed.first?.text?.string == "B" && placed.first?.icon != nil)
            if optional {
                #expect(placed.count == 2 && placed[1].icon != nil && placed[1].text == nil, "the optional text did not give way alone")
            } else {
                #expect(placed.count == 1, "an icon showed without its text")
            }
        }
    }

    /// Every symbol layer is placed in one collision space, the top layer first: an icon of an
    /// upper layer keeps a label of a lower layer out, unless that icon ignores placement.
    @Test func layersShareOneCollisionSpace() throws {
        let label = Self.layer("labels", #""text-field": ["get", "name"], "text-size": 13"#)
        for ignore in [false, true] {
            let icons = #"{ "id": "icons", "type": "symbol", "source": "points", "filter": ["==", ["get", "name"], "icon"], "layout": { "icon-image": "square", "icon-size": 4, "icon-ignore-placement": \#(ignore) } }"#
            let m = try Self.model("[\(label), \(icons)]", [(LngLat(lng: 0, lat: 0), ["name": .string("icon")])])
            let placed = Self.placed(m)
            #expect(placed["icons"]?.count == 1)
            #expect((placed["labels"]?.count ?? 0) == (ignore ? 1 : 0), "ignore-placement \(ignore)")
        }
    }

    /// A label reaching into MapLibre's 100-px padding around the window is placed, partly off
    /// screen; one wholly beyond it is left out (its icon, in sight, stays: the text is optional).
    @Test func labelsReachIntoThePaddingAroundTheWindow() throws {
        let layout = #""icon-image": "square", "text-field": ["get", "name"], "text-size": 13, "text-optional": true, "text-anchor": "left", "text-offset": [0, 0]"#
        let near = try Self.model("[\(Self.layer("a", layout))]", [(LngLat(lng: 0, lat: 0), ["name": .string("Edge")])],
                                  camera: CameraState(center: LngLat(lng: -8.6, lat: 0), zoom: 4))
        let s = near.camera.view.screen(LngLat(lng: 0, lat: 0))
        #expect(s.x > 380 && s.x < 400, "the point is not near the right edge: \(s.x)")
        let placed = try #require(Self.placed(near)["a"]?.first)
        let text = try #require(placed.text, "a label crossing the edge was left out")
        #expect(text.box.maxX > 400)
        // Moved 140 px right of its point (10.8 em at 13 px): beyond the padding.
        let far = try Self.model("[\(Self.layer("a", layout.replacingOccurrences(of: "[0, 0]", with: "[10.8, 0]")))]",
                                 [(LngLat(lng: 0, lat: 0), ["name": .string("Edge")])],
                                 camera: CameraState(center: LngLat(lng: -8.6, lat: 0), zoom: 4))
        let beyond = try #require(Self.placed(far)["a"]?.first)
        #expect(beyond.icon != nil && beyond.text == nil)
    }

    /// Places are found wherever the camera is: every point inside the window, on either side
    /// of the antimeridian, at zooms 3.5 to 4.9 (the source is spatially indexed and the view's
    /// region of it is evaluated; the world copy nearest the window's centre is placed).
    @Test func placesInViewAreFoundAcrossTheAntimeridian() throws {
        // Far apart (10 degrees: 160 px and more at these zooms), so that none of them collide.
        var features: [(LngLat, [String: StyleValue])] = []
        for lng in stride(from: -180.0, to: 180.0, by: 10) {
            for lat in [-20.0, 10.0] { features.append((LngLat(lng: lng, lat: lat), ["name": .string("P\(Int(lng))/\(Int(lat))")])) }
        }
        let layout = #""icon-image": "square", "icon-padding": 0, "text-field": ["get", "name"], "text-size": 13, "text-variable-anchor": ["left", "right"], "text-radial-offset": 0.5"#
        var m = try Self.model("[\(Self.layer("a", layout))]", features, size: ViewportSize(width: 800, height: 500))
        var checked = 0
        let cameras = [3.5, 4.2, 4.9].flatMap { zoom in stride(from: -180.0, to: 180.0, by: 7.3).map { ($0, zoom) } } + [(179.9, 4.2), (-179.9, 3.6)]
        for (lng, zoom) in cameras {
            m.jump(to: CameraState(center: LngLat(lng: lng, lat: 0), zoom: zoom))
            let view = m.camera.view
            let names = Set((Self.placed(m)["a"] ?? []).compactMap { $0.text?.string })
            for (p, props) in features {
                var s = view.screen(p)
                s.x -= ((s.x - 400) / view.worldSize).rounded() * view.worldSize
                guard s.x > 15, s.x < 785, s.y > 40, s.y < 460 else { continue }
                checked += 1
                let name = props["name"]?.asString ?? ""
                #expect(names.contains(name), "camera \(lng), zoom \(zoom): \(name) at x \(Int(s.x)) not placed")
            }
        }
        #expect(checked > 150)
    }

    /// A zooming camera evaluates only the filter again: while it passes the same features the
    /// layer hands out the same symbols (the placement keeps its result), and a feature whose
    /// minimum zoom is crossed, or new data, gives new ones.
    @Test func zoomingKeepsTheSymbolsWhileTheFilterPassesTheSameFeatures() throws {
        let layer = #"{ "id": "a", "type": "symbol", "source": "points", "filter": ["<=", ["get", "minzoom"], ["zoom"]], "layout": { "text-font": ["DejaVu Sans Book"], "text-field": ["get", "name"] } }"#
        var m = try Self.model("[\(layer)]", [(LngLat(lng: 0, lat: 0), ["name": .string("A"), "minzoom": .number(0)]),
                                              (LngLat(lng: 2, lat: 0), ["name": .string("B"), "minzoom": .number(4.5)])])
        func set(_ zoom: Double) -> SymbolSet? {
            m.jump(to: CameraState(center: LngLat(lng: 0, lat: 0), zoom: zoom))
            return m.frame().layers.first { $0.id == "a" }?.symbols?.set
        }
        let a = try #require(set(4.0)), b = try #require(set(4.2))
        #expect(a === b && a.symbols.count == 1)
        let c = try #require(set(4.6))
        #expect(c !== a && c.symbols.map { $0.text?.string } == ["A", "B"])
        try m.updateGeoJSONSource("points", GeoJSONData.point(LngLat(lng: 0, lat: 0), properties: ["name": .string("C"), "minzoom": .number(0)]))
        #expect(set(4.6)?.symbols.map { $0.text?.string } == ["C"])
    }
}

/// Zooming across a whole zoom lays the symbols out again for the next zoom's tiles: the same
/// labels are the same labels (the cross-tile index), so they neither fade out and in nor move.
@Suite struct SymbolZoomTests {
    @Test func crossingAWholeZoomKeepsTheLabelsShown() throws {
        // Labels sized by the zoom: every frame of a zoom evaluates a new symbol set.
        let layout = #""text-field": ["get", "name"], "text-size": ["interpolate", ["linear"], ["zoom"], 5, 11, 7, 13]"#
        var features: [(LngLat, [String: StyleValue])] = []
        for i in 0..<8 { for j in 0..<5 { features.append((LngLat(lng: -8 + 2.2 * Double(i), lat: -5 + 2.5 * Double(j)), ["name": .string("P\(i)-\(j)")])) } }
        var m = try SymbolPlacementTests.model("[\(SymbolPlacementTests.layer("a", layout))]", features, size: ViewportSize(width: 800, height: 500),
                                               camera: CameraState(center: LngLat(lng: 0, lat: 0), zoom: 4.9))
        m.symbolFadeDuration = 0.3
        var t = 1.0
        m.advance(to: t)
        let placement = SymbolPlacement()
        func shown() -> [String: (id: Int, fade: Double)] {
            let frame = m.frame()
            placement.place(frame)
            var out: [String: (id: Int, fade: Double)] = [:]
            for s in placement.symbols(layer: 0) { if let text = s.text { out[text.string] = (s.id, text.fade) } }
            return out
        }
        let before = shown()
        #expect(before.count > 20 && before.values.allSatisfy { $0.fade == 1 }, "the first placement shows its labels at once")
        // Zoom in by 0.2 over 0.2 s, across zoom 5, then let the next placement run.
        for step in 1...12 {
            t += 1.0 / 60
            m.jump(to: CameraState(center: LngLat(lng: 0, lat: 0), zoom: 4.9 + 0.2 * Double(step) / 12))
            m.advance(to: t)
            _ = shown()
        }
        t += 0.35
        m.advance(to: t)
        let after = shown()
        var kept = 0
        for (name, now) in after {
            guard let then = before[name] else { continue }
            kept += 1
            #expect(now.id == then.id, "\(name) is another label at zoom 5.1")
            #expect(now.fade == 1, "\(name) faded (\(now.fade)) crossing zoom 5")
        }
        #expect(kept > 20, "too few labels on both sides of zoom 5: \(kept)")
    }
}

/// The window's cadence: a view change within a fade of the last placement waits for its turn,
/// and the placement says when that comes, so the window draws one frame then instead of
/// spinning.
@Suite struct SymbolCadenceTests {
    @Test func aPlacementThatWaitsSaysWhenItIsDue() throws {
        let layout = #""text-field": ["get", "name"], "text-size": 13"#
        var m = try SymbolPlacementTests.model("[\(SymbolPlacementTests.layer("a", layout))]",
                                               [(LngLat(lng: 0, lat: 0), ["name": .string("Alpha")])])
        m.symbolFadeDuration = 0.3
        m.advance(to: 1)
        let placement = SymbolPlacement()
        placement.place(m.frame())
        #expect(!placement.isAnimating && placement.passDueAt == nil, "the first placement shows at once")
        m.jump(to: CameraState(center: LngLat(lng: 1, lat: 0), zoom: 4))
        m.advance(to: 1.1)
        placement.place(m.frame())
        #expect(placement.passDueAt == 1.3 && !placement.isFading && placement.isAnimating)
        // Laid out meanwhile where the view now shows it.
        let before = placement.symbols(layer: 0).first?.text?.origin.x
        m.advance(to: 1.2)
        placement.place(m.frame())
        #expect(placement.passDueAt == 1.3)
        m.advance(to: 1.3)
        placement.place(m.frame())
        #expect(placement.passDueAt == nil && !placement.isAnimating, "the pass ran and nothing changed")
        #expect(placement.symbols(layer: 0).first?.text?.origin.x == before)
    }
}
