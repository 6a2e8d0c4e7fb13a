import Dispatch
import Foundation
import MapCore
import Raster

/// A symbol that found room: its anchor on screen, its icon (turned as the screen shows it) and
/// its text where it went.
public struct PlacedSymbol: Sendable {
    public internal(set) var point: Point
    public let icon: SymbolSet.IconImage?
    public var text: PlacedText?
    /// How far the icon has faded in (0...1; 1 once placed when fading is off).
    public var iconFade: Double = 1
    /// The symbol's identity (the same label in the next frame, or laid out again for the next
    /// zoom, has the same) and its anchor on the map.
    public var id = 0
    public var anchor = MercatorPoint(x: 0, y: 0)
    /// An icon lying in a pitched map's plane: how that plane looks on screen at it (see
    /// `PlacedText.plane`); nil: facing the viewer.
    var iconPlane: SIMD4<Double>?
}

/// A placed label: its text, the point its shaped glyphs are drawn around (the anchor on
/// screen, moved by its candidate position), its turn on screen and the box it claims.
public struct PlacedText: Sendable {
    public let text: SymbolSet.Text
    /// Which of the text's shapings (horizontal, or vertical; justified for its anchor).
    public let shaped: ShapedText
    /// Identifies that shaping among all labels' (the mask cache's key).
    public let key: String
    public internal(set) var origin: Point
    /// Radians, clockwise on screen.
    public let rotation: Double
    public internal(set) var box: FrameDescription.ScreenBox
    /// Whether the vertical shaping was placed (an icon fitted to the text follows it).
    public let vertical: Bool
    /// A label along its line: each glyph's centre and turn relative to `origin` (its anchor).
    var glyphs: [GlyphPose]? = nil
    /// How far the label has faded in (0...1).
    public var fade: Double = 1
    /// On a pitched map: the factor its size is drawn at (1 flat), and for a label lying in the
    /// map's plane how that plane looks on screen at it (x' = a x + b y, y' = c x + d y, applied
    /// to its glyphs' shapes after their size and turn; nil: facing the viewer).
    var sizeScale = 1.0
    var plane: SIMD4<Double>?
    /// Its edges' softness over a flat label's (a label in a pitched map's plane: see `SymbolPerspective.gammaScale`).
    var gammaScale = 1.0
    /// The label's characters (tests and tools read them).
    public var string: String { shaped.sections.map(\.text).joined() }
}

/// The symbols shown in each frame, per symbol layer (by its index among the frame's layers),
/// placed as MapLibre places them. A collision pass (`SymbolCollisionPass`) decides which
/// symbols find room, in one collision grid for every symbol layer, the top layer first; it
/// runs on MapLibre's cadence (at once when the fade duration is 0, as in snapshots and render
/// tests; else when the last pass is older than the fade duration, less for a zoom change).
/// Between passes each frame lays the decided symbols out where the view now shows them, so a
/// label that stays placed keeps its place relative to its anchor, and symbols fade in and out
/// (`SymbolFade`). Symbols keep their identity across layouts (`SymbolIdentities`): the same
/// label at the next zoom is the same label, not a new one fading in. The storage is kept and
/// refilled in place; one placement can serve several band renderers, which only read it.
public final class SymbolPlacement: @unchecked Sendable {
    private var view: ViewTransform?
    /// The frame's layers when placed (shared with the frame, not copied).
    private var layers: [FrameDescription.DrawLayer] = []
    private var byLayer: [[PlacedSymbol]] = []
    private var pass = SymbolCollisionPass()
    private var identities = SymbolIdentities()
    private var fade = SymbolFade(fadeDuration: 0)
    /// Whether a collision pass has run, and whether one waits for its turn.
    private var passed = false
    private var passPending = false
    /// The view the symbols were last laid out for, and whether a pass or a fade's commit came
    /// since (a view only moved since is laid out by shifting that layout).
    private var laidOutView: ViewTransform?
    private var committedSinceLayout = true
    /// A collision pass is waiting for its turn, or symbols are fading: the frame should be
    /// drawn again soon even if nothing else changes.
    public private(set) var isAnimating = false
    /// Symbols are fading: draw the next frame as soon as the display takes one.
    public private(set) var isFading = false
    /// When the pass that waits for its turn may run (the frame's clock), nil when none waits:
    /// draw a frame then (not before: it would only wait again).
    public private(set) var passDueAt: Double?
    /// When the last pass (or a renewal of it) was committed.
    private var lastCommit = -Double.infinity
    /// Seconds spent in `place` so far (collision passes and layouts), and in its collision
    /// passes alone; how many passes ran (the bench reads them).
    public private(set) var placeSeconds = 0.0
    public private(set) var passSeconds = 0.0
    public private(set) var passes = 0
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

    /// Whether this placement was made for `frame`'s view and symbol layers, and nothing of it
    /// is still changing with time.
    public func isCurrent(for frame: FrameDescription) -> Bool {
        !isAnimating && view == frame.view && sameLayers(frame)
    }

    /// Places every symbol layer of `frame` (a collision pass when one is due), advances the
    /// fades to the frame's time and lays the symbols out for its view.
    public func place(_ frame: FrameDescription) {
        let start = DispatchTime.now().uptimeNanoseconds
        defer { placeSeconds += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
        let now = frame.symbolTime, duration = max(frame.symbolFadeDuration, 0)
        let sameLayers = self.sameLayers(frame)
        let changed = view != frame.view || !sameLayers || passPending || !passed
        view = frame.view
        layers = frame.layers
        identities.update(layers)
        fade.fadeDuration = duration
        if changed {
            let zoom = frame.view.camera.zoom
            if passed && !fade.placementDue(now: now, zoom: zoom) {
                passPending = true
            } else {
                // (The first pass shows its symbols at once, as MapLibre's first placement.)
                let fade = self.fade
                let passStart = DispatchTime.now().uptimeNanoseconds
                defer { passSeconds += Double(DispatchTime.now().uptimeNanoseconds - passStart) / 1e9; passes += 1 }
                pass.run(layers, view: frame.view, identities: identities, skipFade: !passed) { fade.opacity(of: $0, now: now) != nil }
                self.fade.commit(pass.placed, now: now, zoom: zoom, forgetUnseen: true)
                passed = true
                passPending = false
                committedSinceLayout = true
                lastCommit = now
            }
        } else if duration > 0 && fade.placementDue(now: now, zoom: frame.view.camera.zoom) {
            // MapLibre places again on every frame drawn once its last placement is no longer
            // recent, even when nothing moved, so its next placement waits a fade from this
            // one. Nothing moved: the pass would decide as the last one did (it depends only
            // on the view and the symbols), so only its commit is renewed.
            fade.commit(pass.placed, now: now, zoom: frame.view.camera.zoom, forgetUnseen: true)
            committedSinceLayout = true
            lastCommit = now
        }
        let v = frame.view
        if !committedSinceLayout, sameLayers, let last = laidOutView, last.size == v.size,
           last.camera.zoom == v.camera.zoom, last.camera.bearing == v.camera.bearing, !last.isPitched, !v.isPitched {
            // Only panned since the last layout: every symbol moves with the map (on a flat
            // map: a pitched one shows each symbol at its own depth).
            let p = MercatorPoint(x: last.centerPixel.x / last.worldSize, y: last.centerPixel.y / last.worldSize)
            let a = last.screen(p), b = v.screen(p)
            shiftLayout(by: (b.x - a.x, b.y - a.y), now: now)
        } else {
            layOut(v, now: now)
        }
        laidOutView = v
        committedSinceLayout = false
        isFading = fade.isFading(now: now)
        // (A pass is due a fade after the last commit at the latest: sooner after a zoom out.)
        passDueAt = passPending ? lastCommit + duration : nil
        isAnimating = passPending || isFading
        gate.lock(); pending = false; gate.broadcast(); gate.unlock()
    }

    /// Whether `frame` has the symbol layers of the last placement.
    private func sameLayers(_ frame: FrameDescription) -> Bool {
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

    /// The last layout moved by `d` pixels (the view panned, nothing else changed), each
    /// symbol's fade brought to `now`. (What a new layout would give, up to the world copy a
    /// far pan would choose and a line label's reach past the window, which the next pass
    /// brings up to date.)
    private func shiftLayout(by d: (x: Double, y: Double), now: Double) {
        for i in byLayer.indices {
            for k in byLayer[i].indices {
                var s = byLayer[i][k]
                let o = fade.opacity(of: s.id, now: now)
                s.point = Point(s.point.x + d.x, s.point.y + d.y)
                s.iconFade = o?.icon ?? 0
                if var t = s.text {
                    t.origin = Point(t.origin.x + d.x, t.origin.y + d.y)
                    t.box = .init(minX: t.box.minX + d.x, minY: t.box.minY + d.y, maxX: t.box.maxX + d.x, maxY: t.box.maxY + d.y)
                    t.fade = o?.text ?? 0
                    s.text = t
                }
                byLayer[i][k] = s
            }
        }
    }

    /// Every symbol the last pass placed or that is still fading out, laid out for `view` as the
    /// pass decided (those placed but not yet faded in with opacity 0: a shifted layout fades
    /// them in without laying everything out again).
    private func layOut(_ view: ViewTransform, now: Double) {
        while byLayer.count < layers.count { byLayer.append([]) }
        for i in byLayer.indices { byLayer[i].removeAll(keepingCapacity: true) }
        for i in layers.indices {
            guard let draw = layers[i].symbols else { continue }
            let ids = identities.ids(layer: i)
            let layout = SymbolScreenLayout(view: view, iconTranslate: draw.iconTranslate, textTranslate: draw.textTranslate)
            for (k, symbol) in draw.set.symbols.enumerated() where k < ids.count {
                guard let decision = pass.decisions[ids[k]], let o = fade.opacity(of: ids[k], now: now),
                      o.text > 0 || o.icon > 0 || decision.text != nil || decision.icon else { continue }
                if var placed = layout.symbol(symbol, decision) {
                    placed.iconFade = o.icon
                    placed.id = ids[k]
                    if placed.text != nil { placed.text?.fade = o.text }
                    byLayer[i].append(placed)
                }
            }
        }
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
