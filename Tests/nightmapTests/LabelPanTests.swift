import Foundation
import MapCore
@testable import MapRender
import NightmapApp
import Raster
import Testing
@testable import nightmap

/// A steady pan over the Helsinki street map, as the window shows it (labels fading over
/// 300 ms, placement on MapLibre's cadence): labels stay calm.
@Suite struct LabelPanTests {
    /// Every label shown in two consecutive frames keeps its offset from its anchor (and a
    /// label along a line its glyphs' places), and no label appears twice in one frame.
    @Test func aPanKeepsEveryLabelOnItsAnchorAndShowsNoneTwice() throws {
        var model = try MapSetup.model(try Options.parse(["state", "--scene", "streets", "--radar", "demo", "--iss", "tle",
                                                          "--time", "2025-10-01T12:00:00Z"]))
        model.model.symbolFadeDuration = 0.3
        var t = 1.0
        model.advance(to: t)
        let placement = SymbolPlacement()
        struct Seen { let offset: (x: Double, y: Double); let glyphs: [GlyphPose]? }
        var last: [Int: Seen] = [:]
        var compared = 0, alongLine = 0
        for frameIndex in 0..<60 {
            model.apply(.pan(dx: -6, dy: -2), now: t)
            t += 1.0 / 60
            model.advance(to: t)
            let frame = model.frame()
            placement.place(frame)
            var now: [Int: Seen] = [:]
            var shown: [(String, FrameDescription.ScreenBox)] = []
            for i in frame.layers.indices where frame.layers[i].symbols != nil {
                for s in placement.symbols(layer: i) {
                    guard let text = s.text, text.fade > 0 else { continue }
                    #expect(now[s.id] == nil, "frame \(frameIndex): label \(s.id) (\(text.string)) shown twice")
                    // (The anchor where this frame's view shows it.)
                    let anchor = frame.view.nearestScreen(s.anchor)
                    let seen = Seen(offset: (text.origin.x - anchor.x, text.origin.y - anchor.y), glyphs: text.glyphs)
                    now[s.id] = seen
                    if text.glyphs != nil { alongLine += 1 }
                    if let before = last[s.id] {
                        compared += 1
                        #expect(abs(before.offset.x - seen.offset.x) < 1e-6 && abs(before.offset.y - seen.offset.y) < 1e-6,
                                "frame \(frameIndex): \(text.string) moved from its anchor: \(before.offset) -> \(seen.offset)")
                        if let a = before.glyphs, let b = seen.glyphs {
                            #expect(a.count == b.count && zip(a, b).allSatisfy { abs($0.x - $1.x) < 1e-6 && abs($0.y - $1.y) < 1e-6 && abs($0.angle - $1.angle) < 1e-9 },
                                    "frame \(frameIndex): the glyphs of \(text.string) moved along its line")
                        }
                    }
                    // (The same words twice in one place: one label drawn twice.)
                    for (other, box) in shown where other == text.string {
                        let overlap = min(box.maxX, text.box.maxX) - max(box.minX, text.box.minX)
                        let overlapY = min(box.maxY, text.box.maxY) - max(box.minY, text.box.minY)
                        #expect(!(overlap > 0 && overlapY > 0), "frame \(frameIndex): \(other) appears twice in one place")
                    }
                    shown.append((text.string, text.box))
                }
            }
            last = now
        }
        #expect(compared > 300, "too few labels followed: \(compared)")
        #expect(alongLine > 60, "no street names along their streets: \(alongLine)")
        // Once the pan stops, the last placement runs and its fades end within 0.6 s: nothing
        // asks the window to draw again after that (it sleeps).
        #expect(placement.isAnimating, "the pan's last frame is still fading")
        var settledAt: Double?
        for step in 1...60 {
            model.advance(to: t + Double(step) / 60)
            placement.place(model.frame())
            if !placement.isAnimating { settledAt = Double(step) / 60; break }
        }
        #expect(settledAt.map { $0 <= 0.6 + 1e-9 } == true, "labels still animating after the pan: \(String(describing: settledAt))")
    }
}

