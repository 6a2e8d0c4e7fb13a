import Foundation
import MapCore

/// What nightmap ships for any style to use: the overlay's font (DejaVu Sans of
/// `Resources/fonts`; labels find that folder's fonts through `LocalGlyphs`) and the images of
/// `Resources/icons` that labels use (`dot`, the place dot).
public enum BundledAssets {
    /// Images any layer may name, by name and file.
    public static let images = [("dot", "icons/dot.svg")]

    public static func add(to style: inout Style, resources: URL) throws {
        style.font = try FontFace(path: resources.appendingPathComponent("fonts/DejaVuSans.ttf").path)
        for (name, file) in images where style.icons[name] == nil {
            style.icons[name] = try SVGIcon.read(path: resources.appendingPathComponent(file).path, name: name)
        }
    }
}
