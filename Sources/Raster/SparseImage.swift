/// The non-clear pixels of an image, packed run by run: what a layer drew, kept so that it can
/// be composited again without being drawn again (a radar frame over a still map). Compositing
/// it source-over gives what drawing it did, to the bit, when the drawing was a source-over of
/// shades that do not depend on what was under them (as every image blitter's are).
public final class SparseImage: @unchecked Sendable {
    public let width: Int
    public let height: Int
    let runs: ImageRuns
    /// Where each run's pixels start in `pixels`.
    let offsets: [Int32]
    let pixels: UnsafeMutablePointer<UInt32>
    /// Pixels kept (the runs' lengths summed).
    public let count: Int

    /// The non-clear pixels of `image` in the rows `rows` (gaps under 16 columns kept with them,
    /// as `ImageRuns` joins them).
    public init(_ image: Pixmap, rows: Range<Int>) {
        width = image.width; height = image.height
        runs = ImageRuns(image, rows: rows)
        var offsets: [Int32] = []
        offsets.reserveCapacity(runs.runs.count)
        var total = 0
        for (a, b) in runs.runs { offsets.append(Int32(total)); total += Int(b - a) }
        self.offsets = offsets
        count = total
        pixels = .allocate(capacity: max(1, total))
        for y in rows.clamped(to: 0..<height) {
            for k in Int(runs.rowStart[y])..<Int(runs.rowStart[y + 1]) {
                let (a, b) = runs.runs[k]
                (pixels + Int(offsets[k])).initialize(from: image.pixels + y * width + Int(a), count: Int(b - a))
            }
        }
    }

    deinit { pixels.deallocate() }

    /// Bytes held: the pixels and the run tables.
    public var bytes: Int { count * 4 + runs.runs.count * 12 + runs.rowStart.count * 4 }

    /// Draws these pixels over `destination` (the size of the image they came from),
    /// source-over, in the rows `rows`.
    public func composite(onto destination: Pixmap, rows: Range<Int>) {
        precondition(destination.width == width && destination.height == height, "sparse image and pixmap sizes differ")
        for y in rows.clamped(to: 0..<height) {
            let base = destination.pixels + y * width
            for k in Int(runs.rowStart[y])..<Int(runs.rowStart[y + 1]) {
                let (a, b) = runs.runs[k]
                SpanOver.over(pixels + Int(offsets[k]), onto: base + Int(a), count: Int(b - a))
            }
        }
    }
}
