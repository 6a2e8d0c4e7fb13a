import Foundation
import MapCore
import MapData
import NightmapApp
import Testing

/// The help panel and the units switch, through the keys.
@Suite struct HelpAndUnitsTests {
    /// The text the frame's overlay draws.
    static func texts(_ m: MapApp) -> [String] {
        m.frame().overlay?.items.compactMap { if case let .text(t) = $0 { t.text } else { nil } } ?? []
    }

    @Test func hShowsAndHidesTheHelpAndUSwitchesUnits() throws {
        var style = Style()
        style.font = BundledAssets.overlayFont(BundledAssets.localGlyphs(resources: try ResourceLocator.resourcesDirectory()))
        var m = MapApp(style: style, size: ViewportSize(width: 1280, height: 800), scene: .radar)
        var c = InputController()
        #expect(!HelpText.lines.contains { Self.texts(m).contains($0) })
        for cmd in c.handle(.keyDown(.character("h"), modifiers: [], time: 0)) { m.apply(cmd, now: 0) }
        #expect(HelpText.lines.allSatisfy { Self.texts(m).contains($0) })
        for cmd in c.handle(.keyDown(.character("?"), modifiers: [.shift], time: 0)) { m.apply(cmd, now: 0) }
        #expect(!HelpText.lines.contains { Self.texts(m).contains($0) })
        #expect(Self.texts(m).contains { $0.hasSuffix(" km") })
        for cmd in c.handle(.keyDown(.character("u"), modifiers: [], time: 0)) { m.apply(cmd, now: 0) }
        #expect(Self.texts(m).contains { $0.hasSuffix(" mi") } && m.imperialUnits)
    }

    @Test func helpListsEveryKey() {
        let text = HelpText.lines.joined(separator: " ")
        for key in ["+", "-", "arrows", "0", "space", ",", ".", "l:", "e:", "p:", "f:", "1 radar", "2 ISS", "3 route", "u:", "h,", "q"] {
            #expect(text.contains(key), "help does not mention \(key)")
        }
    }
}
