import Raster

/// The frame as MapLibre's render-test harness reads its own back before comparing
/// (`run_render_tests.ts`, `compareRenderResults`): the premultiplied pixels' colour channels
/// divided by alpha / 255 and stored into bytes, which truncates and keeps the value modulo 256.
/// Where a frame holds more colour than its opacity (an additive glow over nothing, such as the
/// globe's atmosphere) the channel wraps: 172 at alpha 159 reads 275, stored as 19. The expected
/// images were made so, so the comparison takes nightmap's frame the same way; snapshots written
/// for people use `Pixmap.straightRGBA` (rounded, capped at 255).
enum RenderTestReadBack {
    static func rgba(_ pixmap: Pixmap) -> [UInt8] {
        let n = pixmap.count
        var out = [UInt8](repeating: 0, count: n * 4)
        out.withUnsafeMutableBufferPointer { o in
            for i in 0..<n {
                let p = pixmap.pixels[i]
                let a = p >> 24
                var r = p >> 16 & 255, g = p >> 8 & 255, b = p & 255
                if a != 0 && a != 255 {
                    // As the harness: c / (a / 255) in doubles, then ToUint8 (truncate, modulo 256).
                    // (Divided by the same double the harness divides by, so exact quotients stay exact.)
                    let k = Double(a) / 255
                    r = UInt32(Double(r) / k) & 255
                    g = UInt32(Double(g) / k) & 255
                    b = UInt32(Double(b) / k) & 255
                }
                o[i * 4] = UInt8(r)
                o[i * 4 + 1] = UInt8(g)
                o[i * 4 + 2] = UInt8(b)
                o[i * 4 + 3] = UInt8(a)
            }
        }
        return out
    }
}
