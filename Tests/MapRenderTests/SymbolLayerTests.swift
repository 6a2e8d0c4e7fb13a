import Foundation
import MapCore
import MapData
import MapRender
import Raster
import Testing

/// The symbol layer: the rocket icon at its point, turned to its bearing, sized and anchored;
/// the edge marker when it is out of sight.
@Suite struct SymbolLayerTests {
    static let icon: VectorIcon = {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Resources/icons/rocket.svg").path
        do { return try SVGIcon.read(path: path, name: "rocket") } catch { fatalError("\(error)") }
    }()

    func render(_ feature: PointFeature, _ paint: SymbolPaint, camera: CameraState = CameraState(center: LngLat(lng: 0, lat: 0), zoom: 3))
        -> (Pixmap, ViewTransform) {
        var style = Style(layers: [Layer(id: "bg", paint: .background(color: .black, opacity: 1)),
                                   Layer(id: "iss", source: "iss", paint: .symbol(paint))])
        style.icons["rocket"] = Self.icon
        style.points["iss"] = [feature]
        let world = Scene(name: "w", camera: camera, bounds: CameraBounds(), timerStartsPlaying: false)
        var m = MapModel(scene: world, style: style, size: ViewportSize(width: 200, height: 200))
        m.jump(to: camera)
        let pm = Pixmap(width: 200, height: 200)
        FrameRenderer().render(m.frame(), into: pm)
        return (pm, m.camera.view)
    }

    func lit(_ c: RGBA8) -> Bool { Int(c.r) + Int(c.g) + Int(c.b) > 150 }

    @Test func theRocketPointsAlongItsBearing() {
        let paint = SymbolPaint(iconImage: "rocket", iconSize: 3, emissiveStrength: 1, rotateWithBearing: true)
        // 24-px icon at size 3: 72 px; nose 10.5 * 3 = 31.5 px from the centre.
        let (north, _) = render(PointFeature(position: LngLat(lng: 0, lat: 0), bearing: 0), paint)
        #expect(lit(north.color(atX: 100, y: 100 - 25)) && !lit(north.color(atX: 100 + 25, y: 100)))
        let (east, _) = render(PointFeature(position: LngLat(lng: 0, lat: 0), bearing: 90), paint)
        #expect(lit(east.color(atX: 100 + 25, y: 100)) && !lit(east.color(atX: 100, y: 100 - 25)))
    }

    @Test func sizeAndAnchorMoveTheIcon() {
        var paint = SymbolPaint(iconImage: "rocket", iconSize: 2, iconAnchor: .bottom, emissiveStrength: 1)
        let (pm, _) = render(PointFeature(position: LngLat(lng: 0, lat: 0)), paint)
        // Anchored at its bottom: all of the icon is above the point.
        #expect(lit(pm.color(atX: 100, y: 100 - 20)))
        #expect(!lit(pm.color(atX: 100, y: 100 + 6)))
        paint.iconOpacity = 0
        let (none, _) = render(PointFeature(position: LngLat(lng: 0, lat: 0)), paint)
        #expect((0..<none.count).allSatisfy { none.pixels[$0] == 0xFF00_0000 })
    }

    @Test func anEdgeMarkerPointsToAnIconOutOfSight() {
        let paint = SymbolPaint(iconImage: "rocket", iconSize: 1, emissiveStrength: 1, edgeMarker: true)
        let (pm, _) = render(PointFeature(position: LngLat(lng: 60, lat: 0)), paint)   // far east at zoom 3
        // Something drawn near the right edge, at mid height; nothing at the left edge.
        let right = (180..<200).contains { x in (90..<110).contains { y in pm[x, y] != 0xFF00_0000 } }
        let left = (0..<20).contains { x in (0..<200).contains { y in pm[x, y] != 0xFF00_0000 } }
        #expect(right && !left)
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
