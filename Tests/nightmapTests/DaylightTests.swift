import Foundation
import MapCore
import MapRender
import NightmapApp
import Raster
import Testing
import TestSupport
@testable import nightmap

/// Day and night on the map at a known instant, the subsolar point `state` reports, the ISS's
/// footprint, and the keys that show and hide them.
@Suite struct DaylightTests {
    /// The ISS scene (the whole world at zoom 1) at 2026-12-01 12:00 UTC.
    /// The ISS scene on the flat world (`--projection mercator`: the whole world in view).
    static func model(_ extra: [String] = ["--projection", "mercator"]) throws -> (MapApp, Options) {
        let o = try Options.parse(["state", "--radar", "demo", "--iss", "tle", "--scene", "iss", "--size", "1024x768",
                                   "--time", "2026-12-01T12:00:00Z", "--zoom", "1"] + extra)
        return (try MapSetup.model(o), o)
    }

    static func render(_ m: MapApp) -> Pixmap {
        let p = Pixmap(width: m.camera.size.width, height: m.camera.size.height)
        FrameRenderer().render(m.frame(), into: p)
        return p
    }

    static func brightness(_ p: Pixmap, _ at: (x: Double, y: Double)) -> Int {
        let c = p.color(atX: Int(at.x), y: Int(at.y))
        return Int(c.r) + Int(c.g) + Int(c.b)
    }

    @Test func stateReportsTheSubsolarPointAndTheFootprint() throws {
        let (m, o) = try Self.model()
        let json = try JSON.parse(Headless.stateJSON(m, options: o), name: "state")
        let sun = try #require(json["sun"])
        // PyEphem: -21.84344, -2.74799 (Tests/Fixtures/sun/subsolar.json).
        #expect(abs((sun["lat"]?.numberValue ?? 0) + 21.84344) < 0.05 && abs((sun["lon"]?.numberValue ?? 0) + 2.74799) < 0.05, "\(sun)")
        #expect(sun["shown"] == .bool(true))
        let iss = try #require(json["iss"])
        let altitude = try #require(iss["altitudeKm"]?.numberValue), radius = try #require(iss["footprintRadiusKm"]?.numberValue)
        let expected = acos(6378.137 / (6378.137 + altitude)) * 6378.137
        #expect(abs(radius - expected) / expected < 0.005 && radius > 2000 && radius < 2400, "\(radius) km at \(altitude) km")
    }

    @Test func theNightSideIsShadedAndTheDaySideIsNot() throws {
        var (m, _) = try Self.model()
        let shaded = Self.render(m)
        m.apply(.toggleDaylight, now: 0)
        #expect(!m.showsDaylight)
        let plain = Self.render(m)
        let view = m.camera.view
        // Night (the Sun 2 degrees down, in the Indian Ocean), deep night (the Pacific, past
        // astronomical twilight), and day (the South Atlantic, the Sun 60 degrees up).
        let night = view.screen(LngLat(lng: 90, lat: -5)), deep = view.screen(LngLat(lng: -170, lat: 10))
        let day = view.screen(LngLat(lng: -30, lat: -20))
        #expect(m.sun.elevation(latitude: -5, longitude: 90) < 0 && m.sun.elevation(latitude: -5, longitude: 90) > -6)
        #expect(m.sun.elevation(latitude: 10, longitude: -170) < -18 && m.sun.elevation(latitude: -20, longitude: -30) > 50)
        #expect(Self.brightness(shaded, night) < Self.brightness(plain, night), "the night side is not darker")
        #expect(Self.brightness(shaded, deep) < Self.brightness(shaded, night) || Self.brightness(plain, deep) != Self.brightness(plain, night),
                "deep night is not darker than the first band")
        #expect(shaded.color(atX: Int(day.x), y: Int(day.y)) == plain.color(atX: Int(day.x), y: Int(day.y)), "the day side changed")
        // The subsolar point is marked.
        let sub = view.screen(m.subsolarPoint)
        let marked = shaded.color(atX: Int(sub.x), y: Int(sub.y))
        #expect(marked.r > 200 && marked.g > 150, "no mark at the subsolar point: \(marked)")
    }

    @Test func theNightSideIsShadedOnTheGlobe() throws {
        // The globe turned to the Indian Ocean (the Sun 2 degrees down there) and to the South
        // Atlantic (60 degrees up): the middle darker with the shading there, not here.
        for (center, night) in [("-5,90", true), ("-20,-30", false)] {
            var (m, _) = try Self.model(["--projection", "globe", "--center", center, "--zoom", "2"])
            #expect(m.camera.view.globe != nil)
            let shaded = Self.render(m)
            m.apply(.toggleDaylight, now: 0)
            let plain = Self.render(m)
            let middle = (x: 512.0, y: 384.0)
            if night {
                #expect(Self.brightness(shaded, middle) < Self.brightness(plain, middle), "the night side is not darker")
            } else {
                #expect(Self.brightness(shaded, middle) == Self.brightness(plain, middle), "the day side changed")
            }
        }
    }

    @Test func keysShowAndHideTheFootprintAndTheShading() throws {
        var (m, _) = try Self.model()
        #expect(m.showsFootprint && m.showsDaylight)
        var input = InputController()
        for c in input.handle(.keyDown(.character("v"), modifiers: [], time: 0)) { m.apply(c, now: 0) }
        #expect(!m.showsFootprint && m.showsDaylight)
        for c in input.handle(.keyDown(.character("t"), modifiers: [], time: 0)) { m.apply(c, now: 0) }
        #expect(!m.showsDaylight)
        for c in input.handle(.keyDown(.character("v"), modifiers: [], time: 0)) { m.apply(c, now: 0) }
        #expect(m.showsFootprint && !m.model.visibleLayerIDs.contains("night") && m.model.visibleLayerIDs.contains("iss-footprint-edge"))
    }
}

extension DaylightTests {
    /// The sky is worked out once a minute: a still camera keeps drawing the same shading.
    @Test func theShadingIsRedrawnOnceAMinute() throws {
        var (m, _) = try Self.model()
        let first = try #require(m.model.style.geojson(MapApp.nightID))
        m.advance(to: 30)
        #expect(m.model.style.geojson(MapApp.nightID) === first, "the shading was made again within the minute")
        #expect(m.nextScheduledChange.map { $0 <= 60 } ?? false, "nothing is scheduled for the next minute's shading")
        m.advance(to: 60)
        let second = try #require(m.model.style.geojson(MapApp.nightID))
        #expect(second !== first)
    }
}
