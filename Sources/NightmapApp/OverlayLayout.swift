import Foundation
import MapCore

/// Where the overlay's text goes: the attribution (bottom right, wrapped onto more lines when the
/// window is narrow), the status line (bottom left, beside the attribution when its essential
/// parts fit there, else on a row of its own above it) and the scale bar (above whatever lies
/// under it). Nothing overlaps at any width. The status line first drops the parts that may go,
/// from the end, then shortens the essential ones, then drops them from the end; the last one
/// left is cut with an ellipsis. The attribution, which the data's licences require, is only
/// ever wrapped (a single credit wider than the window is cut).
public struct OverlayLayout: Equatable, Sendable {
    /// One line of text: its pen position and the box its text and halo cover.
    public struct Line: Equatable, Sendable {
        public var text: String
        public var x: Double
        public var baseline: Double
        public var box: FrameDescription.ScreenBox
    }

    /// The scale bar: the bar from `x0` to `x1` at height `y` (its ticks and strokes `ratio`
    /// times their CSS size), its label, and the box of both.
    public struct ScaleBar: Equatable, Sendable {
        public var x0: Double, x1: Double, y: Double, ratio: Double
        public var label: Line
        public var box: FrameDescription.ScreenBox
    }

    /// The text rows, which depend only on the strings and the window's size.
    public struct Text: Equatable, Sendable {
        /// Top to bottom.
        public var attribution: [Line]
        public var status: Line?
        /// The type's size and halo in device pixels.
        public var textSize: Double
        public var haloWidth: Double
    }

    public var text: Text
    public var scale: ScaleBar?
    public var timeline: TimelineLayout?
    public var legend: LegendLayout?

    public init(text: Text, scale: ScaleBar?, timeline: TimelineLayout? = nil, legend: LegendLayout? = nil) {
        self.text = text; self.scale = scale; self.timeline = timeline; self.legend = legend
    }

    /// The overlay's type: 11.5 px with a 1.6 px halo; margins of 6 px from the window's edges.
    public static let textSize = 11.5
    public static let haloWidth = 1.6
    static let margin = 6.0
    /// Between the status line and the attribution on one row.
    static let gap = 12.0
    /// The box of a line reaches this far beyond its glyphs' advance and the font's extent.
    static let pad = 2.0
    public static let attributionSeparator = " · "
    public static let statusSeparator = "  ·  "

    /// The rows of text for a window `width` x `height` device pixels, `ratio` of them to a CSS
    /// pixel (every length above is in CSS pixels).
    public static func text(attribution: String, status: [StatusPart], font: any TextFont, width: Double, height: Double,
                            ratio: Double = 1) -> Text {
        let size = textSize * ratio, margin = margin * ratio, gap = gap * ratio, pad = pad * ratio
        let (ascent, descent) = font.metrics(size: size)
        let row = (ascent + descent + 2 * pad + ratio).rounded(.up)
        let bottom = height - margin - descent
        let room = max(0, width - 2 * margin)
        func measure(_ s: String) -> Double { font.width(s, size: size, letterSpacing: 0) }
        func line(_ s: String, x: Double, baseline: Double) -> Line {
            Line(text: s, x: x, baseline: baseline,
                 box: .init(minX: x - pad, minY: baseline - ascent - pad, maxX: x + measure(s) + pad, maxY: baseline + descent + pad))
        }
        // The attribution: parts filled greedily into lines that fit, right-aligned, bottom up.
        var lines: [String] = []
        for part in attribution.components(separatedBy: attributionSeparator) where !part.isEmpty {
            if let last = lines.last, measure(last + attributionSeparator + part) <= room {
                lines[lines.count - 1] = last + attributionSeparator + part
            } else {
                lines.append(measure(part) <= room ? part : shortened(part, to: room, measure))
            }
        }
        let attributionLines = lines.enumerated().map { i, s in
            line(s, x: width - margin - measure(s), baseline: bottom - Double(lines.count - 1 - i) * row)
        }
        // The status line: beside the attribution's bottom line when its essential parts fit
        // there, else on the row above the attribution.
        var statusLine: Line?
        if !status.isEmpty {
            let forms = statusForms(status)
            let besideRoom = (attributionLines.last.map { $0.box.minX - gap } ?? width - margin) - margin
            if let s = forms.first(where: { $0.keepsEssentials && measure($0.text) <= besideRoom }) {
                statusLine = line(s.text, x: margin, baseline: bottom)
            } else {
                let s = forms.first(where: { measure($0.text) <= room })?.text ?? shortened(forms.last?.text ?? "", to: room, measure)
                if !s.isEmpty { statusLine = line(s, x: margin, baseline: bottom - Double(attributionLines.count) * row) }
            }
        }
        return Text(attribution: attributionLines, status: statusLine, textSize: size, haloWidth: haloWidth * ratio)
    }

    /// The scale bar `pixels` long with `label`, above the rows under it; nil when it does not fit.
    public static func scale(pixels: Double, label: String, over text: Text, font: any TextFont, width: Double, height: Double,
                             ratio: Double = 1) -> ScaleBar? {
        let size = textSize * ratio, margin = margin * ratio, pad = pad * ratio
        let (ascent, descent) = font.metrics(size: size)
        let x0 = 10 * ratio, x1 = x0 + pixels
        let labelX = x1 + 8 * ratio, labelWidth = font.width(label, size: size, letterSpacing: 0)
        let minX = x0 - 3 * ratio, maxX = labelX + labelWidth + pad
        guard maxX <= width - margin / 2 else { return nil }
        // The bar sits asc + desc + 10 px above the baseline of the highest row it would touch.
        var baseline = height - margin - descent
        for l in text.attribution where l.box.maxX > minX && l.box.minX < maxX { baseline = min(baseline, l.baseline) }
        if let l = text.status, l.box.maxX > minX && l.box.minX < maxX { baseline = min(baseline, l.baseline) }
        let y = baseline - ascent - descent - 10 * ratio
        let labelBaseline = y + ascent / 2 - ratio
        let labelLine = Line(text: label, x: labelX, baseline: labelBaseline,
                             box: .init(minX: labelX - pad, minY: labelBaseline - ascent - pad,
                                        maxX: labelX + labelWidth + pad, maxY: labelBaseline + descent + pad))
        let box = FrameDescription.ScreenBox(minX: minX, minY: min(y - 8 * ratio, labelLine.box.minY), maxX: maxX,
                                             maxY: max(y + 3 * ratio, labelLine.box.maxY))
        guard box.minY >= 0 else { return nil }
        return ScaleBar(x0: x0, x1: x1, y: y, ratio: ratio, label: labelLine, box: box)
    }

    /// The status line's forms, longest first: every part; then the parts that may go dropped
    /// from the end; then the essential ones shortened from the end; then dropped from the end
    /// (the first stays).
    public static func statusForms(_ parts: [StatusPart]) -> [(text: String, keepsEssentials: Bool)] {
        var kept = parts.map { $0.text }, keptParts = parts
        var forms = [(kept.joined(separator: statusSeparator), true)]
        while let i = keptParts.lastIndex(where: { !$0.essential }), keptParts.count > 1 {
            keptParts.remove(at: i); kept.remove(at: i)
            forms.append((kept.joined(separator: statusSeparator), true))
        }
        for i in keptParts.indices.reversed() {
            guard let short = keptParts[i].short, short != kept[i] else { continue }
            kept[i] = short
            forms.append((kept.joined(separator: statusSeparator), true))
        }
        while kept.count > 1 {
            kept.removeLast()
            forms.append((kept.joined(separator: statusSeparator), false))
        }
        return forms
    }

    /// `s` cut to fit `room` with an ellipsis (empty when not even that fits).
    static func shortened(_ s: String, to room: Double, _ measure: (String) -> Double) -> String {
        var chars = Array(s)
        while !chars.isEmpty {
            chars.removeLast()
            let t = String(chars).trimmingCharacters(in: .whitespaces) + "…"
            if measure(t) <= room { return t }
        }
        return ""
    }

    /// The top of everything laid out (labels keep above it), or nil when nothing is.
    public var top: Double? {
        var t: Double?
        func take(_ y: Double?) { if let y { t = min(t ?? y, y) } }
        take(scale?.box.minY); take(text.status?.box.minY); take(text.attribution.first?.box.minY); take(timeline?.box.minY)
        return t
    }

    /// The attribution's lines as one box.
    public var attributionBox: FrameDescription.ScreenBox? {
        guard let first = text.attribution.first else { return nil }
        return text.attribution.dropFirst().reduce(first.box) { b, l in
            .init(minX: min(b.minX, l.box.minX), minY: min(b.minY, l.box.minY), maxX: max(b.maxX, l.box.maxX), maxY: max(b.maxY, l.box.maxY))
        }
    }
}
