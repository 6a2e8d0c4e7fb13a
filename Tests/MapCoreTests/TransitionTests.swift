import Foundation
import MapCore
import Testing
import TestSupport

/// Paint transitions of document layers, at exact instants (SEMANTICS, "Style transitions").
@Suite struct TransitionTests {
    /// A background and a line layer `l` (white, opacity 0) over an inline GeoJSON line.
    func model(transition: String = "", layerTransition: String? = nil, extraPaint: String = "") throws -> MapModel {
        let own = layerTransition.map { #", "line-opacity-transition": \#($0)"# } ?? ""
        let text = """
        { "version": 8, \(transition.isEmpty ? "" : #""transition": \#(transition),"#)
          "sources": { "s": { "type": "geojson", "data": { "type": "Feature", "properties": { "w": 3 },
              "geometry": { "type": "LineString", "coordinates": [[-10, 0], [10, 0]] } } } },
          "layers": [
            { "id": "bg", "type": "background", "paint": { "background-color": "black" } },
            { "id": "l", "type": "line", "source": "s",
              "paint": { "line-color": "white", "line-width": 2, "line-opacity": 0\(own)\(extraPaint) } } ] }
        """
        let document = try StyleDocument(data: Data(text.utf8), name: "test.json")
        var features: [String: GeoJSONData] = [:]
        for (id, source) in document.sources { if case let .geojson(.inline(d)) = source { features[id] = d } }
        let style = Style(document: document, features: features, images: [:])
        return MapModel(style: style, size: ViewportSize(width: 100, height: 100), camera: weatherCamera, bounds: weatherBounds)
    }

    func opacity(_ m: MapModel) -> Double {
        guard case let .number(v)? = m.paintValue(layer: "l", "line-opacity") else { return .nan }
        return v
    }

    /// The line's paint as the frame draws it (per feature).
    func drawn(_ m: MapModel) -> LinePaint? {
        m.frame().layers.first(where: { $0.id == "l" })?.lineFeatures?.items.first?.paint
    }

    @Test func defaultTransitionAtExactInstants() throws {
        var m = try model()
        try m.setPaintProperty(layer: "l", "line-opacity", json: .number(1), at: 10)
        for (t, x) in [(10.0, 0.0), (10.075, 0.25), (10.15, 0.5), (10.225, 0.75)] {
            m.advance(to: t)
            #expect(abs(opacity(m) - referenceEase(x)) < 1e-9, "at \(t)")
            #expect(abs((drawn(m)?.opacity ?? .nan) - referenceEase(x)) < 1e-9, "drawn at \(t)")
        }
        m.advance(to: 10.3)
        #expect(opacity(m) == 1)
        #expect(!m.isAnimating)
    }

    @Test func easeAgreesWithTheReferenceCurveEverywhere() {
        for i in 0...100 {
            let x = Double(i) / 100
            #expect(abs(Easing.ease.value(x) - referenceEase(x)) < 1e-7, "x = \(x)")
        }
    }

    @Test func retargetMidWayStartsFromTheShownValue() throws {
        var m = try model()
        try m.setPaintProperty(layer: "l", "line-opacity", json: .number(1), at: 0)
        m.advance(to: 0.15)
        let shown = opacity(m)
        #expect(abs(shown - referenceEase(0.5)) < 1e-9)
        try m.setPaintProperty(layer: "l", "line-opacity", json: .number(0.2), at: 0.15)
        #expect(abs(opacity(m) - shown) < 1e-12, "no jump at the retarget")
        // The prior keeps moving toward 1 while the new transition pulls to 0.2 (MapLibre).
        m.advance(to: 0.225)
        let prior = referenceEase(0.75)
        #expect(abs(opacity(m) - (prior + (0.2 - prior) * referenceEase(0.25))) < 1e-9)
        m.advance(to: 0.45)
        #expect(abs(opacity(m) - 0.2) < 1e-12)
    }

    @Test func delayHoldsThePriorValue() throws {
        var m = try model(layerTransition: #"{ "duration": 500, "delay": 200 }"#)
        try m.setPaintProperty(layer: "l", "line-opacity", json: .number(0.8), at: 1)
        m.advance(to: 1.1)
        #expect(opacity(m) == 0)
        // Fully transparent, yet still animating: the loop must keep drawing.
        #expect(m.isAnimating)
        m.advance(to: 1.2)
        #expect(opacity(m) == 0)
        m.advance(to: 1.45)
        #expect(abs(opacity(m) - 0.8 * referenceEase(0.5)) < 1e-9)
        m.advance(to: 1.7)
        #expect(opacity(m) == 0.8 && !m.isAnimating)
    }

    @Test func theTransitionPropertyCanBeSetThroughTheAPI() throws {
        var m = try model()
        try m.setPaintProperty(layer: "l", "line-opacity-transition", json: try JSON.parse(Data(#"{ "duration": 1000 }"#.utf8), name: "t"))
        try m.setPaintProperty(layer: "l", "line-opacity", json: .number(1), at: 0)
        m.advance(to: 0.5)
        #expect(abs(opacity(m) - referenceEase(0.5)) < 1e-9)
        #expect(throws: (any Error).self) { try m.setPaintProperty(layer: "l", "line-opacity-transition", json: .number(3)) }
    }

    @Test func zeroDurationIsImmediate() throws {
        var m = try model(transition: #"{ "duration": 0, "delay": 0 }"#)
        try m.setPaintProperty(layer: "l", "line-opacity", json: .number(0.6), at: 3)
        #expect(opacity(m) == 0.6)
        #expect(!m.isAnimating)
    }

    @Test func coloursInterpolateInStraightRGBA() throws {
        var m = try model()
        try m.setPaintProperty(layer: "l", "line-color", json: .string("rgba(255, 0, 0, 0)"), at: 0)
        m.advance(to: 0.15)
        guard case let .color(c)? = m.paintValue(layer: "l", "line-color") else { Issue.record("no colour"); return }
        let k = referenceEase(0.5)
        // From opaque white to transparent red, channel by channel, alpha alongside (MapLibre 5).
        #expect(abs(c.a - (1 - k)) < 1e-9)
        #expect(abs(c.r - 1) < 1e-9 && abs(c.g - (1 - k)) < 1e-9 && abs(c.b - (1 - k)) < 1e-9)
    }

    @Test func aZoomFunctionKeepsFollowingTheZoomWhileItTransitions() throws {
        var m = try model()
        let json = try JSON.parse(Data(#"["interpolate", ["linear"], ["zoom"], 0, 0, 10, 1]"#.utf8), name: "t")
        try m.setPaintProperty(layer: "l", "line-opacity", json: json, at: 0)
        m.jump(to: CameraState(center: LngLat(lng: 0, lat: 0), zoom: 4))
        m.advance(to: 0.15)
        #expect(abs(opacity(m) - 0.4 * referenceEase(0.5)) < 1e-9)
        m.jump(to: CameraState(center: LngLat(lng: 0, lat: 0), zoom: 5.5))     // (the scene's bounds: zoom 4...5.99)
        #expect(abs(opacity(m) - 0.55 * referenceEase(0.5)) < 1e-9)
        m.advance(to: 1)
        #expect(abs(opacity(m) - 0.55) < 1e-12)
    }

    @Test func aDataDrivenValueShowsAtOnce() throws {
        var m = try model()
        let json = try JSON.parse(Data(#"["get", "w"]"#.utf8), name: "t")
        try m.setPaintProperty(layer: "l", "line-width", json: json, at: 0)
        m.advance(to: 0.1)
        #expect(drawn(m)?.width == 3)
        #expect(!m.isAnimating)
    }

    @Test func otherChangesKeepARunningTransition() throws {
        var m = try model()
        try m.setPaintProperty(layer: "l", "line-opacity", json: .number(1), at: 0)
        try m.setLayoutProperty(layer: "l", "line-cap", json: .string("round"))
        try m.setFilter(layer: "l", json: .array([.string("has"), .string("w")]))
        m.advance(to: 0.15)
        #expect(abs(opacity(m) - referenceEase(0.5)) < 1e-9)
        #expect(drawn(m)?.cap == .round)
    }

    @Test func propertiesTheSpecificationDoesNotTransitionChangeAtOnce() throws {
        var m = try model()
        try m.setPaintProperty(layer: "l", "line-translate-anchor", json: .string("viewport"), at: 0)
        #expect(!m.isAnimating)
    }

    @Test func arraysInterpolateElementwise() throws {
        var m = try model(extraPaint: #", "line-dasharray": [2, 4]"#)
        try m.setPaintProperty(layer: "l", "line-dasharray", json: .array([.number(4), .number(0)]), at: 0)
        m.advance(to: 0.075)
        let e = referenceEase(0.25)
        let shown = m.paintValue(layer: "l", "line-dasharray")?.asNumbers ?? []
        #expect(shown.count == 2)
        #expect(zip(shown, [2 + 2 * e, 4 - 4 * e]).allSatisfy { abs($0 - $1) < 1e-9 }, "\(shown)")
        // An array of another length cannot be interpolated: it shows at once.
        try m.setPaintProperty(layer: "l", "line-dasharray", json: .array([.number(1), .number(2), .number(3)]), at: 1)
        m.advance(to: 1.075)
        #expect(m.paintValue(layer: "l", "line-dasharray") == .array([.number(1), .number(2), .number(3)]))
    }

    @Test func badChangesAreRefusedWithTheirPath() throws {
        var m = try model()
        #expect(throws: StyleError("layers.nope: no such layer")) { try m.setPaintProperty(layer: "nope", "line-opacity", json: .number(1), at: 0) }
        #expect(throws: StyleError("layers.l.paint.fill-color: unknown property for a line layer")) {
            try m.setPaintProperty(layer: "l", "fill-color", json: .string("white"), at: 0)
        }
        for (name, value) in [("line-width", JSON.string("white")), ("line-opacity", .number(1.5)), ("line-blur", .bool(true))] {
            do {
                try m.setPaintProperty(layer: "l", name, json: value, at: 0)
                Issue.record("\(name) = \(value) was accepted")
            } catch {
                let text = "\(error)"
                #expect(text.hasPrefix("layers.l.paint.\(name): ") && !text.contains("\n"), "\(text)")
            }
        }
        // Nothing changed.
        #expect(opacity(m) == 0)
        #expect(!m.isAnimating)
    }
}
