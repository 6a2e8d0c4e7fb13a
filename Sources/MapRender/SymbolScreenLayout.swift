import Foundation
import MapCore
import Raster

/// Where a symbol's parts go on screen for one view: its anchor (the world copy nearest the
/// window's centre), its icon's box, each candidate position of its text (the shaping, the
/// box it claims, the turn), and a label along its line laid out glyph by glyph. Pure
/// geometry: whether a part finds room is the collision pass's question (`SymbolCollisionPass`),
/// and the same candidate laid out again in a later frame lands in the same place relative to
/// the anchor, however the view moved.
struct SymbolScreenLayout {
    let view: ViewTransform
    let width: Double, height: Double
    let iconTranslate: (x: Double, y: Double)
    let textTranslate: (x: Double, y: Double)
    /// The view's perspective (nil when flat: symbols are laid out as on a flat map).
    let perspective: SymbolPerspective?

    init(view: ViewTransform, iconTranslate: (x: Double, y: Double), textTranslate: (x: Double, y: Double)) {
        self.view = view
        perspective = SymbolPerspective(view)
        width = Double(view.size.width); height = Double(view.size.height)
        self.iconTranslate = iconTranslate; self.textTranslate = textTranslate
    }

    /// How far past the window a line label's anchor may lie and still be laid out
    /// (MapLibre's clipping buffer for labels along lines: 256 px).
    static let lineLabelReach = 256.0

    /// The anchor on screen: the world copy nearest the window's centre (rounding only when it
    /// is not this one), and that copy's shift in world pixels along x (unturned).
    func anchor(_ point: MercatorPoint) -> (point: Point, copy: Double) {
        if view.globe != nil {
            // (The globe has one copy.)
            let s = view.screen(point)
            return (Point(s.x, s.y), 0)
        }
        var anchor = view.screen(point)
        var copy = 0.0
        if view.isNorthUp && perspective == nil {
            let off = anchor.x - width / 2
            if abs(off) >= view.worldSize / 2 {
                copy = -(off / view.worldSize).rounded()
                anchor.x += copy * view.worldSize
            }
        } else {
            // (As `nearestScreen` chooses: by the copy's distance from the centre along x.)
            let off = point.x - view.centerPixel.x / view.worldSize
            if abs(off) >= 0.5 { copy = -off.rounded() }
            anchor = view.screen(MercatorPoint(x: point.x + copy, y: point.y))
        }
        return (Point(anchor.x, anchor.y), copy)
    }

    /// Whether `point` is on the globe's far side, hidden behind it (never on a flat map):
    /// MapLibre places no symbol there.
    func isOccluded(_ point: MercatorPoint) -> Bool {
        guard let globe = view.globe else { return false }
        return !globe.isSeen(GlobeTransform.surface(WebMercator.unproject(point)))
    }

    /// The icon's and the text's anchors, `anchor` (the screen point of `point`) moved by their
    /// translates: on screen on a flat map; on the globe, as MapLibre moves them there, in the
    /// map's units at the frame's zoom (tile units), the moved point laid on the sphere. (On a
    /// pitched map `pitch` replaces them.)
    func translatedAnchors(_ point: MercatorPoint, at anchor: Point) -> (icon: Point, text: Point) {
        guard view.globe != nil else {
            return (Point(anchor.x + iconTranslate.x, anchor.y + iconTranslate.y), Point(anchor.x + textTranslate.x, anchor.y + textTranslate.y))
        }
        func moved(_ t: (x: Double, y: Double)) -> Point {
            guard t.x != 0 || t.y != 0 else { return anchor }
            let s = view.screen(movedInMap(point, by: t))
            return Point(s.x, s.y)
        }
        return (moved(iconTranslate), moved(textTranslate))
    }

    /// `point` moved by `t` (screen pixels, as the view turns them) in the map's units at the
    /// frame's zoom: the translate turned back to the map's axes.
    private func movedInMap(_ point: MercatorPoint, by t: (x: Double, y: Double)) -> MercatorPoint {
        let b = view.camera.bearing * Double.pi / 180, world = view.worldSize
        return MercatorPoint(x: point.x + (t.x * cos(b) - t.y * sin(b)) / world, y: point.y + (t.x * sin(b) + t.y * cos(b)) / world)
    }

    /// A part's anchor on a pitched map or the globe: `point` (world copy `copy`) moved by
    /// `translate` in the map's plane and projected, with its perspective (nil when the map is
    /// flat). On the globe the move is in the map's units at the frame's zoom, as MapLibre's
    /// symbol shaders make it (`translatedAnchors`).
    func pitch(_ point: MercatorPoint, copy: Double, translate: (x: Double, y: Double)) -> SymbolPitch? {
        perspective?.pitch(point, copy: copy, translate: translate, bearing: view.camera.bearing)
    }

    /// A point of world copy `copy` on screen.
    func screen(_ p: MercatorPoint, copy: Double) -> Point {
        let s = view.screen(MercatorPoint(x: p.x + copy, y: p.y))
        return Point(s.x, s.y)
    }

    /// The icon's box at `point` (grown by its padding), before any room is sought.
    static func iconBox(_ box: FrameDescription.ScreenBox, at point: Point, padding pad: Double) -> FrameDescription.ScreenBox {
        .init(minX: point.x + box.minX - pad, minY: point.y + box.minY - pad, maxX: point.x + box.maxX + pad, maxY: point.y + box.maxY + pad)
    }

    /// How many candidate positions a point label has (orientations × variable anchors).
    static func candidateCount(_ text: SymbolSet.Text) -> Int {
        text.orientationCount * max(text.positions.count, 1)
    }

    /// Candidate `index` of a point label anchored at `s` (the text's translated anchor): its
    /// shaping, the box it claims and where its fitted icon moves (`shift`), turned as the
    /// view shows it.
    func candidate(_ text: SymbolSet.Text, _ index: Int, at s: Point, pitch: SymbolPitch? = nil) -> (text: PlacedText, shift: (x: Double, y: Double)) {
        if let pitch { return pitchedCandidate(text, index, pitch) }
        let perOrientation = max(text.positions.count, 1)
        let (orientation, turn) = text.orientation(min(index / perOrientation, text.orientationCount - 1))
        let (anchor, offset) = text.positions.isEmpty ? (IconAnchor.center, (x: 0.0, y: 0.0)) : text.positions[index % perOrientation]
        let bearing = view.camera.bearing
        let angle = (text.rotate + turn - (text.rotatesWithMap ? bearing : 0)) * Double.pi / 180
        let pad = text.collision.padding
        let (shaped, key) = turn == 0 ? text.shaped(for: anchor) : (orientation, text.key + "\u{1}v")
        let b = Self.turned(text.box(shaped), by: angle)
        var dx = 0.0, dy = 0.0
        if !text.positions.isEmpty {
            // MapLibre moves the box by the anchor's share of its size (padding included) and
            // the offset, in the frame the text turns with: on a map turned under a label
            // aligned to the viewport that is the screen; one turning with the map moves
            // along the map's axes.
            let w = b.maxX - b.minX + 2 * pad, h = b.maxY - b.minY + 2 * pad
            let f = anchor.fraction
            var x = offset.x - (f.x - 0.5) * w, y = offset.y - (f.y - 0.5) * h
            if text.rotatesWithMap && bearing != 0 {
                let a = -bearing * Double.pi / 180
                (x, y) = (x * cos(a) - y * sin(a), x * sin(a) + y * cos(a))
            }
            dx = x; dy = y
        }
        let origin = Point(s.x + dx, s.y + dy)
        let box = FrameDescription.ScreenBox(minX: origin.x + b.minX - pad, minY: origin.y + b.minY - pad,
                                             maxX: origin.x + b.maxX + pad, maxY: origin.y + b.maxY + pad)
        return (PlacedText(text: text, shaped: shaped, key: key, origin: origin, rotation: angle, box: box, vertical: turn == 90), (dx, dy))
    }

    /// A label along its line, anchored at `s` on segment `segment` of `line` (world copy
    /// `copy`): each glyph's place and turn, and the circles it claims (radius grown by its
    /// padding), or nil where MapLibre hides it (its anchor far outside the window, its glyphs
    /// running off the line, or upside down and not fitting the other way).
    /// (`circles` false: a layout for drawing only, the circles not made.)
    func alongLine(_ text: SymbolSet.Text, _ along: SymbolSet.AlongLine, line: SymbolLine, segment: Int, copy: Double, at screenAnchor: Point,
                   pitch: SymbolPitch? = nil, circles wanted: Bool = true) -> (text: PlacedText, circles: [(x: Double, y: Double, r: Double)])? {
        let reach = Self.lineLabelReach
        guard screenAnchor.x >= -reach, screenAnchor.x <= width + reach, screenAnchor.y >= -reach, screenAnchor.y <= height + reach,
              segment >= 0, segment + 1 < line.count else { return nil }
        // On a pitched map a label facing the viewer is laid along the projected line at its
        // size x the perspective ratio; one in the map's plane along the line on the flat
        // screen (at its size / the ratio) and projected (MapLibre's label plane).
        let pitchScale = pitch.map { text.pitchesWithMap ? 1 / $0.ratio : $0.viewportScale } ?? 1
        let inPlane = pitch != nil && text.pitchesWithMap && perspective != nil
        let s = inPlane ? pitch?.flat ?? screenAnchor : screenAnchor
        let scale = text.paint.size / SDFGlyph.em * pitchScale
        func offsets(_ shaped: ShapedText) -> [Double] {
            var out: [Double] = []
            out.reserveCapacity(shaped.glyphs.count)
            for g in shaped.glyphs { out.append((g.x + g.glyph.advance * g.scale / 2) * scale) }
            return out
        }
        let t = textTranslate
        let vertex: (Int) -> Point
        if let perspective {
            // (In the map's plane: the flat screen; else projected, translated in that plane.)
            let a = pitch?.flat ?? s
            vertex = { i in
                let m = line.point(i)
                let f = perspective.flat.screen(MercatorPoint(x: m.x + copy, y: m.y))
                let p = Point(f.x + t.x, f.y + t.y)
                return inPlane ? p : perspective.projectTowards(p, from: a)
            }
        } else {
            vertex = { i in
                let p = screen(line.point(i), copy: copy)
                return Point(p.x + t.x, p.y + t.y)
            }
        }
        let lineOffset = (x: along.offset.x * pitchScale, y: along.offset.y * pitchScale)
        var shaped = text.shaped
        guard var placed = LineLabelLayout.place(vertex: vertex, count: line.count, anchor: s, segment: segment, offsets: offsets(shaped),
                                                 lineOffsetX: lineOffset.x, lineOffsetY: lineOffset.y, keepUpright: along.keepUpright,
                                                 rotateGlyphs: along.rotateGlyphs, hasVertical: text.vertical != nil) else { return nil }
        // A steep label of upright script goes down its line in its vertical shaping (its
        // collision circles stay those of the horizontal one, as MapLibre's).
        var vertical = false
        if placed.useVertical, let v = text.vertical {
            guard let down = LineLabelLayout.place(vertex: vertex, count: line.count, anchor: s, segment: segment, offsets: offsets(v),
                                                   lineOffsetX: lineOffset.x, lineOffsetY: lineOffset.y, keepUpright: along.keepUpright,
                                                   rotateGlyphs: along.rotateGlyphs, hasVertical: true, vertical: true) else { return nil }
            let path = placed.path
            placed = down
            placed.path = path
            shaped = v
            vertical = true
        }
        var poses = placed.poses
        var path = placed.path
        var plane: SIMD4<Double>?
        if inPlane, let perspective, let pitch {
            // Each glyph's place projected; its shape by the projection's slope at the anchor.
            for i in poses.indices {
                let q = perspective.apply(Point(poses[i].x, poses[i].y))
                poses[i].x = q.x - screenAnchor.x; poses[i].y = q.y - screenAnchor.y
            }
            path = path.map { perspective.apply($0) }
            plane = perspective.plane(at: pitch.flat)
        } else {
            for i in poses.indices { poses[i].x -= s.x; poses[i].y -= s.y }
        }
        let ratio = pitch?.ratio ?? 1
        let diameter = max(10, shaped.bottom - shaped.top) * text.paint.size / SDFGlyph.em
        let radius = diameter / 2 * ratio + text.collision.padding
        let circles = wanted ? LineLabelLayout.collisionCircles(path: path, radius: radius, viewport: (width, height),
                                                                padding: CollisionGrid.viewportPadding) : []
        // The box around its path grown by the circles' radius (what the overlay and tools read).
        let s0 = screenAnchor
        var box = FrameDescription.ScreenBox(minX: s0.x, minY: s0.y, maxX: s0.x, maxY: s0.y)
        for p in path {
            box.minX = min(box.minX, p.x - radius); box.minY = min(box.minY, p.y - radius)
            box.maxX = max(box.maxX, p.x + radius); box.maxY = max(box.maxY, p.y + radius)
        }
        var out = PlacedText(text: text, shaped: shaped, key: vertical ? text.key + "\u{1}v" : text.key, origin: s0, rotation: 0, box: box,
                             vertical: vertical)
        out.glyphs = poses
        if let pitch {
            out.sizeScale = text.pitchesWithMap ? pitch.mapScale : pitch.viewportScale
            out.plane = plane
            if inPlane, let perspective { out.gammaScale = perspective.gammaScale(pitch) }
        }
        return (out, circles)
    }

    /// The box around `b` turned by `angle` (radians, clockwise) about the anchor.
    static func turned(_ b: FrameDescription.ScreenBox, by angle: Double) -> FrameDescription.ScreenBox {
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
    func screenImage(_ image: SymbolSet.IconImage, bearing: Double) -> SymbolSet.IconImage {
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
