import MapCore
import Raster
@testable import MapRender
import Testing

/// What the bench reads of a placement: its own time, its collision passes' time and how many
/// passes ran, on the window's cadence (a pass at most every fade duration while the view moves).
@Suite struct SymbolPlacementCounterTests {
    @Test func passesAndTimeAreCounted() throws {
        let layout = #""text-field": ["get", "name"], "text-size": 13"#
        var m = try SymbolPlacementTests.model("[\(SymbolPlacementTests.layer("a", layout))]",
                                               [(LngLat(lng: 0, lat: 0), ["name": .string("Alpha")])])
        m.symbolFadeDuration = 0.3
        m.advance(to: 10)
        let placement = SymbolPlacement()
        #expect(placement.passes == 0 && placement.placeSeconds == 0 && placement.passSeconds == 0)
        placement.place(m.frame())
        #expect(placement.passes == 1)
        #expect(placement.passSeconds > 0 && placement.placeSeconds >= placement.passSeconds)
        // The view moves 0.1 s later: laid out again, no pass yet.
        let before = placement.placeSeconds
        m.jump(to: CameraState(center: LngLat(lng: 0.1, lat: 0), zoom: 4))
        m.advance(to: 10.1)
        placement.place(m.frame())
        #expect(placement.passes == 1, "a pass before the fade duration passed")
        #expect(placement.placeSeconds > before)
        // 0.4 s after the first pass the waiting one runs.
        m.advance(to: 10.4)
        placement.place(m.frame())
        #expect(placement.passes == 2)
    }

    /// The renderers expose the placement they read: a parallel renderer's shared one (two
    /// bands) or its one band's own, which rendering a frame places.
    @Test func renderersExposeTheirPlacement() throws {
        let layout = #""text-field": ["get", "name"], "text-size": 13"#
        let m = try SymbolPlacementTests.model("[\(SymbolPlacementTests.layer("a", layout))]",
                                               [(LngLat(lng: 0, lat: 0), ["name": .string("Alpha")])])
        for threads in [1, 2] {
            let renderer = ParallelRenderer(threads: threads)
            #expect(renderer.symbolPlacement.passes == 0)
            renderer.render(m.frame(), into: Pixmap(width: 400, height: 300))
            #expect(renderer.symbolPlacement.passes == 1, "\(threads) threads")
            #expect(renderer.symbolPlacement.placeSeconds > 0)
        }
    }
}
