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
    /// The sprite's base URL (`.json` / `.png`, with `@2x` for pixel ratio 2, are appended).
    public var sprite: String?
    /// The glyph ranges' URL template (`{fontstack}` and `{range}` in it), nil when the document
    /// has none: its labels are then set in local fonts.
    public var glyphs: String?
    public var layers: [LayerDefinition]
    public var transition: TransitionOptions
    /// The document's `metadata` member, untouched.
    public var metadata: JSON?
    /// Problems that leave a member unread (or read as written) without refusing the document,
    /// one line each with its JSON path, for the caller to report (MapLibre Native logs them
    /// and goes on).
    public var warnings: [String] = []

    public init(name: String? = nil, center: LngLat? = nil, zoom: Double? = nil, bearing: Double = 0,
                sources: [String: SourceDefinition] = [:], sprite: String? = nil, glyphs: String? = nil,
                layers: [LayerDefinition] = [], transition: TransitionOptions = .default, metadata: JSON? = nil) {
        self.name = name; self.center = center; self.zoom = zoom; self.bearing = bearing; self.sources = sources
        self.sprite = sprite; self.glyphs = glyphs; self.layers = layers; self.transition = transition; self.metadata = metadata
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
    /// Raster tiles.
    case raster(TiledSourceDefinition)

    public var typeName: String {
        switch self {
        case .geojson: return "geojson"
        case .image: return "image"
        case .vector: return "vector"
        case .raster: return "raster"
        }
    }
}

/// The layer types a document may use.
public enum LayerType: String, Sendable, CaseIterable {
    case background, fill, line, circle, raster, symbol
}

/// A layer as the document defines it: plain data, its properties parsed but not evaluated.
public struct LayerDefinition: Sendable {
    public var id: String
    public var type: LayerType
    public var source: String?
    public var sourceLayer: String?
    public var minZoom: Double
    public var maxZoom: Double
    public var filter: Filter?
    public var visible: Bool
    public var paint: [String: PropertyValue]
    public var layout: [String: PropertyValue]
    public var transitions: [String: TransitionOptions]

    public init(id: String, type: LayerType, source: String? = nil, sourceLayer: String? = nil, minZoom: Double = 0,
                maxZoom: Double = 24, filter: Filter? = nil, visible: Bool = true, paint: [String: PropertyValue] = [:],
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
