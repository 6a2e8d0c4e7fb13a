import Foundation
import MapCore
import MapData
import Raster

/// A label that found room: its text, where its text starts (baseline), its dot, and the box it
/// claims (text plus halo, and the dot).
public struct PlacedLabel: Equatable, Sendable {
    public let text: String
    public let kind: Place.Kind
    public let dot: Point?
    public let origin: Point
    public let box: FrameDescription.ScreenBox
}

/// The labels placed for one frame, per label layer (by its index among the frame's layers). It
/// keeps its storage and is refilled in place, so placing labels anew as the camera moves does not
/// allocate once warm. One placement can serve several band renderers, which only read it.
public final class LabelPlacement: @unchecked Sendable {
    private var view: ViewTransform?
    /// The frame's layers when placed (shared with the frame, not copied).
    private var layers: [FrameDescription.DrawLayer] = []
    private var byLayer: [[PlacedLabel]] = []
    private var boxes: [FrameDescription.ScreenBox] = []
    /// Placement's working storage (kept between frames).
    private var scratch = LabelPlacer.Scratch()
    /// Readers wait while a placement announced by `willPlace` is being made.
    private let gate = NSCondition()
    private var pending = false

    public init() {}

    /// Announces that `place` is about to run (on another thread): `labels(layer:)` waits for it.
    public func willPlace() {
        gate.lock(); pending = true; gate.unlock()
    }

    /// Whether this placement was made for `frame`'s view and label layers.
    public func isCurrent(for frame: FrameDescription) -> Bool {
        guard view == frame.view else { return false }
        var i = 0, j = 0
        let a = layers, b = frame.layers
        while true {
            while i < a.count && a[i].labels == nil { i += 1 }
            while j < b.count && b[j].labels == nil { j += 1 }
            if i == a.count || j == b.count { return i == a.count && j == b.count }
            if i != j || a[i] != b[j] { return false }
            i += 1; j += 1
        }
    }

    /// Places every label layer of `frame` in one collision space, the top layer first.
    public func place(_ frame: FrameDescription) {
        view = frame.view
        layers = frame.layers
        boxes.removeAll(keepingCapacity: true)
        while byLayer.count < layers.count { byLayer.append([]) }
        for i in byLayer.indices { byLayer[i].removeAll(keepingCapacity: true) }
        for i in layers.indices.reversed() {
            guard case let .labels(paint) = layers[i].paint, let draw = layers[i].labels else { continue }
            LabelPlacer.place(draw, paint: paint, view: frame.view, placed: &boxes, into: &byLayer[i], scratch: &scratch)
        }
        gate.lock(); pending = false; gate.broadcast(); gate.unlock()
    }

    /// The labels of the frame's layer `index` (none for other layers).
    public func labels(layer index: Int) -> [PlacedLabel] {
        gate.lock()
        while pending { gate.wait() }
        gate.unlock()
        return index < byLayer.count && index < layers.count && layers[index].labels != nil ? byLayer[index] : []
    }
}

/// Greedy label placement by rank: each place tries a few positions around its dot (right,
/// left, above, below; countries centred) and takes the first that stays in the window and
/// clear of labels already placed and of the boxes to avoid (an app's obstacles, the overlay). The result depends
/// only on the camera, the viewport and the places, so the same view always gives the same
/// labels, and panning only adds or drops labels at the window's edges.
public enum LabelPlacer {
    /// Storage `place` works in, kept by the caller so that a warm frame does not allocate.
    public struct Scratch {
        /// One bit per place: the candidates of a layer.
        var candidates: [UInt64] = []
        /// The boxes placed so far, by where they lie.
        var index = BoxIndex()
        public init() {}
    }

    /// Places every label layer of a frame in one collision space, the top layer first (as
    /// MapLibre does): labels of different layers never overlap either.
    public static func placeAll(_ frame: FrameDescription) -> [String: [PlacedLabel]] {
        let placement = LabelPlacement()
        placement.place(frame)
        var out: [String: [PlacedLabel]] = [:]
        for (i, layer) in frame.layers.enumerated() where layer.labels != nil { out[layer.id] = placement.labels(layer: i) }
        return out
    }

    /// Places one layer's labels, clear of `placed` (which it extends), appending them to `out`.
    public static func place(_ draw: FrameDescription.LabelDraw, paint: LabelPaint, view: ViewTransform,
                             placed: inout [FrameDescription.ScreenBox], into out: inout [PlacedLabel],
                             scratch: inout Scratch) {
        let font = draw.font
        let zoom = view.camera.zoom
        guard zoom < paint.maxZoom else { return }
        let w = Double(view.size.width), h = Double(view.size.height)
        let (ascent, descent) = font.metrics(size: paint.textSize)
        let pad = paint.haloWidth + 1
        placed += draw.avoid
        scratch.index.reset(width: w, height: h)
        for b in placed { scratch.index.insert(b) }
        let set = draw.places, places = set.places, minZooms = set.minZooms
        // The places whose longitude can be on screen (50 px past each side, as below), a band
        // more each side for rounding, as bits in rank order; all of them when the window spans
        // the world.
        // (At a bearing the window's corners reach half its diagonal from the centre.)
        let reach = ((view.isNorthUp ? w : (w * w + h * h).squareRoot()) / 2 + 50) / view.worldSize
        let bands = PlaceSet.bands
        let centre = view.centerPixel.x / view.worldSize
        let first = Int(((centre - reach) * Double(bands)).rounded(.down)) - 1
        let last = Int(((centre + reach) * Double(bands)).rounded(.down)) + 1
        let everywhere = last - first + 1 >= bands
        let words = (places.count + 63) / 64
        if scratch.candidates.count < words {
            scratch.candidates.append(contentsOf: repeatElement(0, count: words - scratch.candidates.count))
        }
        @inline(__always) func consider(_ index: Int) {
            if minZooms[index] <= zoom { scratch.candidates[index >> 6] |= 1 << UInt64(index & 63) }
        }
        if everywhere {
            for index in places.indices { consider(index) }
        } else {
            for b in first...last {
                let band = ((b % bands) + bands) % bands
                for k in Int(set.bandStart[band])..<Int(set.bandStart[band + 1]) { consider(Int(set.bandIndices[k])) }
            }
        }
        // The candidates in rank order (each word cleared as it is read, ready for the next layer).
        var word = 0, bits: UInt64 = 0
        while true {
            while bits == 0 && word < words { bits = scratch.candidates[word]; scratch.candidates[word] = 0; word += 1 }
            guard bits != 0 else { break }
            let index = (word - 1) * 64 + bits.trailingZeroBitCount
            bits &= bits &- 1
            var s = view.screen(places[index].mercator)
            // The world copy nearest the window's centre (rounding only when it is not this one).
            if view.isNorthUp {
                let off = s.x - w / 2
                if abs(off) >= view.worldSize / 2 { s.x -= (off / view.worldSize).rounded() * view.worldSize }
            } else {
                s = view.nearestScreen(places[index].mercator)
            }
            guard s.x > -50, s.x < w + 50, s.y > -50, s.y < h + 50 else { continue }
            let dotBox: FrameDescription.ScreenBox? = paint.dotRadius > 0
                ? .init(minX: s.x - paint.dotRadius - 1, minY: s.y - paint.dotRadius - 1, maxX: s.x + paint.dotRadius + 1, maxY: s.y + paint.dotRadius + 1)
                : nil
            // (A dot that lands on a label placed before rules the place out before its name
            // is looked up and measured.)
            if let d = dotBox, scratch.index.intersectsAny(d) { continue }
            let text = draw.places.name(index, uppercase: paint.uppercase)
            let width = advance(text, font: font, paint: paint)
            // Text origins (baseline start) to try, in order: right, left, above, below; or centred.
            let mid = (ascent - descent) / 2
            let gap = paint.dotRadius + 4
            let candidates = paint.dotRadius > 0
                ? (Point(s.x + gap, s.y + mid), Point(s.x - gap - width, s.y + mid),
                   Point(s.x - width / 2, s.y - gap - descent), Point(s.x - width / 2, s.y + gap + ascent), 4)
                : (Point(s.x - width / 2, s.y + mid), Point(0, 0), Point(0, 0), Point(0, 0), 1)
            for k in 0..<candidates.4 {
                let o = k == 0 ? candidates.0 : k == 1 ? candidates.1 : k == 2 ? candidates.2 : candidates.3
                let box = FrameDescription.ScreenBox(minX: o.x - pad, minY: o.y - ascent - pad, maxX: o.x + width + pad, maxY: o.y + descent + pad)
                guard box.minX >= 0, box.minY >= 0, box.maxX <= w, box.maxY <= h else { continue }
                guard !scratch.index.intersectsAny(box) else { continue }
                placed.append(box)
                scratch.index.insert(box)
                if let d = dotBox { placed.append(d); scratch.index.insert(d) }
                out.append(PlacedLabel(text: text, kind: places[index].kind, dot: dotBox == nil ? nil : Point(s.x, s.y), origin: o, box: box))
                break
            }
        }
    }

    /// Width of `text` set in `font` with the paint's size and letter spacing (remembered by the font).
    static func advance(_ text: String, font: any TextFont, paint: LabelPaint) -> Double {
        font.width(text, size: paint.textSize, letterSpacing: paint.letterSpacing)
    }

    /// Calls `body` with each glyph's outline and its pen position.
    static func forEachGlyph(_ label: PlacedLabel, font: any TextFont, paint: LabelPaint, _ body: (Path, Point) -> Void) {
        var x = label.origin.x
        var previous: Unicode.Scalar?
        for u in label.text.unicodeScalars {
            if let p = previous { x += font.kerning(p, u, size: paint.textSize) }
            if let g = font.glyph(u, size: paint.textSize) {
                body(g.path, Point(x, label.origin.y))
                x += g.advance + paint.letterSpacing
            } else {
                x += paint.textSize * 0.5 + paint.letterSpacing
            }
            previous = u
        }
    }
}
