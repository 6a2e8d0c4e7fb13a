/// One glyph as text is drawn from it: a signed distance field at 24 px with a 3-px border on
/// every side (the edge at 192/255, as glyph servers make them and as nightmap makes them from
/// local fonts) and its metrics in pixels at 24 px. Its ink's top lies `top` px above the y a
/// shaped line gives the glyph (MapLibre's convention: glyphs of the first line sit at y = −17,
/// so Open Sans' 'A', top −8, starts 9 px above the line's middle).
public struct SDFGlyph: Sendable, Equatable {
    /// The code point it draws (after shaping: a presentation form, a vertical punctuation mark).
    public let codePoint: UInt32
    /// The ink box, without the border; 0 x 0 for a blank (a space), which has no field.
    public let width: Int, height: Int
    public let left: Double, top: Double
    public let advance: Double
    /// (width + 6) x (height + 6) distances, row by row; empty for a blank.
    public let bitmap: [UInt8]

    /// Pixels of border around the ink in `bitmap`.
    public static let border = 3
    /// The em the metrics are measured in (MapLibre's ONE_EM).
    public static let em = 24.0
    /// Where glyph sources put the ids of glyphs they shaped (`GlyphSource.shapeRun`): the
    /// Supplementary Private Use Area-B, which no label text uses for a real character in
    /// practice and no script property (line breaking, vertical orientation) singles out.
    public static let shapedIDs: ClosedRange<UInt32> = 0x100000...0x10FFFD

    public init(codePoint: UInt32, width: Int, height: Int, left: Double, top: Double, advance: Double, bitmap: [UInt8]) {
        self.codePoint = codePoint; self.width = width; self.height = height
        self.left = left; self.top = top; self.advance = advance; self.bitmap = bitmap
    }
}

/// Where a style's labels get their glyphs: the style's glyph ranges (MapData's `GlyphStore`,
/// over its `glyphs` URL), local fonts (MapData's `LocalGlyphs`), or both, one falling back to
/// the other. A font stack is its `text-font` names joined with "," (one key, as MapLibre makes
/// it). Ranges load off the caller's thread: `request` starts what is missing and says whether
/// everything asked for is at hand; `generation` grows whenever something arrives, so the
/// model evaluates waiting labels again.
public protocol GlyphSource: AnyObject, Sendable {
    /// Starts loading whatever `codePoints` of `stack` need; true when all of them are at hand
    /// (loaded, known to be missing, or fallen back to another source), false while some load.
    func request(_ codePoints: [UInt32], stack: String) -> Bool
    /// The glyph for `codePoint` in `stack` once at hand; nil when nothing has one (it is drawn
    /// as nothing: no quad, no advance) or it has not arrived yet.
    func glyph(_ codePoint: UInt32, stack: String) -> SDFGlyph?
    /// Counts arrivals (ranges loaded or failed): a change means labels may shape differently.
    var generation: Int { get }
    /// Waits until nothing is loading, at most `timeout` seconds; whether nothing is (snapshots
    /// and render tests draw once everything asked for is in).
    func waitUntilIdle(timeout: Double) -> Bool
    /// Something asked for is still loading (the window looks again soon).
    var isLoading: Bool { get }
    /// A run of text of one script that needs shaping beyond a glyph per character (reordered
    /// vowel signs, conjuncts, stacked marks: `ScriptProperties.complexScript(of:)`), shaped
    /// as a whole in `stack`: its glyphs in visual order, each with HarfBuzz's advance and
    /// offsets folded into `advance`, `left` and `top` (at 24 px), and a `codePoint` from
    /// `SDFGlyph.shapedIDs` that `glyph(_:stack:)` answers with the same glyph afterwards.
    /// Nil when the source cannot shape the run: its characters are then looked up one by one,
    /// as MapLibre does. Shaped runs need no `request`.
    func shapeRun(_ codePoints: [UInt32], stack: String) -> [SDFGlyph]?
}

extension GlyphSource {
    /// (A source that answers at once.)
    public func waitUntilIdle(timeout: Double) -> Bool { true }
    public var isLoading: Bool { false }
    /// (A source of one glyph per code point: glyph servers' ranges are.)
    public func shapeRun(_ codePoints: [UInt32], stack: String) -> [SDFGlyph]? { nil }
}

/// Arabic joining and bidirectional reordering (ICU's, through MapData's `ICUBidi`), as
/// MapLibre's RTL plugin does them: letters joined before line breaking, each line reordered
/// for display after it.
public protocol BidiShaper: Sendable {
    /// `text` with Arabic letters replaced by their joined presentation forms (logical order).
    func shapeArabic(_ text: [UInt32]) -> [UInt32]
    /// `text` cut at `breaks` (indices into `text` where a new line starts, ascending) and each
    /// line put in visual order (mirrored where needed, bidi controls removed), each character
    /// keeping the index of the section it came from (`sections` has one entry per character).
    func lines(_ text: [UInt32], sections: [Int], breaks: [Int]) -> [(text: [UInt32], sections: [Int])]
}
