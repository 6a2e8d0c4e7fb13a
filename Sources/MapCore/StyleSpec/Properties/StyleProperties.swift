import Foundation

/// The paint and layout properties of the layer types nightmap knows (background, fill, line,
/// circle, raster, symbol), with the MapLibre style specification v8 defaults, ranges and
/// expression support, plus Mapbox's `*-emissive-strength`. Each type's properties are written
/// once, as cases of its `PaintProperty` and `LayoutProperty` enums (`LinePaintProperty`...);
/// this is the way to them by type and by name.
public enum StyleProperties {
    /// The paint properties of `layerType` by name; empty for an unknown type.
    public static func paint(_ layerType: String) -> [String: PropertySpec] {
        LayerType(rawValue: layerType).map { paint($0).byName } ?? [:]
    }

    /// The layout properties of `layerType` by name (`visibility` for every type); empty for an
    /// unknown type.
    public static func layout(_ layerType: String) -> [String: PropertySpec] {
        LayerType(rawValue: layerType).map { layout($0).byName } ?? [:]
    }

    /// The paint properties of `layerType`, in the order of its `PaintProperty` cases.
    public static func paint(_ layerType: LayerType) -> LayerPropertyTable {
        switch layerType {
        case .background: return BackgroundPaintProperty.table
        case .fill: return FillPaintProperty.table
        case .line: return LinePaintProperty.table
        case .circle: return CirclePaintProperty.table
        case .raster: return RasterPaintProperty.table
        case .symbol: return SymbolPaintProperty.table
        case .heatmap: return HeatmapPaintProperty.table
        case .hillshade: return HillshadePaintProperty.table
        case .colorRelief: return ColorReliefPaintProperty.table
        case .fillExtrusion: return FillExtrusionPaintProperty.table
        }
    }

    /// The layout properties of `layerType`, in the order of its `LayoutProperty` cases.
    public static func layout(_ layerType: LayerType) -> LayerPropertyTable {
        switch layerType {
        case .background: return BackgroundLayoutProperty.table
        case .fill: return FillLayoutProperty.table
        case .line: return LineLayoutProperty.table
        case .circle: return CircleLayoutProperty.table
        case .raster: return RasterLayoutProperty.table
        case .symbol: return SymbolLayoutProperty.table
        case .heatmap: return HeatmapLayoutProperty.table
        case .hillshade: return HillshadeLayoutProperty.table
        case .colorRelief: return ColorReliefLayoutProperty.table
        case .fillExtrusion: return FillExtrusionLayoutProperty.table
        }
    }

    // MARK: Building blocks

    /// What a property's value may depend on (the specification's `property-type`).
    enum Dependence { case none, zoom, data }

    static func spec(_ name: String, _ type: PropertyType, default defaultValue: StyleValue = .null, min: Double? = nil,
                     max: Double? = nil, _ dependence: Dependence, interpolated: Bool = false, transition: Bool = false,
                     tokens: Bool = false, layout: Bool) -> PropertySpec {
        PropertySpec(name: name, type: type, defaultValue: defaultValue, minimum: min, maximum: max,
                     zoomDependent: dependence != .none, dataDriven: dependence == .data, interpolated: interpolated,
                     transition: transition, tokens: tokens, isLayout: layout)
    }

    /// A transitionable, interpolated paint number.
    static func number(_ name: String, _ value: Double, min: Double? = nil, max: Double? = nil, _ dependence: Dependence) -> PropertySpec {
        spec(name, .number, default: .number(value), min: min, max: max, dependence, interpolated: true, transition: true, layout: false)
    }

    /// A transitionable, interpolated paint colour.
    static func color(_ name: String, _ css: String?, _ dependence: Dependence) -> PropertySpec {
        spec(name, .color, default: css.flatMap(Color.init(css:)).map(StyleValue.color) ?? .null, dependence,
             interpolated: true, transition: true, layout: false)
    }

    static func translate(_ prefix: String) -> PropertySpec {
        spec("\(prefix)-translate", .numberArray(count: 2), default: zeros(2), .zoom, interpolated: true, transition: true, layout: false)
    }

    static func translateAnchor(_ prefix: String) -> PropertySpec {
        spec("\(prefix)-translate-anchor", .enumeration(["map", "viewport"]), default: .string("map"), .zoom, layout: false)
    }

    static func emissive(_ prefix: String, _ dependence: Dependence = .zoom) -> PropertySpec {
        number("\(prefix)-emissive-strength", 0, min: 0, dependence)
    }

    static func layoutEnum(_ name: String, _ values: [String], _ value: String?, _ dependence: Dependence = .zoom) -> PropertySpec {
        spec(name, .enumeration(values), default: value.map(StyleValue.string) ?? .null, dependence, layout: true)
    }

    static func layoutBool(_ name: String, _ value: Bool) -> PropertySpec {
        spec(name, .boolean, default: .bool(value), .zoom, layout: true)
    }

    static func layoutNumber(_ name: String, _ value: Double?, min: Double? = nil, _ dependence: Dependence,
                             interpolated: Bool = true) -> PropertySpec {
        spec(name, .number, default: value.map(StyleValue.number) ?? .null, min: min, dependence, interpolated: interpolated, layout: true)
    }

    static func zeros(_ n: Int) -> StyleValue { .array(Array(repeating: .number(0), count: n)) }

    static let visibility = spec("visibility", .enumeration(["visible", "none"]), default: .string("visible"), .none, layout: true)
    static let anchors = ["center", "left", "right", "top", "bottom", "top-left", "top-right", "bottom-left", "bottom-right"]
    static let alignments = ["map", "viewport", "auto"]
    static let overlaps = ["never", "always", "cooperative"]
}
