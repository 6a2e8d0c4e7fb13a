import Foundation
import MapCore
import Raster
import Testing
@testable import MapRender

/// Labels pitched with the map lie on the globe (`SymbolPerspective` over the sphere): at the
/// view's centre the label plane is the flat screen's, towards the edge it is foreshortened
/// across the limb and not along it, and a label is as large on the sphere at any latitude
/// (MapLibre's pitched-text correction).
@Suite struct GlobeSymbolPlaneTests {
    static func perspective(_ centre: LngLat, zoom: Double = 2) throws -> (SymbolPerspective, ViewTransform) {
        let view = ViewTransform(camera: CameraState(center: centre, zoom: zoom), size: ViewportSize(width: 600, height: 600), globeness: 1)
        return (try #require(SymbolPerspective(view)), view)
    }

    static func length(_ x: Double, _ y: Double) -> Double { (x * x + y * y).squareRoot() }

    @Test func atTheCentreThePlaneIsTheFlatScreens() throws {
        let (p, view) = try Self.perspective(LngLat(lng: 30, lat: 20))
        let a = p.pitch(WebMercator.project(LngLat(lng: 30, lat: 20)), copy: 0, translate: (0, 0), bearing: 0)
        #expect(abs(a.point.x - 300) < 1e-6 && abs(a.point.y - 300) < 1e-6 && abs(a.depth - 1) < 1e-9)
        let m = p.plane(at: a.flat)
        #expect(abs(m.x - 1) < 1e-3 && abs(m.y) < 1e-3 && abs(m.z) < 1e-3 && abs(m.w - 1) < 1e-3, "\(m)")
        // A point 10 label pixels east lands 10 pixels right (a tenth of a pixel north: the
        // parallel curves towards the pole).
        let q = p.place((10, 0), from: a.flat)
        #expect(abs(q.x - 310) < 0.01 && abs(q.y - 300) < 0.2, "\(q)")
        _ = view
    }

    @Test func towardsTheLimbALabelIsForeshortenedAcrossIt() throws {
        // 70 degrees east of the centre on the equator: the sphere is seen at a slant there.
        let (p, view) = try Self.perspective(LngLat(lng: 0, lat: 0))
        let a = p.pitch(WebMercator.project(LngLat(lng: 70, lat: 0)), copy: 0, translate: (0, 0), bearing: 0)
        let m = p.plane(at: a.flat)
        let east = Self.length(m.x, m.z), north = Self.length(m.y, m.w)
        // Across the limb (east) shortened by the cosine of the slant at which the camera sees
        // the sphere there (the angle between the surface's normal and the line to the camera).
        let globe = try #require(view.globe)
        let point = GlobeTransform.surface(LngLat(lng: 70, lat: 0)), toCamera = globe.camera - point
        let slant = (point * toCamera).sum() / (toCamera * toCamera).sum().squareRoot()
        #expect(north > 0.5 && north < 1.0, "\(m)")
        #expect(abs(east / north - slant) < 0.02, "\(m) slant \(slant)")
        // The label's far end is carried onto the sphere: a point 20 px east lies nearer the
        // anchor on screen than 20 px.
        let q = p.place((20, 0), from: a.flat)
        #expect(q.x - a.point.x > 0 && q.x - a.point.x < 20 * 0.5)
    }

    @Test func aLabelIsAsLargeOnTheSphereAtAnyLatitude() throws {
        // Seen from over 60 degrees north, a label there and one at the equator's latitude
        // equally far from the centre on screen span the same screen length along their
        // parallels: their Mercator pixels differ by 2, their label pixels do not.
        let (p, _) = try Self.perspective(LngLat(lng: 0, lat: 60), zoom: 3)
        let a = p.pitch(WebMercator.project(LngLat(lng: 0, lat: 60)), copy: 0, translate: (0, 0), bearing: 0)
        let here = p.plane(at: a.flat)
        let (q, _) = try Self.perspective(LngLat(lng: 0, lat: 0), zoom: 3)
        let b = q.pitch(WebMercator.project(LngLat(lng: 0, lat: 0)), copy: 0, translate: (0, 0), bearing: 0)
        let there = q.plane(at: b.flat)
        #expect(abs(here.x - 1) < 1e-3 && abs(there.x - 1) < 1e-3)
        // Off the centre, at 66 degrees north seen from 60: the correction holds the size at
        // the centre's scale, cos 60 / cos 66 of the flat screen's pixels there.
        let c = p.pitch(WebMercator.project(LngLat(lng: 0, lat: 66)), copy: 0, translate: (0, 0), bearing: 0)
        let m = p.plane(at: c.flat)
        // (The flat screen shrinks by cos 66 / cos 60 there; the sphere's slant shortens north.)
        #expect(abs(Self.length(m.x, m.z) - 1) < 0.03, "\(m)")
    }
}
