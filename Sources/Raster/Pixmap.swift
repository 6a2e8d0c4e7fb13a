/// A premultiplied ARGB8888 pixel buffer (0xAARRGGBB per pixel, rows packed without padding).
///
/// The layout is the one SDL's `SDL_PIXELFORMAT_ARGB8888` streaming textures take, so a window
/// can upload it as is; `PNGCodec` converts it to straight RGBA for files.
public final class Pixmap: @unchecked Sendable {
    public let width: Int
    public let height: Int
    public let pixels: UnsafeMutablePointer<UInt32>

    /// A pixmap of `width` x `height` (both at least 1), cleared to transparent.
    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "Pixmap size must be positive")
        self.width = width
        self.height = height
        pixels = .allocate(capacity: width * height)
        pixels.initialize(repeating: 0, count: width * height)
    }

    deinit { pixels.deallocate() }

    public var count: Int { width * height }
    public var buffer: UnsafeMutableBufferPointer<UInt32> { .init(start: pixels, count: count) }

    /// Fills every pixel with `color`.
    public func clear(_ color: PremultipliedColor) {
        pixels.update(repeating: color.packed, count: count)
    }

    /// Fills the rows `rows` with `color`.
    public func clear(_ color: PremultipliedColor, rows: Range<Int>) {
        (pixels + rows.lowerBound * width).update(repeating: color.packed, count: rows.count * width)
    }

    @inlinable public subscript(x: Int, y: Int) -> UInt32 {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }

    /// The straight-alpha colour at (x, y).
    public func color(atX x: Int, y: Int) -> RGBA8 {
        PremultipliedColor(packed: self[x, y]).unpremultiplied
    }

    /// Copies `other` (same size) into this pixmap, all of it or the rows `rows`.
    public func copy(from other: Pixmap, rows: Range<Int>? = nil) {
        precondition(other.width == width && other.height == height, "pixmap sizes differ")
        let r = rows ?? 0..<height
        (pixels + r.lowerBound * width).update(from: other.pixels + r.lowerBound * width, count: r.count * width)
    }
}
