@testable import MapRender
import Testing

/// Symbols fade in and out linearly over the fade length, as MapLibre's placement commits and
/// shader compute it, and placements come at MapLibre's pace.
@Suite struct SymbolFadeTests {
    typealias Placed = SymbolFade.Placed
    let shown = Placed(text: true, icon: true)

    func expectOpacity(_ fade: SymbolFade, _ id: Int, at now: Double, text: Double, icon: Double? = nil,
                       sourceLocation: SourceLocation = #_sourceLocation) {
        guard let o = fade.opacity(of: id, now: now) else {
            Issue.record("no fade state for \(id) at \(now)", sourceLocation: sourceLocation); return
        }
        #expect(abs(o.text - text) < 1e-9, "text at \(now): \(o.text)", sourceLocation: sourceLocation)
        #expect(abs(o.icon - (icon ?? text)) < 1e-9, "icon at \(now): \(o.icon)", sourceLocation: sourceLocation)
    }

    @Test func fadesInThenOutOverTheFadeLength() {
        var fade = SymbolFade(fadeDuration: 0.3)
        fade.commit([1: shown], now: 0, zoom: 10)
        expectOpacity(fade, 1, at: 0, text: 0)
        expectOpacity(fade, 1, at: 0.15, text: 0.5)
        expectOpacity(fade, 1, at: 0.3, text: 1)
        expectOpacity(fade, 1, at: 5, text: 1)
        #expect(fade.isFading(now: 0.29))
        #expect(!fade.isFading(now: 0.3))
        // Not seen by the next placement: fades out, then is forgotten.
        fade.commit([:], now: 0.3, zoom: 10)
        expectOpacity(fade, 1, at: 0.3, text: 1)
        expectOpacity(fade, 1, at: 0.45, text: 0.5)
        expectOpacity(fade, 1, at: 0.6, text: 0)
        #expect(fade.isFading(now: 0.59) && !fade.isFading(now: 0.6))
        #expect(fade.count == 1)
        fade.commit([:], now: 0.6, zoom: 10)
        #expect(fade.count == 0 && fade.opacity(of: 1, now: 0.6) == nil)
        #expect(!fade.isFading(now: 0.6))
    }

    /// A placement during a fade continues it from where it is, the same line either way.
    @Test func aCommitMidFadeContinuesTheFade() {
        var fade = SymbolFade(fadeDuration: 0.3)
        fade.commit([1: shown], now: 0, zoom: 10)
        fade.commit([1: shown, 2: Placed(text: true, icon: false)], now: 0.1, zoom: 10)
        expectOpacity(fade, 1, at: 0.15, text: 0.5)
        expectOpacity(fade, 2, at: 0.25, text: 0.5, icon: 0)
        // Hidden at 0.15, half in: back to 0 at 0.3.
        fade.commit([1: Placed(text: false, icon: false), 2: Placed(text: true, icon: false)], now: 0.15, zoom: 10)
        expectOpacity(fade, 1, at: 0.15, text: 0.5)
        expectOpacity(fade, 1, at: 0.225, text: 0.25)
        expectOpacity(fade, 1, at: 0.3, text: 0)
        expectOpacity(fade, 2, at: 0.4, text: 1, icon: 0)
        #expect(fade.isFading(now: 0.4 - 1e-9) && !fade.isFading(now: 0.4 + 1e-9))
        // Still seen (and not placed), it keeps its state at 0 instead of being forgotten.
        fade.commit([1: Placed(text: false, icon: false)], now: 1, zoom: 10)
        #expect(fade.count == 2)
    }

    @Test func skipFadeShowsANewSymbolAtOnce() {
        var fade = SymbolFade(fadeDuration: 0.3)
        fade.commit([1: Placed(text: true, icon: false, skipFade: true), 2: Placed(text: false, icon: false, skipFade: true)],
                    now: 0, zoom: 10)
        expectOpacity(fade, 1, at: 0, text: 1, icon: 0)
        expectOpacity(fade, 2, at: 0, text: 0)
        // Only a new symbol skips: one already known keeps fading.
        fade.commit([2: Placed(text: true, icon: true, skipFade: true)], now: 0.1, zoom: 10)
        expectOpacity(fade, 2, at: 0.1, text: 0)
        expectOpacity(fade, 2, at: 0.25, text: 0.5)
    }

    @Test func aFadeLengthOfZeroIsImmediate() {
        var fade = SymbolFade(fadeDuration: 0)
        fade.commit([1: shown], now: 0, zoom: 10)
        expectOpacity(fade, 1, at: 0, text: 1)
        #expect(!fade.isFading(now: 0))
        fade.commit([:], now: 0, zoom: 10)
        expectOpacity(fade, 1, at: 0, text: 0)
        #expect(!fade.isFading(now: 0))
        let due = fade.placementDue(now: 0, zoom: 10)
        #expect(due)
        // Set to 0 after a placement with a fade: the next placement is due at once.
        var slow = SymbolFade(fadeDuration: 0.3)
        slow.commit([1: shown], now: 0, zoom: 10)
        slow.fadeDuration = 0
        let dueNow = slow.placementDue(now: 0.1, zoom: 10)
        #expect(dueNow)
    }

    /// Zooming out by 0.75 adds 0.5 to the change from the commit on.
    @Test func zoomingOutFadesFaster() {
        var fade = SymbolFade(fadeDuration: 0.3)
        fade.commit([1: shown], now: 0, zoom: 10)
        fade.commit([1: shown, 2: shown], now: 0.3, zoom: 9.25)
        expectOpacity(fade, 2, at: 0.3, text: 0.5)
        expectOpacity(fade, 2, at: 0.375, text: 0.75)
        expectOpacity(fade, 2, at: 0.45, text: 1)
        #expect(fade.isFading(now: 0.45 - 1e-9) && !fade.isFading(now: 0.45 + 1e-9))
        // Zooming in adds nothing.
        fade.commit([1: shown, 2: shown, 3: shown], now: 1, zoom: 11)
        expectOpacity(fade, 3, at: 1, text: 0)
        expectOpacity(fade, 3, at: 1.15, text: 0.5)
    }

    @Test func placementsComeOncePerFadeLength() {
        var fade = SymbolFade(fadeDuration: 0.3)
        /// Asks `placementDue` at each (now, zoom) in turn.
        func due(_ asks: [(Double, Double)]) -> [Bool] { asks.map { fade.placementDue(now: $0.0, zoom: $0.1) } }
        #expect(due([(0, 10)]) == [true])
        fade.commit([1: shown], now: 0, zoom: 10)
        #expect(due([(0.29, 10), (0.3, 10)]) == [false, true])
        // A zoom-out of 0.75 shortens the wait to 0.3 · (1 − 0.5), but only once the zoom has
        // held still from one call to the next.
        fade.commit([1: shown], now: 1, zoom: 10)
        #expect(due([(1.1, 9.25), (1.14, 9.25), (1.16, 9.25), (1.2, 9.5)]) == [false, false, true, false])
        // Zooming in does not shorten it.
        fade.commit([1: shown], now: 2, zoom: 10)
        #expect(due([(2.2, 11), (2.2, 11), (2.31, 11)]) == [false, false, true])
        // A zoom-out of 1.5 or more: due at once, once the zoom holds.
        fade.commit([1: shown], now: 3, zoom: 10)
        #expect(due([(3, 8), (3, 8)]) == [false, true])
    }

    @Test func settledMeansNothingChanges() {
        var fade = SymbolFade(fadeDuration: 0.3)
        #expect(!fade.isFading(now: 0))
        fade.commit([1: shown, 2: Placed(text: false, icon: true)], now: 0, zoom: 10)
        #expect(fade.isFading(now: 0.1))
        #expect(fade.lastChange == 0)
        // The same placement again: nothing left to change once the first fade is done.
        fade.commit([1: shown, 2: Placed(text: false, icon: true)], now: 0.4, zoom: 10)
        #expect(!fade.isFading(now: 0.4))
        #expect(fade.lastChange == 0)
        expectOpacity(fade, 2, at: 0.4, text: 0, icon: 1)
    }
}

/// A symbol gone from the data is forgotten at once when the placement says so: nothing could
/// draw it fading, and the window would draw frames for nothing.
@Suite struct SymbolFadeForgetTests {
    @Test func symbolsGoneFromTheDataAreForgottenAtOnce() {
        var fade = SymbolFade(fadeDuration: 0.3)
        fade.commit([1: .init(text: true, icon: true, skipFade: true), 2: .init(text: true, icon: true, skipFade: true)], now: 0, zoom: 5)
        #expect(!fade.isFading(now: 0))
        fade.commit([2: .init(text: true, icon: true)], now: 1, zoom: 5, forgetUnseen: true)
        #expect(fade.opacity(of: 1, now: 1) == nil && !fade.isFading(now: 1))
        // Without it, the symbol fades out over the fade length.
        fade.commit([1: .init(text: true, icon: true, skipFade: true), 2: .init(text: true, icon: true)], now: 2, zoom: 5)
        fade.commit([2: .init(text: true, icon: true)], now: 3, zoom: 5)
        #expect(abs((fade.opacity(of: 1, now: 3.15)?.text ?? 0) - 0.5) < 1e-9 && fade.isFading(now: 3.15))
    }
}
