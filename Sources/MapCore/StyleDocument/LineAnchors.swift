import Foundation

/// Where symbols go along a line (`symbol-placement: line`), as the reference engines choose:
/// the first anchor (label length / 2 + 2 em) x box scale from the start, then one every
/// `spacing`, each with room for the label on the line; a line with no anchor gets one at its
/// middle. All lengths in pixels at the current zoom.
public enum LineAnchors {
    public struct Anchor: Equatable, Sendable {
        public let x: Double, y: Double
        /// The direction of the line there, radians (atan2 of the segment, y down).
        public let angle: Double
    }

    /// - Parameters:
    ///   - line: the polyline in pixels.
    ///   - labelLength: the symbol's length along the line, in pixels at box scale 1.
    ///   - boxScale: the reference engines scale the offset and label length by
    ///     text-max-size / 24 (2/3 with the default text size 16).
    public static func along(_ line: [(x: Double, y: Double)], spacing: Double, labelLength: Double,
                             boxScale: Double) -> [Anchor] {
        guard line.count >= 2 else { return [] }
        // NaN lengths count as 0, and a spacing that is not positive as 1 px: with them no
        // anchor could ever be placed, yet the walk along the line would go on.
        let product = labelLength * boxScale
        let label = product.isNaN ? 0 : product
        var spacing = spacing > 0 ? spacing : 1
        if spacing - label < spacing / 4 { spacing = label + spacing / 4 }
        let offset = ((labelLength / 2 + 48) * boxScale).truncatingRemainder(dividingBy: max(spacing, 1e-9))
        let anchors = resample(line, offset: offset, spacing: spacing, label: label)
        if !anchors.isEmpty { return anchors }
        return resample(line, offset: length(line) / 2, spacing: spacing, label: label)
    }

    /// One anchor at the middle of the line (`symbol-placement: line-center`).
    public static func center(_ line: [(x: Double, y: Double)]) -> Anchor? {
        guard line.count >= 2 else { return nil }
        return point(line, at: length(line) / 2)
    }

    static func length(_ line: [(x: Double, y: Double)]) -> Double {
        var d = 0.0
        for i in 0..<(line.count - 1) { d += hypot(line[i + 1].x - line[i].x, line[i + 1].y - line[i].y) }
        return d
    }

    static func point(_ line: [(x: Double, y: Double)], at target: Double) -> Anchor? {
        var distance = 0.0
        for i in 0..<(line.count - 1) {
            let a = line[i], b = line[i + 1]
            let d = hypot(b.x - a.x, b.y - a.y)
            if distance + d >= target && d > 0 {
                let t = (target - distance) / d
                return Anchor(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t, angle: atan2(b.y - a.y, b.x - a.x))
            }
            distance += d
        }
        return nil
    }

    static func resample(_ line: [(x: Double, y: Double)], offset: Double, spacing: Double, label: Double) -> [Anchor] {
        let total = length(line)
        var anchors: [Anchor] = []
        var distance = 0.0
        var marked = offset - spacing
        for i in 0..<(line.count - 1) {
            let a = line[i], b = line[i + 1]
            let d = hypot(b.x - a.x, b.y - a.y)
            while marked + spacing < distance + d {
                // Far along a very long line the spacing can fall below the precision of
                // `marked`: no further anchor can be told apart, so the walk ends.
                guard marked + spacing > marked else { return anchors }
                marked += spacing
                let t = (marked - distance) / d
                if marked - label / 2 >= 0 && marked + label / 2 <= total {
                    anchors.append(Anchor(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t, angle: atan2(b.y - a.y, b.x - a.x)))
                }
                if anchors.count > 10_000 { return anchors }
            }
            distance += d
        }
        return anchors
    }
}
