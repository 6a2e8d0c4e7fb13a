import Foundation

/// A `format` expression's value: runs of text (or an image) with their own overrides.
///
/// Only `format` makes one; a plain string where formatted text is expected (`text-field`)
/// stays a ``StyleValue/string(_:)``, which a label draws as one section with the layer's own
/// font, size and colour.
public struct Formatted: Sendable, Equatable {
    /// One run of a formatted label. A nil override means the layer's own property applies.
    public struct Section: Sendable, Equatable {
        /// The run's text; "" for an image section.
        public var text: String
        /// The image drawn in the text's place (`["image", name]` as a section of `format`).
        public var image: String?
        /// `font-scale`: a factor on the layer's `text-size`.
        public var scale: Double?
        /// `text-font`: the font stack, instead of the layer's.
        public var textFont: [String]?
        /// `text-color`: the run's colour, instead of the layer's.
        public var textColor: Color?
        /// `vertical-align`: where a run smaller or larger than the line sits on it: "bottom"
        /// (the default), "center" or "top".
        public var verticalAlign: String?

        public init(text: String, image: String? = nil, scale: Double? = nil, textFont: [String]? = nil,
                    textColor: Color? = nil, verticalAlign: String? = nil) {
            self.text = text
            self.image = image
            self.scale = scale
            self.textFont = textFont
            self.textColor = textColor
            self.verticalAlign = verticalAlign
        }
    }

    /// The `vertical-align` values the style specification defines.
    public static let verticalAlignments = ["bottom", "center", "top"]

    public var sections: [Section]

    public init(sections: [Section]) {
        self.sections = sections
    }

    /// The text of all sections, as to-string gives it (images as ""). Derived from
    /// `sections`, so the two cannot disagree.
    public var plainText: String {
        sections.map(\.text).joined()
    }
}
