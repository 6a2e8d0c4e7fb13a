import Foundation
import MapCore

/// The fonts `text-font` can name: every TrueType or OpenType file of a folder (nightmap's
/// `Resources/fonts`), each known by its family and style ("DejaVu Sans Book", "DejaVu Sans
/// Bold"). A stack takes its first font that is here; a stack with none of them falls back to a
/// bold face when the first name says "Bold", else to the regular one, so a style written for
/// other fonts still shows its labels.
public final class FontLibrary: @unchecked Sendable {
    public let faces: [FontFace]
    private let byName: [String: FontFace]
    private let regular: FontFace, bold: FontFace

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The fonts in `directory`; `regular` names the fallback (by its file name).
    public init(directory: URL, regular: String = "DejaVuSans.ttf") throws {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var faces: [FontFace] = [], fallback: FontFace?
        for file in files.sorted() where file.hasSuffix(".ttf") || file.hasSuffix(".otf") {
            let face = try FontFace(path: directory.appendingPathComponent(file).path)
            faces.append(face)
            if file == regular { fallback = face }
        }
        guard let first = fallback ?? faces.first else { throw Failure(description: "\(directory.path): no fonts (.ttf, .otf)") }
        self.faces = faces
        self.regular = first
        bold = faces.first { $0.name.hasSuffix(" Bold") } ?? first
        byName = Dictionary(faces.map { ($0.name.lowercased(), $0) }, uniquingKeysWith: { a, _ in a })
    }

    public func font(_ stack: [String]) -> any TextFont {
        for name in stack { if let f = byName[name.lowercased()] { return f } }
        return stack.first?.range(of: "bold", options: .caseInsensitive) != nil ? bold : regular
    }

    /// The font for the overlay and the window's own text.
    public var defaultFont: FontFace { regular }
}
