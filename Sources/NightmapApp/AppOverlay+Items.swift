import Foundation
import MapCore
import Raster

/// The overlay's parts as the engine's items, in the order they are drawn: attribution, status
/// line and scale bar, the timeline, the legend, the compass, and the help panel over them all.
extension AppOverlay {
    func items(_ layout: OverlayLayout, font: any TextFont, compass: CompassArea?, bearing: Double, _ model: MapModel) -> [OverlayItem] {
        let size = layout.text.textSize, haloWidth = layout.text.haloWidth
        let text = Self.premultiplied(Self.textColor, opacity: 1)
        let halo = Self.premultiplied(Self.haloColor, opacity: 0.9)
        // Device pixels per CSS pixel, as the type's size says.
        let k = size / OverlayLayout.textSize
        var items: [OverlayItem] = []
        // (Room for every item at once: this runs whenever the scale bar changes, every frame of a pan.)
        items.reserveCapacity(layout.text.attribution.count + 4 + (timeline.map { $0.filled.count + 1 } ?? 0)
                              + (legend.map { $0.bins.count + 2 * $0.ticks.count + 1 } ?? 0) + 1 + (help.map { $0.count + 1 } ?? 0))
        func put(_ s: String, x: Double, baseline: Double) {
            items.append(.text(OverlayText(s, x: x, baseline: baseline, font: font, size: size, haloWidth: haloWidth, color: text, halo: halo)))
        }
        for line in layout.text.attribution { put(line.text, x: line.x, baseline: line.baseline) }
        if let status = layout.text.status { put(status.text, x: status.x, baseline: status.baseline) }
        if let scale = layout.scale {
            // A bar with a tick at each end, in halo then in text.
            let tick = 5 * scale.ratio
            let bar = [Point(scale.x0, scale.y - tick), Point(scale.x0, scale.y), Point(scale.x1, scale.y), Point(scale.x1, scale.y - tick)]
            items.append(.stroke(bar, StrokeStyle(width: 4.5 * scale.ratio, cap: .square, join: .miter), halo))
            items.append(.stroke(bar, StrokeStyle(width: 1.5 * scale.ratio, cap: .square, join: .miter), text))
            put(scale.label.text, x: scale.label.x, baseline: scale.label.baseline)
        }
        if let timeline, let t = layout.timeline { timelineItems(timeline, t, text: text, halo: halo, into: &items) }
        if let legend, let l = layout.legend {
            items.append(.box(l.panel, RGBA8(11, 16, 22, 204).premultiplied))
            let span = legend.upTo - legend.from
            for (i, bin) in legend.bins.enumerated() {
                let end = i + 1 < legend.bins.count ? legend.bins[i + 1].from : legend.upTo
                let x0 = l.bar.minX + (max(bin.from, legend.from) - legend.from) / span * (l.bar.maxX - l.bar.minX)
                let x1 = l.bar.minX + (min(end, legend.upTo) - legend.from) / span * (l.bar.maxX - l.bar.minX)
                guard x1 > x0 else { continue }
                items.append(.box(.init(minX: x0, minY: l.bar.minY, maxX: x1, maxY: l.bar.maxY), Self.premultiplied(bin.color, opacity: 1)))
            }
            for tick in l.ticks {
                items.append(.box(.init(minX: tick.x - 0.5 * k, minY: l.bar.maxY, maxX: tick.x + 0.5 * k, maxY: l.bar.maxY + 3 * k), text))
                put(tick.label.text, x: tick.label.x, baseline: tick.label.baseline)
            }
        }
        if let compass { items.append(.compass(compass, bearing: bearing, color: text)) }
        if let panel = warningPanel, !attributionOnly { warningPanelItems(panel, font: font, size: size, model, into: &items) }
        if let help, !attributionOnly {
            // A dark panel in the middle of the window, the lines 1.5 apart on it.
            let (ascent, descent) = font.metrics(size: size)
            let lineHeight = (ascent + descent) * 1.5
            let widths = help.map { font.width($0, size: size, letterSpacing: 0) }
            let pw = (widths.max() ?? 0) + 32 * k, ph = Double(help.count) * lineHeight + 28 * k
            let w = Double(model.camera.size.width), h = Double(model.camera.size.height)
            let left = ((w - pw) / 2).rounded(), top = ((h - ph) / 2).rounded()
            let panel = FrameDescription.ScreenBox(minX: left, minY: top, maxX: left + pw, maxY: top + ph)
            items.append(.shape([Self.corners(panel)], RGBA8(11, 16, 22, 242).premultiplied, .nonZero))
            for (i, line) in help.enumerated() {
                put(line, x: left + 16 * k, baseline: top + 14 * k + ascent + Double(i) * lineHeight)
            }
        }
        return items
    }

    /// The timeline's marks over a dark band: filled for slots with a frame, an outline for
    /// those without, the one shown taller.
    func timelineItems(_ timeline: FrameTimeline, _ t: OverlayLayout.TimelineLayout, text: PremultipliedColor, halo: PremultipliedColor,
                       into items: inout [OverlayItem]) {
        items.append(.box(t.box, halo))
        for (i, filled) in timeline.filled.enumerated() {
            let x = t.x0 + Double(i) * t.step
            let h = i == timeline.current ? t.tall : t.short
            let mark = FrameDescription.ScreenBox(minX: x, minY: t.bottom - h, maxX: x + t.markWidth, maxY: t.bottom)
            if filled {
                items.append(.box(mark, text))
            } else {
                let inner = FrameDescription.ScreenBox(minX: mark.minX + t.line, minY: mark.minY + t.line, maxX: mark.maxX - t.line,
                                                       maxY: mark.maxY - t.line)
                items.append(.shape([Self.corners(mark), Self.corners(inner)], text, .evenOdd))
            }
        }
    }

    /// `c` as 8-bit premultiplied with `opacity` applied, rounded as the renderer rounds layer colours.
    static func premultiplied(_ c: Color, opacity: Double) -> PremultipliedColor {
        let b = c.bytes
        return RGBA8(b.r, b.g, b.b, UInt8((Double(b.a) * min(max(opacity, 0), 1)).rounded())).premultiplied
    }

    /// A box's corners, clockwise from the top left.
    static func corners(_ b: FrameDescription.ScreenBox) -> [Point] {
        [Point(b.minX, b.minY), Point(b.maxX, b.minY), Point(b.maxX, b.maxY), Point(b.minX, b.maxY)]
    }
}
