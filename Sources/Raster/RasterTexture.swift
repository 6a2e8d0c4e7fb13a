/// An image the image blitters sample: packed premultiplied pixels (`Pixmap`) or one byte per
/// pixel into a palette (`IndexedImage`, a quarter of the memory for images of few colours).
public protocol RasterTexture: AnyObject, Sendable {
    var width: Int { get }
    var height: Int { get }
    /// Where its pixels are, for the blitters (valid while the texture lives).
    var texels: Texels { get }
}

extension RasterTexture {
    /// The straight-alpha colour at (x, y).
    public func color(atX x: Int, y: Int) -> RGBA8 {
        PremultipliedColor(packed: texels[y * width + x]).unpremultiplied
    }
}

/// A texture's pixels as the blitters read them: premultiplied ARGB8888 values, stored packed
/// or as palette indices.
public struct Texels {
    public let width: Int, height: Int
    enum Storage {
        case packed(UnsafeMutablePointer<UInt32>)
        case indexed(UnsafeMutablePointer<UInt8>, palette: UnsafeMutablePointer<UInt32>)
    }
    let storage: Storage

    public init(packed: UnsafeMutablePointer<UInt32>, width: Int, height: Int) {
        storage = .packed(packed); self.width = width; self.height = height
    }

    public init(indices: UnsafeMutablePointer<UInt8>, palette: UnsafeMutablePointer<UInt32>, width: Int, height: Int) {
        storage = .indexed(indices, palette: palette); self.width = width; self.height = height
    }

    /// Pixel `i` (row-major).
    @inline(__always) public subscript(i: Int) -> UInt32 {
        switch storage {
        case let .packed(p): return p[i]
        case let .indexed(x, palette): return palette[Int(x[i])]
        }
    }

    /// Pixels `i` and `i + 1` in one value (`i` in the low half), as one 8-byte load of packed
    /// pixels gives them.
    @inline(__always) func pair(_ i: Int) -> UInt64 {
        switch storage {
        case let .packed(p): return UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)
        case let .indexed(x, palette): return UInt64(palette[Int(x[i])]) | UInt64(palette[Int(x[i &+ 1])]) << 32
        }
    }
}

extension Texels {
    /// The pixels' storage as a blitter generic over its reader takes it: where they start, and
    /// the palette (for packed pixels the pixels themselves, which their reader never takes for one).
    var raw: (base: UnsafeRawPointer, palette: UnsafePointer<UInt32>) {
        switch storage {
        case let .packed(p): return (UnsafeRawPointer(p), UnsafePointer(p))
        case let .indexed(x, palette): return (UnsafeRawPointer(x), UnsafePointer(palette))
        }
    }

    var isIndexed: Bool { if case .indexed = storage { return true } else { return false } }
}

/// How a blitter generic over the storage reads two neighbouring texels: its hot loops are made
/// once for packed pixels and once for palette indices, with no test of the storage per sample.
protocol TexelReader {
    static func pair(_ base: UnsafeRawPointer, _ palette: UnsafePointer<UInt32>, _ i: Int) -> UInt64
}

enum PackedTexels: TexelReader {
    @inline(__always) static func pair(_ base: UnsafeRawPointer, _ palette: UnsafePointer<UInt32>, _ i: Int) -> UInt64 {
        (base + 4 &* i).loadUnaligned(as: UInt64.self)
    }
}

enum IndexedTexels: TexelReader {
    @inline(__always) static func pair(_ base: UnsafeRawPointer, _ palette: UnsafePointer<UInt32>, _ i: Int) -> UInt64 {
        let x = base.assumingMemoryBound(to: UInt8.self)
        return UInt64(palette[Int(x[i])]) | UInt64(palette[Int(x[i &+ 1])]) << 32
    }
}

extension Pixmap: RasterTexture {
    public var texels: Texels { Texels(packed: pixels, width: width, height: height) }
}

/// An image of at most 256 colours: one byte per pixel into a palette of premultiplied
/// ARGB8888 colours. A radar frame is one (its colours are its reflectivity ramp's), kept in a
/// quarter of a `Pixmap`'s memory and drawn from as it is.
public final class IndexedImage: RasterTexture, @unchecked Sendable {
    public let width: Int
    public let height: Int
    let indices: UnsafeMutablePointer<UInt8>
    let palette: UnsafeMutablePointer<UInt32>
    /// Colours in the palette.
    public let colorCount: Int

    /// The pixels of `image` as indices, or nil when it has more than 256 colours.
    public init?(_ image: Pixmap) {
        let n = image.count
        let out = UnsafeMutablePointer<UInt8>.allocate(capacity: n)
        let colours = UnsafeMutablePointer<UInt32>.allocate(capacity: 256)
        // An open-addressed table of 1024 slots from colour to index (-1: empty).
        let keys = UnsafeMutablePointer<UInt32>.allocate(capacity: 1024), slots = UnsafeMutablePointer<Int16>.allocate(capacity: 1024)
        slots.initialize(repeating: -1, count: 1024)
        defer { keys.deallocate(); slots.deallocate() }
        var count = 0
        var last: UInt32 = 0, lastIndex: UInt8 = 0, haveLast = false
        for i in 0..<n {
            let p = image.pixels[i]
            if haveLast && p == last { out[i] = lastIndex; continue }
            var h = Int((p &* 0x9E37_79B1) >> 22)
            while slots[h] >= 0 && keys[h] != p { h = (h &+ 1) & 1023 }
            let k: UInt8
            if slots[h] >= 0 {
                k = UInt8(slots[h])
            } else {
                guard count < 256 else { out.deallocate(); colours.deallocate(); return nil }
                k = UInt8(count)
                keys[h] = p; slots[h] = Int16(count)
                colours[count] = p
                count += 1
            }
            out[i] = k
            last = p; lastIndex = k; haveLast = true
        }
        width = image.width; height = image.height
        indices = out
        palette = .allocate(capacity: 256)
        palette.initialize(repeating: 0, count: 256)
        palette.update(from: colours, count: count)
        colours.deallocate()
        colorCount = count
    }

    deinit { indices.deallocate(); palette.deallocate() }

    public var texels: Texels { Texels(indices: indices, palette: palette, width: width, height: height) }

    /// Bytes held (indices and palette).
    public var bytes: Int { width * height + 256 * 4 }
}

extension Pixmap {
    /// A packed copy of any texture.
    public convenience init(copying texture: any RasterTexture) {
        self.init(width: texture.width, height: texture.height)
        let t = texture.texels
        for i in 0..<count { pixels[i] = t[i] }
    }
}
