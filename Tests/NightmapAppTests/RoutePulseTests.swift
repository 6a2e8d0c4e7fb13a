import Foundation
import MapCore
import NightmapApp
import Testing
import TestSupport

@Suite struct RoutePulseTests {
    /// The snippet's schedule, written out independently: 0.95 * ease over [i*0.075, +0.3], then
    /// back down over the next 0.3 s.
    static func expected(step i: Int, at t: Double, period: Double) -> Double {
        let local = t.truncatingRemainder(dividingBy: period) - Double(i) * 0.075
        if local < 0 { return 0 }
        if local < 0.3 { return 0.95 * referenceEase(local / 0.3) }
        if local < 0.6 { return 0.95 + (0 - 0.95) * referenceEase((local - 0.3) / 0.3) }
        return 0
    }

    /// `steps` document line layers s0, s1, ... (white, 8 px, round caps, transparent, 0.3 s
    /// opacity transition) pulsed from instant 0.
    static func model(steps: Int = 10) -> MapApp {
        var layers = [#"{ "id": "bg", "type": "background", "paint": { "background-color": "black" } }"#]
        for i in 0..<steps {
            layers.append(#"{ "id": "s\#(i)", "type": "line", "source": "s", "layout": { "line-cap": "round" }, "#
                          + #""paint": { "line-color": "white", "line-width": 8, "line-opacity": 0, "line-opacity-transition": { "duration": 300 } } }"#)
        }
        let text = #"{ "version": 8, "sources": { "s": { "type": "geojson", "data": { "type": "LineString", "coordinates": [[0, 0], [1, 1]] } } }, "layers": ["#
            + layers.joined(separator: ", ") + "] }"
        let document = try! StyleDocument(data: Data(text.utf8), name: "pulse.json")
        var features: [String: GeoJSONData] = [:]
        if case let .geojson(.inline(d))? = document.sources["s"] { features["s"] = d }
        var m = MapApp(style: Style(document: document, features: features, images: [:]), size: ViewportSize(width: 64, height: 64), scene: .radar)
        m.pulse(layers: (0..<steps).map { "s\($0)" }, start: 0)
        return m
    }

    static func opacity(_ m: MapApp, _ i: Int) -> Double {
        guard case let .number(v)? = m.model.paintValue(layer: "s\(i)", "line-opacity") else { return .nan }
        return v
    }

    @Test func periodIsCountTimesStepPlusTwoFades() {
        #expect(abs(RoutePulse(stepCount: 10, start: 0).period - 1.35) < 1e-12)
    }

    @Test(arguments: [0.0, 0.075, 0.2, 0.375, 0.6, 1.35, 1.35 + 0.2, 100 * 1.35 + 0.375])
    func opacityOfEveryStep(at t: Double) {
        var m = Self.model()
        // Advance in uneven frame steps, as a window would.
        var now = 0.0
        while now < t - 1e-9 { now = min(t, now + 0.0137); m.advance(to: now) }
        m.advance(to: t)
        for i in 0..<10 {
            #expect(abs(Self.opacity(m, i) - Self.expected(step: i, at: t, period: 1.35)) < 1e-6,
                    "step \(i) at \(t): \(Self.opacity(m, i))")
        }
    }

    @Test func oneJumpGivesTheSameFrameAsManySmallSteps() {
        var a = Self.model(), b = Self.model()
        a.advance(to: 7.777)
        var t = 0.0
        while t < 7.777 { t = min(7.777, t + 0.016); b.advance(to: t) }
        for i in 0..<10 { #expect(abs(Self.opacity(a, i) - Self.opacity(b, i)) < 1e-9) }
    }

    @Test func pStopsAndRestartsThePulse() {
        var m = Self.model()
        m.advance(to: 0.2)
        m.apply(.togglePulse, now: 0.2)
        #expect(m.pulse?.isRunning == false)
        m.advance(to: 0.6)
        for i in 0..<10 { #expect(Self.opacity(m, i) == 0) }
        #expect(!m.isAnimating)
        m.apply(.togglePulse, now: 5)
        m.advance(to: 5.15)
        #expect(abs(Self.opacity(m, 0) - 0.95 * referenceEase(0.5)) < 1e-9)
    }
}
