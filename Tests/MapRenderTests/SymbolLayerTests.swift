import Foundation
import MapCore
import MapData
import MapRender
import Raster
import Testing

/// A document symbol layer with a vector image: the rocket at its point, turned by
/// `icon-rotate: ["get", "bearing"]`, sized and anchored; the arrow pointing to a place out of sight.
@Suite struct SymbolLayerTests {
    static let icon: VectorIcon = {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Resources/icons/rocket.svg").path
        do { return try SVGIcon.read(path: path, name: "rocket") } catch { fatalError("\(error)") }
    }()

    /// A document symbol layer `iss` on a GeoJSON source holding one point with a `bearing`, its
    /// icon the vector rocket; `layout` and `paint` are the layer's JSON members.
    func render(at position: LngLat = LngLat(lng: 0, lat: 0), bearing: Double = 0, layout: String,
                paint: String = #"{ "icon-emissive-strength": 1 }"#,
                camera: CameraState = CameraState(center: LngLat(lng: 0, lat: 0), zoom: 3)) throws -> (Pixmap, ViewTransform) {
        let text = """
        { "version": 8, "sources": { "iss": { "type": "geojson", "data": { "type": "FeatureCollection", "features": [] } } },
          "layers": [ { "id": "bg", "type": "background", "paint": { "background-color": "black" } },
                      { "id": "iss", "type": "symbol", "source": "iss", "layout": \(layout), "paint": \(paint) } ] }
        """
        let document = try StyleDocument(data: Data(text.utf8), name: "symbols.json")
        var style = Style(document: document, features: ["iss": GeoJSONData(features: [])], images: [:])
        style.icons["rocket"] = Self.icon
        var m = MapModel(style: style, size: ViewportSize(width: 200, height: 200), camera: camera, bounds: CameraBounds())
        try m.updateGeoJSONSource("iss", GeoJSONData.point(position, properties: ["bearing": .number(bearing)]))
        m.jump(to: camera)
        let pm = Pixmap(width: 200, height: 200)
        FrameRenderer().render(m.frame(), into: pm)
        return (pm, m.camera.view)
    }

    func lit(_ c: RGBA8) -> Bool { Int(c.r) + Int(c.g) + Int(c.b) > 150 }

    @Test func theRocketPointsAlongItsBearing() throws {
        let layout = #"{ "icon-image": "rocket", "icon-size": 3, "icon-rotate": ["get", "bearing"] }"#
        // 24-px icon at size 3: 72 px; nose 10.5 * 3 = 31.5 px from the centre.
        let (north, _) = try render(bearing: 0, layout: layout)
        #expect(lit(north.color(atX: 100, y: 100 - 25)) && !lit(north.color(atX: 100 + 25, y: 100)))
        let (east, _) = try render(bearing: 90, layout: layout)
        #expect(lit(east.color(atX: 100 + 25, y: 100)) && !lit(east.color(atX: 100, y: 100 - 25)))
    }

    @Test func sizeAndAnchorMoveTheIcon() throws {
        let layout = #"{ "icon-image": "rocket", "icon-size": 2, "icon-anchor": "bottom" }"#
        let (pm, _) = try render(layout: layout)
        // Anchored at its bottom: all of the icon is above the point.
        #expect(lit(pm.color(atX: 100, y: 100 - 20)))
        #expect(!lit(pm.color(atX: 100, y: 100 + 6)))
        let (none, _) = try render(layout: layout, paint: #"{ "icon-opacity": 0, "icon-emissive-strength": 1 }"#)
        #expect((0..<none.count).allSatisfy { none.pixels[$0] == 0xFF00_0000 })
    }

    @Test func anOffscreenMarkerPointsToAPlaceOutOfSight() {
        let view = ViewTransform(camera: CameraState(center: LngLat(lng: 0, lat: 0), zoom: 3), size: ViewportSize(width: 200, height: 200))
        let bg = FrameDescription.DrawLayer(id: "bg", .background(color: .black, opacity: 1))
        func render(_ target: LngLat) -> Pixmap {
            let pm = Pixmap(width: 200, height: 200)
            FrameRenderer().render(FrameDescription(view: view, layers: [bg], markers: [.init(target: target, color: .white)]), into: pm)
            return pm
        }
        let pm = render(LngLat(lng: 60, lat: 0))    // far east at zoom 3
        // Something drawn near the right edge, at mid height; nothing at the left edge.
        let right = (180..<200).contains { x in (90..<110).contains { y in pm[x, y] != 0xFF00_0000 } }
        let left = (0..<20).contains { x in (0..<200).contains { y in pm[x, y] != 0xFF00_0000 } }
        #expect(right && !left)
        // In sight: no arrow.
        let shown = render(LngLat(lng: 1, lat: 0))
        #expect((0..<shown.count).allSatisfy { shown.pixels[$0] == 0xFF00_0000 })
    }

    @Test func theSVGSubsetParser() throws {
        #expect(Self.icon.width == 24 && Self.icon.height == 24 && Self.icon.shapes.count == 5)
        let relative = try SVGIcon.parse(##"<svg viewBox="0 0 10 10"><path fill="#ff0000" d="m1 1 l2 0 v2 h-2 z"/></svg>"##,
                                         name: "x", origin: "x.svg")
        #expect(relative.shapes[0].commands == [.move(1, 1), .line(3, 1), .line(3, 3), .line(1, 3), .close])
        let arc = #"<svg viewBox="0 0 10 10"><path d="M1 1 A 2 2 0 0 1 3 3"/></svg>"#
        #expect(throws: SVGIcon.Failure.self) { try SVGIcon.parse(arc, name: "x", origin: "x.svg") }
        #expect(throws: SVGIcon.Failure.self) { try SVGIcon.parse("<svg></svg>", name: "x", origin: "x.svg") }
    }
}
