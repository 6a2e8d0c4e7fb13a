import Foundation

/// The paint and layout properties of the layer types nightmap knows (background, fill, line,
/// circle, raster, symbol), with the MapLibre style specification v8 defaults, ranges and
/// expression support, plus Mapbox's `*-emissive-strength`.
public enum StyleProperties {
    /// The paint properties of `layerType` by name; empty for an unknown type.
    public static func paint(_ layerType: String) -> [String: PropertySpec] {
        paintTables[layerType] ?? [:]
    }

    /// The layout properties of `layerType` by name (`visibility` for every type); empty for an
    /// unknown type.
    public static func layout(_ layerType: String) -> [String: PropertySpec] {
        layoutTables[layerType] ?? [:]
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

    static func translate(_ prefix: String) -> [PropertySpec] {
        [spec("\(prefix)-translate", .numberArray(count: 2), default: zeros(2), .zoom, interpolated: true, transition: true, layout: false),
         spec("\(prefix)-translate-anchor", .enumeration(["map", "viewport"]), default: .string("map"), .zoom, layout: false)]
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

    static func table(_ specs: [PropertySpec]) -> [String: PropertySpec] {
        Dictionary(specs.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
    }

    // MARK: Paint

    static let paintTables: [String: [String: PropertySpec]] = [
        "background": table([
            color("background-color", "#000000", .zoom),
            spec("background-pattern", .resolvedImage, .zoom, transition: true, layout: false),
            number("background-opacity", 1, min: 0, max: 1, .zoom),
            emissive("background"),
        ]),
        "fill": table([
            spec("fill-antialias", .boolean, default: .bool(true), .zoom, layout: false),
            number("fill-opacity", 1, min: 0, max: 1, .data),
            color("fill-color", "#000000", .data),
            color("fill-outline-color", nil, .data),
            spec("fill-pattern", .resolvedImage, .data, transition: true, layout: false),
            emissive("fill"),
        ] + translate("fill")),
        "line": table([
            number("line-opacity", 1, min: 0, max: 1, .data),
            color("line-color", "#000000", .data),
            number("line-width", 1, min: 0, .data),
            number("line-gap-width", 0, min: 0, .data),
            number("line-offset", 0, .data),
            number("line-blur", 0, min: 0, .data),
            spec("line-dasharray", .numberArray(count: nil), min: 0, .data, transition: true, layout: false),
            spec("line-pattern", .resolvedImage, .data, transition: true, layout: false),
            spec("line-gradient", .color, .none, interpolated: true, layout: false),
            emissive("line"),
        ] + translate("line")),
        "circle": table([
            number("circle-radius", 5, min: 0, .data),
            color("circle-color", "#000000", .data),
            number("circle-blur", 0, .data),
            number("circle-opacity", 1, min: 0, max: 1, .data),
            spec("circle-pitch-scale", .enumeration(["map", "viewport"]), default: .string("map"), .zoom, layout: false),
            spec("circle-pitch-alignment", .enumeration(["map", "viewport"]), default: .string("viewport"), .zoom, layout: false),
            number("circle-stroke-width", 0, min: 0, .data),
            color("circle-stroke-color", "#000000", .data),
            number("circle-stroke-opacity", 1, min: 0, max: 1, .data),
            emissive("circle"),
        ] + translate("circle")),
        "raster": table([
            number("raster-opacity", 1, min: 0, max: 1, .zoom),
            number("raster-hue-rotate", 0, .zoom),
            number("raster-brightness-min", 0, min: 0, max: 1, .zoom),
            number("raster-brightness-max", 1, min: 0, max: 1, .zoom),
            number("raster-saturation", 0, min: -1, max: 1, .zoom),
            number("raster-contrast", 0, min: -1, max: 1, .zoom),
            spec("raster-resampling", .enumeration(["linear", "nearest"]), default: .string("linear"), .zoom, layout: false),
            spec("raster-fade-duration", .number, default: .number(300), min: 0, .zoom, interpolated: true, layout: false),
            emissive("raster"),
        ]),
        "symbol": table([
            number("icon-opacity", 1, min: 0, max: 1, .data),
            color("icon-color", "#000000", .data),
            color("icon-halo-color", "rgba(0, 0, 0, 0)", .data),
            number("icon-halo-width", 0, min: 0, .data),
            number("icon-halo-blur", 0, min: 0, .data),
            number("text-opacity", 1, min: 0, max: 1, .data),
            color("text-color", "#000000", .data),
            color("text-halo-color", "rgba(0, 0, 0, 0)", .data),
            number("text-halo-width", 0, min: 0, .data),
            number("text-halo-blur", 0, min: 0, .data),
            emissive("icon", .data),
            emissive("text", .data),
        ] + translate("icon") + translate("text")),
    ]

    // MARK: Layout

    static let layoutTables: [String: [String: PropertySpec]] = [
        "background": table([visibility]),
        "fill": table([layoutNumber("fill-sort-key", nil, .data, interpolated: false), visibility]),
        "line": table([
            layoutEnum("line-cap", ["butt", "round", "square"], "butt"),
            layoutEnum("line-join", ["bevel", "round", "miter"], "miter", .data),
            layoutNumber("line-miter-limit", 2, .zoom),
            layoutNumber("line-round-limit", 1.05, .zoom),
            layoutNumber("line-sort-key", nil, .data, interpolated: false),
            visibility,
        ]),
        "circle": table([layoutNumber("circle-sort-key", nil, .data, interpolated: false), visibility]),
        "raster": table([visibility]),
        "symbol": table(symbolLayout),
    ]

    static let symbolLayout: [PropertySpec] = [
        layoutEnum("symbol-placement", ["point", "line", "line-center"], "point"),
        layoutNumber("symbol-spacing", 250, min: 1, .zoom),
        layoutBool("symbol-avoid-edges", false),
        layoutNumber("symbol-sort-key", nil, .data, interpolated: false),
        layoutEnum("symbol-z-order", ["auto", "viewport-y", "source"], "auto"),
        layoutBool("icon-allow-overlap", false),
        layoutEnum("icon-overlap", overlaps, nil),
        layoutBool("icon-ignore-placement", false),
        layoutBool("icon-optional", false),
        layoutEnum("icon-rotation-alignment", alignments, "auto"),
        layoutNumber("icon-size", 1, min: 0, .data),
        layoutEnum("icon-text-fit", ["none", "width", "height", "both"], "none"),
        spec("icon-text-fit-padding", .numberArray(count: 4), default: zeros(4), .zoom, interpolated: true, layout: true),
        spec("icon-image", .resolvedImage, .data, tokens: true, layout: true),
        layoutNumber("icon-rotate", 0, .data),
        spec("icon-padding", .padding, default: .array(Array(repeating: .number(2), count: 4)), .data, interpolated: true, layout: true),
        layoutBool("icon-keep-upright", false),
        spec("icon-offset", .numberArray(count: 2), default: zeros(2), .data, interpolated: true, layout: true),
        layoutEnum("icon-anchor", anchors, "center", .data),
        layoutEnum("icon-pitch-alignment", alignments, "auto"),
        layoutEnum("text-pitch-alignment", alignments, "auto"),
        layoutEnum("text-rotation-alignment", ["map", "viewport", "viewport-glyph", "auto"], "auto"),
        spec("text-field", .formatted, default: .string(""), .data, tokens: true, layout: true),
        spec("text-font", .stringArray(values: nil), default: .array([.string("Open Sans Regular"), .string("Arial Unicode MS Regular")]),
             .data, layout: true),
        layoutNumber("text-size", 16, min: 0, .data),
        layoutNumber("text-max-width", 10, min: 0, .data),
        layoutNumber("text-line-height", 1.2, .zoom),
        layoutNumber("text-letter-spacing", 0, .data),
        layoutEnum("text-justify", ["auto", "left", "center", "right"], "center", .data),
        layoutNumber("text-radial-offset", 0, .data),
        spec("text-variable-anchor", .stringArray(values: anchors), .zoom, layout: true),
        spec("text-variable-anchor-offset", .variableAnchorOffsets, .data, interpolated: true, layout: true),
        layoutEnum("text-anchor", anchors, "center", .data),
        layoutNumber("text-max-angle", 45, .zoom),
        spec("text-writing-mode", .stringArray(values: ["horizontal", "vertical"]), .zoom, layout: true),
        layoutNumber("text-rotate", 0, .data),
        layoutNumber("text-padding", 2, min: 0, .zoom),
        layoutBool("text-keep-upright", true),
        layoutEnum("text-transform", ["none", "uppercase", "lowercase"], "none", .data),
        spec("text-offset", .numberArray(count: 2), default: zeros(2), .data, interpolated: true, layout: true),
        layoutBool("text-allow-overlap", false),
        layoutEnum("text-overlap", overlaps, nil),
        layoutBool("text-ignore-placement", false),
        layoutBool("text-optional", false),
        visibility,
    ]
}
