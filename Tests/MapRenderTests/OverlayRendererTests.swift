import Foundation
import MapCore
import MapData
import MapRender
import Raster
import Testing

/// The engine's overlay, with no app: items drawn in order where they say, and the boxes it
/// names kept clear of symbols.
@Suite struct OverlayRendererTests {
    static let red = RGBA8(255, 0, 0), blue = RGBA8(0, 0, 255), white = RGBA8(255, 255, 255)

    /// A black map of `size` x `size` pixels with one white 16 px square icon at (0, 0), the view's centre.
    static func model(size: Int = 100) throws -> MapModel {
        let text = """
        { "version": 8, "sources": { "p": { "type": "geojson", "data": { "type": "Point", "coordinates": [0, 0] } } },
          "layers": [ { "id": "bg", "type": "background", "paint": { "background-color": "black" } },
                      { "id": "s", "type": "symbol", "source": "p", "layout": { "icon-image": "square" } } ] }
        """
        let document = try StyleDocument(data: Data(text.utf8), name: "overlay.json")
        var features: [String: GeoJSONData] = [:]
        for (id, s) in document.sources { if case let .geojson(.inline(d)) = s { features[id] = d } }
        var style = Style(document: document, features: features, images: [:])
        style.icons["square"] = VectorIcon(name: "square", width: 16, height: 16,
                                           shapes: [.init(color: .white, commands: [.move(0, 0), .line(16, 0), .line(16, 16), .line(0, 16), .close])])
        var m = MapModel(style: style, size: ViewportSize(width: size, height: size), camera: CameraState(center: LngLat(lng: 0, lat: 0), zoom: 2))
        m.lighting = false
        m.advance(to: 0)
        return m
    }

    static func render(_ frame: FrameDescription, size: Int = 100) -> Pixmap {
        let pm = Pixmap(width: size, height: size)
        FrameRenderer().render(frame, into: pm)
        return pm
    }

    @Test func itemsAreDrawnInOrderWhereTheySay() throws {
        let box = FrameDescription.ScreenBox(minX: 10, minY: 10, maxX: 30, maxY: 30)
        // A red box; a blue ring over part of it (even-odd: its hole shows the red); a white
        // stroke along row 80.
        let ring: [[Point]] = [[Point(20, 20), Point(40, 20), Point(40, 40), Point(20, 40)],
                               [Point(24, 24), Point(36, 24), Point(36, 36), Point(24, 36)]]
        let overlay = Overlay(items: [.box(box, Self.red.premultiplied), .shape(ring, Self.blue.premultiplied, .evenOdd),
                                      .stroke([Point(10, 80.5), Point(90, 80.5)], StrokeStyle(width: 1, cap: .butt, join: .miter),
                                              Self.white.premultiplied)])
        let pm = Self.render(try Self.model().frame(overlay: overlay))
        #expect(pm.color(atX: 12, y: 12) == Self.red)
        #expect(pm.color(atX: 21, y: 21) == Self.blue && pm.color(atX: 38, y: 38) == Self.blue)
        #expect(pm.color(atX: 25, y: 25) == Self.red, "the ring's hole shows what is under it")
        #expect(pm.color(atX: 50, y: 80) == Self.white && pm.color(atX: 50, y: 79) == RGBA8(0, 0, 0))
        #expect(pm.color(atX: 5, y: 5) == RGBA8(0, 0, 0), "nothing drawn outside the items")
    }

    @Test func symbolsKeepClearOfTheOverlaysBoxes() throws {
        let m = try Self.model()
        #expect(Self.render(m.frame()).color(atX: 50, y: 50) == Self.white, "the icon is placed")
        let clear = Overlay(keepClear: [FrameDescription.ScreenBox(minX: 40, minY: 40, maxX: 60, maxY: 60)])
        #expect(Self.render(m.frame(overlay: clear)).color(atX: 50, y: 50) == RGBA8(0, 0, 0), "the icon keeps clear of the box")
        let elsewhere = Overlay(keepClear: [FrameDescription.ScreenBox(minX: 0, minY: 0, maxX: 20, maxY: 20)])
        #expect(Self.render(m.frame(overlay: elsewhere)).color(atX: 50, y: 50) == Self.white)
    }
}
