import Foundation
import MapCore

/// Glyphs drawn from installed fonts, in the form glyph servers serve theirs (`SDFFontFace`),
/// for styles without a `glyphs` URL and for code points a style's PBFs lack.
///
/// A font stack ("Open Sans Semibold,Arial Unicode MS Bold") takes its first name that names
/// an installed family (`FontMatcher`; a face of the application's folder before an installed
/// copy of it); a stack naming none is drawn with `defaultFamily` at the weight and slant its
/// first name asks for, and reported once. A code point the stack's face lacks comes from the
/// next font fontconfig ranks for that style that has it, set on the stack's face's baseline
/// (fontnik measures each glyph's top from its own face's ascender, so two faces in one label
/// would stand on two baselines where their ascenders differ, as DejaVu's 23 px and Noto
/// CJK's 28 px do). A code point no installed font has is nil (drawn as nothing, never as a
/// missing-glyph box). A font that turns out unreadable or damaged is reported once, by file,
/// and skipped.
///
/// Glyphs are made on first request, synchronously, and kept per stack and code point, at
/// most `capacity` of them (past that the cache starts over: a label's glyphs come back at
/// the cost of rendering them again). Thread-safe: one lock around matching, FreeType and the
/// caches; `report` is called outside it.
public final class LocalGlyphs: GlyphSource, @unchecked Sendable {
    /// Never changes: every glyph is at hand when asked for.
    public let generation = 0

    private let matcher: FontMatcher?
    private let defaultFamily: String
    private let capacity: Int
    private let report: @Sendable (String) -> Void
    private let lock = NSLock()

    private struct Key: Hashable { let stack: String; let codePoint: UInt32 }
    private var glyphs: [Key: SDFGlyph?] = [:]
    /// Each stack's style (its first name's) and the face it is drawn with.
    private var stacks: [String: (style: FontName, face: FontFile?)] = [:]
    private var faces: [FontFile: SDFFontFace] = [:]
    /// Files that failed to open or to render a glyph (reported once, then skipped).
    private var broken: Set<String> = []

    /// Installed fonts and those of `appFontDirectory` (nightmap's `Resources/fonts`, found
    /// before installed ones of the same name); `defaultFamily` draws stacks that name nothing
    /// installed. `report` gets one line per problem: a font file that cannot be read, a stack
    /// drawn with another font than it names.
    public init(appFontDirectory: String?, defaultFamily: String = "DejaVu Sans", capacity: Int = 8_192,
                report: @escaping @Sendable (String) -> Void) {
        matcher = FontMatcher(appFontDirectory: appFontDirectory, report: report)
        if matcher == nil { report("fontconfig did not start: labels without glyph ranges are not drawn") }
        self.defaultFamily = defaultFamily
        self.capacity = max(1, capacity)
        self.report = report
    }

    public func request(_ codePoints: [UInt32], stack: String) -> Bool { true }

    public func glyph(_ codePoint: UInt32, stack: String) -> SDFGlyph? {
        var problems: [String] = []
        lock.lock()
        let key = Key(stack: stack, codePoint: codePoint)
        let glyph: SDFGlyph?
        if let known = glyphs[key] {
            glyph = known
        } else {
            glyph = make(codePoint, stack: stack, problems: &problems)
            if glyphs.count >= capacity { glyphs.removeAll(keepingCapacity: true) }
            glyphs[key] = glyph
        }
        lock.unlock()
        problems.forEach(report)
        return glyph
    }

    /// The glyph from the stack's face, else from the first fallback face that has it.
    private func make(_ codePoint: UInt32, stack: String, problems: inout [String]) -> SDFGlyph? {
        guard let matcher else { return nil }
        let (style, face) = resolve(stack, matcher, &problems)
        let baseline = face.flatMap { open($0, &problems)?.ascender }
        if let face, let g = render(codePoint, face, baseline, &problems) { return g }
        for file in matcher.fallbackFaces(for: codePoint, like: style) where file != face {
            if let g = render(codePoint, file, baseline, &problems) { return g }
        }
        return nil
    }

    private func resolve(_ stack: String, _ matcher: FontMatcher, _ problems: inout [String]) -> (style: FontName, face: FontFile?) {
        if let known = stacks[stack] { return known }
        let names = stack.split(separator: ",").map { FontName($0.trimmingCharacters(in: .whitespaces)) }
        var resolved: (style: FontName, face: FontFile?)
        if let (name, face) = names.lazy.compactMap({ n in matcher.face(for: n).map { (n, $0) } }).first {
            resolved = (name, face)
        } else {
            let first = names.first ?? FontName(family: defaultFamily)
            let style = FontName(family: defaultFamily, weight: first.weight, italic: first.italic)
            let face = matcher.closestFace(to: style)
            resolved = (style, face)
            let used = face.map { "\(open($0, &problems)?.name ?? "a font") (\($0.path))" } ?? "nothing (no fonts installed)"
            problems.append("text-font \"\(stack)\": not installed; drawn with \(used)")
        }
        stacks[stack] = resolved
        return resolved
    }

    private func render(_ codePoint: UInt32, _ file: FontFile, _ ascender: Double?, _ problems: inout [String]) -> SDFGlyph? {
        guard let face = open(file, &problems) else { return nil }
        switch face.glyph(codePoint, ascender: ascender) {
        case .success(let g): return g
        case .failure(let f):
            broken.insert(file.path)
            faces[file] = nil
            problems.append("\(file.path): \(f.description); the font is skipped from now on")
            return nil
        case nil: return nil
        }
    }

    private func open(_ file: FontFile, _ problems: inout [String]) -> SDFFontFace? {
        if let face = faces[file] { return face }
        guard !broken.contains(file.path) else { return nil }
        do {
            let face = try SDFFontFace(path: file.path, index: file.index)
            faces[file] = face
            return face
        } catch {
            broken.insert(file.path)
            problems.append("\(error); skipped")
            return nil
        }
    }
}
