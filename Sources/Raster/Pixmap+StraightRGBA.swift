extension Pixmap {
    /// The pixels as straight (not premultiplied) RGBA8, rows packed, `width * height * 4` bytes:
    /// each colour channel un-premultiplied as round(c * 255 / a) (halves up, at most 255), as a
    /// read-back frame is before it is compared or written to PNG. Fully transparent pixels keep
    /// their (premultiplied, normally zero) channels, as there is nothing to divide by.
    public func straightRGBA() -> [UInt8] {
        let n = count
        var out = [UInt8](repeating: 0, count: n * 4)
        out.withUnsafeMutableBufferPointer { o in
            for i in 0..<n {
                let p = pixels[i]
                let a = p >> 24
                var r = p >> 16 & 255, g = p >> 8 & 255, b = p & 255
                if a != 0 && a != 255 {
                    let half = a / 2
                    r = min(255, (r * 255 + half) / a)
                    g = min(255, (g * 255 + half) / a)
                    b = min(255, (b * 255 + half) / a)
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

extension Pixmap {
    /// A pixmap of straight (not premultiplied) RGBA8 pixels, rows packed.
    public convenience init(straightRGBA rgba: [UInt8], width: Int, height: Int) {
        precondition(rgba.count >= width * height * 4, "too few pixels")
        self.init(width: width, height: height)
        // (As `RGBA8.premultiplied` rounds, in one pass over the bytes: clear and opaque pixels,
        // most of a weather image, take no arithmetic.)
        let out = pixels
        rgba.withUnsafeBufferPointer { src in
            guard let s = src.baseAddress else { return }
            for i in 0..<(width * height) {
                let q = s + 4 &* i
                let a = UInt32(q[3])
                if a == 0 { continue }                  // (the pixmap starts cleared)
                let r = UInt32(q[0]), g = UInt32(q[1]), b = UInt32(q[2])
                if a == 255 { out[i] = 0xFF00_0000 | r << 16 | g << 8 | b; continue }
                out[i] = a << 24 | ((r &* a &+ 127) / 255) << 16 | ((g &* a &+ 127) / 255) << 8 | (b &* a &+ 127) / 255
            }
        }
    }
}
