/// Paint of one label's text, evaluated for one feature; lengths in device pixels, colours lit.
public struct TextPaint: Equatable, Sendable {
    /// `text-size`: the em, in pixels.
    public var size: Double
    public var color: Color
    public var haloColor: Color
    public var haloWidth: Double
    public var haloBlur: Double
    public var opacity: Double

    public init(size: Double, color: Color = .black, haloColor: Color = Color(r: 0, g: 0, b: 0, a: 0),
                haloWidth: Double = 0, haloBlur: Double = 0, opacity: Double = 1) {
        self.size = size; self.color = color; self.haloColor = haloColor
        self.haloWidth = haloWidth; self.haloBlur = haloBlur; self.opacity = opacity
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
        /// For an anchor along a line: the line, and the index of its segment the anchor lies
        /// on (a label along the line is laid out on it, glyph by glyph, where it shows).
        public let line: SymbolLine?
        public let segment: Int
        public init(point: MercatorPoint, icon: Icon?, text: Text?, line: SymbolLine? = nil, segment: Int = 0) {
            self.point = point; self.icon = icon; self.text = text; self.line = line; self.segment = segment
        }
    }

    /// How a label follows its line (`symbol-placement` line or line-center with text turned
    /// with the map): its glyphs are placed along the line on screen at each placement.
    public struct AlongLine: Sendable, Equatable {
        /// `text-keep-upright`: a label that would read upside down is laid the other way.
        public var keepUpright: Bool
        /// False for `text-rotation-alignment: viewport-glyph`: glyphs follow the line upright.
        public var rotateGlyphs: Bool
        /// `text-offset` in device pixels: x along the line, y across it (an offset line).
        public var offset: (x: Double, y: Double)
        public init(keepUpright: Bool = true, rotateGlyphs: Bool = true, offset: (x: Double, y: Double) = (0, 0)) {
            self.keepUpright = keepUpright; self.rotateGlyphs = rotateGlyphs; self.offset = offset
        }
        public static func == (a: AlongLine, b: AlongLine) -> Bool {
            a.keepUpright == b.keepUpright && a.rotateGlyphs == b.rotateGlyphs && a.offset == b.offset
        }
    }

    /// How a symbol's part claims space: the box it collides with (grown by its padding), whether
    /// it may overlap others, whether it keeps others out, whether the symbol shows without it.
    public struct Collision: Sendable, Equatable {
        public var padding: Double
        /// `*-overlap` (or `*-allow-overlap` true: `always`): whom the part may overlap.
        public var overlap: OverlapMode
        public var ignorePlacement: Bool
        public var optional: Bool
        /// The part shows wherever it is, over anything (`always`).
        public var allowOverlap: Bool { overlap == .always }
        public init(padding: Double = 0, overlap: OverlapMode = .never, ignorePlacement: Bool = false, optional: Bool = false) {
            self.padding = padding; self.overlap = overlap; self.ignorePlacement = ignorePlacement; self.optional = optional
        }
        public init(padding: Double = 0, allowOverlap: Bool, ignorePlacement: Bool = false, optional: Bool = false) {
            self.init(padding: padding, overlap: allowOverlap ? .always : .never, ignorePlacement: ignorePlacement, optional: optional)
        }
    }

    public enum IconImage: Sendable {
        case sprite(IconPaint)
        case vector(VectorIconPaint)
    }

    public struct Icon: Sendable {
        /// An icon's image and the box it claims.
        public struct Variant: Sendable {
            public let image: IconImage
            public let box: FrameDescription.ScreenBox
            public init(image: IconImage, box: FrameDescription.ScreenBox) { self.image = image; self.box = box }
        }
        public let image: IconImage
        /// The icon's box before any turn, relative to the anchor point (device pixels, y down).
        public let box: FrameDescription.ScreenBox
        public let collision: Collision
        /// Fitted to the symbol's text (`icon-text-fit`): it moves with the text's candidate
        /// position, and a candidate fits only if the icon moved with it fits too.
        public let followsText: Bool
        /// `icon-pitch-alignment` map (`auto` with the rotation map): on a pitched map the icon
        /// lies in the map's plane; otherwise it faces the viewer.
        public var pitchesWithMap = false
        /// The icon fitted to the text's vertical shaping, turned as that is: shown instead when
        /// the text is placed vertically.
        public let vertical: Variant?
        public init(image: IconImage, box: FrameDescription.ScreenBox, collision: Collision, followsText: Bool = false, vertical: Variant? = nil) {
            self.image = image; self.box = box; self.collision = collision; self.followsText = followsText; self.vertical = vertical
        }
    }

    /// A label's text shaped, its paint, its turn and where it may go relative to the anchor,
    /// in order of preference.
    public struct Text: Sendable {
        public let shaped: ShapedText
        /// The text shaped for vertical writing (`text-writing-mode` with `vertical`, CJK in
        /// it), drawn turned a quarter clockwise: tried first when `verticalFirst`, else when
        /// the horizontal one has no room.
        public let vertical: ShapedText?
        public let verticalFirst: Bool
        /// With variable anchors and `text-justify: auto`, the horizontal shaping justified as
        /// each anchor wants it (a label left of its point is right-justified), as MapLibre
        /// shapes it once per justification.
        public let justified: [TextJustify: ShapedText]
        /// Equal keys draw the same glyphs in the same places (the renderer's mask cache key).
        public let key: String
        public let paint: TextPaint
        /// `text-rotate`, degrees clockwise.
        public let rotate: Double
        /// Whether the text turns with the map (`text-rotation-alignment` map on a point label).
        public let rotatesWithMap: Bool
        /// Candidate positions (`text-variable-anchor`): the shaped box, centred on the anchor,
        /// moved so that this point of it sits at the anchor, then by `offset` device pixels.
        /// Empty: the box stays where the shaping put it (`text-anchor`, `text-offset`).
        public let positions: [(anchor: IconAnchor, offset: (x: Double, y: Double))]
        public let collision: Collision
        /// Set for a label laid along its line (glyph by glyph); nil for one drawn as a block.
        public let alongLine: AlongLine?
        /// `text-pitch-alignment` map (`auto` with the rotation map): on a pitched map the label
        /// lies in the map's plane; otherwise it faces the viewer.
        public var pitchesWithMap = false
        public init(shaped: ShapedText, vertical: ShapedText? = nil, verticalFirst: Bool = false,
                    justified: [TextJustify: ShapedText] = [:], key: String, paint: TextPaint,
                    rotate: Double = 0, rotatesWithMap: Bool = false,
                    positions: [(anchor: IconAnchor, offset: (x: Double, y: Double))] = [], collision: Collision,
                    alongLine: AlongLine? = nil) {
            self.shaped = shaped; self.vertical = vertical; self.verticalFirst = verticalFirst; self.justified = justified
            self.key = key; self.paint = paint
            self.rotate = rotate; self.rotatesWithMap = rotatesWithMap; self.positions = positions; self.collision = collision
            self.alongLine = alongLine
        }
        /// The label's characters (as written, before shaping).
        public var string: String { shaped.sections.map(\.text).joined() }
        /// The horizontal shaping's box in device pixels around the anchor (before any turn or
        /// candidate's move).
        public var box: FrameDescription.ScreenBox { box(shaped) }
        /// A shaping's box in device pixels around the anchor.
        public func box(_ shaped: ShapedText) -> FrameDescription.ScreenBox {
            let s = paint.size / SDFGlyph.em
            return .init(minX: shaped.left * s, minY: shaped.top * s, maxX: shaped.right * s, maxY: shaped.bottom * s)
        }
        /// The horizontal shaping for a candidate anchor, and its key among the label's shapings.
        public func shaped(for anchor: IconAnchor) -> (shaped: ShapedText, key: String) {
            guard !justified.isEmpty else { return (shaped, key) }
            let j = TextJustify(anchor: anchor)
            return (justified[j] ?? shaped, key + "\u{1}" + j.rawValue)
        }
        /// The shapings to try, in order, each with the turn it is drawn with (degrees).
        public var orientations: [(shaped: ShapedText, turn: Double)] {
            (0..<orientationCount).map { orientation($0) }
        }
        /// How many shapings there are to try (`orientations`, without making the array).
        public var orientationCount: Int { vertical == nil ? 1 : 2 }
        /// The `i`th shaping to try and its turn (`orientations[i]`).
        public func orientation(_ i: Int) -> (shaped: ShapedText, turn: Double) {
            guard let vertical else { return (shaped, 0) }
            return (i == 0) == verticalFirst ? (vertical, 90) : (shaped, 0)
        }
    }

    public let symbols: [Symbol]
    /// Some symbol has text (labels: what costs most to draw).
    public let hasText: Bool
    /// The zoom of the tiles the symbols were laid out for (MapLibre lays symbols out per
    /// tile): the same label at this zoom and at the next is matched by its tile position.
    public let layoutZoom: Int
    /// `symbol-z-order: viewport-y`: placed from the bottom of the screen up (the reverse of
    /// the order they are drawn in), so that lower symbols win, as MapLibre places them.
    public let placesBottomUp: Bool
    /// Placed tile by tile (MapLibre places each tile's symbols in turn, see
    /// `SymbolPlacementOrder`), not in one order across tiles as a `symbol-sort-key` asks.
    public let placesByTile: Bool
    public init(_ symbols: [Symbol], layoutZoom: Int = 0, placesBottomUp: Bool = false, placesByTile: Bool = false) {
        self.symbols = symbols; hasText = symbols.contains { $0.text != nil }
        self.layoutZoom = layoutZoom; self.placesBottomUp = placesBottomUp; self.placesByTile = placesByTile
    }
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
    /// The view has settled: labels are drawn at their fraction of a pixel (else at whole
    /// pixels, so that a moving map reuses their masks).
    public var settled = true
    public init(set: SymbolSet, context: SymbolContext = .unplaced, iconTranslate: (x: Double, y: Double) = (0, 0),
                textTranslate: (x: Double, y: Double) = (0, 0)) {
        self.set = set; self.context = context; self.iconTranslate = iconTranslate; self.textTranslate = textTranslate
    }
    public static func == (a: SymbolDraw, b: SymbolDraw) -> Bool {
        a.set === b.set && a.context === b.context && a.iconTranslate == b.iconTranslate && a.textTranslate == b.textTranslate
            && a.settled == b.settled
    }
}

/// A line symbols are laid along: its points in normalised Web Mercator (x, y pairs), shared by
/// the symbols of its anchors.
public final class SymbolLine: Sendable {
    public let coordinates: [Double]
    public init(coordinates: [Double]) { self.coordinates = coordinates }
    public var count: Int { coordinates.count / 2 }
    public func point(_ i: Int) -> MercatorPoint { MercatorPoint(x: coordinates[2 * i], y: coordinates[2 * i + 1]) }
}
