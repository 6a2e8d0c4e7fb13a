import Foundation
import NightmapApp
import MapCore
import MapData
import Testing
import TestSupport
@testable import nightmap

/// The overlay never overlaps itself: at every width from 320 px the status line, the
/// attribution and the scale bar keep apart, the attribution keeps every credit, and the status
/// gives up its parts from the least important.
@Suite struct OverlayLayoutTests {
    static let font = BundledAssets.overlayFont(BundledAssets.localGlyphs(resources: try! ResourceLocator.resourcesDirectory()))
    static let attribution = "Natural Earth · GeoNames (CC BY 4.0) · radar frames: synthetic demo data · ISS: wheretheiss.at"
    static let status = [StatusPart("saved /home/someone/Pictures/nightmap-20261201-093000.png", short: "saved nightmap-20261201-093000.png", essential: true),
                         StatusPart("radar 3/5 paused", essential: true),
                         StatusPart("ISS orbit, TLE 426 days old: approximate (feed: no answer within 2 s)", short: "ISS orbit, old TLE", essential: true),
                         StatusPart("41.8740° N, 75.7890° W", essential: false), StatusPart("60 fps", essential: false),
                         StatusPart("h: help", essential: false)]
    static let statusText = status.map(\.text).joined(separator: OverlayLayout.statusSeparator)

    static func parts(_ texts: String...) -> [StatusPart] { texts.map { StatusPart($0, essential: !$0.contains("fps") && !$0.contains("help") && !$0.contains("°")) } }

    static func layout(width: Int, height: Int = 600, status: [StatusPart] = status, ratio: Double = 1) -> OverlayLayout {
        let text = OverlayLayout.text(attribution: attribution, status: status, font: font, width: Double(width),
                                      height: Double(height), ratio: ratio)
        return OverlayLayout(text: text, scale: OverlayLayout.scale(pixels: 100 * ratio, label: "200 km", over: text, font: font,
                                                                    width: Double(width), height: Double(height), ratio: ratio))
    }

    static func boxes(_ l: OverlayLayout) -> [(String, FrameDescription.ScreenBox)] {
        l.text.attribution.map { ("attribution '\($0.text)'", $0.box) } + [l.text.status.map { ("status", $0.box) },
                                                                            l.scale.map { ("scale", $0.box) }].compactMap { $0 }
    }

    @Test(arguments: [320, 360, 480, 640, 800, 900, 1024, 1280, 1920])
    func nothingOverlapsAndEverythingIsInside(width: Int) {
        let l = Self.layout(width: width)
        let all = Self.boxes(l)
        for i in all.indices {
            let b = all[i].1
            #expect(b.minX >= 0 && b.maxX <= Double(width) && b.minY >= 0 && b.maxY <= 600, "\(all[i].0) leaves the window at \(width)")
            for j in all.indices where j > i {
                #expect(!b.intersects(all[j].1), "\(all[i].0) overlaps \(all[j].0) at \(width) px")
            }
        }
        // Every credit is there, whole, in order.
        #expect(l.text.attribution.map(\.text).joined(separator: OverlayLayout.attributionSeparator) == Self.attribution)
        // The status keeps its most important part, at least in its short form.
        #expect(l.text.status?.text.hasPrefix("saved ") == true && l.text.status?.text.contains("nightmap-20261201-093000.png") == true)
        #expect(l.scale != nil)
    }

    @Test func wideWindowsShowEverythingOnOneRowAndNarrowOnesStack() {
        let wide = Self.layout(width: 1920)
        #expect(wide.text.attribution.count == 1)
        #expect(wide.text.status?.text == Self.statusText)
        #expect(wide.text.status?.baseline == wide.text.attribution[0].baseline)

        let narrow = Self.layout(width: 320)
        #expect(narrow.text.attribution.count >= 3)
        // The status line sits above the attribution, shortened: no pointer, fps or help there.
        let s = narrow.text.status!
        #expect(s.baseline < narrow.text.attribution[0].baseline)
        #expect(!s.text.contains("fps") && !s.text.contains("h: help"))
        // The scale bar sits above the status line.
        #expect(narrow.scale!.box.maxY <= s.box.minY)
    }

    @Test func partsThatMayGoGoFirstFromTheEndThenEssentialsShorten() {
        // 800 px: beside the one-row attribution there is room for the essentials and the
        // pointer, not the frame rate or the help hint.
        let all = ["radar 1/5 playing", "ISS orbit", "41.8740° N, 75.7890° W", "60 fps", "h: help"]
        let l = Self.layout(width: 800, status: Self.parts(all[0], all[1], all[2], all[3], all[4]))
        let shown = l.text.status!.text.components(separatedBy: OverlayLayout.statusSeparator)
        #expect(shown.count < all.count && shown == Array(all.prefix(shown.count)) && shown.count >= 2)
        #expect(l.text.status!.baseline == l.text.attribution.last!.baseline)
        // The forms, in order: all; the parts that may go dropped from the end; the essentials
        // shortened from the end; then dropped from the end.
        let forms = OverlayLayout.statusForms([StatusPart("A long", short: "A", essential: true), StatusPart("x", essential: false),
                                               StatusPart("B long", short: "B", essential: true), StatusPart("y", essential: false)])
        #expect(forms.map(\.text) == ["A long  ·  x  ·  B long  ·  y", "A long  ·  x  ·  B long", "A long  ·  B long",
                                      "A long  ·  B", "A  ·  B", "A"])
        #expect(forms.map(\.keepsEssentials) == [true, true, true, true, true, false])
    }

    @Test(arguments: [360, 480, 560, 640, 800])
    func theEssentialsStayShortenedOrOnARowOfTheirOwn(width: Int) {
        // Where the pointer, frame rate and help hint do not fit, the radar and the ISS parts
        // still show (in full or short) on some row.
        let l = Self.layout(width: width, status: [StatusPart("radar 3/5 playing", short: "radar 3/5", essential: true),
                                                   StatusPart("ISS orbit, TLE 426 days old: approximate", short: "ISS orbit, old TLE", essential: true),
                                                   StatusPart("41.8740° N, 75.7890° W", essential: false),
                                                   StatusPart("60 fps", essential: false), StatusPart("h: help", essential: false)])
        let s = l.text.status!.text
        #expect(s.hasPrefix("radar 3/5") && s.contains("ISS orbit"), "\(width): '\(s)'")
    }

    @Test func aStatusWhoseEssentialsDoNotFitBesideTheAttributionGetsItsOwnRow() {
        let l = Self.layout(width: 800, status: [StatusPart("radar 3/5 playing", essential: true),
                                                 StatusPart("ISS orbit, TLE 426 days old: approximate", essential: true),
                                                 StatusPart("h: help", essential: false)])
        let s = l.text.status!
        #expect(s.baseline < l.text.attribution.first!.baseline)
        #expect(s.text == "radar 3/5 playing  ·  ISS orbit, TLE 426 days old: approximate  ·  h: help")   // room for all there
    }

    @Test func aPartWiderThanTheWindowIsShortenedWithAnEllipsis() {
        let l = Self.layout(width: 320, status: [StatusPart(String(repeating: "w", count: 200), essential: true)])
        let s = l.text.status!
        #expect(s.text.hasSuffix("…") && s.box.maxX <= 320)
    }

    @Test func aPixelRatioOf2DoublesEveryBox() {
        let one = Self.boxes(Self.layout(width: 640, height: 400))
        let two = Self.boxes(Self.layout(width: 1280, height: 800, ratio: 2))
        #expect(one.count == two.count)
        for (a, b) in zip(one, two) {
            #expect(a.0 == b.0)
            #expect(abs(b.1.minX - 2 * a.1.minX) <= 3 && abs(b.1.maxX - 2 * a.1.maxX) <= 3, "\(a.0): \(a.1) vs \(b.1)")
            #expect(abs(b.1.minY - 2 * a.1.minY) <= 3 && abs(b.1.maxY - 2 * a.1.maxY) <= 3, "\(a.0): \(a.1) vs \(b.1)")
        }
    }

    /// What `nightmap state` reports, at the widths of the issue.
    @Test(arguments: [320, 480, 640, 800, 1024, 1920])
    func stateReportsBoxesThatNeverIntersect(width: Int) throws {
        let o = try Options.parse(["state", "--radar", "demo", "--iss", "tle", "--time", "2025-10-01T12:00:00Z", "--size", "\(width)x600"])
        var model = try MapSetup.model(o)
        model.status = StatusLine.compose(model, framesPerSecond: 60, pointer: LngLat(lng: -75.789, lat: 41.874))
        let json = try JSON.parse(Headless.stateJSON(model, options: o), name: "state")
        let overlay = try #require(json["overlay"])
        var boxes: [(String, FrameDescription.ScreenBox)] = []
        for key in ["status", "attribution", "scale", "timeline", "legend"] {
            let b = try #require(overlay[key]?.numbersValue, "\(key) missing at \(width)")
            // (The attribution's box spans all its lines; the status may sit beside its shorter
            // bottom line, so each line is checked on its own.)
            if key != "attribution" { boxes.append((key, .init(minX: b[0], minY: b[1], maxX: b[0] + b[2], maxY: b[1] + b[3]))) }
        }
        let lines = try #require(model.overlayLayout?.text.attribution)
        #expect(!lines.isEmpty)
        for (i, l) in lines.enumerated() { boxes.append(("attribution line \(i + 1)", l.box)) }
        for i in boxes.indices { for j in boxes.indices where j > i {
            #expect(!boxes[i].1.intersects(boxes[j].1), "\(boxes[i].0) \(boxes[i].1) meets \(boxes[j].0) \(boxes[j].1) at \(width)")
        } }
    }
}
