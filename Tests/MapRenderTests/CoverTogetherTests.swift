import Foundation
import MapCore
import MapRender
import Raster
import Testing

/// Consecutive opaque features of one colour are covered together and composited once: where
/// two of them share an edge no background shows through (painted one after the other, a pixel
/// the edge halves would get half of each: 75 % of the colour). Translucent ones keep one
/// composite each, and their outlines, as the reference engines blend them.
@Suite struct CoverTogetherTests {
    static let size = ViewportSize(width: 64, height: 64)
    static let view = ViewTransform(camera: CameraState(center: LngLat(lng: 0, lat: 0), zoom: 10), size: size)

    /// A rectangle of screen pixels as a polygon feature (its edge at x = 32.5 halves pixel 32).
    static func square(_ x0: Double, _ x1: Double) -> FeatureGeometry {
        func m(_ x: Double, _ y: Double) -> MercatorPoint { WebMercator.project(view.lngLat(x: x, y: y)) }
        return FeatureGeometry(kind: .polygons, parts: [[m(x0, 8), m(x1, 8), m(x1, 56), m(x0, 56)]], polygonStarts: [0])
    }

    func render(opacity: Double) -> Pixmap {
        let paint = FeatureFillPaint(fill: FillPaint(color: .white, opacity: opacity, emissiveStrength: 1))
        typealias Item = FeatureDraw<FeatureFillPaint>.Item
        let items = [Item(paint: paint, geometry: Self.square(8, 32.5)), Item(paint: paint, geometry: Self.square(32.5, 56))]
        let bg = FrameDescription.DrawLayer(id: "bg", .background(color: .black, opacity: 1))
        let layer = FrameDescription.DrawLayer(id: "f", .fill(.features(FeatureDraw(items: items))))
        let pm = Pixmap(width: 64, height: 64)
        FrameRenderer().render(FrameDescription(view: Self.view, layers: [bg, layer]), into: pm)
        return pm
    }

    @Test func opaqueNeighboursLeaveNoSeam() {
        let pm = render(opacity: 1)
        #expect(pm.color(atX: 32, y: 30) == RGBA8(255, 255, 255), "the shared edge: \(pm.color(atX: 32, y: 30))")
        #expect(pm.color(atX: 20, y: 30) == RGBA8(255, 255, 255) && pm.color(atX: 4, y: 30) == RGBA8(0, 0, 0))
    }

    @Test func translucentNeighboursBlendOneByOne() {
        let pm = render(opacity: 0.5)
        // Half the colour inside. On the edge each feature blends its half pixel (a quarter of the
        // colour) and then its outline, a 2-px line centred on the pixel (half of it), over what
        // is there: 1 - (0.75 * 0.5)^2 of the colour, where one composite of both would give half.
        let inside = Int(pm.color(atX: 20, y: 30).r), edge = Int(pm.color(atX: 32, y: 30).r)
        #expect(abs(inside - 128) <= 2, "inside \(inside)")
        #expect(abs(edge - 219) <= 4, "edge \(edge)")
        // The outlines reach no further than the pixel they are centred on.
        #expect(abs(Int(pm.color(atX: 31, y: 30).r) - 128) <= 2 && abs(Int(pm.color(atX: 33, y: 30).r) - 128) <= 2)
    }
}
