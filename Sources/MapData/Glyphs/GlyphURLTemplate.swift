/// A style's `glyphs` URL template: `{fontstack}` and `{range}` replaced, the first occurrence of
/// each only (MapLibre's `String.replace` with a string pattern), e.g.
/// `https://example.com/fonts/{fontstack}/{range}.pbf` for "Open Sans Regular,Arial Unicode MS
/// Regular" and U+0041 → `.../Open%20Sans%20Regular,Arial%20Unicode%20MS%20Regular/0-255.pbf`.
public struct GlyphURLTemplate: Sendable, Equatable {
    public let template: String

    public init(_ template: String) { self.template = template }

    /// The largest code point (Unicode's last plane ends there).
    public static let maxCodePoint: UInt32 = 0x10FFFF

    /// The range `codePoint` belongs to: its index (floor(cp / 256)).
    public static func rangeIndex(_ codePoint: UInt32) -> Int { Int(codePoint >> 8) }

    /// "start-end" for a range index: 0 → "0-255", 78 → "19968-20223".
    public static func rangeName(_ index: Int) -> String { "\(index * 256)-\(index * 256 + 255)" }

    /// The URL of range `index` of `stack` (names joined with ","), the stack percent-encoded when
    /// `encoded`: for a URL that is fetched or parsed as a URL (http, https, file), as a browser's
    /// URL parser does when MapLibre GL JS fetches it (GL JS substitutes the stack as it is). A
    /// path (`local://`, relative or absolute) names the folder as the stack is written.
    public func url(stack: String, range index: Int, encoded: Bool) -> String {
        let name = encoded ? Self.percentEncoded(stack) : stack
        return Self.replacingFirst("{range}", in: Self.replacingFirst("{fontstack}", in: template, with: name),
                                   with: Self.rangeName(index))
    }

    /// `s` with its first `token` replaced (no other occurrence, and nothing inside `replacement`,
    /// is touched: a font named "{range}" stays as it is when the fontstack comes first).
    static func replacingFirst(_ token: String, in s: String, with replacement: String) -> String {
        guard let r = s.range(of: token) else { return s }
        return s.replacingCharacters(in: r, with: replacement)
    }

    private static let hex = Array("0123456789ABCDEF".unicodeScalars)

    /// A font stack as a path segment: spaces and other bytes a browser's URL parser escapes in
    /// a path become %XX (UTF-8), commas stay (glyph servers split the stack on them). Unlike a
    /// browser, "/", "?", "#" and "%" are escaped too: in a font's name they are characters, not
    /// the URL's structure.
    static func percentEncoded(_ stack: String) -> String {
        var out = ""
        for byte in stack.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: ","),
                 UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
                 UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(hex[Int(byte >> 4)])
                out.unicodeScalars.append(hex[Int(byte & 15)])
            }
        }
        return out
    }
}
