import Foundation
import MapCore

/// The overlay's text rows and legend laid out, and its items composed, kept until what they
/// show changes: a frame is described without mutating the app, and a frame like the last one
/// should neither lay out text again nor allocate its items.
final class OverlayCache: @unchecked Sendable {
    private struct TextKey: Equatable {
        let attribution: String, status: [StatusPart], width: Double, height: Double, ratio: Double
        let font: ObjectIdentifier
    }
    private struct LegendKey: Equatable {
        let legend: ColorLegend, width: Double, below: Double?, ratio: Double
        let font: ObjectIdentifier
    }
    /// Everything the items and the boxes to keep clear are made from.
    struct ItemsKey: Equatable {
        let layout: OverlayLayout?, timeline: FrameTimeline?, legend: ColorLegend?, help: [String]?, warningPanel: WarningPanel?
        let compass: CompassArea?, bearing: Double
        let width: Int, height: Int, ratio: Double
        let font: ObjectIdentifier?
    }
    private let lock = NSLock()
    private var textKey: TextKey?
    private var text: OverlayLayout.Text?
    private var legendKey: LegendKey?
    private var legendLayout: OverlayLayout.LegendLayout?
    private var itemsKey: ItemsKey?
    private var overlay: Overlay?

    func legend(_ legend: ColorLegend, font: any TextFont, width: Double, below: Double?, ratio: Double) -> OverlayLayout.LegendLayout? {
        let k = LegendKey(legend: legend, width: width, below: below, ratio: ratio, font: ObjectIdentifier(font))
        lock.lock(); defer { lock.unlock() }
        if legendKey == k { return legendLayout }
        legendKey = k
        legendLayout = OverlayLayout.legend(legend, font: font, width: width, below: below, ratio: ratio)
        return legendLayout
    }

    func text(attribution: String, status: [StatusPart], font: any TextFont, width: Double, height: Double, ratio: Double) -> OverlayLayout.Text {
        let k = TextKey(attribution: attribution, status: status, width: width, height: height, ratio: ratio, font: ObjectIdentifier(font))
        lock.lock(); defer { lock.unlock() }
        if let text, textKey == k { return text }
        let t = OverlayLayout.text(attribution: attribution, status: status, font: font, width: width, height: height, ratio: ratio)
        textKey = k; text = t
        return t
    }

    /// The overlay made for `key` last time, else `make()`'s.
    func overlay(_ key: ItemsKey, make: () -> Overlay) -> Overlay {
        lock.lock(); defer { lock.unlock() }
        if let overlay, itemsKey == key { return overlay }
        let o = make()
        itemsKey = key; overlay = o
        return o
    }
}
