import Foundation
import MapCore

/// What nightmap ships for any style to use: the fonts of `Resources/fonts` (`text-font`, and
/// the overlay's text) and the images of `Resources/icons` that labels use (`dot`, the place dot).
public enum BundledAssets {
    /// Images any layer may name, by name and file.
    public static let images = [("dot", "icons/dot.svg")]

    public static func add(to style: inout Style, resources: URL) throws {
        let fonts = try FontLibrary(directory: resources.appendingPathComponent("fonts"))
        style.font = fonts.defaultFont
        for (name, file) in images where style.icons[name] == nil {
            style.icons[name] = try SVGIcon.read(path: resources.appendingPathComponent(file).path, name: name)
        }
    }
}
