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
        for i in 0..<(width * height) {
            pixels[i] = RGBA8(rgba[i * 4], rgba[i * 4 + 1], rgba[i * 4 + 2], rgba[i * 4 + 3]).premultiplied.packed
        }
    }
}
