import Foundation
import MapCore
import Raster

extension SymbolScreenLayout {
    /// Candidate `index` of a point label on a pitched map (see `candidate`), as MapLibre draws
    /// and collides it: facing the viewer, its size and box x the perspective ratio about the
    /// projected anchor, a label turned with the map turned as the map's east is on screen; lying
    /// in the map's plane, laid out on the flat screen (drawn at its size x clamp(0.5 + 0.5 w /
    /// ctc)) and projected, its box the flat box's eight points projected (`collision_index.ts`).
    func pitchedCandidate(_ text: SymbolSet.Text, _ index: Int, _ pitch: SymbolPitch) -> (text: PlacedText, shift: (x: Double, y: Double)) {
        let perOrientation = max(text.positions.count, 1)
        let (orientation, turn) = text.orientation(min(index / perOrientation, text.orientationCount - 1))
        let (anchor, offset) = text.positions.isEmpty ? (IconAnchor.center, (x: 0.0, y: 0.0)) : text.positions[index % perOrientation]
        let inPlane = text.pitchesWithMap && perspective != nil
        // (In the map's plane the label turns with the flat map; facing the viewer with the map's east.)
        let mapTurn = inPlane ? view.camera.bearing : pitch.mapTurn
        let angle = (text.rotate + turn - (text.rotatesWithMap ? mapTurn : 0)) * Double.pi / 180
        let (shaped, key) = turn == 0 ? text.shaped(for: anchor) : (orientation, text.key + "\u{1}v")
        // The label's box grown by its padding (MapLibre's collision box holds its padding).
        let u = text.box(shaped), p = text.collision.padding
        let padded = FrameDescription.ScreenBox(minX: u.minX - p, minY: u.minY - p, maxX: u.maxX + p, maxY: u.maxY + p)
        // The box, turned, and the anchor's move at scale k (the collision's) about the centre.
        func laid(_ k: Double) -> (box: FrameDescription.ScreenBox, shift: (x: Double, y: Double)) {
            let t = Self.turned(padded, by: angle)
            let b = FrameDescription.ScreenBox(minX: t.minX * k, minY: t.minY * k, maxX: t.maxX * k, maxY: t.maxY * k)
            guard !text.positions.isEmpty else { return (b, (0, 0)) }
            // (The move is by the label's own width and height, unturned
            // (`calculateVariableRenderShift`), then turned as the map's east shows on screen.)
            let w = (padded.maxX - padded.minX) * k, h = (padded.maxY - padded.minY) * k
            let f = anchor.fraction
            var x = offset.x * k - (f.x - 0.5) * w, y = offset.y * k - (f.y - 0.5) * h
            if text.rotatesWithMap && mapTurn != 0 {
                let a = -mapTurn * Double.pi / 180
                (x, y) = (x * cos(a) - y * sin(a), x * sin(a) + y * cos(a))
            }
            return (b, (x, y))
        }
        if inPlane, let perspective {
            let f = pitch.flat
            // Collision: the flat box (unscaled, turned) about the moved anchor, eight points projected.
            let (_, shift) = laid(1)
            let box = perspective.projectedBox(padded, about: f, offset: shift, turn: angle)
            // Drawn: at the plane's size, moved as much, projected.
            let k = pitch.mapScale
            let (_, drawnShift) = laid(k)
            let origin = perspective.place(drawnShift, from: f)
            var placed = PlacedText(text: text, shaped: shaped, key: key, origin: origin, rotation: angle, box: box, vertical: turn == 90)
            placed.sizeScale = k
            placed.plane = perspective.plane(at: f, offset: drawnShift)
            placed.gammaScale = perspective.gammaScale(pitch)
            return (placed, (origin.x - pitch.point.x, origin.y - pitch.point.y))
        }
        let k = pitch.viewportScale
        let (b, shift) = laid(pitch.ratio)
        let (_, drawnShift) = laid(k)
        let s = pitch.point
        let origin = Point(s.x + drawnShift.x, s.y + drawnShift.y)
        let box = FrameDescription.ScreenBox(minX: s.x + shift.x + b.minX, minY: s.y + shift.y + b.minY,
                                             maxX: s.x + shift.x + b.maxX, maxY: s.y + shift.y + b.maxY)
        var placed = PlacedText(text: text, shaped: shaped, key: key, origin: origin, rotation: angle, box: box, vertical: turn == 90)
        placed.sizeScale = k
        return (placed, drawnShift)
    }

    /// An icon as drawn at a pitched anchor: its size x the perspective ratio (MapLibre's
    /// symbol shaders; an icon in the map's plane grows as much there, then shrinks by depth).
    /// `smooth`: sampled linearly (MapLibre samples icons at their nearest texel unless the
    /// view is pitched, or they are scaled or turned otherwise: on the globe seen straight down,
    /// nearest).
    static func pitched(_ image: SymbolSet.IconImage, scale k: Double, smooth: Bool = true) -> SymbolSet.IconImage {
        guard k != 1 else { return image }
        switch image {
        case var .sprite(p):
            p.scale *= k; p.size *= k; p.offset = (p.offset.x * k, p.offset.y * k); p.smooth = p.smooth || smooth
            if var s = p.slices {
                for i in s.x.indices { s.x[i].position *= k }
                for i in s.y.indices { s.y[i].position *= k }
                p.slices = s
            }
            return .sprite(p)
        case var .vector(p):
            p.scale *= k; p.offset = (p.offset.x * k, p.offset.y * k)
            return .vector(p)
        }
    }

    /// An icon's box scaled by `k` about its anchor.
    static func scaled(_ b: FrameDescription.ScreenBox, by k: Double) -> FrameDescription.ScreenBox {
        .init(minX: b.minX * k, minY: b.minY * k, maxX: b.maxX * k, maxY: b.maxY * k)
    }
}
