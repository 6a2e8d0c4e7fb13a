/// A port of pixelmatch 7.1 (mapbox/pixelmatch, ISC licence), the image comparison MapLibre GL
/// JS's render tests use: per pixel the YIQ colour distance of Kotsarenko and Ramos (2010), pixels
/// that look anti-aliased in either image left out (Vyšniauskas 2009), and, new in 7.0, pixels that
/// are not opaque blended over a background that changes with their position instead of white.
///
/// Images are straight (not premultiplied) RGBA8, rows packed, `width * height * 4` bytes each.
/// The arithmetic is pixelmatch's, in the same order and in `Double`, so counts agree pixel for
/// pixel; the diff image is written the way pixelmatch writes into a Node `Buffer` (fractions cut
/// toward zero).
public enum Pixelmatch {
    /// An opaque colour for the diff image.
    public struct RGB: Equatable, Sendable {
        public var r: UInt8, g: UInt8, b: UInt8
        public init(_ r: UInt8, _ g: UInt8, _ b: UInt8) { self.r = r; self.g = g; self.b = b }
    }

    /// pixelmatch's options, with its defaults.
    public struct Options: Equatable, Sendable {
        /// Matching threshold in 0...1; smaller is more sensitive. A pixel differs when its squared
        /// YIQ distance exceeds `35215 * threshold * threshold` (35215: black against white).
        public var threshold: Double
        /// Count anti-aliased pixels as differences too.
        public var includeAA: Bool
        /// Opacity of the original image (the first one) under the diff image.
        public var alpha: Double
        /// Colour of anti-aliased pixels in the diff image.
        public var aaColor: RGB
        /// Colour of differing pixels in the diff image.
        public var diffColor: RGB
        /// If set, the colour of differing pixels where the first image is the brighter one.
        public var diffColorAlt: RGB?
        /// Draw only the differences, over whatever the output held (a mask), not over the faded image.
        public var diffMask: Bool

        public init(threshold: Double = 0.1, includeAA: Bool = false, alpha: Double = 0.1,
                    aaColor: RGB = RGB(255, 255, 0), diffColor: RGB = RGB(255, 0, 0),
                    diffColorAlt: RGB? = nil, diffMask: Bool = false) {
            self.threshold = threshold; self.includeAA = includeAA; self.alpha = alpha
            self.aaColor = aaColor; self.diffColor = diffColor; self.diffColorAlt = diffColorAlt; self.diffMask = diffMask
        }
    }

    /// The images (or the output) do not have the sizes given; pixelmatch's own messages.
    public struct SizeError: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// The number of differing pixels between `img1` and `img2`.
    public static func count(_ img1: [UInt8], _ img2: [UInt8], width: Int, height: Int,
                             options: Options = Options()) throws -> Int {
        try check(img1, img2, width: width, height: height)
        return img1.withUnsafeBufferPointer { a in
            img2.withUnsafeBufferPointer { b in
                guard let a = a.baseAddress, let b = b.baseAddress else { return 0 }
                return match(a, b, nil, width, height, options)
            }
        }
    }

    /// The number of differing pixels, and the diff image drawn into `output`: the first image
    /// faded to grey (`alpha`), differences in `diffColor` (or `diffColorAlt`), anti-aliased
    /// pixels in `aaColor`; all opaque. An empty `output` is first made `width * height * 4`
    /// zero bytes (as a new PNG buffer is); any other size than that is an error.
    public static func compare(_ img1: [UInt8], _ img2: [UInt8], width: Int, height: Int,
                               options: Options = Options(), output: inout [UInt8]) throws -> Int {
        try check(img1, img2, width: width, height: height)
        if output.isEmpty { output = [UInt8](repeating: 0, count: img1.count) }
        guard output.count == img1.count else { throw SizeError(description: "Image sizes do not match.") }
        return img1.withUnsafeBufferPointer { a in
            img2.withUnsafeBufferPointer { b in
                output.withUnsafeMutableBufferPointer { o in
                    guard let a = a.baseAddress, let b = b.baseAddress, let o = o.baseAddress else { return 0 }
                    return match(a, b, o, width, height, options)
                }
            }
        }
    }

    private static func check(_ img1: [UInt8], _ img2: [UInt8], width: Int, height: Int) throws {
        guard img1.count == img2.count else { throw SizeError(description: "Image sizes do not match.") }
        guard width > 0, height > 0, img1.count == width * height * 4 else {
            throw SizeError(description: "Image data size does not match width/height.")
        }
    }

    // MARK: - The algorithm

    private static func match(_ img1: UnsafePointer<UInt8>, _ img2: UnsafePointer<UInt8>, _ output: UnsafeMutablePointer<UInt8>?,
                              _ width: Int, _ height: Int, _ options: Options) -> Int {
        let len = width * height
        let a32 = UnsafeRawPointer(img1), b32 = UnsafeRawPointer(img2)

        // Fast path: identical images (compared as 32-bit pixels).
        var identical = true
        for i in 0..<len where word(a32, i) != word(b32, i) {
            identical = false
            break
        }
        if identical {
            if let output, !options.diffMask {
                for i in 0..<len { drawGrayPixel(img1, 4 * i, options.alpha, output) }
            }
            return 0
        }

        // The largest squared YIQ distance still taken as a match.
        let maxDelta = 35215 * options.threshold * options.threshold
        let aa = options.aaColor, diffColor = options.diffColor, alt = options.diffColorAlt ?? options.diffColor
        var diff = 0

        for y in 0..<height {
            for x in 0..<width {
                let i = y * width + x
                let pos = i * 4
                let delta = word(a32, i) == word(b32, i) ? 0 : colorDelta(img1, img2, pos, pos, yOnly: false)
                if abs(delta) > maxDelta {
                    // A real difference, or only anti-aliasing in one of the images? (7.1.1 skips
                    // the question when anti-aliased pixels count anyway; the outcome is the same.)
                    if !options.includeAA && (antialiased(img1, x, y, width, height, a32, b32)
                                              || antialiased(img2, x, y, width, height, b32, a32)) {
                        if let output, !options.diffMask { drawPixel(output, pos, aa) }
                    } else {
                        if let output { drawPixel(output, pos, delta < 0 ? alt : diffColor) }
                        diff += 1
                    }
                } else if let output, !options.diffMask {
                    drawGrayPixel(img1, pos, options.alpha, output)
                }
            }
        }
        return diff
    }

    /// The pixel at index `i` as one 32-bit word (only ever compared for equality).
    @inline(__always)
    private static func word(_ p: UnsafeRawPointer, _ i: Int) -> UInt32 {
        p.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self)
    }

    /// Whether the pixel (x1, y1) of `img` is likely part of anti-aliasing: among its 8 neighbours
    /// (at most 2 of them equal to it; a pixel on the image's edge counts one more) there is a
    /// darker and a brighter one, and the darkest or the brightest of those has 3 or more equal
    /// neighbours in both images. `a32` is `img` itself, `b32` the other image.
    static func antialiased(_ img: UnsafePointer<UInt8>, _ x1: Int, _ y1: Int, _ width: Int, _ height: Int,
                            _ a32: UnsafeRawPointer, _ b32: UnsafeRawPointer) -> Bool {
        let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, width - 1), y2 = min(y1 + 1, height - 1)
        let pos = y1 * width + x1
        var zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0
        var minDelta = 0.0, maxDelta = 0.0
        var minX = 0, minY = 0, maxX = 0, maxY = 0

        // The neighbours column by column, as pixelmatch visits them (ties keep the first).
        for x in x0...x2 {
            for y in y0...y2 {
                if x == x1 && y == y1 { continue }
                // Brightness difference between the centre and this neighbour.
                let delta = colorDelta(img, img, pos * 4, (y * width + x) * 4, yOnly: true)
                if delta == 0 {
                    zeroes += 1
                    // More than 2 equal neighbours: certainly not anti-aliasing.
                    if zeroes > 2 { return false }
                } else if delta < minDelta {
                    minDelta = delta; minX = x; minY = y
                } else if delta > maxDelta {
                    maxDelta = delta; maxX = x; maxY = y
                }
            }
        }
        // Not both a darker and a brighter neighbour: not anti-aliasing.
        if minDelta == 0 || maxDelta == 0 { return false }
        return (hasManySiblings(a32, minX, minY, width, height) && hasManySiblings(b32, minX, minY, width, height))
            || (hasManySiblings(a32, maxX, maxY, width, height) && hasManySiblings(b32, maxX, maxY, width, height))
    }

    /// Whether the pixel (x1, y1) has 3 or more neighbours of exactly its value (a pixel on the
    /// image's edge counts one more).
    static func hasManySiblings(_ img: UnsafeRawPointer, _ x1: Int, _ y1: Int, _ width: Int, _ height: Int) -> Bool {
        let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, width - 1), y2 = min(y1 + 1, height - 1)
        let value = word(img, y1 * width + x1)
        var zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0
        for x in x0...x2 {
            for y in y0...y2 {
                if x == x1 && y == y1 { continue }
                if value == word(img, y * width + x) { zeroes += 1 }
                if zeroes > 2 { return true }
            }
        }
        return false
    }

    /// The squared YIQ distance between the pixel at byte offset `k` of `img1` and at `m` of
    /// `img2`, negative when the first is the brighter one; with `yOnly`, the difference of
    /// brightness (Y) alone, first minus second. Pixels that are not both opaque are first
    /// blended over a background of 48 or 207 per channel, chosen by `k`: red 48 + 159 * (k % 2)
    /// (always 48, as `k` is a multiple of 4), green 48 + 159 * (trunc(k / φ) % 2), blue
    /// 48 + 159 * (trunc(k / φ²) % 2), φ the golden ratio.
    static func colorDelta(_ img1: UnsafePointer<UInt8>, _ img2: UnsafePointer<UInt8>, _ k: Int, _ m: Int, yOnly: Bool) -> Double {
        let r1 = Double(img1[k]), g1 = Double(img1[k + 1]), b1 = Double(img1[k + 2]), a1 = Double(img1[k + 3])
        let r2 = Double(img2[m]), g2 = Double(img2[m + 1]), b2 = Double(img2[m + 2]), a2 = Double(img2[m + 3])

        var dr = r1 - r2
        var dg = g1 - g2
        var db = b1 - b2
        let da = a1 - a2
        if dr == 0 && dg == 0 && db == 0 && da == 0 { return 0 }

        if a1 < 255 || a2 < 255 {
            let rb = 48 + 159 * Double(k % 2)
            let gb = 48 + 159 * Double(Int(Double(k) / 1.618033988749895) % 2)
            let bb = 48 + 159 * Double(Int(Double(k) / 2.618033988749895) % 2)
            dr = (r1 * a1 - r2 * a2 - rb * da) / 255
            dg = (g1 * a1 - g2 * a2 - gb * da) / 255
            db = (b1 * a1 - b2 * a2 - bb * da) / 255
        }

        let y = dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
        if yOnly { return y }
        let i = dr * 0.59597799 - dg * 0.2741761 - db * 0.32180189
        let q = dr * 0.21147017 - dg * 0.52261711 + db * 0.31114694
        let delta = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
        return y > 0 ? -delta : delta
    }

    @inline(__always)
    private static func drawPixel(_ output: UnsafeMutablePointer<UInt8>, _ pos: Int, _ c: RGB) {
        output[pos] = c.r
        output[pos + 1] = c.g
        output[pos + 2] = c.b
        output[pos + 3] = 255
    }

    /// The pixel's brightness, faded toward white by `alpha` and its own opacity.
    @inline(__always)
    private static func drawGrayPixel(_ img: UnsafePointer<UInt8>, _ i: Int, _ alpha: Double, _ output: UnsafeMutablePointer<UInt8>) {
        let y = Double(img[i]) * 0.29889531 + Double(img[i + 1]) * 0.58662247 + Double(img[i + 2]) * 0.11448223
        let value = toUint8(255 + (y - 255) * alpha * Double(img[i + 3]) / 255)
        output[i] = value
        output[i + 1] = value
        output[i + 2] = value
        output[i + 3] = 255
    }

    /// A number stored into a JavaScript Uint8Array (a Node Buffer): cut toward zero, modulo 256.
    @inline(__always)
    static func toUint8(_ v: Double) -> UInt8 {
        guard v.isFinite else { return 0 }
        let t = v.rounded(.towardZero).truncatingRemainder(dividingBy: 256)
        return UInt8(t < 0 ? t + 256 : t)
    }
}
