/// `icon-text-fit`: which of an icon's axes span its label's box instead of the image's own size.
public enum IconTextFit: String, Sendable {
    case none, width, height, both

    var fitsWidth: Bool { self == .width || self == .both }
    var fitsHeight: Bool { self == .height || self == .both }

    /// The icon's box fitted to a label's `text` box (MapLibre's `fitIconToText`), in CSS pixels
    /// around the anchor at `icon-size` 1: a fitted axis runs from the text's edge less its
    /// padding ([top, right, bottom, left]) to the other edge plus its padding; an axis that is
    /// not fitted keeps the image's `imageSize` and is centred on the text. `icon-anchor` plays
    /// no part (the label's box already says where the icon goes); `offset` moves the box.
    public func box(text: FrameDescription.ScreenBox, imageSize: (width: Double, height: Double),
                    padding: (top: Double, right: Double, bottom: Double, left: Double),
                    offset: (x: Double, y: Double)) -> FrameDescription.ScreenBox {
        let minX, maxX, minY, maxY: Double
        if fitsWidth {
            minX = offset.x + text.minX - padding.left
            maxX = offset.x + text.maxX + padding.right
        } else {
            minX = offset.x + (text.minX + text.maxX - imageSize.width) / 2
            maxX = minX + imageSize.width
        }
        if fitsHeight {
            minY = offset.y + text.minY - padding.top
            maxY = offset.y + text.maxY + padding.bottom
        } else {
            minY = offset.y + (text.minY + text.maxY - imageSize.height) / 2
            maxY = minY + imageSize.height
        }
        return .init(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
    }

    /// A fitted box brought back to the image's content aspect ratio where the image asks for it
    /// (MapLibre's `applyTextFit`, used only for images with a content box): a `proportional`
    /// height makes the width follow it (always when the width is `proportional` too, only to
    /// widen when it is `stretchOnly`); otherwise a `proportional` width makes the height follow
    /// it, only to grow and only when the height is `stretchOnly`. The new length is rounded up
    /// to a whole pixel and the box grows away from the anchor in proportion, as MapLibre's does.
    public static func constrained(_ box: FrameDescription.ScreenBox, contentAspect: Double,
                                   width: TextFit, height: TextFit) -> FrameDescription.ScreenBox {
        var out = box
        let w = box.maxX - box.minX, h = box.maxY - box.minY
        guard w > 0, h > 0, contentAspect > 0, contentAspect.isFinite else { return box }
        if height == .proportional {
            if width == .proportional || (width == .stretchOnly && w / h < contentAspect) {
                let newWidth = (h * contentAspect).rounded(.up)
                out.minX = box.minX * newWidth / w
                out.maxX = out.minX + newWidth
            }
        } else if width == .proportional, height == .stretchOnly, w / h > contentAspect {
            let newHeight = (w / contentAspect).rounded(.up)
            out.minY = box.minY * newHeight / h
            out.maxY = out.minY + newHeight
        }
        return out
    }
}

/// A sprite image's `textFitWidth` or `textFitHeight`: how that axis of an icon fitted to its
/// text may differ from the image's content aspect ratio.
public enum TextFit: String, Sendable {
    /// The axis takes the text's length, longer or shorter than the image (the default).
    case stretchOrShrink
    /// The axis only grows to keep the content's aspect ratio.
    case stretchOnly
    /// The axis follows the other one through the content's aspect ratio.
    case proportional
}

/// How a fitted icon's image is laid over its box, one list of cuts per axis (MapLibre's icon
/// quads): between two cuts the image is stretched linearly, so a plain image is one span
/// scaled to the box and a stretchable one a grid whose fixed parts keep their pixel size while
/// its stretch zones share the rest in proportion.
public struct IconSlices: Sendable, Equatable {
    /// A place along an axis: `position` device pixels from the anchor (before any turn) shows
    /// the image's `image` coordinate (pixels; 0 is its edge, −1 and length + 1 the edges of
    /// the transparent pixel around it).
    public struct Cut: Sendable, Equatable {
        public var position: Double
        public var image: Double
        public init(position: Double, image: Double) { self.position = position; self.image = image }
    }

    public var x: [Cut]
    public var y: [Cut]

    /// The device-pixel box the cuts cover.
    public var box: FrameDescription.ScreenBox {
        .init(minX: x.first?.position ?? 0, minY: y.first?.position ?? 0, maxX: x.last?.position ?? 0, maxY: y.last?.position ?? 0)
    }

    /// The cuts of `icon` fitted to `box` (CSS pixels around the anchor at `icon-size` 1, as
    /// `IconTextFit.box` gives it) at `size` (`icon-size`) and `scale` device pixels per CSS
    /// pixel; nil when the box or the image's zones leave nothing to stretch (nothing to draw).
    /// With a content box, the content, not the whole image, spans the box.
    public init?(icon: SpriteIcon, box: FrameDescription.ScreenBox, size: Double, scale: Double) {
        let content = icon.content
        let stretchable = icon.stretchX != nil || icon.stretchY != nil
        guard let x = Self.cuts(length: Double(icon.image.width), zones: icon.stretchX, content: content.map { ($0.x1, $0.x2) },
                                start: box.minX, extent: box.maxX - box.minX, stretchable: stretchable,
                                pixelRatio: icon.pixelRatio, size: size, scale: scale),
              let y = Self.cuts(length: Double(icon.image.height), zones: icon.stretchY, content: content.map { ($0.y1, $0.y2) },
                                start: box.minY, extent: box.maxY - box.minY, stretchable: stretchable,
                                pixelRatio: icon.pixelRatio, size: size, scale: scale)
        else { return nil }
        self.x = x; self.y = y
    }

    /// One axis's cuts. A cut is a (fixed, stretch) pair of image lengths before it: its image
    /// coordinate is their sum; its position is the stretched part's share of the box (scaled
    /// by `icon-size`, but never below what the fixed parts need) plus the fixed part in the
    /// image's own pixels (MapLibre's em and pixel offsets, measured from the content's start).
    static func cuts(length: Double, zones given: [ClosedRange<Double>]?, content: (Double, Double)?,
                     start: Double, extent: Double, stretchable: Bool,
                     pixelRatio: Double, size: Double, scale: Double) -> [Cut]? {
        let zones = given ?? [0...length]
        let stretchLength = zones.reduce(0) { $0 + $1.upperBound - $1.lowerBound }
        let fixedLength = length - stretchLength
        func stretchWithin(_ a: Double, _ b: Double) -> Double {
            zones.reduce(0) { $0 + max(a, min(b, $1.upperBound)) - max(a, min(b, $1.lowerBound)) }
        }
        var stretchOffset = 0.0, stretchContent = stretchLength, fixedOffset = 0.0, fixedContent = fixedLength
        if let (c1, c2) = content {
            stretchOffset = stretchWithin(0, c1)
            stretchContent = stretchWithin(c1, c2)
            fixedOffset = c1 - stretchOffset
            fixedContent = c2 - c1 - stretchContent
        }
        guard extent > 0, stretchContent > 0, stretchLength > 0 else { return nil }
        let emScale = max(fixedContent / pixelRatio / extent, size)
        // (fixed, stretch) pairs: one span over the whole image (and its transparent pixel), or
        // the edges of every zone, fixed parts between them.
        var pairs: [(fixed: Double, stretch: Double)]
        if stretchable {
            pairs = [(-1, 0)]
            for zone in zones {
                let last = pairs[pairs.count - 1].stretch
                pairs.append((zone.lowerBound - last, last))
                pairs.append((zone.lowerBound - last, last + zone.upperBound - zone.lowerBound))
            }
            pairs.append((fixedLength + 1, stretchLength))
        } else {
            pairs = [(0, -1), (0, length + 1)]
        }
        return pairs.map { p in
            let em = (p.stretch - stretchOffset) / stretchContent * extent + start
            let px = p.fixed - fixedOffset - fixedContent * p.stretch / stretchLength
            return Cut(position: (em * emScale + px / pixelRatio) * scale, image: p.fixed + p.stretch)
        }
    }

    /// The image coordinate shown `position` device pixels along an axis of `cuts`, or nil
    /// outside them.
    public static func image(at position: Double, _ cuts: [Cut]) -> Double? {
        guard cuts.count > 1 else { return nil }
        for i in 1..<cuts.count {
            let a = cuts[i - 1], b = cuts[i]
            guard b.position > a.position else { continue }
            if position >= a.position && position < b.position {
                return a.image + (position - a.position) / (b.position - a.position) * (b.image - a.image)
            }
        }
        return nil
    }
}
