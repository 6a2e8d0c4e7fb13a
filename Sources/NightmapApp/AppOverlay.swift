import Foundation
import MapCore

/// nightmap's screen over the map: the attribution and status line (bottom), the scale bar, the
/// radar's timeline and legend, the compass while the map is turned, and the help panel. Laid
/// out here (`OverlayLayout`) and handed to the engine with each frame as items to draw, with
/// the boxes labels keep clear of (`Overlay`); the engine knows none of them.
public struct AppOverlay: Sendable {
    /// The status line, in order of importance; empty: none.
    public var status: [StatusPart] = []
    /// The help panel's lines; nil: no panel.
    public var help: [String]?
    /// The radar's slots, above the status line.
    public var timeline: FrameTimeline?
    /// The radar's colour scale, top left.
    public var legend: ColorLegend?
    /// The warnings under the resting pointer, beside it.
    public var warningPanel: WarningPanel?
    /// The scale bar is in miles and feet.
    public var imperialUnits = false
    /// Anything is drawn (off: the benchmark's scenarios without text, `snapshot --overlay none`).
    public var enabled = true
    /// Only the attribution is drawn (`snapshot --overlay attribution`: a picture for a report
    /// or a web page, as MapLibre's snapshotter makes it): no status line, help, scale bar,
    /// radar timeline, legend or compass.
    public var attributionOnly = false
    /// The text rows and the legend laid out, and the items composed, again only when what they
    /// show changes (a frame is described without mutating the app, so they are kept here).
    let cache = OverlayCache()

    public init() {}

    /// The overlay's light text and its dark halo (drawn at 0.9 opacity).
    public static let textColor = Color(rgb: 0xE6ECF4), haloColor = Color(rgb: 0x0B1016)

    /// The scale bar for `model`'s view: its length in device pixels and its label.
    public func scaleBar(over model: MapModel) -> (pixels: Double, label: String)? {
        Overlay.scaleBar(metresPerPixel: model.metresPerPixel, imperial: imperialUnits, maxPixels: 110 * model.pixelRatio)
    }

    /// Where the parts go over `model`'s view, with `scale` (nil without a font).
    public func layout(over model: MapModel, scale: (pixels: Double, label: String)?) -> OverlayLayout? {
        guard let font = model.style.font else { return nil }
        let ratio = model.pixelRatio
        let w = Double(model.camera.size.width), h = Double(model.camera.size.height)
        let text = cache.text(attribution: model.attribution, status: attributionOnly ? [] : status, font: font, width: w, height: h, ratio: ratio)
        if attributionOnly { return OverlayLayout(text: text, scale: nil, timeline: nil) }
        let line = timeline.flatMap { t in
            model.isInView(t.area) ? OverlayLayout.timeline(count: t.filled.count, over: text, width: w, ratio: ratio) : nil
        }
        var bar = scale.flatMap {
            OverlayLayout.scale(pixels: $0.pixels, label: $0.label, over: text, font: font, width: w, height: h, ratio: ratio)
        }
        // The scale bar goes above the timeline where they would meet.
        if var b = bar, let t = line, b.box.intersects(t.box) {
            let up = b.box.maxY - t.box.minY + 2 * ratio
            b.y -= up; b.label.baseline -= up; b.label.box.minY -= up; b.label.box.maxY -= up; b.box.minY -= up; b.box.maxY -= up
            bar = b.box.minY >= 0 ? b : nil
        }
        var layout = OverlayLayout(text: text, scale: bar, timeline: line)
        if let legend, model.isInView(legend.area) {
            // (Above the text rows and the timeline; the scale bar, which comes and goes with
            // the zoom, is left of it and lower.)
            let below = OverlayLayout(text: text, scale: nil, timeline: line).top
            layout.legend = cache.legend(legend, font: font, width: w, below: below, ratio: ratio)
        }
        return layout
    }

    /// What the engine draws over `model`'s frame, and what its labels keep clear of (nil when
    /// not `enabled`).
    public func overlay(over model: MapModel) -> Overlay? {
        guard enabled else { return nil }
        let layout = layout(over: model, scale: scaleBar(over: model))
        let compass = attributionOnly ? nil : model.compassArea
        let help = attributionOnly ? nil : help
        let key = OverlayCache.ItemsKey(layout: layout, timeline: timeline, legend: legend, help: help, warningPanel: attributionOnly ? nil : warningPanel, compass: compass,
                                        bearing: model.camera.state.bearing, width: model.camera.size.width,
                                        height: model.camera.size.height, ratio: model.pixelRatio,
                                        font: model.style.font.map(ObjectIdentifier.init))
        return cache.overlay(key) {
            Overlay(items: model.style.font.flatMap { font in layout.map { items($0, font: font, compass: compass, bearing: key.bearing, model) } } ?? [],
                    keepClear: keepClear(layout, compass: compass, model))
        }
    }

    /// The boxes labels keep clear of: the compass, the legend, and the strip along the bottom
    /// (status, scale bar, attribution), taller when a narrow window stacks the rows.
    func keepClear(_ layout: OverlayLayout?, compass c: CompassArea?, _ model: MapModel) -> [FrameDescription.ScreenBox] {
        let w = Double(model.camera.size.width), h = Double(model.camera.size.height), ratio = model.pixelRatio
        var boxes: [FrameDescription.ScreenBox] = []
        boxes.reserveCapacity(3)
        if let c { boxes.append(.init(minX: c.x - c.radius, minY: c.y - c.radius, maxX: c.x + c.radius, maxY: c.y + c.radius)) }
        if let panel = layout?.legend?.panel { boxes.append(panel) }
        // (The strip reaches 24 CSS pixels above the text rows and the timeline.)
        let strip = 46 * ratio
        let rows = layout.flatMap { OverlayLayout(text: $0.text, scale: nil, timeline: $0.timeline).top }
        let top = rows.map { $0 - 24 * ratio } ?? h - strip
        boxes.append(.init(minX: 0, minY: min(h - strip, top), maxX: w, maxY: h))
        return boxes
    }
}
