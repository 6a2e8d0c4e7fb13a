import MapCore
import Raster

/// Off-screen markers: the arrow at the window's edge that points to a place out of sight.
enum OffscreenMarkers {
    /// The arrow of each off-screen marker whose place (the world copy nearest the window's
    /// centre) is out of the window, or behind the globe.
    static func draw(_ markers: [FrameDescription.OffscreenMarker], _ view: ViewTransform, _ pixmap: Pixmap, _ rasterizer: inout Rasterizer) {
        let width = Double(view.size.width), height = Double(view.size.height)
        for m in markers {
            let s = view.nearestScreen(m.target)
            // (On the globe, out of sight behind it too: the arrow points the way it is nearest.)
            let behind = view.globe.map { !$0.isSeen(GlobeTransform.surface(m.target)) } ?? false
            guard behind || s.x < 0 || s.x > width || s.y < 0 || s.y > height else { continue }
            // (Behind the globe: at the window's edge, the way it lies from the middle.)
            let target = behind ? Point(width / 2 + (s.x - width / 2) * 1e6, height / 2 + (s.y - height / 2) * 1e6) : Point(s.x, s.y)
            drawEdgeArrow(towards: target, width: width, height: height, color: m.color, scale: m.scale, pixmap, &rasterizer)
        }
    }

    /// An arrow 14 CSS pixels long (`scale` device pixels each) just inside the window's edge,
    /// pointing from the centre towards `target`.
    static func drawEdgeArrow(towards target: Point, width: Double, height: Double, color: MapCore.Color,
                              scale k: Double = 1, _ pixmap: Pixmap, _ rasterizer: inout Rasterizer) {
        let c = Point(width / 2, height / 2)
        let d = target - c
        let len = d.length
        guard len > 0 else { return }
        let u = d * (1 / len)
        // Scale the direction to touch the inset rectangle.
        let inset = 14 * k
        let kx = u.x == 0 ? Double.infinity : (width / 2 - inset) / abs(u.x)
        let ky = u.y == 0 ? Double.infinity : (height / 2 - inset) / abs(u.y)
        let tip = c + u * min(kx, ky, len)
        let n = Point(-u.y, u.x)
        rasterizer.moveTo(tip)
        rasterizer.lineTo(tip - u * (14 * k) + n * (7 * k))
        rasterizer.lineTo(tip - u * (10 * k))
        rasterizer.lineTo(tip - u * (14 * k) - n * (7 * k))
        rasterizer.close()
        rasterizer.fill(pixmap, color: color.premultiplied(opacity: 1), rule: .nonZero)
    }
}
