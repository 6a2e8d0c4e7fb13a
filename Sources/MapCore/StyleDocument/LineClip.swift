import Foundation

/// The pieces of a line inside a tile's square, as MapLibre cuts a line before laying symbols
/// along it (`clip_line.ts`): each segment is clipped to x in [x1, x2] then y in [y1, y2], with
/// the points it cuts rounded to whole units; a segment wholly left of or above the square, or
/// at or past its right or bottom edge, is dropped. Consecutive kept segments that meet make one
/// piece, so a line that leaves the square and comes back makes several.
enum LineClip {
    struct Piece {
        /// The piece's points, in the frame the square's corner is taken from.
        var points: [(x: Double, y: Double)]
        /// For each of the piece's segments, the segment of the whole line it was cut from.
        var segments: [Int]
    }

    /// Clips the listed segments of `line` (segment i runs from point i to i + 1; listed in
    /// increasing order, the others taken as outside) to the tile square [0, extent]² whose
    /// corner is at `origin` in the line's frame. The pieces are in the tile's frame.
    /// `buffer` grows the square on every side (a tile's data reaching past its edges).
    static func clip(_ line: [(x: Double, y: Double)], segments: [Int], origin: (x: Double, y: Double),
                     extent: Double, buffer: Double = 0) -> [Piece] {
        let (x1, y1, x2, y2) = (-buffer, -buffer, extent + buffer, extent + buffer)
        let round = LineAnchors.roundedHalfUp
        var pieces: [Piece] = []
        for i in segments {
            var p0 = (x: line[i].x - origin.x, y: line[i].y - origin.y)
            var p1 = (x: line[i + 1].x - origin.x, y: line[i + 1].y - origin.y)

            if p0.x < x1 && p1.x < x1 { continue }
            if p0.x < x1 { p0 = (x1, round(p0.y + (p1.y - p0.y) * ((x1 - p0.x) / (p1.x - p0.x)))) }
            else if p1.x < x1 { p1 = (x1, round(p0.y + (p1.y - p0.y) * ((x1 - p0.x) / (p1.x - p0.x)))) }

            if p0.y < y1 && p1.y < y1 { continue }
            if p0.y < y1 { p0 = (round(p0.x + (p1.x - p0.x) * ((y1 - p0.y) / (p1.y - p0.y))), y1) }
            else if p1.y < y1 { p1 = (round(p0.x + (p1.x - p0.x) * ((y1 - p0.y) / (p1.y - p0.y))), y1) }

            if p0.x >= x2 && p1.x >= x2 { continue }
            if p0.x >= x2 { p0 = (x2, round(p0.y + (p1.y - p0.y) * ((x2 - p0.x) / (p1.x - p0.x)))) }
            else if p1.x >= x2 { p1 = (x2, round(p0.y + (p1.y - p0.y) * ((x2 - p0.x) / (p1.x - p0.x)))) }

            if p0.y >= y2 && p1.y >= y2 { continue }
            if p0.y >= y2 { p0 = (round(p0.x + (p1.x - p0.x) * ((y2 - p0.y) / (p1.y - p0.y))), y2) }
            else if p1.y >= y2 { p1 = (round(p0.x + (p1.x - p0.x) * ((y2 - p0.y) / (p1.y - p0.y))), y2) }

            if let last = pieces.last?.points.last, last == p0 {
                pieces[pieces.count - 1].points.append(p1)
                pieces[pieces.count - 1].segments.append(i)
            } else {
                pieces.append(Piece(points: [p0, p1], segments: [i]))
            }
        }
        return pieces
    }
}
