import Raster
/// A labelled place: a city with a dot, or a country name.
public struct Place: Equatable, Sendable {
    public enum Kind: String, Sendable { case city, country }
    public let kind: Kind
    public let name: String
    public let position: LngLat
    /// Higher ranks are placed first (population).
    public let rank: Double
    /// Not shown below this zoom.
    public let minZoom: Double
    /// `position` projected once, so placing labels each frame needs no trigonometry.
    public let mercator: MercatorPoint

    public init(kind: Kind, name: String, position: LngLat, rank: Double, minZoom: Double) {
        self.kind = kind; self.name = name; self.position = position; self.rank = rank; self.minZoom = minZoom
        mercator = WebMercator.project(position)
    }
}

/// Places sorted by rank (highest first): the order in which labels claim space.
public final class PlaceSet: Sendable {
    public let places: [Place]
    /// Each place's name in capitals, made once when the set is made `forCapitals` (for labels
    /// drawn uppercase); empty otherwise.
    public let uppercasedNames: [String]
    public init(_ places: [Place], forCapitals: Bool = false) {
        // Stable by rank: ties keep the given order (the places file is already in rank order).
        self.places = places.enumerated().sorted { ($0.element.rank, -$0.offset) > ($1.element.rank, -$1.offset) }.map(\.element)
        uppercasedNames = forCapitals ? self.places.map { $0.name.uppercased() } : []
        minZooms = self.places.map(\.minZoom)
        // Indices by band of Mercator x, ascending within each band (a counting sort).
        let n = PlaceSet.bands
        func band(_ x: Double) -> Int { x.isFinite ? min(max(Int(x * Double(n)), 0), n - 1) : 0 }
        var starts = [Int32](repeating: 0, count: n + 1)
        for p in self.places { starts[band(p.mercator.x) + 1] += 1 }
        for b in 0..<n { starts[b + 1] += starts[b] }
        var next = starts, indices = [Int32](repeating: 0, count: self.places.count)
        for (i, p) in self.places.enumerated() {
            let b = band(p.mercator.x)
            indices[Int(next[b])] = Int32(i); next[b] += 1
        }
        bandStart = starts; bandIndices = indices
    }

    /// The number of bands of Mercator x (longitude) the places are indexed by.
    public static let bands = 64
    /// Band b's places are `bandIndices[bandStart[b] ..< bandStart[b + 1]]`, in rank order: a
    /// moving camera's labels look only at the bands in view instead of every place.
    public let bandStart: [Int32]
    public let bandIndices: [Int32]

    /// Each place's `minZoom`, side by side: placing labels looks at every place each frame, and
    /// this is a 30th of the memory the whole places take to read.
    public let minZooms: [Double]

    /// The name of place `index`, in capitals if asked.
    @inline(__always)
    public func name(_ index: Int, uppercase: Bool) -> String {
        guard uppercase else { return places[index].name }
        return index < uppercasedNames.count ? uppercasedNames[index] : places[index].name.uppercased()
    }
}

/// Paint of a label layer: light text with a dark halo, and for cities a dot.
public struct LabelPaint: Equatable, Sendable {
    public var textSize: Double = 13
    public var textColor: Color = Color(rgb: 0xE6ECF4)
    public var haloColor: Color = Color(rgb: 0x0B1016)
    public var haloWidth: Double = 1.6
    /// Radius of the place's dot; 0 for none (country names).
    public var dotRadius: Double = 2.5
    public var dotColor: Color = Color(rgb: 0xE6ECF4)
    public var uppercase = false
    /// Extra pixels between letters.
    public var letterSpacing: Double = 0
    public var emissiveStrength: Double = 1
    /// Labels of this layer with rank below this are not drawn at any zoom past `maxZoom`.
    public var maxZoom: Double = 24

    /// Lengths in device pixels for `ratio` of them per CSS pixel.
    public mutating func scale(by ratio: Double) {
        textSize *= ratio; haloWidth *= ratio; dotRadius *= ratio; letterSpacing *= ratio
    }

    public init(textSize: Double = 13, dotRadius: Double = 2.5, uppercase: Bool = false, letterSpacing: Double = 0,
                textColor: Color = Color(rgb: 0xE6ECF4), maxZoom: Double = 24) {
        self.textSize = textSize; self.dotRadius = dotRadius; self.uppercase = uppercase
        self.letterSpacing = letterSpacing; self.textColor = textColor; self.maxZoom = maxZoom
    }
}

/// A font text is set in (MapData's FreeType face is one): glyph outlines the renderer fills,
/// advances, kerning and metrics the model and the renderer measure with.
public protocol TextFont: AnyObject, Sendable {
    /// The advance of `text` at `size` pixels, kerned, with `letterSpacing` between glyphs.
    func width(_ text: String, size: Double, letterSpacing: Double) -> Double
    /// Ascender and descender (positive below the baseline) at `size`, in pixels.
    func metrics(size: Double) -> (ascent: Double, descent: Double)
    /// The glyph for `scalar` at `size` pixels, or nil when the font lacks it.
    func glyph(_ scalar: Unicode.Scalar, size: Double) -> TextGlyph?
    /// Horizontal kerning between two scalars at `size`, in pixels.
    func kerning(_ a: Unicode.Scalar, _ b: Unicode.Scalar, size: Double) -> Double
}

/// One glyph at one size: its outline in pixels (origin on the baseline, y down) and advance.
public struct TextGlyph {
    public let path: Path
    public let advance: Double
    public init(path: Path, advance: Double) { self.path = path; self.advance = advance }
}
