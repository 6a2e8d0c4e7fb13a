import Foundation
import MapCore
import NightmapApp
import Testing
@testable import nightmap

/// The status line says where the ISS position comes from and, while the live feed fails, what
/// is wrong with it (without the URL, which the log line has).
@Suite struct StatusLineTests {
    func model(_ mode: IssMode) -> MapApp {
        MapApp(style: Style(), size: ViewportSize(width: 640, height: 400), scene: .iss, clockOrigin: 1_796_040_000, iss: IssTracker(mode: mode, orbit: nil))
    }

    @Test func aFailingFeedIsNamedUntilItAnswersAgain() {
        var m = model(.live)
        m.receiveIss(IssFix(time: 1_796_040_000, position: LngLat(lng: 10, lat: 20), altitudeKm: 420, source: .live))
        m.advance(to: 5)
        #expect(StatusLine.iss(m) == "ISS live, 5 s old")
        m.issFeedFailed(at: 1_796_040_005, reason: "http://127.0.0.1:8080/v1/satellites/25544: no answer within 1 s")
        #expect(StatusLine.iss(m) == "ISS live, 5 s old (feed: no answer within 1 s)")
        m.receiveIss(IssFix(time: 1_796_040_006, position: LngLat(lng: 11, lat: 20), altitudeKm: 420, source: .live))
        m.advance(to: 6)
        #expect(StatusLine.iss(m) == "ISS live")
    }

    @Test func withoutAnyPositionTheProblemStillShows() {
        var m = model(.live)
        m.issFeedFailed(at: 1_796_040_000, reason: "https://api.wheretheiss.at/v1/satellites/25544: HTTP 503 (Service Unavailable)")
        #expect(StatusLine.iss(m) == "ISS: no position (feed: HTTP 503 (Service Unavailable))")
    }
}

/// The place under the pointer, as the status line writes it.
@Suite struct PointerCoordinatesTests {
    @Test func hemispheresAndWrappedLongitudes() {
        #expect(StatusLine.coordinates(LngLat(lng: -75.789, lat: 41.874)) == "41.8740° N, 75.7890° W")
        #expect(StatusLine.coordinates(LngLat(lng: 151.2093, lat: -33.8688)) == "33.8688° S, 151.2093° E")
        // A copy of the world east of the antimeridian.
        #expect(StatusLine.coordinates(LngLat(lng: 284.211, lat: 41.874)) == "41.8740° N, 75.7890° W")
    }

    @Test func theCoordinatesComeAfterTheDataSourcesAndBeforeTheFrameRate() {
        let m = MapApp(style: Style(), size: ViewportSize(width: 640, height: 400), scene: .iss, clockOrigin: 1_796_040_000, iss: IssTracker(mode: .tle, orbit: nil))
        let parts = StatusLine.compose(m, framesPerSecond: 60, pointer: LngLat(lng: 10, lat: 20), notice: StatusPart("saved /tmp/x.png", short: "saved x.png", essential: true))
        #expect(StatusLine.text(parts) == "saved /tmp/x.png  ·  ISS: no position  ·  20.0000° N, 10.0000° E  ·  60 fps  ·  h: help")
        // What the map shows and where its data comes from stay; the rest may go.
        #expect(parts.map(\.essential) == [true, true, false, false, false])
        #expect(parts[0].short == "saved x.png")
    }

    @Test func shortFormsKeepWhatTheDataIs() {
        var m = MapApp(style: Style(), size: ViewportSize(width: 640, height: 400), scene: .iss, clockOrigin: 1_796_040_000, iss: IssTracker(mode: .tle, orbit: nil))
        m.receiveIss(IssFix(time: 1_796_040_000, position: LngLat(lng: 10, lat: 20), altitudeKm: 420, source: .live))
        m.advance(to: 5)
        #expect(StatusLine.iss(m, short: true) == "ISS live, 5 s old")
    }
}
