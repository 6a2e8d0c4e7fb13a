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
/// and skipped. (`init(files:)` makes a source of files named for `text-font` names instead:
/// a style's `font-faces`, see `FontFaceGlyphs`.)
///
/// Runs of complex scripts (`shapeRun`) are shaped by HarfBuzz over the face that has the
/// run's first character (the stack's, else the first fallback face with it, as for a code
/// point) and set on the stack's face's baseline too. Each distinct glyph of a run (face,
/// glyph index, position and baseline) gets an id of `installedIDs` (`namedIDs` for named
/// files), handed out in turn (wrapping around), which `glyph(_:stack:)` answers while it is cached.
///
/// Glyphs are made on first request, synchronously, and kept per stack and code point, at
/// most `capacity` of them (past that the cache starts over: a label's glyphs come back at
/// the cost of rendering them again); shaped runs and their glyphs likewise, at most
/// `capacity` glyphs (and runs). Thread-safe: one lock around matching, FreeType, HarfBuzz
/// and the caches; `report` is called outside it.
public final class LocalGlyphs: GlyphSource, @unchecked Sendable {
    /// Never changes: every glyph is at hand when asked for.
    public let generation = 0

    /// A font file given for a `text-font` name (a style's `font-faces`) and the code points
    /// it is used for.
    struct NamedFile {
        let file: FontFile
        let ranges: [ClosedRange<UInt32>]
        func covers(_ codePoint: UInt32) -> Bool { ranges.contains { $0.contains(codePoint) } }
    }

    /// Where stacks' faces come from.
    private enum Fonts {
        /// Installed fonts, through fontconfig (nil: it did not start); `defaultFamily` draws
        /// stacks that name nothing installed.
        case installed(FontMatcher?, defaultFamily: String)
        /// Files named for `text-font` names; a name without files, or a code point none of a
        /// stack's files covers, has no glyph here.
        case named([String: [NamedFile]])
    }

    private let fonts: Fonts
    /// Where the ids of shaped glyphs are handed out (see `installedIDs`).
    private let ids: ClosedRange<UInt32>
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
    private var nextID: UInt32

    /// The part of `SDFGlyph.shapedIDs` local fonts hand out, and the part files named for
    /// `text-font` names hand out: a source over another (`FontFaceGlyphs` over a store whose
    /// fallback is local fonts) tells its own shaped glyphs from the other's by id.
    static let installedIDs = SDFGlyph.shapedIDs.lowerBound...0x107FFF
    static let namedIDs = (installedIDs.upperBound + 1)...SDFGlyph.shapedIDs.upperBound

    /// Installed fonts and those of `appFontDirectory` (nightmap's `Resources/fonts`, found
    /// before installed ones of the same name); `defaultFamily` draws stacks that name nothing
    /// installed. `report` gets one line per problem: a font file that cannot be read, a stack
    /// drawn with another font than it names.
    public init(appFontDirectory: String?, defaultFamily: String = "DejaVu Sans", capacity: Int = 8_192,
                report: @escaping @Sendable (String) -> Void) {
        let matcher = FontMatcher(appFontDirectory: appFontDirectory, report: report)
        if matcher == nil { report("fontconfig did not start: labels without glyph ranges are not drawn") }
        fonts = .installed(matcher, defaultFamily: defaultFamily)
        ids = Self.installedIDs
        nextID = ids.lowerBound
        self.capacity = max(1, capacity)
        self.report = report
    }

    /// Glyphs from the files given for `text-font` names only (a style's `font-faces`): a
    /// code point of a stack comes from the first of its names with a file that covers it and
    /// has a glyph for it, on that file's own baseline (as a glyph server serving that font
    /// would put it); a run is shaped when that file covers all of it. Anything else has no
    /// glyph here. A file that is not a font is reported once, when first opened, and skipped.
    init(files: [String: [NamedFile]], capacity: Int = 8_192, report: @escaping @Sendable (String) -> Void) {
        fonts = .named(files)
        ids = Self.namedIDs
        nextID = ids.lowerBound
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

    /// The face a run is shaped in, and the ascender its glyphs' tops are measured from.
    private func shapingFace(_ codePoints: [UInt32], stack: String, problems: inout [String])
        -> (file: FontFile, font: SDFFontFace, ascender: Double?)? {
        guard let first = codePoints.first else { return nil }
        switch fonts {
        case let .installed(matcher, defaultFamily):
            guard let matcher else { return nil }
            let (style, face) = resolve(stack, matcher, defaultFamily, &problems)
            let ascender = face.flatMap { open($0, &problems)?.ascender }
            if let face, let font = open(face, &problems), font.hasGlyph(first) { return (face, font, ascender) }
            for file in matcher.fallbackFaces(for: first, like: style) where file != face {
                if let font = open(file, &problems), font.hasGlyph(first) { return (file, font, ascender) }
            }
            return nil
        case let .named(table):
            for named in Self.files(of: stack, in: table) where named.covers(first) {
                guard let font = open(named.file, &problems), font.hasGlyph(first) else { continue }
                return codePoints.allSatisfy(named.covers) ? (named.file, font, nil) : nil
            }
            return nil
        }
    }

    /// The files of a stack's names, in the stack's order.
    private static func files(of stack: String, in table: [String: [NamedFile]]) -> [NamedFile] {
        stack.split(separator: ",").flatMap { table[$0.trimmingCharacters(in: .whitespaces)] ?? [] }
    }

    private func shape(_ codePoints: [UInt32], stack: String, problems: inout [String]) -> [SDFGlyph]? {
        guard let (file, font, ascender) = shapingFace(codePoints, stack: stack, problems: &problems),
              let run = font.shape(codePoints), !run.isEmpty, !run.contains(where: { $0.index == 0 }) else { return nil }
        // Room for the whole run, so that none of its glyphs is forgotten while it is made;
        // never more glyphs than ids, so a live id is never handed out again.
        if shaped.count + run.count > min(capacity, ids.count) { forgetRuns() }
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
                nextID = nextID < ids.upperBound ? nextID + 1 : ids.lowerBound
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

    /// The glyph from the stack's face, else from the first fallback face that has it (of
    /// named files: from the first file of the stack's names that covers it and has it).
    private func make(_ codePoint: UInt32, stack: String, problems: inout [String]) -> SDFGlyph? {
        let matcher: FontMatcher, defaultFamily: String
        switch fonts {
        case let .installed(m?, family): (matcher, defaultFamily) = (m, family)
        case .installed(nil, _): return nil
        case let .named(table):
            for named in Self.files(of: stack, in: table) where named.covers(codePoint) {
                if let g = render(codePoint, named.file, nil, &problems) { return g }
            }
            return nil
        }
        let (style, face) = resolve(stack, matcher, defaultFamily, &problems)
        let baseline = face.flatMap { open($0, &problems)?.ascender }
        if let face, let g = render(codePoint, face, baseline, &problems) { return g }
        for file in matcher.fallbackFaces(for: codePoint, like: style) where file != face {
            if let g = render(codePoint, file, baseline, &problems) { return g }
        }
        return nil
    }

    private func resolve(_ stack: String, _ matcher: FontMatcher, _ defaultFamily: String, _ problems: inout [String]) -> (style: FontName, face: FontFile?) {
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
