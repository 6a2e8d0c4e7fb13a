import Foundation
import MapCore
import Testing
@testable import nightmap

/// The status line says where the ISS position comes from and, while the live feed fails, what
/// is wrong with it (without the URL, which the log line has).
@Suite struct StatusLineTests {
    func model(_ mode: IssMode) -> MapModel {
        MapModel(scene: .iss, style: Style(), size: ViewportSize(width: 640, height: 400), clockOrigin: 1_796_040_000,
                 iss: IssTracker(mode: mode, orbit: nil))
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
