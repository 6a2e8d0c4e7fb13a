/// The non-transparent runs of each row of an image, so that drawing it can skip clear air
/// (most of a radar frame) without looking at it.
public final class ImageRuns: @unchecked Sendable {
    /// Runs of row r: `runs[rowStart[r] ..< rowStart[r + 1]]`, each [start, end) in columns.
    let rowStart: [Int32]
    let runs: [(Int32, Int32)]

    public convenience init(_ image: any RasterTexture) { self.init(image, rows: 0..<image.height) }

    /// The runs of the rows `rows` only (the others have none).
    public init(_ image: any RasterTexture, rows: Range<Int>) {
        var starts: [Int32] = [0]
        var runs: [(Int32, Int32)] = []
        starts.reserveCapacity(image.height + 1)
        let t = image.texels
        let scanned = rows.clamped(to: 0..<image.height)
        for y in 0..<image.height {
            guard scanned.contains(y) else { starts.append(Int32(runs.count)); continue }
            let row = y * image.width
            var x = 0
            while x < image.width {
                while x < image.width && t[row &+ x] == 0 { x += 1 }
                if x == image.width { break }
                let s = x
                while x < image.width && t[row &+ x] != 0 { x += 1 }
                // Gaps under 16 columns join the runs: visiting a few clear pixels is cheaper
                // than looking up many small runs.
                if let last = runs.last, runs.count > Int(starts.last ?? 0), Int32(s) - last.1 < 16 {
                    runs[runs.count - 1].1 = Int32(x)
                } else {
                    runs.append((Int32(s), Int32(x)))
                }
            }
            starts.append(Int32(runs.count))
        }
        rowStart = starts
        self.runs = runs
    }
}

extension ImageRuns {
    /// Draws `image` (whose runs these are) over `destination` of the same size, source-over,
    /// in the rows `rows`, touching only its runs.
    public func composite(_ image: Pixmap, onto destination: Pixmap, rows: Range<Int>) {
        precondition(image.width == destination.width && image.height == destination.height)
        for y in rows.clamped(to: 0..<image.height) {
            let base = y * image.width
            for k in Int(rowStart[y])..<Int(rowStart[y + 1]) {
                let (a, b) = runs[k]
                SpanOver.over(image.pixels + base + Int(a), onto: destination.pixels + base + Int(a), count: Int(b - a))
            }
        }
    }
}

extension TypedSeparableBlitter {
    /// Draws the span [x, x + count) of row y touching only screen pixels whose source samples
    /// can be non-transparent (the union of the runs of the one or two source rows it blends,
    /// grown by one column for bilinear neighbours). `columns` must be non-decreasing in x.
    @inline(__always)
    mutating func blitSpan(x: Int, y: Int, count: Int, alpha: UInt32, runs: ImageRuns, width: Int,
                           firstReaching: UnsafePointer<Int32>, firstPast: UnsafePointer<Int32>) {
        let r = rows[y &- rowOffset]
        let k = alpha &+ (alpha >> 7)
        let end = x + count
        let a0 = Int(runs.rowStart[Int(r.i0)]), a1 = Int(runs.rowStart[Int(r.i0) + 1])
        let b0 = Int(runs.rowStart[Int(r.i1)]), b1 = Int(runs.rowStart[Int(r.i1) + 1])
        var i = a0, j = b0
        var lastX = x          // screen pixels before this one are done
        // Merge the two rows' runs in column order.
        while i < a1 || j < b1 {
            var run: (Int32, Int32)
            if j >= b1 || (i < a1 && runs.runs[i].0 <= runs.runs[j].0) { run = runs.runs[i]; i += 1 } else { run = runs.runs[j]; j += 1 }
            // Absorb overlapping runs of either row.
            while true {
                if i < a1 && runs.runs[i].0 <= run.1 + 1 { run.1 = max(run.1, runs.runs[i].1); i += 1; continue }
                if j < b1 && runs.runs[j].0 <= run.1 + 1 { run.1 = max(run.1, runs.runs[j].1); j += 1; continue }
                break
            }
            // Screen x whose samples reach columns [run.0 - 1, run.1]: i1 >= run.0 - 1 and i0 <= run.1.
            let lo = min(max(Int(firstReaching[max(0, Int(run.0) - 1)]), lastX), end)
            let hi = min(max(Int(firstPast[Int(run.1)]), lo), end)
            if lo < hi {
                let d = dst + (y &* stride)
                // Four shades at a time composited by `SpanOver` (which skips clear ones and
                // copies opaque ones, as the one-by-one tail does).
                @inline(__always) func scaled(_ i: Int) -> UInt32 {
                    let s = shade(columns[i], r)
                    return k == 256 || s == 0 ? s : Blend.scale(s, k)
                }
                var px = lo
                var four: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
                while px + 4 <= hi {
                    four = (scaled(px), scaled(px + 1), scaled(px + 2), scaled(px + 3))
                    withUnsafePointer(to: &four) {
                        $0.withMemoryRebound(to: UInt32.self, capacity: 4) { SpanOver.over($0, onto: d + px, count: 4) }
                    }
                    px += 4
                }
                for x in px..<hi {
                    let s = scaled(x)
                    if s != 0 { d[x] = s >> 24 == 255 ? s : Blend.over(s, d[x]) }
                }
            }
            lastX = max(lastX, hi)
            if lastX >= end { break }
        }
    }
}

/// `SeparableImageBlitter` with the image's runs: spans skip clear air.
public struct RunSkippingImageBlitter: SpanBlitter {
    var inner: SeparableImageBlitter
    let runs: ImageRuns
    let width: Int
    /// For each source column c (0...width), the first screen x whose samples reach it
    /// (columns[x].i1 >= c), and the first past it (columns[x].i0 > c); the screen width when none.
    let firstReaching: UnsafePointer<Int32>
    let firstPast: UnsafePointer<Int32>

    /// The image is `width` columns wide; `scratch` holds 2 * (width + 1) values, and is filled
    /// here with where each source column begins and ends on screen (the blitter's columns are
    /// non-decreasing in x), so that a span finds each run's pixels by two lookups.
    public init(_ inner: SeparableImageBlitter, runs: ImageRuns, width: Int, scratch: UnsafeMutablePointer<Int32>) {
        self.inner = inner; self.runs = runs; self.width = width
        let screen = inner.stride, columns = inner.columns
        var x = 0
        for c in 0...width {
            while x < screen && Int(columns[x].i1) < c { x += 1 }
            scratch[c] = Int32(x)
        }
        x = 0
        for c in 0...width {
            while x < screen && Int(columns[x].i0) <= c { x += 1 }
            scratch[width + 1 + c] = Int32(x)
        }
        firstReaching = UnsafePointer(scratch); firstPast = UnsafePointer(scratch + width + 1)
    }

    @inline(__always)
    public mutating func blitPixel(x: Int, y: Int, alpha: UInt32) { inner.blitPixel(x: x, y: y, alpha: alpha) }

    public mutating func blitSpan(x: Int, y: Int, count: Int, alpha: UInt32) {
        if inner.isIndexed { var b = typed(IndexedTexels.self); b.blitSpan(x: x, y: y, count: count, alpha: alpha) }
        else { var b = typed(PackedTexels.self); b.blitSpan(x: x, y: y, count: count, alpha: alpha) }
    }

    func typed<R: TexelReader>(_: R.Type) -> TypedRunSkippingBlitter<R> {
        TypedRunSkippingBlitter(inner: inner.typed(R.self), runs: runs, width: width, firstReaching: firstReaching, firstPast: firstPast)
    }
}

/// `RunSkippingImageBlitter` with its image read by `R`: what the sweep runs.
struct TypedRunSkippingBlitter<R: TexelReader>: SpanBlitter {
    var inner: TypedSeparableBlitter<R>
    let runs: ImageRuns
    let width: Int
    let firstReaching: UnsafePointer<Int32>
    let firstPast: UnsafePointer<Int32>

    @inline(__always)
    mutating func blitPixel(x: Int, y: Int, alpha: UInt32) { inner.blitPixel(x: x, y: y, alpha: alpha) }

    @inline(__always)
    mutating func blitSpan(x: Int, y: Int, count: Int, alpha: UInt32) {
        inner.blitSpan(x: x, y: y, count: count, alpha: alpha, runs: runs, width: width,
                       firstReaching: firstReaching, firstPast: firstPast)
    }
}

extension Rasterizer {
    /// Fills the accumulated edges with a separably mapped image, skipping its transparent runs.
    /// `aliased`: a pixel is in or out by its centre (tiles that meet leave no seam).
    public mutating func fill(_ pixmap: Pixmap, runSkippingImage blitter: RunSkippingImageBlitter, rule: FillRule = .nonZero,
                              aliased: Bool = false) {
        if blitter.inner.isIndexed { fill(pixmap, with: blitter.typed(IndexedTexels.self), rule: rule, aliased: aliased) }
        else { fill(pixmap, with: blitter.typed(PackedTexels.self), rule: rule, aliased: aliased) }
    }
}
