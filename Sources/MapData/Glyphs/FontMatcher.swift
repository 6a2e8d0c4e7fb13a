import CFontconfig
import Foundation

/// A `text-font` name read as a CSS font would be: "Open Sans Semibold Italic" is the family
/// "Open Sans" at weight 600, italic. The weight and style words at the end of the name are
/// MapLibre's (TEXT.md section 1: thin/hairline 100, extra/ultra light 200, light 300,
/// normal/regular 400, medium 500, semi/demi bold 600, bold 700, extra/ultra bold 800,
/// black/heavy 900, extra/ultra black 950; italic/oblique), plus "book" and "roman" for 400, which
/// fonts such as DejaVu name their regular face with. A compound counts once ("Semibold" is 600,
/// not also "bold"), written as one word, two or with a hyphen ("SemiBold", "Semi Bold",
/// "Semi-Bold"). Only trailing words are read, so a family that starts with one ("Black Ops One")
/// keeps its name.
public struct FontName: Hashable, Sendable {
    public let family: String
    /// CSS weight, 100 to 950.
    public let weight: Int
    public let italic: Bool

    public init(family: String, weight: Int = 400, italic: Bool = false) {
        self.family = family; self.weight = weight; self.italic = italic
    }

    public init(_ textFont: String) {
        var words = textFont.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        var weight = 400, italic = false, weightSet = false
        // Read style words from the end: a weight word may have a modifier word before it.
        while let last = words.last {
            let key = last.lowercased().replacingOccurrences(of: "-", with: "")
            if key == "italic" || key == "oblique" {
                italic = true
            } else if let w = Self.weights[key] {
                guard !weightSet else { break }
                weight = w; weightSet = true
                if let modifier = words.dropLast().last?.lowercased(), let w2 = Self.weights[modifier + key] {
                    weight = w2
                    words.removeLast()
                }
            } else if let w = Self.italicWeights(key) {
                guard !weightSet else { break }
                weight = w; weightSet = true; italic = true
            } else {
                break
            }
            words.removeLast()
        }
        // A name that is all style words ("Bold") keeps them as its family.
        family = words.isEmpty ? textFont.trimmingCharacters(in: .whitespaces) : words.joined(separator: " ")
        self.weight = weight
        self.italic = italic
    }

    /// Style words written together with "Italic" ("BoldItalic", "LightOblique").
    private static func italicWeights(_ key: String) -> Int? {
        for suffix in ["italic", "oblique"] where key.hasSuffix(suffix) && key.count > suffix.count {
            return weights[String(key.dropLast(suffix.count))]
        }
        return nil
    }

    private static let weights: [String: Int] = [
        "thin": 100, "hairline": 100,
        "extralight": 200, "ultralight": 200,
        "light": 300,
        "normal": 400, "regular": 400, "book": 400, "roman": 400,
        "medium": 500,
        "semibold": 600, "demibold": 600,
        "bold": 700,
        "extrabold": 800, "ultrabold": 800,
        "black": 900, "heavy": 900,
        "extrablack": 950, "ultrablack": 950,
    ]
}

/// One face of a font file (a collection, .ttc, holds several; a variable font's named
/// instances are faces too, numbered as FreeType numbers them).
public struct FontFile: Hashable, Sendable {
    public let path: String
    public let index: Int
}

/// Finds installed fonts for `text-font` names through fontconfig, as a desktop application
/// would: the family, weight and slant of a `FontName` matched with `FcFontMatch`, and for a
/// code point the chosen face lacks, the fonts `FcFontSort` ranks next that cover it. A face of
/// the application's own folder (nightmap's `Resources/fonts`) is taken before an installed
/// one of the same family and style, so nightmap's DejaVu Sans is the one used even where the
/// system has another copy (of another version), while an installed style closer to the one
/// asked for (a Bold Oblique for "Bold Italic") still wins over a bundled one. Answers are
/// cached; the class is thread-safe (one lock).
public final class FontMatcher: @unchecked Sendable {
    private let config: OpaquePointer
    private let lock = NSLock()
    private var matches: [FontName: FontFile?] = [:]
    private var closest: [FontName: FontFile?] = [:]
    private var sorted: [FontName: UnsafeMutablePointer<FcFontSet>] = [:]

    /// The system's fonts (fontconfig's own configuration) and those of `appFontDirectory`.
    /// Each file there with a font's extension that fontconfig cannot read (not a font,
    /// truncated) is reported once, by path, and left out.
    public init?(appFontDirectory: String?, report: (String) -> Void) {
        guard let config = FcInitLoadConfigAndFonts() else { return nil }
        self.config = config
        guard let appFontDirectory else { return }
        // Absolute and without "..": fontconfig names the files it finds after the folder given.
        let dir = URL(fileURLWithPath: appFontDirectory).standardizedFileURL.path
        let added = dir.withCString { p in
            p.withMemoryRebound(to: FcChar8.self, capacity: dir.utf8.count + 1) { FcConfigAppFontAddDir(config, $0) }
        }
        guard added != 0 else {
            report("\(dir): font folder not readable; only installed fonts are used")
            return
        }
        let taken = Set(Self.files(FcConfigGetFonts(config, FcSetApplication)))
        for path in Self.fontFiles(in: dir) where !taken.contains(path) {
            report("\(path): not a font fontconfig can read; left out")
        }
    }

    deinit {
        for set in sorted.values { FcFontSetDestroy(set) }
        FcConfigDestroy(config)
    }

    /// The face for `name` when its family is installed (matched by name, in any of the
    /// languages the font names itself in), closest in weight and slant; nil when fontconfig
    /// would put another family in its place.
    public func face(for name: FontName) -> FontFile? {
        lock.lock(); defer { lock.unlock() }
        if let known = matches[name] { return known }
        guard let pattern = Self.pattern(name, config: config) else { return nil }
        defer { FcPatternDestroy(pattern) }
        // The best face of all fonts (the system's and the application's); the application's
        // own face in its place when it is the same face (same family and style name), so the
        // bundled file is the one used but a system face closer in style still wins.
        var result = FcResultNoMatch
        guard let best = FcFontMatch(config, pattern, &result) else { matches[name] = .some(nil); return nil }
        defer { FcPatternDestroy(best) }
        var found = Self.hasFamily(best, name.family) ? Self.file(best) : nil
        if found != nil, let app = FcConfigGetFonts(config, FcSetApplication) {
            var sets: [UnsafeMutablePointer<FcFontSet>?] = [app]
            if let own = FcFontSetMatch(config, &sets, 1, pattern, &result) {
                if Self.hasFamily(own, name.family), Self.sameStyle(own, best) { found = Self.file(own) }
                FcPatternDestroy(own)
            }
        }
        matches[name] = found
        return found
    }

    /// The face fontconfig puts in place of `name`, whatever its family (its default family's
    /// face of that weight and slant when `name`'s family is not installed); nil only when no
    /// font is installed at all.
    public func closestFace(to name: FontName) -> FontFile? {
        if let exact = face(for: name) { return exact }
        lock.lock(); defer { lock.unlock() }
        if let known = closest[name] { return known }
        guard let pattern = Self.pattern(name, config: config) else { return nil }
        defer { FcPatternDestroy(pattern) }
        var result = FcResultNoMatch
        var found: FontFile?
        if let match = FcFontMatch(config, pattern, &result) {
            found = Self.file(match)
            FcPatternDestroy(match)
        }
        closest[name] = found
        return found
    }

    /// Outline faces that cover `codePoint`, best first for `name` (fontconfig's sort: family,
    /// then weight and slant, then the rest); the fonts a text falls back to.
    public func fallbackFaces(for codePoint: UInt32, like name: FontName) -> [FontFile] {
        lock.lock(); defer { lock.unlock() }
        guard let set = sortedSet(name) else { return [] }
        var faces: [FontFile] = []
        for i in 0..<Int(set.pointee.nfont) {
            guard let font = set.pointee.fonts[i] else { continue }
            var charset: OpaquePointer?
            var outline: FcBool = 0
            guard FcPatternGetCharSet(font, FC_CHARSET, 0, &charset) == FcResultMatch, let charset,
                  FcCharSetHasChar(charset, codePoint) != 0,
                  FcPatternGetBool(font, FC_OUTLINE, 0, &outline) == FcResultMatch, outline != 0,
                  let file = Self.file(font) else { continue }
            faces.append(file)
        }
        return faces
    }

    private func sortedSet(_ name: FontName) -> UnsafeMutablePointer<FcFontSet>? {
        if let set = sorted[name] { return set }
        guard let pattern = Self.pattern(name, config: config) else { return nil }
        defer { FcPatternDestroy(pattern) }
        var result = FcResultNoMatch
        // Trimmed: a font that covers nothing the ones before it do not is left out.
        guard let set = FcFontSort(config, pattern, 1, nil, &result) else { return nil }
        sorted[name] = set
        return set
    }

    /// A pattern asking for `name`'s family, weight (CSS weights mapped to fontconfig's) and
    /// slant, completed as fontconfig completes an application's request.
    private static func pattern(_ name: FontName, config: OpaquePointer) -> OpaquePointer? {
        guard let pattern = FcPatternCreate() else { return nil }
        name.family.withCString { p in
            p.withMemoryRebound(to: FcChar8.self, capacity: name.family.utf8.count + 1) {
                _ = FcPatternAddString(pattern, FC_FAMILY, $0)
            }
        }
        FcPatternAddInteger(pattern, FC_WEIGHT, FcWeightFromOpenType(Int32(name.weight)))
        FcPatternAddInteger(pattern, FC_SLANT, name.italic ? FC_SLANT_ITALIC : FC_SLANT_ROMAN)
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        return pattern
    }

    /// Whether two matched faces are the same style of a family. By style name: a match is
    /// prepared for rendering, and fontconfig's synthetic-oblique rule sets a roman face's
    /// slant to the oblique asked for.
    private static func sameStyle(_ a: OpaquePointer, _ b: OpaquePointer) -> Bool {
        func style(_ p: OpaquePointer) -> String? {
            var value: UnsafeMutablePointer<FcChar8>?
            guard FcPatternGetString(p, FC_STYLE, 0, &value) == FcResultMatch, let value else { return nil }
            return String(cString: value)
        }
        return style(a) != nil && style(a) == style(b)
    }

    private static func hasFamily(_ font: OpaquePointer, _ family: String) -> Bool {
        var n: Int32 = 0
        var value: UnsafeMutablePointer<FcChar8>?
        while FcPatternGetString(font, FC_FAMILY, n, &value) == FcResultMatch, let value {
            if String(cString: value).caseInsensitiveCompare(family) == .orderedSame { return true }
            n += 1
        }
        return false
    }

    private static func file(_ font: OpaquePointer) -> FontFile? {
        var path: UnsafeMutablePointer<FcChar8>?
        var index: Int32 = 0
        guard FcPatternGetString(font, FC_FILE, 0, &path) == FcResultMatch, let path else { return nil }
        if FcPatternGetInteger(font, FC_INDEX, 0, &index) != FcResultMatch { index = 0 }
        return FontFile(path: String(cString: path), index: Int(index))
    }

    private static func files(_ set: UnsafeMutablePointer<FcFontSet>?) -> [String] {
        guard let set else { return [] }
        return (0..<Int(set.pointee.nfont)).compactMap { i in
            set.pointee.fonts[i].flatMap { file($0).map { URL(fileURLWithPath: $0.path).standardizedFileURL.path } }
        }
    }

    /// The files under `dir` (as fontconfig walks it: sub-folders too) named as fonts are.
    private static func fontFiles(in dir: String) -> [String] {
        let extensions: Set<String> = ["ttf", "otf", "ttc", "otc", "woff", "woff2", "pfb", "pfa"]
        guard let walk = FileManager.default.enumerator(at: URL(fileURLWithPath: dir), includingPropertiesForKeys: [.isRegularFileKey],
                                                        options: [.skipsHiddenFiles]) else { return [] }
        var paths: [String] = []
        for case let url as URL in walk where extensions.contains(url.pathExtension.lowercased()) {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                paths.append(url.standardizedFileURL.path)
            }
        }
        return paths.sorted()
    }
}
