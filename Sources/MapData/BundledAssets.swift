import Foundation
import MapCore

/// What nightmap ships for any style to use: its fonts (`Resources/fonts`: the overlay's text
/// and labels of styles without glyph ranges, through `LocalGlyphs`, which finds them before
/// installed fonts) and the images of `Resources/icons` that labels use (`dot`, the place dot).
public enum BundledAssets {
    /// Images any layer may name, by name and file.
    public static let images = [("dot", "icons/dot.svg")]

    /// Glyphs from local fonts, nightmap's own first; `report` gets one line per problem.
    public static func localGlyphs(resources: URL, report: @escaping @Sendable (String) -> Void = { _ in }) -> LocalGlyphs {
        LocalGlyphs(appFontDirectory: resources.appendingPathComponent("fonts").path, report: report)
    }

    /// The overlay's font: DejaVu Sans from local fonts' glyphs, set by the labels' text engine.
    public static func overlayFont(_ glyphs: any GlyphSource) -> GlyphFont { GlyphFont(glyphs: glyphs, stack: "DejaVu Sans Book") }

    /// Adds the overlay's font, the images, and local fonts' glyphs when the style has no glyph
    /// source yet (the overlay's font is always drawn from local fonts).
    public static func add(to style: inout Style, resources: URL, localGlyphs given: (any GlyphSource)? = nil) throws {
        let local = given ?? localGlyphs(resources: resources)
        style.font = overlayFont(local)
        if style.glyphs == nil { style.glyphs = local }
        for (name, file) in images where style.icons[name] == nil {
            style.icons[name] = try SVGIcon.read(path: resources.appendingPathComponent(file).path, name: name)
        }
    }
}
