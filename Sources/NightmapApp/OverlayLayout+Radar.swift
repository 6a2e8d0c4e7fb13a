import Foundation
import MapCore

/// Where the radar's parts of the overlay go: the timeline (a row of marks just above the status
/// line, clear of the attribution) and the legend (a colour bar with labelled ticks in the top
/// left corner, clear of the status line and the compass).
extension OverlayLayout {
    /// The timeline's marks: mark i spans [x0 + i step, x0 + i step + markWidth] and rises from
    /// `bottom` by `short` (`tall` for the one shown).
    public struct TimelineLayout: Equatable, Sendable {
        public var x0: Double, step: Double, markWidth: Double
        public var bottom: Double, short: Double, tall: Double
        /// The outline's width for hollow marks.
        public var line: Double
        public var box: FrameDescription.ScreenBox
    }

    /// The legend: its panel, the colour bar inside it, and the tick labels under the bar.
    public struct LegendLayout: Equatable, Sendable {
        public var panel: FrameDescription.ScreenBox
        public var bar: FrameDescription.ScreenBox
        /// Each tick's x on the bar, and its label.
        public var ticks: [(x: Double, label: Line)]

        public static func == (a: LegendLayout, b: LegendLayout) -> Bool {
            a.panel == b.panel && a.bar == b.bar && a.ticks.count == b.ticks.count
                && zip(a.ticks, b.ticks).allSatisfy { $0.x == $1.x && $0.label == $1.label }
        }
    }

    /// `count` marks (8 CSS pixels wide, 3 apart; narrower when the window is) above the status
    /// line, or above the attribution when the status line is beside it and the marks would
    /// meet it. Nil when there is no status line or no room.
    public static func timeline(count: Int, over text: Text, width: Double, ratio: Double = 1) -> TimelineLayout? {
        guard count > 0, let status = text.status else { return nil }
        let margin = margin * ratio, gap = 3 * ratio
        var step = 11 * ratio
        let room = width - 2 * margin
        if Double(count) * step > room { step = room / Double(count) }
        guard step >= 3 * ratio else { return nil }
        let markWidth = max(ratio, step - gap)
        let short = 5 * ratio, tall = 9 * ratio
        let x0 = status.box.minX + pad * ratio
        func layout(bottom: Double) -> TimelineLayout {
            TimelineLayout(x0: x0, step: step, markWidth: markWidth, bottom: bottom, short: short, tall: tall, line: ratio,
                           box: .init(minX: x0 - ratio, minY: bottom - tall - ratio, maxX: x0 + Double(count - 1) * step + markWidth + ratio,
                                      maxY: bottom + ratio))
        }
        var t = layout(bottom: status.box.minY - ratio)
        if let top = text.attribution.first, text.attribution.contains(where: { $0.box.intersects(t.box) }) {
            t = layout(bottom: top.box.minY - ratio)
        }
        return t.box.minY >= 0 ? t : nil
    }

    /// The legend for `legend` in the top left corner (a bar 180 CSS pixels wide, narrower in a
    /// narrow window), or nil when it does not fit above `below` (the top of the bottom rows).
    public static func legend(_ legend: ColorLegend, font: any TextFont, width: Double, below: Double?, ratio: Double = 1) -> LegendLayout? {
        let size = textSize * ratio, margin = 8 * ratio, inset = 6 * ratio, pad = pad * ratio
        let (ascent, descent) = font.metrics(size: size)
        let barWidth = min(180 * ratio, width - 2 * margin - 2 * inset)
        guard barWidth >= 60 * ratio, legend.upTo > legend.from else { return nil }
        let bar = FrameDescription.ScreenBox(minX: margin + inset, minY: margin + inset, maxX: margin + inset + barWidth,
                                             maxY: margin + inset + 8 * ratio)
        let baseline = bar.maxY + 4 * ratio + ascent
        var ticks: [(x: Double, label: Line)] = []
        for (i, v) in legend.ticks.enumerated() where v >= legend.from && v <= legend.upTo {
            let x = bar.minX + (v - legend.from) / (legend.upTo - legend.from) * barWidth
            let number = v == v.rounded() ? String(Int(v)) : String(format: "%g", v)
            // The last label carries the unit, after the number (the panel grows to hold it).
            let text = number + (i == legend.ticks.count - 1 ? " \(legend.unit)" : "")
            let w = font.width(text, size: size, letterSpacing: 0)
            // The number centred on its tick, not left of the panel.
            let lx = max(x - font.width(number, size: size, letterSpacing: 0) / 2, bar.minX - inset / 2)
            ticks.append((x, Line(text: text, x: lx, baseline: baseline,
                                  box: .init(minX: lx - pad, minY: baseline - ascent - pad, maxX: lx + w + pad, maxY: baseline + descent + pad))))
        }
        let right = max(bar.maxX, ticks.map(\.label.box.maxX).max() ?? 0) + inset
        let panel = FrameDescription.ScreenBox(minX: margin, minY: margin, maxX: right, maxY: baseline + descent + inset)
        if let below, panel.maxY > below { return nil }
        return LegendLayout(panel: panel, bar: bar, ticks: ticks)
    }
}
