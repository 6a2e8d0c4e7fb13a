import Foundation
import MapCore

/// A style's `font-faces` (MapLibre's root property) in front of its other glyphs: for a font
/// stack "A,B", a code point comes from the first of A's and B's files that covers it (its
/// unicode-range) and has a glyph for it, rendered as local fonts are (`LocalGlyphs` over the
/// named files: a glyph server's field and metrics, on that file's own baseline), and a run of
/// a complex script is shaped by HarfBuzz in that file when it covers the whole run. Every other
/// code point, run and stack goes to `next` (the `glyphs` ranges, or local fonts).
///
/// Files are read through the `ResourceResolver` (relative to the style, `file://`,
/// `local://`, the render tests' `http://localhost:2900/` with an assets folder). Other
/// http(s) fonts are not fetched yet: each such URL is reported once and left out, as are
/// URLs that name no file; a file that is not a font is reported when first opened and
/// skipped. A font collection's first face is used.
public final class FontFaceGlyphs: GlyphSource, @unchecked Sendable {
    /// What answers everything the files do not (nil: nothing does).
    public let next: (any GlyphSource)?
    private let faces: LocalGlyphs
    /// The names that have files (a stack naming none of them goes straight to `next`).
    private let names: Set<String>

    /// `fontFaces` as the document gives them (`StyleDocument.fontFaces`). `report` gets one
    /// line per URL left out, now, and one per file that turns out not to be a font, when
    /// first drawn from (from whichever thread draws).
    public init(fontFaces: [String: [FontFaceSource]], resolver: ResourceResolver, next: (any GlyphSource)?,
                report: @escaping @Sendable (String) -> Void) {
        var files: [String: [LocalGlyphs.NamedFile]] = [:]
        var unusable: Set<String> = []
        for (name, sources) in fontFaces.sorted(by: { $0.key < $1.key }) {
            for source in sources {
                let lower = source.url.lowercased()
                let path: String
                do {
                    do { path = try resolver.path(source.url) } catch where lower.hasPrefix("http://") || lower.hasPrefix("https://") {
                        throw StyleError("http fonts are not fetched yet; \(source.url)")
                    }
                    guard FileManager.default.fileExists(atPath: path) else { throw StyleError("\(source.url): no such file (\(path))") }
                } catch {
                    if unusable.insert(source.url).inserted { report("font-faces: \(error)") }
                    continue
                }
                files[name, default: []].append(.init(file: FontFile(path: path, index: 0), ranges: source.unicodeRanges))
            }
        }
        faces = LocalGlyphs(files: files, report: report)
        names = Set(files.keys)
        self.next = next
    }

    /// Whether any of the stack's names has files.
    private func hasFaces(_ stack: String) -> Bool {
        stack.split(separator: ",").contains { names.contains($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// The code points the files lack are asked of `next`; the files' own are at hand at once.
    public func request(_ codePoints: [UInt32], stack: String) -> Bool {
        let rest = hasFaces(stack) ? codePoints.filter { faces.glyph($0, stack: stack) == nil } : codePoints
        return rest.isEmpty || next?.request(rest, stack: stack) ?? true
    }

    public func glyph(_ codePoint: UInt32, stack: String) -> SDFGlyph? {
        // (Glyphs shaped from the files have ids of their own, which `next` never hands out.)
        if hasFaces(stack) || LocalGlyphs.namedIDs.contains(codePoint), let glyph = faces.glyph(codePoint, stack: stack) {
            return glyph
        }
        return next?.glyph(codePoint, stack: stack)
    }

    public func shapeRun(_ codePoints: [UInt32], stack: String) -> [SDFGlyph]? {
        if hasFaces(stack), let run = faces.shapeRun(codePoints, stack: stack) { return run }
        return next?.shapeRun(codePoints, stack: stack)
    }

    /// The files answer at once: only `next` has arrivals and loads.
    public var generation: Int { next?.generation ?? 0 }
    public func waitUntilIdle(timeout: Double) -> Bool { next?.waitUntilIdle(timeout: timeout) ?? true }
    public var isLoading: Bool { next?.isLoading ?? false }
}
