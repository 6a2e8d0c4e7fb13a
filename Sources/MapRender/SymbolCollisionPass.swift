import Foundation
import MapCore
import Raster

/// What a collision pass decided for one symbol (by its identity).
struct SymbolDecision {
    /// The text's candidate position placed in the last pass (nil: it found no room).
    var text: Int?
    var icon: Bool
    /// The candidate and icon to lay out: those placed, or while fading out, those last placed.
    var shownText: Int?
    var shownIcon: Bool
}

/// One collision pass, as MapLibre's placement makes it: every symbol layer of the frame, the
/// top layer first, each layer's symbols in their order (`symbol-sort-key`, source order, or
/// from the bottom up for `symbol-z-order: viewport-y`), each symbol's icon and each candidate
/// position of its text tried against MapLibre's collision grid (`CollisionGrid`): boxes for
/// icons and point labels, chains of circles for labels along lines. A text must reach into
/// the window grown by the grid's padding; with `always` it shows even beyond. Icon and text
/// show together unless one is optional. A variable anchor placed in the last pass is tried
/// first, so a label does not jump between equally good places. The result depends only on
/// the view and the symbols.
struct SymbolCollisionPass {
    /// Decisions by symbol identity (those of symbols that left are kept while they fade out).
    private(set) var decisions: [Int: SymbolDecision] = [:]
    private var grid = CollisionGrid()
    /// The identities met in this pass (a symbol met twice, as a tile's neighbour also holds
    /// it, is placed once).
    private var seen: Set<Int> = []
    /// What this pass did with each symbol it met (for the fade).
    private(set) var placed: [Int: SymbolFade.Placed] = [:]
    /// Per layer of the frame, the order its symbols are placed in.
    private var orders: [SymbolPlacementOrder] = []

    /// Places every symbol layer of `layers` for `view`; `isKept(id)` says whether a symbol no
    /// longer met is still fading out (its decision is kept while it is).
    mutating func run(_ layers: [FrameDescription.DrawLayer], view: ViewTransform, identities: SymbolIdentities,
                      skipFade: Bool, isKept: (Int) -> Bool) {
        let w = Double(view.size.width), h = Double(view.size.height)
        grid.reset(width: w, height: h)
        seen.removeAll(keepingCapacity: true)
        placed.removeAll(keepingCapacity: true)
        let context = layers.lazy.compactMap { $0.symbols?.context }.first
        for box in context?.avoid ?? [] { grid.insert(box, overlap: .never) }
        for i in layers.indices.reversed() {
            guard let draw = layers[i].symbols else { continue }
            let ids = identities.ids(layer: i)
            let layout = SymbolScreenLayout(view: view, iconTranslate: draw.iconTranslate, textTranslate: draw.textTranslate)
            let symbols = draw.set.symbols
            while orders.count <= i { orders.append(SymbolPlacementOrder()) }
            for k in orders[i].order(for: draw.set, bearing: view.camera.bearing) where k < ids.count {
                let id = ids[k]
                guard seen.insert(id).inserted else { continue }
                let previous = decisions[id]
                let symbol = symbols[k]
                let (decision, offscreen) = place(symbol, previous: previous, layout)
                decisions[id] = decision
                // A symbol whose parts all show over anything shows at once: nothing could have
                // hidden it, and one whose data moves (the ISS) would otherwise fade out and in
                // at each step (MapLibre shows the symbols of a reloaded tile at once).
                let always = (symbol.text?.collision.allowOverlap ?? true) && (symbol.icon?.collision.allowOverlap ?? true)
                placed[id] = .init(text: decision.text != nil, icon: decision.icon, skipFade: skipFade || offscreen || always)
            }
        }
        // Symbols gone and faded out are forgotten (now and then: a long pan meets many).
        if decisions.count > 2 * seen.count + 256 {
            decisions = decisions.filter { seen.contains($0.key) || isKept($0.key) }
        }
    }

    /// One symbol tried against the grid (and inserted when it shows): the decision, and
    /// whether what it placed lies wholly outside the window (it then shows at once, as
    /// MapLibre skips the fade of symbols placed off screen).
    private mutating func place(_ symbol: SymbolSet.Symbol, previous: SymbolDecision?, _ layout: SymbolScreenLayout)
        -> (SymbolDecision, Bool) {
        let w = layout.width, h = layout.height
        let (a, copy) = layout.anchor(symbol.point)
        var (s, ts) = layout.translatedAnchors(symbol.point, at: a)
        // On a pitched map each part's anchor is translated in the map's plane and projected;
        // a part deeper than MapLibre's cutoff is never placed.
        let iconPitch = symbol.icon == nil ? nil : layout.pitch(symbol.point, copy: copy, translate: layout.iconTranslate)
        let textPitch = symbol.text == nil ? nil : layout.pitch(symbol.point, copy: copy, translate: layout.textTranslate)
        if let p = iconPitch { s = p.point }
        if let p = textPitch { ts = p.point }
        let textPlaceable = textPitch?.placeable ?? true
        let iconInPlane = symbol.icon?.pitchesWithMap == true && iconPitch != nil
        let iconScale = iconInPlane ? 1 : iconPitch?.ratio ?? 1
        let textInReach = textPlaceable && ts.x > -w && ts.x < 2 * w && ts.y > -h && ts.y < 2 * h
        func none() -> (SymbolDecision, Bool) {
            (SymbolDecision(text: nil, icon: false, shownText: previous?.shownText, shownIcon: previous?.shownIcon ?? false), false)
        }
        if layout.isOccluded(symbol.point) { return none() }
        var found: TextPlace?
        var textTried = false
        var iconBox: FrameDescription.ScreenBox?
        var iconFits = true
        if let icon = symbol.icon {
            if let p = iconPitch, !p.placeable { return none() }
            var b = icon.box
            var point = s
            if icon.followsText, let text = symbol.text {
                // An icon fitted to its text goes where the text goes: the text is placed
                // first; each candidate of a variable anchor must leave room for the icon
                // moved with it (unless the icon may overlap), as MapLibre's placement asks.
                textTried = true
                if textInReach {
                    let follower = icon.collision.allowOverlap || text.positions.isEmpty ? nil : icon
                    found = placeText(text, symbol, at: ts, pitch: textPitch, copy: copy, previous: previous?.shownText,
                                      follower: follower.map { ($0, s, iconScale) }, layout)
                }
                if let f = found {
                    point = Point(s.x + f.shift.x, s.y + f.shift.y)
                    if f.text.vertical, let v = icon.vertical { b = v.box }
                }
            }
            if iconScale != 1 { b = SymbolScreenLayout.scaled(b, by: iconScale) }
            var box = SymbolScreenLayout.iconBox(b, at: point, padding: icon.collision.padding * iconScale)
            if iconInPlane, let p = iconPitch, let perspective = layout.perspective {
                // In the map's plane: the flat box about the flat anchor, projected, moved with its text.
                let flat = perspective.projectedBox(SymbolScreenLayout.iconBox(b, at: Point(0, 0), padding: icon.collision.padding), about: p.flat)
                let dx = point.x - s.x, dy = point.y - s.y
                box = .init(minX: flat.minX + dx, minY: flat.minY + dy, maxX: flat.maxX + dx, maxY: flat.maxY + dy)
            }
            // Out of sight (with room for a turn): neither drawn nor in anyone's way.
            let reach = max(b.maxX - b.minX, b.maxY - b.minY)
            if box.maxX < -reach || box.minX > w + reach || box.maxY < -reach || box.minY > h + reach {
                // (One that may overlap anything still counts as shown, as MapLibre shows
                // such symbols off its grid: the text beside it may be in sight.)
                if !icon.collision.allowOverlap {
                    if symbol.text == nil || !icon.collision.optional { return none() }
                    iconFits = false
                }
            } else {
                iconBox = box
                iconFits = icon.collision.allowOverlap || (grid.isInsideGrid(box) && !grid.hitTest(box, overlap: icon.collision.overlap))
            }
            // (A required icon that has no room: the symbol does not show, whatever its text.)
            if !iconFits && !icon.collision.optional { return none() }
        }
        if !textTried, let text = symbol.text, textInReach || (textPlaceable && text.alongLine != nil) {
            found = placeText(text, symbol, at: ts, pitch: textPitch, copy: copy, previous: previous?.shownText, follower: nil, layout)
        }
        // Icon and text show together unless one of them is optional: an optional text lets
        // the icon show alone, an optional icon the text.
        var showIcon = symbol.icon != nil && iconFits
        var showText = found != nil
        if let icon = symbol.icon, let text = symbol.text {
            if !icon.collision.optional && !text.collision.optional {
                showIcon = showIcon && showText; showText = showIcon
            } else if !icon.collision.optional {
                showText = showText && showIcon
            } else if !text.collision.optional {
                showIcon = showIcon && showText
            }
        }
        guard showIcon || showText else { return none() }
        var offscreen = true
        func note(_ b: FrameDescription.ScreenBox) { if b.maxX >= 0 && b.minX <= w && b.maxY >= 0 && b.minY <= h { offscreen = false } }
        if showText, let f = found, let text = symbol.text {
            note(f.text.box)
            if !text.collision.ignorePlacement {
                if let circles = f.circles {
                    for c in circles { grid.insertCircle(x: c.x, y: c.y, radius: c.r, overlap: text.collision.overlap) }
                } else {
                    grid.insert(f.text.box, overlap: text.collision.overlap)
                }
            }
        }
        if showIcon, let b = iconBox, let icon = symbol.icon {
            note(b)
            if !icon.collision.ignorePlacement { grid.insert(b, overlap: icon.collision.overlap) }
        }
        let text = showText ? found?.candidate : nil
        return (SymbolDecision(text: text, icon: showIcon, shownText: text ?? previous?.shownText,
                               shownIcon: showIcon || (previous?.shownIcon ?? false)), offscreen)
    }

    /// A text's place: its candidate, the label there, how far its fitted icon moves with it,
    /// and for a label along a line the circles it claims.
    private struct TextPlace {
        let candidate: Int
        let text: PlacedText
        let shift: (x: Double, y: Double)
        let circles: [(x: Double, y: Double, r: Double)]?
    }

    /// The first of the text's candidate positions (the one placed last time first) that
    /// reaches into the grid and meets nothing it may not overlap, or nil. With a variable
    /// anchor and an overlap mode other than `never`, every candidate is first tried without
    /// overlapping anything (MapLibre's two passes). `follower`: an icon fitted to the text,
    /// at its point, that must fit too when moved with the candidate.
    private mutating func placeText(_ text: SymbolSet.Text, _ symbol: SymbolSet.Symbol, at s: Point, pitch: SymbolPitch?, copy: Double, previous: Int?,
                                    follower: (icon: SymbolSet.Icon, at: Point, scale: Double)?, _ layout: SymbolScreenLayout) -> TextPlace? {
        let mode = text.collision.overlap
        if let along = text.alongLine {
            guard let line = symbol.line,
                  let r = layout.alongLine(text, along, line: line, segment: symbol.segment, copy: copy, at: s, pitch: pitch) else { return nil }
            if mode != .always {
                guard !r.circles.isEmpty else { return nil }
                for c in r.circles where grid.hitTestCircle(x: c.x, y: c.y, radius: c.r, overlap: mode) { return nil }
            }
            return TextPlace(candidate: 0, text: r.text, shift: (0, 0), circles: r.circles)
        }
        // Each orientation in turn; its anchors (the last pass' first, then the rest in
        // order), all of them without overlap first when the mode allows some.
        let perOrientation = max(text.positions.count, 1)
        let modes: [OverlapMode] = text.positions.isEmpty || mode == .never ? [mode] : [.never, mode]
        for orientation in 0..<text.orientations.count {
            let base = orientation * perOrientation
            let first = previous.flatMap { $0 >= base && $0 < base + perOrientation ? $0 - base : nil } ?? 0
            for m in modes {
                for j in 0..<perOrientation {
                    let index = base + (j == 0 ? first : (j <= first ? j - 1 : j))
                    let (t, shift) = layout.candidate(text, index, at: s, pitch: pitch)
                    if m != .always {
                        guard grid.isInsideGrid(t.box), !grid.hitTest(t.box, overlap: m) else { continue }
                        if let (icon, point, k) = follower {
                            let b = SymbolScreenLayout.scaled(t.vertical ? icon.vertical?.box ?? icon.box : icon.box, by: k)
                            let moved = SymbolScreenLayout.iconBox(b, at: Point(point.x + shift.x, point.y + shift.y), padding: icon.collision.padding * k)
                            guard grid.isInsideGrid(moved), !grid.hitTest(moved, overlap: icon.collision.overlap) else { continue }
                        }
                    }
                    return TextPlace(candidate: index, text: t, shift: shift, circles: nil)
                }
            }
        }
        return nil
    }
}

extension SymbolScreenLayout {
    /// A symbol laid out as a pass decided it (the candidate and icon it shows), or nil when
    /// nothing of it can be laid out here (a label along a line that no longer fits its line).
    func symbol(_ symbol: SymbolSet.Symbol, _ decision: SymbolDecision) -> PlacedSymbol? {
        let (a, copy) = anchor(symbol.point)
        var (s, ts) = translatedAnchors(symbol.point, at: a)
        let iconPitch = symbol.icon == nil ? nil : pitch(symbol.point, copy: copy, translate: iconTranslate)
        let textPitch = symbol.text == nil ? nil : pitch(symbol.point, copy: copy, translate: textTranslate)
        if let p = iconPitch { s = p.point }
        if let p = textPitch { ts = p.point }
        var text: PlacedText?
        var shift = (x: 0.0, y: 0.0)
        if let t = symbol.text, let c = decision.shownText {
            if let along = t.alongLine {
                if let line = symbol.line {
                    text = alongLine(t, along, line: line, segment: symbol.segment, copy: copy, at: ts, pitch: textPitch, circles: false)?.text
                }
            } else {
                let r = candidate(t, min(c, Self.candidateCount(t) - 1), at: ts, pitch: textPitch)
                text = r.text; shift = r.shift
            }
        }
        var point = s
        var image = symbol.icon?.image
        if let icon = symbol.icon, icon.followsText, let t = text {
            point = Point(s.x + shift.x, s.y + shift.y)
            if t.vertical, let v = icon.vertical { image = v.image }
        }
        // (Facing the viewer an icon turned with the map turns as its east shows on screen; in
        // the map's plane it is laid on the flat screen, turned by the bearing, and projected.)
        let inPlane = symbol.icon?.pitchesWithMap == true && perspective != nil
        let turn = inPlane ? view.camera.bearing : iconPitch?.mapTurn ?? view.camera.bearing
        var icon = decision.shownIcon ? image.map { screenImage($0, bearing: turn) } : nil
        var iconPlane: SIMD4<Double>?
        if let p = iconPitch, let i = icon {
            // (Seen straight down, MapLibre reads icons at their nearest texel, on the globe too.)
            icon = Self.pitched(i, scale: inPlane ? p.mapScale : p.viewportScale, smooth: view.camera.pitch != 0)
            if inPlane { iconPlane = perspective?.plane(at: p.flat) }
        }
        guard icon != nil || text != nil else { return nil }
        var placed = PlacedSymbol(point: point, icon: icon, text: text)
        placed.anchor = symbol.point
        placed.iconPlane = iconPlane
        return placed
    }
}
