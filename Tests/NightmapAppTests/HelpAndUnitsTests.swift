import Foundation
import MapCore
import NightmapApp
import Testing

/// The help panel and the units switch, through the keys.
@Suite struct HelpAndUnitsTests {
    @Test func hShowsAndHidesTheHelpAndUSwitchesUnits() {
        var m = MapApp(style: Style(), size: ViewportSize(width: 1280, height: 800), scene: .radar)
        var c = InputController()
        #expect(m.frame().overlay?.help == nil)
        for cmd in c.handle(.keyDown(.character("h"), modifiers: [], time: 0)) { m.apply(cmd, now: 0) }
        #expect(m.frame().overlay?.help == HelpText.lines)
        for cmd in c.handle(.keyDown(.character("?"), modifiers: [.shift], time: 0)) { m.apply(cmd, now: 0) }
        #expect(m.frame().overlay?.help == nil)
        for cmd in c.handle(.keyDown(.character("u"), modifiers: [], time: 0)) { m.apply(cmd, now: 0) }
        #expect(m.frame().overlay?.scale?.label.hasSuffix("mi") == true)
    }

    @Test func helpListsEveryKey() {
        let text = HelpText.lines.joined(separator: " ")
        for key in ["+", "-", "arrows", "0", "space", ",", ".", "l:", "e:", "p:", "f:", "1 radar", "2 ISS", "3 route", "u:", "h,", "q"] {
            #expect(text.contains(key), "help does not mention \(key)")
        }
    }
}
