import Foundation

extension LineAnchors {
    /// Whether a label centred on `anchor` reads along the line (MapLibre's `checkMaxAngle`):
    /// walking from the label's start to its end, the turns at the line's corners (absolute, in
    /// radians) are summed over the last `window` of line, and the label is refused as soon as the
    /// sum passes `maxAngle`: letters around a sharp corner would collide or read apart. It is
    /// refused too when the line ends before the label does, at either end.
    /// - Parameters:
    ///   - labelLength: the label's length along the line, in the line's units.
    ///   - window: the stretch of line over which turns add up (3/5 of a 24 px em x box scale).
    static func fitsMaxAngle(_ line: [(x: Double, y: Double)], _ anchor: Anchor, labelLength: Double,
                             window: Double, maxAngle: Double) -> Bool {
        // Back from the anchor to the first segment the label lies on: distances are signed, the
        // anchor at 0.
        var index = anchor.segment + 1
        var distance = 0.0
        var p = (x: anchor.x, y: anchor.y)
        while distance > -labelLength / 2 {
            index -= 1
            guard index >= 0, index < line.count else { return false }   // the line starts too soon
            distance -= hypot(line[index].x - p.x, line[index].y - p.y)
            p = line[index]
        }
        guard index + 1 < line.count else { return false }
        distance += hypot(line[index + 1].x - line[index].x, line[index + 1].y - line[index].y)
        index += 1

        // Forward to the label's end, keeping the corners within the window behind and their turns' sum.
        var corners: [(distance: Double, turn: Double)] = []
        var oldest = 0
        var sum = 0.0
        while distance < labelLength / 2 {
            guard index + 1 < line.count else { return false }   // the line ends too soon
            let previous = line[index - 1], current = line[index], next = line[index + 1]
            let turn = atan2(previous.y - current.y, previous.x - current.x) - atan2(current.y - next.y, current.x - next.x)
            // The turn brought into -pi...pi (JavaScript's `%` keeps the dividend's sign), then its size.
            let size = abs((turn + 3 * .pi).truncatingRemainder(dividingBy: 2 * .pi) - .pi)
            corners.append((distance, size))
            sum += size
            while oldest < corners.count && distance - corners[oldest].distance > window {
                sum -= corners[oldest].turn
                oldest += 1
            }
            if sum > maxAngle { return false }
            index += 1
            distance += hypot(next.x - current.x, next.y - current.y)
        }
        return true
    }
}
