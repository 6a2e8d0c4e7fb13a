import Foundation
import MapCore
import Raster

/// The warnings panel as overlay items: a dark panel below right of the pointer (moved to stay in
/// the window), each warning's title after a swatch of its colour, its lines wrapped to the
/// panel's width (360 CSS pixels at most) in the overlay's text.
extension AppOverlay {
    func warningPanelItems(_ panel: WarningPanel, font: any TextFont, size: Double, _ model: MapModel, into items: inout [OverlayItem]) {
        let k = size / OverlayLayout.textSize
        let w = Double(model.camera.size.width), h = Double(model.camera.size.height)
        let (ascent, descent) = font.metrics(size: size)
        let lineHeight = (ascent + descent) * 1.35
        let pad = 10 * k, swatch = 10 * k
        let maxText = max(80 * k, min(360 * k, w - 2 * pad - 24 * k))
        func width(_ s: String) -> Double { font.width(s, size: size, letterSpacing: 0) }
        // Rows: (text, indent, colour of a swatch before it, gap above).
        var rows: [(text: String, indent: Double, swatch: Color?, gap: Double)] = []
        for (i, e) in panel.entries.enumerated() {
            rows.append((e.title, swatch + 6 * k, e.color, i == 0 ? 0 : 0.5 * lineHeight))
            for paragraph in e.lines {
                for line in Self.wrap(paragraph, width: maxText, measure: width) { rows.append((line, 0, nil, 0)) }
            }
        }
        if let more = panel.more { rows.append((more, 0, nil, 0.5 * lineHeight)) }
        let textWidth = rows.map { width($0.text) + $0.indent }.max() ?? 0
        let pw = min(w, textWidth + 2 * pad), ph = min(h, rows.reduce(0) { $0 + lineHeight + $1.gap } + 2 * pad - (lineHeight - ascent - descent))
        var left = panel.x + 16 * k, top = panel.y + 16 * k
        if left + pw > w { left = max(0, panel.x - 16 * k - pw) }
        if top + ph > h { top = max(0, h - ph) }
        left = left.rounded(); top = top.rounded()
        let box = FrameDescription.ScreenBox(minX: left, minY: top, maxX: left + pw, maxY: top + ph)
        items.append(.shape([Self.corners(box)], RGBA8(11, 16, 22, 242).premultiplied, .nonZero))
        let text = Self.premultiplied(Self.textColor, opacity: 1), halo = Self.premultiplied(Self.haloColor, opacity: 0)
        var baseline = top + pad + ascent
        for (i, row) in rows.enumerated() {
            if i > 0 { baseline += lineHeight + row.gap }
            guard baseline + descent <= box.maxY else { break }
            if let c = row.swatch {
                let s = FrameDescription.ScreenBox(minX: left + pad, minY: baseline - swatch, maxX: left + pad + swatch, maxY: baseline)
                items.append(.box(s, Self.premultiplied(c, opacity: 1)))
            }
            items.append(.text(OverlayText(row.text, x: left + pad + row.indent, baseline: baseline, font: font, size: size,
                                           haloWidth: 0, color: text, halo: halo)))
        }
    }

    /// `text` in lines no wider than `width` (words kept whole; a word wider than the line on
    /// its own line).
    static func wrap(_ text: String, width: Double, measure: (String) -> Double) -> [String] {
        var lines: [String] = [], line = ""
        for word in text.split(separator: " ") {
            let candidate = line.isEmpty ? String(word) : line + " " + word
            if measure(candidate) <= width || line.isEmpty {
                line = candidate
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
