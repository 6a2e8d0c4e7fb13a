import Foundation

/// A style-specification v8 document as written: camera, sources, sprite and layers, with every
/// property parsed into a typed `PropertyValue` (literal, legacy function or expression).
///
/// Reading it checks everything a renderer relies on and reports each problem with its JSON path
/// (`layers[3].paint.line-width: expected number, found "x"`); external resources (GeoJSON files,
/// images, sprites) are named here and loaded elsewhere.
public struct StyleDocument: Sendable {
    public var name: String?
    public var center: LngLat?
    public var zoom: Double?
    /// The zooms a document's camera may have: MapLibre GL JS's, down to -2 (a world of 128 px).
    public static let zoomRange = -2.0...24.0
    public var bearing: Double
    public var sources: [String: SourceDefinition]
    /// The sprites: the document's `sprite` URL (one sprite with id `default`) or its array of
    /// `{"id", "url"}`. Each URL is a base (`.json` / `.png`, with `@2x` for pixel ratio 2, are
    /// appended); a sprite's images are named `id:name`, the `default` one's just `name`.
    public var sprites: [SpriteSource] = []
    /// The camera's pitch in degrees (the camera's bounds may limit it: MapLibre's 60 by default).
    public var pitch: Double = 0
    /// The style's `sky` (nil: none).
    public var sky: Sky?
    /// The style's `projection` (nil: none, Web Mercator).
    public var projection: Projection?
    /// The raster-dem source the style's `terrain` names (nil: none). Its relief is not drawn;
    /// on the globe the ground is drawn on the terrain's mesh, as MapLibre drapes it.
    public var terrainSource: String?
    /// The glyph ranges' URL template (`{fontstack}` and `{range}` in it), nil when the document
    /// has none: its labels are then set in local fonts.
    public var glyphs: String?
    /// The `font-faces` member: for a `text-font` name, the font files its characters are drawn
    /// from (each for the code points of its unicode-range), before the `glyphs` ranges and
    /// local fonts. Empty when the document has none.
    public var fontFaces: [String: [FontFaceSource]] = [:]
    public var layers: [LayerDefinition]
    public var transition: TransitionOptions
    /// The document's `metadata` member, untouched.
    public var metadata: JSON?
    /// Problems that leave a member unread (or read as written) without refusing the document,
    /// one line each with its JSON path, for the caller to report (MapLibre Native logs them
    /// and goes on).
    public var warnings: [String] = []
    /// The root `state` member's defaults (`global-state`), and the sources' `promoteId`s.
    public var state: [String: StyleValue] = [:], promoteIds: [String: PromoteId] = [:]
    /// The GeoJSON sources' options (tiling and clustering), by source id.
    public var geojsonOptions: [String: GeoJSONSourceOptions] = [:]
    /// The root `light` (the specification's default when there is none).
    public var light = StyleLight()

    public init(name: String? = nil, center: LngLat? = nil, zoom: Double? = nil, bearing: Double = 0,
                sources: [String: SourceDefinition] = [:], sprites: [SpriteSource] = [], glyphs: String? = nil,
                layers: [LayerDefinition] = [], transition: TransitionOptions = .default, metadata: JSON? = nil) {
        self.name = name; self.center = center; self.zoom = zoom; self.bearing = bearing; self.sources = sources
        self.sprites = sprites; self.glyphs = glyphs; self.layers = layers; self.transition = transition; self.metadata = metadata
    }
}

/// One sprite of a document: its images are named `id:name`, or just `name` for id `default`.
public struct SpriteSource: Sendable, Equatable {
    public var id: String
    /// The base URL (`.json` / `.png` appended).
    public var url: String
    public init(id: String = SpriteSource.defaultID, url: String) { self.id = id; self.url = url }
    /// The id of a sprite whose images keep their own names (the plain-string `sprite` form).
    public static let defaultID = "default"
    /// The name image `name` of this sprite has in the style.
    public func imageName(_ name: String) -> String { id == Self.defaultID ? name : "\(id):\(name)" }
}

/// One font file of the document's `font-faces` for a `text-font` name.
public struct FontFaceSource: Sendable, Equatable {
    /// The file's URL as written (resolved as the document's other URLs are).
    public var url: String
    /// The code points drawn from it: MapLibre's default, all of Unicode, when none are given.
    public var unicodeRanges: [ClosedRange<UInt32>]
    public static let allCodePoints: ClosedRange<UInt32> = 0...0x10FFFF

    public init(url: String, unicodeRanges: [ClosedRange<UInt32>] = [FontFaceSource.allCodePoints]) {
        self.url = url; self.unicodeRanges = unicodeRanges
    }

    /// Whether `codePoint` is one of the file's.
    public func covers(_ codePoint: UInt32) -> Bool { unicodeRanges.contains { $0.contains(codePoint) } }

    /// A CSS unicode-range: `U+26` (one code point), `U+0-7F` (a range) or `U+4??` (a wildcard
    /// range: U+400-4FF), hex digits in either case; nil for anything else, including ranges
    /// past U+10FFFF or reversed ones.
    public static func unicodeRange(_ text: String) -> ClosedRange<UInt32>? {
        guard text.count > 2, text.prefix(2).uppercased() == "U+" else { return nil }
        let body = text.dropFirst(2)
        func hex(_ s: Substring) -> UInt32? {
            guard (1...6).contains(s.count), s.allSatisfy(\.isHexDigit) else { return nil }
            return UInt32(s, radix: 16)
        }
        let range: ClosedRange<UInt32>
        if body.contains("?") {
            let digits = body.prefix { $0 != "?" }
            guard body.count <= 6, body.drop(while: { $0 != "?" }).allSatisfy({ $0 == "?" }),
                  digits.isEmpty || hex(digits) != nil else { return nil }
            guard let low = UInt32(body.replacingOccurrences(of: "?", with: "0"), radix: 16),
                  let high = UInt32(body.replacingOccurrences(of: "?", with: "F"), radix: 16) else { return nil }
            range = low...high
        } else if let dash = body.firstIndex(of: "-") {
            guard let low = hex(body[..<dash]), let high = hex(body[body.index(after: dash)...]), low <= high else { return nil }
            range = low...high
        } else {
            guard let one = hex(body) else { return nil }
            range = one...one
        }
        return range.upperBound <= allCodePoints.upperBound ? range : nil
    }
}

/// Every problem found in a style document, one line each.
public struct StyleDocumentError: Error, CustomStringConvertible {
    public let problems: [String]
    public init(_ problems: [String]) { self.problems = problems }
    public var description: String { problems.joined(separator: "\n") }
}

/// A source as the document defines it.
public enum SourceDefinition: Sendable {
    public enum GeoJSONOrigin: Sendable {
        case inline(GeoJSONData)
        /// A URL or path to load.
        case url(String)
    }
    case geojson(GeoJSONOrigin)
    /// An image placed by four corners [top-left, top-right, bottom-right, bottom-left].
    case image(url: String, corners: ImageCorners)
    /// Vector tiles.
    case vector(TiledSourceDefinition)
    /// Raster tiles, or elevation tiles (a `raster-dem` source: its `dem` encoding set).
    case raster(TiledSourceDefinition)

    public var typeName: String {
        switch self {
        case .geojson: return "geojson"
        case .image: return "image"
        case .vector: return "vector"
        case let .raster(d): return d.dem == nil ? "raster" : "raster-dem"
        }
    }
}

/// The layer types a document may use.
public enum LayerType: String, Sendable, CaseIterable {
    case background, fill, line, circle, raster, symbol
    case heatmap
    case hillshade, colorRelief = "color-relief"
    case fillExtrusion = "fill-extrusion"

    /// Layer types of the specification nightmap does not draw yet, with why: a document's
    /// layers of these types are named and skipped.
    public static let notDrawnYet: [String: String] = [:]
}

/// A layer as the document defines it: plain data, its properties parsed but not evaluated.
public struct LayerDefinition: Sendable {
    public var id: String
    public var type: LayerType
    public var source: String?
    public var sourceLayer: String?
    public var minZoom: Double
    /// The zoom from which the layer hides; none (infinity) unless the document gives one, so
    /// a layer shows at zoom 24 too, as in MapLibre.
    public var maxZoom: Double
    public var filter: Filter?
    public var visible: Bool
    /// A `visibility` written as an expression (of the global state; nil: a literal).
    public var visibilityExpression: StyleExpression? = nil
    public var paint: [String: PropertyValue]
    public var layout: [String: PropertyValue]
    public var transitions: [String: TransitionOptions]

    public init(id: String, type: LayerType, source: String? = nil, sourceLayer: String? = nil, minZoom: Double = 0,
                maxZoom: Double = .infinity, filter: Filter? = nil, visible: Bool = true, paint: [String: PropertyValue] = [:],
                layout: [String: PropertyValue] = [:], transitions: [String: TransitionOptions] = [:]) {
        self.id = id; self.type = type; self.source = source; self.sourceLayer = sourceLayer; self.minZoom = minZoom
        self.maxZoom = maxZoom; self.filter = filter; self.visible = visible; self.paint = paint; self.layout = layout
        self.transitions = transitions
    }

    /// Shown at `zoom`: visible, and zoom in [minzoom, maxzoom).
    /// A minzoom of 0 (the default) sets no lower bound: the layer shows at negative zooms too,
    /// as in the reference engines.
    public func isShown(atZoom zoom: Double) -> Bool { visible && (zoom >= minZoom || minZoom <= 0) && zoom < maxZoom }

    /// Sets a paint property from its JSON value (checked like the document's own).
    /// `<name>-transition` sets the property's own transition (null: the style's again).
    public mutating func setPaint(_ name: String, _ json: JSON) throws {
        if name.hasSuffix("-transition"), StyleProperties.paint(type).byName[String(name.dropLast(11))] != nil {
            let base = String(name.dropLast(11))
            guard json != .null else { transitions[base] = nil; return }
            transitions[base] = try TransitionOptions(json: json, path: "layers.\(id).paint.\(name)")
            return
        }
        guard let spec = StyleProperties.paint(type).byName[name] else {
            throw StyleError("layers.\(id).paint.\(name): unknown property for a \(type.rawValue) layer")
        }
        paint[name] = json == .null ? nil : try PropertyValue(json: json, spec: spec, path: "layers.\(id).paint.\(name)")
    }

    /// Sets a layout property from its JSON value (`visibility` included). Through the API
    /// (`path` nil) null restores the default; a document (`path`: where the value stands in it)
    /// must give a value.
    public mutating func setLayout(_ name: String, _ json: JSON, path: String? = nil) throws {
        let resets = path == nil && json == .null
        let path = path ?? "layers.\(id).layout.\(name)"
        if name == "visibility" {
            visibilityExpression = nil; if case .array = json { try setVisibilityExpression(json, path: path); return }
            switch json {
            case .string("visible"): visible = true
            case .null where resets: visible = true
            case .string("none"): visible = false
            default: throw StyleError("\(path): expected one of [visible, none], found \(json.compactText)")
            }
            return
        }
        guard let spec = StyleProperties.layout(type).byName[name] else {
            throw StyleError("\(path): unknown property for a \(type.rawValue) layer")
        }
        layout[name] = resets ? nil : try PropertyValue(json: json, spec: spec, path: path)
    }
}
