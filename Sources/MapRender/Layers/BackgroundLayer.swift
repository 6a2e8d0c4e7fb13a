import Foundation
import MapCore
import Raster

/// Background layers: an opaque one is drawn by the next fill in its own pass, or cleared just
/// before the next layer draws; a translucent one is blended over every row.
extension FrameRenderer {
    /// Clears to a pending opaque background (one whose next layer did not draw it).
    func flushBackground(_ pixmap: Pixmap) {
        guard let c = pendingBackground else { return }
        pendingBackground = nil
        pixmap.clear(c, rows: rows)
    }

    func drawBackground(_ c: PremultipliedColor, _ pixmap: Pixmap) {
        // Opaque: drawn by the next layer in its own pass if that is a fill, else cleared just
        // before the next layer draws.
        if c.alpha == 255 { pendingBackground = c; return }
        let buf = pixmap.buffer
        for i in (rows.lowerBound * pixmap.width)..<(rows.upperBound * pixmap.width) { buf[i] = Blend.over(c.packed, buf[i]) }
    }
}
