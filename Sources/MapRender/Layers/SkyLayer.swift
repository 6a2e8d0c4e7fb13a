import Foundation
import MapCore
import Raster

/// The sky of a pitched view, drawn first (MapLibre draws it right after clearing): above the
/// horizon line the sky colour, blending into the horizon colour over `sky-horizon-blend` of
/// half the view's height, by the square of the distance left (its sky shader). Rows at and
/// below the horizon are left to the ground.
final class SkyRenderLayer {
    func draw(_ sky: SkyDraw, _ p: Placement, _ t: RenderTarget) {
        guard let perspective = p.perspective, perspective.horizon.isFinite else { return }
        let horizonY = perspective.height / 2 - perspective.horizon
        let blend = sky.skyHorizonBlend * perspective.height / 2
        let skyColor = sky.skyColor.premultiplied(opacity: 1), horizonColor = sky.horizonColor.premultiplied(opacity: 1)
        let lastRow = min(t.rows.upperBound, Int((horizonY - 0.5).rounded(.up)))
        guard lastRow > t.rows.lowerBound else { return }
        let s = SIMD4<Double>(Self.channels(skyColor)), h = SIMD4<Double>(Self.channels(horizonColor))
        for y in t.rows.lowerBound..<lastRow {
            let b = horizonY - (Double(y) + 0.5)          // how far above the horizon, upwards
            guard b > 0 else { continue }
            var color = skyColor
            if b < blend {
                let k = (1 - b / blend) * (1 - b / blend)
                let c = s + (h - s) * k
                color = PremultipliedColor(packed: Self.pack(c))
            }
            t.pixmap.clear(color, rows: y..<(y + 1))
        }
    }

    private static func channels(_ c: PremultipliedColor) -> SIMD4<Double> {
        let v = c.packed
        return SIMD4(Double(v >> 16 & 255), Double(v >> 8 & 255), Double(v & 255), Double(v >> 24))
    }

    private static func pack(_ c: SIMD4<Double>) -> UInt32 {
        func byte(_ v: Double) -> UInt32 { UInt32(min(max(v.rounded(), 0), 255)) }
        return byte(c.w) << 24 | byte(c.x) << 16 | byte(c.y) << 8 | byte(c.z)
    }
}
