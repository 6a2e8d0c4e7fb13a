import Foundation
import Raster

extension StyledLayer {
    /// The layer's `line-gradient` sampled into its ramp: 256 colours at progress i / 255, as
    /// MapLibre fills its gradient texture (made once per expression and kept). A `step`
    /// gradient gets 4096, looked up nearest: MapLibre sizes that texture by the line's length
    /// (about two texels per pixel of the tile), so its steps fall where the stops say.
    func lineGradient() -> LineGradient? {
        guard let value = paintValues[LinePaintProperty.gradient.rawValue] else { return nil }
        guard let expression = value.expression else {
            guard let c = value.constant?.asColor else { return nil }
            return LineGradient(ramp: [Self.packed(c)], nearest: true)
        }
        return LineGradientCache.shared.ramp(for: expression) {
            let step = expression.node is StepNode
            let n = step ? 4096 : 256
            var ramp: [UInt32] = []
            ramp.reserveCapacity(n)
            for i in 0..<n {
                var c = EvaluationContext(zoom: 0)
                c.lineProgress = Double(i) / Double(n - 1)
                ramp.append(Self.packed(value.evaluate(c).asColor ?? Color(r: 0, g: 0, b: 0, a: 0)))
            }
            return LineGradient(ramp: ramp, nearest: step)
        }
    }

    /// A colour as a premultiplied packed pixel; channels and alpha truncated to bytes, as
    /// MapLibre writes its gradient texture.
    static func packed(_ c: Color) -> UInt32 {
        func byte(_ v: Double) -> UInt8 { UInt8((min(max(v.isNaN ? 0 : v, 0), 1) * 255 + 1e-7).rounded(.down)) }
        return RGBA8(byte(c.r), byte(c.g), byte(c.b), byte(c.a)).premultiplied.packed
    }
}

/// Ramps already sampled, by expression (the expression is held, so its identity is not reused).
final class LineGradientCache: @unchecked Sendable {
    static let shared = LineGradientCache()
    private let lock = NSLock()
    private var ramps: [ObjectIdentifier: (expression: StyleExpression, gradient: LineGradient)] = [:]

    func ramp(for expression: StyleExpression, make: () -> LineGradient) -> LineGradient {
        let key = ObjectIdentifier(expression)
        lock.lock()
        if let hit = ramps[key] { lock.unlock(); return hit.gradient }
        lock.unlock()
        let gradient = make()
        lock.lock()
        if ramps.count >= 64 { ramps.removeAll() }
        ramps[key] = (expression, gradient)
        lock.unlock()
        return gradient
    }
}
