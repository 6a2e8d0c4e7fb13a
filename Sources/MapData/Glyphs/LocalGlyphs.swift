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
/// Runs of complex scripts (`shapeRun`) are shaped by HarfBuzz over the face that has the
/// run's first character (the stack's, else the first fallback face with it, as for a code
/// point) and set on the stack's face's baseline too. Each distinct glyph of a run (face,
/// glyph index, position and baseline) gets an id of `SDFGlyph.shapedIDs`, handed out in turn
/// (wrapping around the area's 65,534), which `glyph(_:stack:)` answers while it is cached.
///
/// Glyphs are made on first request, synchronously, and kept per stack and code point, at
/// most `capacity` of them (past that the cache starts over: a label's glyphs come back at
/// the cost of rendering them again); shaped runs and their glyphs likewise, at most
/// `capacity` glyphs (and runs). Thread-safe: one lock around matching, FreeType, HarfBuzz
/// and the caches; `report` is called outside it.
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

    private struct Run: Hashable { let stack: String; let codePoints: [UInt32] }
    /// A glyph of a shaped run as it is drawn: which glyph of which face, where (HarfBuzz's
    /// 64ths of a pixel) and on which baseline (the ascender its top is measured from).
    private struct Shaped: Hashable {
        let file: FontFile, index: UInt32
        let advance: Int32, xOffset: Int32, yOffset: Int32
        let ascender: Double?
    }
    /// Shaped runs (nil: the run goes a glyph per character), their glyphs' ids and the
    /// glyphs by id: emptied together.
    private var runs: [Run: [SDFGlyph]?] = [:]
    private var shapedIDs: [Shaped: UInt32] = [:]
    private var shaped: [UInt32: SDFGlyph] = [:]
    /// The id the next new glyph of a run gets.
    private var nextID = SDFGlyph.shapedIDs.lowerBound

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
        if let glyph = shaped[codePoint] {
            lock.unlock()
            return glyph
        }
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

    /// The run shaped by HarfBuzz in the face that has its first character; nil when that is
    /// not a character of a complex script (`ScriptProperties.complexScript(of:)`), no face
    /// has it, the face lacks another of the run's characters (they are then drawn one by one,
    /// each from a face that has it) or a glyph cannot be rendered.
    public func shapeRun(_ codePoints: [UInt32], stack: String) -> [SDFGlyph]? {
        guard let first = codePoints.first, ScriptProperties.complexScript(of: first) != nil else { return nil }
        var problems: [String] = []
        lock.lock()
        let key = Run(stack: stack, codePoints: codePoints)
        let glyphs: [SDFGlyph]?
        if let known = runs[key] {
            glyphs = known
        } else {
            // (Forgotten before the run is shaped, so that its glyphs stay.)
            if runs.count >= capacity { forgetRuns() }
            glyphs = shape(codePoints, stack: stack, problems: &problems)
            runs[key] = glyphs
        }
        lock.unlock()
        problems.forEach(report)
        return glyphs
    }

    private func shape(_ codePoints: [UInt32], stack: String, problems: inout [String]) -> [SDFGlyph]? {
        guard let matcher, let first = codePoints.first else { return nil }
        let (style, face) = resolve(stack, matcher, &problems)
        let ascender = face.flatMap { open($0, &problems)?.ascender }
        var chosen: (file: FontFile, font: SDFFontFace)?
        if let face, let font = open(face, &problems), font.hasGlyph(first) { chosen = (face, font) }
        for file in chosen == nil ? matcher.fallbackFaces(for: first, like: style) : [] where file != face {
            if let font = open(file, &problems), font.hasGlyph(first) { chosen = (file, font); break }
        }
        guard let (file, font) = chosen, let run = font.shape(codePoints), !run.isEmpty,
              !run.contains(where: { $0.index == 0 }) else { return nil }
        // Room for the whole run, so that none of its glyphs is forgotten while it is made;
        // never more glyphs than ids, so a live id is never handed out again.
        if shaped.count + run.count > min(capacity, SDFGlyph.shapedIDs.count) { forgetRuns() }
        var glyphs: [SDFGlyph] = []
        for g in run {
            let key = Shaped(file: file, index: g.index, advance: g.xAdvance, xOffset: g.xOffset, yOffset: g.yOffset, ascender: ascender)
            if let id = shapedIDs[key], let glyph = shaped[id] {
                glyphs.append(glyph)
                continue
            }
            switch font.glyph(index: g.index, id: nextID, ascender: ascender) {
            case .success(let drawn):
                let glyph = SDFGlyph(codePoint: nextID, width: drawn.width, height: drawn.height,
                                     left: drawn.left + Double(g.xOffset) / 64, top: drawn.top + Double(g.yOffset) / 64,
                                     advance: Double(g.xAdvance) / 64, bitmap: drawn.bitmap)
                shapedIDs[key] = nextID
                shaped[nextID] = glyph
                glyphs.append(glyph)
                nextID = nextID < SDFGlyph.shapedIDs.upperBound ? nextID + 1 : SDFGlyph.shapedIDs.lowerBound
            case .failure(let f):
                skip(file, f, &problems)
                return nil
            case nil:
                return nil
            }
        }
        return glyphs
    }

    /// Empties the caches of shaped runs (their ids are handed out on from where they were).
    private func forgetRuns() {
        runs.removeAll(keepingCapacity: true)
        shapedIDs.removeAll(keepingCapacity: true)
        shaped.removeAll(keepingCapacity: true)
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
            skip(file, f, &problems)
            return nil
        case nil: return nil
        }
    }

    /// Reports a font that failed to draw a glyph, and skips it from now on.
    private func skip(_ file: FontFile, _ failure: SDFFontFace.Failure, _ problems: inout [String]) {
        broken.insert(file.path)
        faces[file] = nil
        problems.append("\(file.path): \(failure.description); the font is skipped from now on")
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
