import Foundation
import MapCore
import Raster

/// Reads a sprite sheet: `<base>.json` (name -> x, y, width, height, pixelRatio, sdf, and for
/// icons fitted to their text stretchX, stretchY, content, textFitWidth, textFitHeight) and
/// `<base>.png`, with `@2x` inserted for screens of pixel ratio above 1. Each icon is cut out of
/// the sheet into its own image. A bad box or ratio fails the sheet; a bad stretch description
/// is left out with a note to `report` (the icon still draws, only it does not stretch so).
public enum SpriteLoader {
    /// The images of a document's sprites in one sheet, each named as its sprite names it
    /// (`id:name`, or `name` for the default sprite); nil when there are none. A sprite that
    /// cannot be read is reported through `report` and left out; the others load.
    public static func load(_ sprites: [SpriteSource], pixelRatio: Double, resolver: ResourceResolver,
                            report: (String) -> Void = { _ in }) -> SpriteSheet? {
        guard !sprites.isEmpty else { return nil }
        var icons: [String: SpriteIcon] = [:]
        for source in sprites {
            let at = sprites.count == 1 && source.id == SpriteSource.defaultID ? "sprite" : "sprite \"\(source.id)\""
            do {
                let sheet = try load(base: source.url, pixelRatio: pixelRatio, resolver: resolver, naming: source.imageName, report: report)
                icons.merge(sheet.icons) { _, new in new }
            } catch {
                report("\(at): \(error) (its images are missing)")
            }
        }
        return SpriteSheet(icons: icons)
    }

    /// One sprite sheet; `naming` gives each image's name in the style from its name in the sheet.
    public static func load(base: String, pixelRatio: Double, resolver: ResourceResolver,
                            naming: (String) -> String = { $0 }, report: (String) -> Void = { _ in }) throws -> SpriteSheet {
        let stem = pixelRatio > 1 ? base + "@2x" : base
        let jsonURL = stem + ".json", pngURL = stem + ".png"
        let index = try JSON.parse(try resolver.data(jsonURL, limit: 16 << 20), name: jsonURL)
        let sheet = try resolver.image(pngURL)
        guard case let .object(entries) = index else { throw StyleError("\(jsonURL): expected an object of icons, found \(index.typeName)") }
        var icons: [String: SpriteIcon] = [:]
        // Each icon is copied out of the sheet, and boxes may overlap: 50 000 names for the whole
        // of a 1024 x 1024 sheet would copy 200 GB. The copies may total twice the sheet (16 M
        // pixels at least), which icons laid out side by side, even named twice, never exceed.
        let pixelLimit = max(16 << 20, 2 * sheet.width * sheet.height)
        var pixelsLeft = pixelLimit
        for (name, entry) in entries.entries {
            guard case let .object(o) = entry else { throw StyleError("\(jsonURL): \(name): expected object, found \(entry.typeName)") }
            func int(_ key: String) throws -> Int {
                guard case let .number(v)? = o[key], v >= 0, v == v.rounded(), v < 1e6 else {
                    throw StyleError("\(jsonURL): \(name).\(key): expected a whole number >= 0")
                }
                return Int(v)
            }
            let x = try int("x"), y = try int("y"), w = try int("width"), h = try int("height")
            guard w > 0, h > 0, x + w <= sheet.width, y + h <= sheet.height else {
                throw StyleError("\(jsonURL): \(name): box \(x),\(y) \(w)x\(h) is outside the \(sheet.width)x\(sheet.height) sheet")
            }
            pixelsLeft -= w * h
            guard pixelsLeft >= 0 else {
                throw StyleError("\(jsonURL): \(name): the icons' boxes add up to more than \(pixelLimit) pixels (they overlap too much)")
            }
            var ratio = 1.0
            if case let .number(r)? = o["pixelRatio"] {
                guard r > 0, r.isFinite else { throw StyleError("\(jsonURL): \(name).pixelRatio: expected a number > 0") }
                ratio = r
            }
            let sdf = o["sdf"] == .bool(true)
            let image = Pixmap(width: w, height: h)
            for row in 0..<h {
                (image.pixels + row * w).update(from: sheet.pixels + (y + row) * sheet.width + x, count: w)
            }
            func note(_ key: String, _ expected: String) { report("\(jsonURL): \(name).\(key): expected \(expected); left out") }
            let stretchX = zones(o["stretchX"], length: Double(w)), stretchY = zones(o["stretchY"], length: Double(h))
            if stretchX == nil, o["stretchX"] != nil { note("stretchX", "[from, to] pairs inside the width, in order and apart") }
            if stretchY == nil, o["stretchY"] != nil { note("stretchY", "[from, to] pairs inside the height, in order and apart") }
            let content = box(o["content"], width: Double(w), height: Double(h))
            if content == nil, o["content"] != nil { note("content", "[x1, y1, x2, y2] inside the image, x1 < x2, y1 < y2") }
            func textFit(_ key: String) -> TextFit {
                guard let v = o[key] else { return .stretchOrShrink }
                guard case let .string(text) = v, let fit = TextFit(rawValue: text) else {
                    note(key, "\"stretchOrShrink\", \"stretchOnly\" or \"proportional\"")
                    return .stretchOrShrink
                }
                return fit
            }
            icons[naming(name)] = SpriteIcon(name: naming(name), image: image, pixelRatio: ratio, sdf: sdf, stretchX: stretchX, stretchY: stretchY,
                                     content: content, textFitWidth: textFit("textFitWidth"), textFitHeight: textFit("textFitHeight"))
        }
        return SpriteSheet(icons: icons)
    }

    /// Stretch zones: [from, to] pairs within 0...length, each after the one before; nil when
    /// absent, empty or anything else.
    private static func zones(_ value: JSON?, length: Double) -> [ClosedRange<Double>]? {
        guard case let .array(pairs)? = value, !pairs.isEmpty else { return nil }
        var out: [ClosedRange<Double>] = []
        for pair in pairs {
            guard let p = numbers(pair), p.count == 2, p[0].isFinite, p[1].isFinite,
                  p[0] >= (out.last?.upperBound ?? 0), p[0] <= p[1], p[1] <= length else { return nil }
            out.append(p[0]...p[1])
        }
        return out
    }

    /// The numbers of an array of numbers only.
    private static func numbers(_ value: JSON) -> [Double]? {
        guard case let .array(items) = value else { return nil }
        var out: [Double] = []
        for item in items {
            guard case let .number(n) = item else { return nil }
            out.append(n)
        }
        return out
    }

    /// A content box [x1, y1, x2, y2] inside the image and not empty, or nil.
    private static func box(_ value: JSON?, width: Double, height: Double) -> SpriteIcon.Content? {
        guard let value, let v = numbers(value), v.count == 4, v.allSatisfy(\.isFinite),
              v[0] >= 0, v[1] >= 0, v[0] < v[2], v[1] < v[3], v[2] <= width, v[3] <= height else { return nil }
        return SpriteIcon.Content(x1: v[0], y1: v[1], x2: v[2], y2: v[3])
    }
}
