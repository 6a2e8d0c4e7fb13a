import Foundation


/// `line-gradient` as the reference engines draw it: the gradient sampled into a ramp of
/// colours at evenly spaced progress values 0, 1/(n-1), ... 1, which a line's pixels look up
/// by their `line-progress` (linearly between neighbours; for a `step` gradient, the nearest).
public struct LineGradient: Equatable, Sendable {
    /// Premultiplied packed colours (straight colours premultiplied, no opacity applied).
    public var ramp: [UInt32]
    /// Nearest-neighbour lookup (MapLibre's NEAREST texture filter for `step` gradients).
    public var nearest: Bool

    public init(ramp: [UInt32], nearest: Bool) {
        self.ramp = ramp
        self.nearest = nearest
    }

    /// The colour at `progress` (clamped to 0...1).
    @inline(__always) public func color(at progress: Double) -> UInt32 {
        let n = ramp.count
        guard n > 1 else { return ramp.first ?? 0 }
        let u = progress.isNaN ? 0 : Swift.min(Swift.max(progress, 0), 1)
        // As a texture of n texels: texel i's centre is at (i + 0.5) / n.
        let x = u * Double(n) - 0.5
        if nearest { return ramp[Swift.min(Swift.max(Int(x.rounded()), 0), n - 1)] }
        let i0 = Swift.min(Swift.max(Int(x.rounded(.down)), 0), n - 1)
        let i1 = Swift.min(i0 + 1, n - 1)
        let t = Swift.min(Swift.max(x - Double(i0), 0), 1)
        let w = UInt32(t * 256 + 0.5)
        if w == 0 || i0 == i1 { return ramp[i0] }
        if w >= 256 { return ramp[i1] }
        // Both colours weighted, each channel rounded (two channels per multiply).
        let a = ramp[i0], b = ramp[i1], v = 256 - w
        let rb = (((a & 0x00FF_00FF) &* v &+ (b & 0x00FF_00FF) &* w &+ 0x0080_0080) >> 8) & 0x00FF_00FF
        let ag = ((((a >> 8) & 0x00FF_00FF) &* v &+ ((b >> 8) & 0x00FF_00FF) &* w &+ 0x0080_0080)) & 0xFF00_FF00
        return rb | ag
    }
}
