import Foundation
import MapCore
import Raster

/// Reads a sprite sheet: `<base>.json` (name -> x, y, width, height, pixelRatio, sdf) and
/// `<base>.png`, with `@2x` inserted for screens of pixel ratio above 1. Each icon is cut out of
/// the sheet into its own image.
public enum SpriteLoader {
    public static func load(base: String, pixelRatio: Double, resolver: ResourceResolver) throws -> SpriteSheet {
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
            icons[name] = SpriteIcon(name: name, image: image, pixelRatio: ratio, sdf: sdf)
        }
        return SpriteSheet(icons: icons)
    }
}
