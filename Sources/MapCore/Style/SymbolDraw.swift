/// Paint of one label's text, evaluated for one feature; lengths in device pixels, colours lit.
public struct TextPaint: Equatable, Sendable {
    public var font: any TextFont
    /// `text-size`: the em, in pixels.
    public var size: Double
    public var color: Color
    public var haloColor: Color
    public var haloWidth: Double
    /// Extra pixels between letters (`text-letter-spacing` in ems, times the size).
    public var letterSpacing: Double
    public var opacity: Double

    public init(font: any TextFont, size: Double, color: Color = .black, haloColor: Color = Color(r: 0, g: 0, b: 0, a: 0),
                haloWidth: Double = 0, letterSpacing: Double = 0, opacity: Double = 1) {
        self.font = font; self.size = size; self.color = color; self.haloColor = haloColor
        self.haloWidth = haloWidth; self.letterSpacing = letterSpacing; self.opacity = opacity
    }

    public static func == (a: TextPaint, b: TextPaint) -> Bool {
        a.font === b.font && a.size == b.size && a.color == b.color && a.haloColor == b.haloColor
            && a.haloWidth == b.haloWidth && a.letterSpacing == b.letterSpacing && a.opacity == b.opacity
    }
}

/// A symbol layer's symbols, in the order they claim space (`symbol-sort-key`, then the
/// source's order): what the model evaluated, before placement. Shared by reference, so that
/// frames of an unchanged layer hand the placement the same object.
public final class SymbolSet: Sendable {
    /// One feature's symbol at one anchor: an icon, a text, or both.
    public struct Symbol: Sendable {
        /// The anchor, in normalised Web Mercator.
        public let point: MercatorPoint
        public let icon: Icon?
        public let text: Text?
        public init(point: MercatorPoint, icon: Icon?, text: Text?) { self.point = point; self.icon = icon; self.text = text }
    }

    /// How a symbol's part claims space: the box it collides with (grown by its padding), whether
    /// it may overlap others, whether it keeps others out, whether the symbol shows without it.
    public struct Collision: Sendable, Equatable {
        public var padding: Double
        public var allowOverlap: Bool
        public var ignorePlacement: Bool
        public var optional: Bool
        public init(padding: Double = 0, allowOverlap: Bool = false, ignorePlacement: Bool = false, optional: Bool = false) {
            self.padding = padding; self.allowOverlap = allowOverlap; self.ignorePlacement = ignorePlacement; self.optional = optional
        }
    }

    public enum IconImage: Sendable {
        case sprite(IconPaint)
        case vector(VectorIconPaint)
    }

    public struct Icon: Sendable {
        public let image: IconImage
        /// The icon's box before any turn, relative to the anchor point (device pixels, y down).
        public let box: FrameDescription.ScreenBox
        public let collision: Collision
        public init(image: IconImage, box: FrameDescription.ScreenBox, collision: Collision) {
            self.image = image; self.box = box; self.collision = collision
        }
    }

    /// A label's text, shaped on one line: its width and the font's ascent and descent at its
    /// size, and where it may go relative to the anchor, in order of preference.
    public struct Text: Sendable {
        public let text: String
        public let paint: TextPaint
        public let width: Double, ascent: Double, descent: Double
        /// Candidate positions: which point of the text's box sits at the anchor (`text-anchor`,
        /// or each of `text-variable-anchor`), shifted by `offset` device pixels.
        public let positions: [(anchor: IconAnchor, offset: (x: Double, y: Double))]
        public let collision: Collision
        public init(text: String, paint: TextPaint, width: Double, ascent: Double, descent: Double,
                    positions: [(anchor: IconAnchor, offset: (x: Double, y: Double))], collision: Collision) {
            self.text = text; self.paint = paint; self.width = width; self.ascent = ascent; self.descent = descent
            self.positions = positions; self.collision = collision
        }
    }

    public let symbols: [Symbol]
    /// Some symbol has text (labels: what costs most to draw).
    public let hasText: Bool
    public init(_ symbols: [Symbol]) { self.symbols = symbols; hasText = symbols.contains { $0.text != nil } }
}

/// What every symbol layer of a frame is placed against: the frame's symbol sets (all layers
/// share one collision index in screen space, so a change in one can move symbols of another)
/// and screen boxes symbols keep clear of (an app's obstacles, the overlay). A frame whose
/// context is the same object as the last placement's needs no new placement.
public final class SymbolContext: Sendable {
    public let avoid: [FrameDescription.ScreenBox]
    /// (Held, so that none is freed and another made at its address while the context lives.)
    public let sets: [SymbolSet]
    public init(avoid: [FrameDescription.ScreenBox], sets: [SymbolSet]) { self.avoid = avoid; self.sets = sets }
    /// A layer's symbols before the model has put the frame's context on them.
    public static let unplaced = SymbolContext(avoid: [], sets: [])
}

/// A symbol layer's draw: its symbols and the context they are placed in.
public struct SymbolDraw: Equatable, Sendable {
    public let set: SymbolSet
    public var context: SymbolContext
    /// `icon-translate` and `text-translate`: device pixels on screen (turned with the map when
    /// anchored to it), moving where icons and texts are placed and drawn.
    public var iconTranslate: (x: Double, y: Double)
    public var textTranslate: (x: Double, y: Double)
    public init(set: SymbolSet, context: SymbolContext = .unplaced, iconTranslate: (x: Double, y: Double) = (0, 0),
                textTranslate: (x: Double, y: Double) = (0, 0)) {
        self.set = set; self.context = context; self.iconTranslate = iconTranslate; self.textTranslate = textTranslate
    }
    public static func == (a: SymbolDraw, b: SymbolDraw) -> Bool {
        a.set === b.set && a.context === b.context && a.iconTranslate == b.iconTranslate && a.textTranslate == b.textTranslate
    }
}

/// Fonts by `text-font` stack: the first font of the stack that is known, else a fallback.
public protocol FontSource: Sendable {
    func font(_ stack: [String]) -> any TextFont
}
