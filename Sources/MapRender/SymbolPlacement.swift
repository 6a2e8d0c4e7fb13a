import Foundation
import MapCore
import Raster

/// A symbol that found room: its anchor on screen, its icon (turned as the screen shows it) and
/// its text where it went.
public struct PlacedSymbol: Sendable {
    public let point: Point
    public let icon: SymbolSet.IconImage?
    public let text: PlacedText?
}

/// A placed label: its text, the point its shaped glyphs are drawn around (the anchor on
/// screen, moved by its candidate position), its turn on screen and the box it claims.
public struct PlacedText: Sendable {
    public let text: SymbolSet.Text
    /// Which of the text's shapings (horizontal, or vertical; justified for its anchor).
    public let shaped: ShapedText
    /// Identifies that shaping among all labels' (the mask cache's key).
    public let key: String
    public let origin: Point
    /// Radians, clockwise on screen.
    public let rotation: Double
    public let box: FrameDescription.ScreenBox
    /// Whether the vertical shaping was placed (an icon fitted to the text follows it).
    public let vertical: Bool
    /// The label's characters (tests and tools read them).
    public var string: String { shaped.sections.map(\.text).joined() }
}

/// The symbols placed for one frame, per symbol layer (by its index among the frame's layers).
/// Every symbol layer is placed in one collision space, the top layer first (as MapLibre
/// does): icons and labels of different layers never overlap either. The storage is kept and
/// refilled in place, so placing anew as the camera moves does not allocate once warm. One
/// placement can serve several band renderers, which only read it.
public final class SymbolPlacement: @unchecked Sendable {
    private var view: ViewTransform?
    private var context: SymbolContext?
    /// The frame's layers when placed (shared with the frame, not copied).
    private var layers: [FrameDescription.DrawLayer] = []
    private var byLayer: [[PlacedSymbol]] = []
    /// Placement's working storage (kept between frames).
    private var index = BoxIndex()
    /// Readers wait while a placement announced by `willPlace` is being made.
    private let gate = NSCondition()
    private var pending = false
    /// Readers waiting in `symbols(layer:)` for the announced placement.
    private var waiting = 0

    public init() {}

    /// Announces that `place` is about to run (on another thread): `symbols(layer:)` waits for it.
    public func willPlace() {
        gate.lock(); pending = true; gate.unlock()
    }

    /// Whether this placement was made for `frame`'s view and symbol layers.
    public func isCurrent(for frame: FrameDescription) -> Bool {
        guard view == frame.view else { return false }
        var i = 0, j = 0
        let a = layers, b = frame.layers
        while true {
            while i < a.count && a[i].symbols == nil { i += 1 }
            while j < b.count && b[j].symbols == nil { j += 1 }
            if i == a.count || j == b.count { return i == a.count && j == b.count }
            if i != j || a[i].symbols != b[j].symbols { return false }
            i += 1; j += 1
        }
    }

    /// Places every symbol layer of `frame`, the top layer first.
    public func place(_ frame: FrameDescription) {
        view = frame.view
        layers = frame.layers
        while byLayer.count < layers.count { byLayer.append([]) }
        for i in byLayer.indices { byLayer[i].removeAll(keepingCapacity: true) }
        let v = frame.view
        index.reset(width: Double(v.size.width), height: Double(v.size.height))
        context = layers.lazy.compactMap { $0.symbols?.context }.first
        for box in context?.avoid ?? [] { index.insert(box) }
        for i in layers.indices.reversed() {
            guard let draw = layers[i].symbols else { continue }
            SymbolPlacer.place(draw.set, view: v, iconTranslate: draw.iconTranslate, textTranslate: draw.textTranslate,
                               index: &index, into: &byLayer[i])
        }
        gate.lock(); pending = false; gate.broadcast(); gate.unlock()
    }

    /// The symbols placed of the frame's layer `index` (none for other layers).
    public func symbols(layer index: Int) -> [PlacedSymbol] {
        gate.lock()
        if pending {
            waiting += 1
            gate.broadcast()
            while pending { gate.wait() }
            waiting -= 1
        }
        gate.unlock()
        return index < byLayer.count && index < layers.count && layers[index].symbols != nil ? byLayer[index] : []
    }

    /// Waits until `count` readers wait for the announced placement, at most `timeout` seconds;
    /// whether they do. (Tests wait on this to know a reader is held back before they place.)
    func waitForWaitingReaders(_ count: Int, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        gate.lock(); defer { gate.unlock() }
        while waiting < count {
            if !gate.wait(until: deadline) { return waiting >= count }
        }
        return true
    }

    /// The labels placed in `frame`, by layer id (a placement of its own).
    public static func labels(_ frame: FrameDescription) -> [String: [PlacedText]] {
        let placement = SymbolPlacement()
        placement.place(frame)
        var out: [String: [PlacedText]] = [:]
        for (i, layer) in frame.layers.enumerated() where layer.symbols != nil {
            out[layer.id] = placement.symbols(layer: i).compactMap(\.text)
        }
        return out
    }
}

/// Greedy placement in the symbols' order: each symbol's icon and each candidate position of
/// its text are tried against the boxes placed so far; a text must also reach into the window
/// grown by MapLibre's 100-px padding. Icon and text show together unless one is optional,
/// as in the style specification. The result depends only on the camera, the viewport and the
/// symbols, so the same view always gives the same symbols, and panning only adds or drops
/// symbols at the window's edges.
enum SymbolPlacer {
    /// How far past the window symbols are placed (MapLibre's collision grid's padding).
    static let viewportPadding = 100.0
    /// `iconTranslate`, `textTranslate`: screen offsets of the layer's icons and texts from
    /// their anchors (`icon-translate`, `text-translate`), in their boxes too.
    static func place(_ set: SymbolSet, view: ViewTransform, iconTranslate: (x: Double, y: Double) = (0, 0),
                      textTranslate: (x: Double, y: Double) = (0, 0), index: inout BoxIndex, into out: inout [PlacedSymbol]) {
        let w = Double(view.size.width), h = Double(view.size.height)
        let northUp = view.isNorthUp
        for symbol in set.symbols {
            var anchor = view.screen(symbol.point)
            // The world copy nearest the window's centre (rounding only when it is not this one).
            if northUp {
                let off = anchor.x - w / 2
                if abs(off) >= view.worldSize / 2 { anchor.x -= (off / view.worldSize).rounded() * view.worldSize }
            } else {
                anchor = view.nearestScreen(symbol.point)
            }
            let s = Point(anchor.x + iconTranslate.x, anchor.y + iconTranslate.y)
            let ts = Point(anchor.x + textTranslate.x, anchor.y + textTranslate.y)
            let textInReach = ts.x > -w && ts.x < 2 * w && ts.y > -h && ts.y < 2 * h
            var placedText: PlacedText?
            var textTried = false
            // The icon: its box where the point is, upright on screen.
            var iconPoint = s, iconImage = symbol.icon?.image
            var iconBox: FrameDescription.ScreenBox?
            var iconFits = true
            if let icon = symbol.icon {
                var b = icon.box
                if icon.followsText, let text = symbol.text {
                    // An icon fitted to its text goes where the text goes: the text is placed
                    // first; each candidate of a variable anchor must leave room for the icon
                    // moved with it (unless the icon may overlap), as MapLibre's placement asks;
                    // and the icon takes the text's move and orientation.
                    textTried = true
                    if textInReach {
                        let follower = icon.collision.allowOverlap || text.positions.isEmpty ? nil : icon
                        placedText = placeText(text, at: ts, bearing: view.camera.bearing, width: w, height: h, icon: follower.map { ($0, s) }, index: &index)
                    }
                    if let t = placedText {
                        iconPoint = Point(s.x + t.origin.x - ts.x, s.y + t.origin.y - ts.y)
                        if t.vertical, let v = icon.vertical { b = v.box; iconImage = v.image }
                    }
                }
                let pad = icon.collision.padding
                let box = FrameDescription.ScreenBox(minX: iconPoint.x + b.minX - pad, minY: iconPoint.y + b.minY - pad,
                                                     maxX: iconPoint.x + b.maxX + pad, maxY: iconPoint.y + b.maxY + pad)
                // Out of sight (with room for a turn): neither drawn nor in anyone's way.
                let reach = max(b.maxX - b.minX, b.maxY - b.minY)
                if box.maxX < -reach || box.minX > w + reach || box.maxY < -reach || box.minY > h + reach {
                    if symbol.text == nil || !icon.collision.optional { continue }
                    iconFits = false
                } else {
                    iconBox = box
                    iconFits = icon.collision.allowOverlap || !index.intersectsAny(box)
                }
                // (A required icon that has no room: the symbol does not show, whatever its text.)
                if !iconFits && !icon.collision.optional { continue }
            }
            // The text: the first candidate position inside the window and clear of others.
            if !textTried, let text = symbol.text, textInReach {
                placedText = placeText(text, at: ts, bearing: view.camera.bearing, width: w, height: h, index: &index)
            }
            // Icon and text show together unless one of them is optional: an optional text lets
            // the icon show alone, an optional icon the text.
            var showIcon = symbol.icon != nil && iconFits
            var showText = placedText != nil
            if let icon = symbol.icon, let text = symbol.text {
                if !icon.collision.optional && !text.collision.optional {
                    showIcon = showIcon && showText; showText = showIcon
                } else if !icon.collision.optional {
                    showText = showText && showIcon
                } else if !text.collision.optional {
                    showIcon = showIcon && showText
                }
            }
            guard showIcon || showText else { continue }
            if showText, let t = placedText, symbol.text?.collision.ignorePlacement == false { index.insert(t.box) }
            if showIcon, let b = iconBox, symbol.icon?.collision.ignorePlacement == false { index.insert(b) }
            out.append(PlacedSymbol(point: iconPoint, icon: showIcon ? iconImage.map { screenImage($0, view) } : nil,
                                    text: showText ? placedText : nil))
        }
    }

    /// The first of the text's candidate positions whose box lies inside the window and clear
    /// of the boxes placed (or any, when it may overlap), or nil. `icon`: an icon fitted to the
    /// text, at its point, that must fit too when moved with the candidate.
    private static func placeText(_ text: SymbolSet.Text, at s: Point, bearing: Double, width w: Double, height h: Double,
                                  icon: (icon: SymbolSet.Icon, at: Point)? = nil, index: inout BoxIndex) -> PlacedText? {
        let pad = text.collision.padding
        // (Without variable anchors the shaping put the box where it goes.)
        let candidates = text.positions.isEmpty ? [(anchor: IconAnchor.center, offset: (x: 0.0, y: 0.0))] : text.positions
        for (orientation, turn) in text.orientations {
            let angle = (text.rotate + turn - (text.rotatesWithMap ? bearing : 0)) * Double.pi / 180
            for (anchor, offset) in candidates {
                let (shaped, key) = turn == 0 ? text.shaped(for: anchor) : (orientation, text.key + "\u{1}v")
                let b = turned(text.box(shaped), by: angle)
                let width = b.maxX - b.minX + 2 * pad, height = b.maxY - b.minY + 2 * pad
                var dx = offset.x, dy = offset.y
                if !text.positions.isEmpty {
                    let f = anchor.fraction
                    dx += -(f.x - 0.5) * width; dy += -(f.y - 0.5) * height
                }
                let origin = Point(s.x + dx, s.y + dy)
                let box = FrameDescription.ScreenBox(minX: origin.x + b.minX - pad, minY: origin.y + b.minY - pad,
                                                     maxX: origin.x + b.maxX + pad, maxY: origin.y + b.maxY + pad)
                // MapLibre's collision grid reaches 100 px past the window: a box reaching into it
                // may be placed (partly off screen); one that may overlap shows even beyond.
                if !text.collision.allowOverlap {
                    let pad = SymbolPlacer.viewportPadding
                    func fits(_ box: FrameDescription.ScreenBox) -> Bool {
                        box.maxX >= -pad && box.minX < w + pad && box.maxY >= -pad && box.minY < h + pad && !index.intersectsAny(box)
                    }
                    guard fits(box) else { continue }
                    if let (icon, point) = icon {
                        let b = turn == 90 ? icon.vertical?.box ?? icon.box : icon.box, p = icon.collision.padding
                        let x = point.x + dx, y = point.y + dy
                        guard fits(.init(minX: x + b.minX - p, minY: y + b.minY - p, maxX: x + b.maxX + p, maxY: y + b.maxY + p)) else { continue }
                    }
                }
                return PlacedText(text: text, shaped: shaped, key: key, origin: origin, rotation: angle, box: box, vertical: turn == 90)
            }
        }
        return nil
    }

    /// The box around `b` turned by `angle` (radians, clockwise) about the anchor.
    private static func turned(_ b: FrameDescription.ScreenBox, by angle: Double) -> FrameDescription.ScreenBox {
        guard angle.truncatingRemainder(dividingBy: 2 * Double.pi) != 0 else { return b }
        let c = cos(angle), sn = sin(angle)
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for (x, y) in [(b.minX, b.minY), (b.maxX, b.minY), (b.minX, b.maxY), (b.maxX, b.maxY)] {
            let rx = x * c - y * sn, ry = x * sn + y * c
            minX = min(minX, rx); maxX = max(maxX, rx); minY = min(minY, ry); maxY = max(maxY, ry)
        }
        return .init(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
    }

    /// The icon as drawn at the view's bearing: one aligned to the map turns with it.
    private static func screenImage(_ image: SymbolSet.IconImage, _ view: ViewTransform) -> SymbolSet.IconImage {
        let bearing = view.camera.bearing
        guard bearing != 0 else { return image }
        switch image {
        case var .sprite(p):
            guard p.rotatesWithMap else { return image }
            p.rotate -= bearing; p.smooth = true
            return .sprite(p)
        case var .vector(p):
            guard p.rotatesWithMap else { return image }
            p.rotate -= bearing
            return .vector(p)
        }
    }
}
