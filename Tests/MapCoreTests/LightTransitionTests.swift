import Foundation
import MapCore
import Testing
import TestSupport

/// The ground radiance's ease between light presets, at exact instants: a change eases over
/// 300 ms along the specification's transition curve, and a change mid-way continues from the
/// radiance shown, whose own ease keeps running underneath.
@Suite struct LightTransitionTests {
    let zoom = 3.0

    func model(_ light: LightPreset) -> MapModel {
        var m = MapModel(style: Style(), size: ViewportSize(width: 10, height: 10),
                         camera: CameraState(center: LngLat(lng: 0, lat: 0), zoom: zoom), light: light)
        m.lighting = true
        return m
    }

    func radiance(_ p: LightPreset) -> Color { p.groundRadiance(zoom: zoom) }

    /// The eased progress at `t` of a 300 ms change at `begin`, computed as the engine does (the
    /// end instant is `begin + 0.3`, so the span is that sum less `begin`, not exactly 0.3).
    func eased(_ t: Double, from begin: Double) -> Double {
        Easing.ease.value((t - begin) / ((begin + 0.3) - begin))
    }

    @Test func aChangeEasesOver300ms() {
        var m = model(.night)
        m.setLight(.dawn, at: 10)
        for t in [10.0, 10.05, 10.1, 10.15, 10.2, 10.25, 10.299] {
            m.advance(to: t)
            #expect(m.groundRadiance == radiance(.night).mixed(with: radiance(.dawn), eased(t, from: 10)), "at \(t)")
            #expect(abs(eased(t, from: 10) - referenceEase((t - 10) / 0.3)) < 1e-7)
        }
        #expect(m.isAnimating)
        m.advance(to: 10.3)
        #expect(m.groundRadiance == radiance(.dawn))
        #expect(!m.isAnimating)
    }

    @Test func aChangeMidWayContinuesFromTheShownRadiance() {
        var m = model(.night)
        m.setLight(.dawn, at: 0)
        m.advance(to: 0.15)
        m.setLight(.day, at: 0.15)
        for t in [0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.449] {
            m.advance(to: t)
            let shown = t < 0.3 ? radiance(.night).mixed(with: radiance(.dawn), eased(t, from: 0)) : radiance(.dawn)
            #expect(m.groundRadiance == shown.mixed(with: radiance(.day), eased(t, from: 0.15)), "at \(t)")
        }
        m.advance(to: 0.45)
        #expect(m.groundRadiance == radiance(.day))
        #expect(!m.isAnimating)
    }

    @Test func unlitTheRadianceIsWhite() {
        var m = model(.night)
        m.lighting = false
        #expect(m.groundRadiance == .white)
    }
}
