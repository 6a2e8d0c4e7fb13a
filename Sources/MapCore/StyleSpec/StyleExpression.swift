import Foundation

/// The feature an expression is evaluated for: its properties, id and geometry type.
public struct EvaluationFeature: Sendable {
    public var properties: FeatureProperties
    public var id: StyleValue?
    /// "Point", "LineString" or "Polygon"; multi-geometries report the single name, as
    /// MapLibre's `geometry-type` and `$type` do for tiled data.
    public var geometryType: String
    /// The feature's geometry, for `within` and `distance` (a ``GeoFeature`` sets it).
    public var geometry: FeatureGeometry?

    /// `geometryType` "MultiPoint", "MultiLineString" or "MultiPolygon" is stored as the single name.
    public init(properties: [String: StyleValue] = [:], id: StyleValue? = nil, geometryType: String = "Point") {
        self.init(properties: FeatureProperties(properties), id: id, geometryType: geometryType)
    }

    public init(properties: FeatureProperties, id: StyleValue? = nil, geometryType: String = "Point") {
        self.properties = properties
        self.id = id
        self.geometryType = geometryType.hasPrefix("Multi") ? String(geometryType.dropFirst(5)) : geometryType
    }
}

/// What an expression may read while it is evaluated: the zoom and, for data-driven
/// expressions, a feature; and the instant a property is evaluated at (seconds on the map's
/// clock), which only transitions between values read.
public struct EvaluationContext: Sendable {
    public var zoom: Double
    public var feature: EvaluationFeature?
    public var time: Double
    /// `["line-progress"]`: how far along its line the point being coloured lies (0...1), for
    /// `line-gradient`; nil reads as 0.
    public var lineProgress: Double?
    /// Whether the style has an image of a name (`image` expressions); nil: every name counts as
    /// available.
    public var imageAvailable: (@Sendable (String) -> Bool)?
    /// `["heatmap-density"]`: the density a heatmap's colour ramp is evaluated at.
    public var heatmapDensity: Double = 0
    /// The feature's state (`feature-state`), empty when it has none or nothing reads it.
    public var featureState: [String: StyleValue] = [:]
    /// The style's global state (`global-state`): set values over the `state` defaults.
    public var globalState: [String: StyleValue] = [:]
    /// The terrain's elevation in metres (`["elevation"]`, a color-relief ramp's input).
    public var elevation = 0.0

    public init(zoom: Double, feature: EvaluationFeature? = nil, time: Double = 0) {
        self.zoom = zoom
        self.feature = feature
        self.time = time
    }
}

/// A parsed, statically typed style expression (MapLibre's expression language).
///
/// Parsing checks the whole tree, inserts the type assertions and coercions MapLibre inserts
/// (a `get` where a number is expected is asserted to be a number at run time; a string where
/// a colour is expected is parsed as a colour) and folds constant sub-expressions into
/// literals, so ``evaluate(_:)`` only walks a compiled tree: no operator names are looked up
/// and nothing is parsed again.
public final class StyleExpression: Sendable {
    /// The type of the values `evaluate` returns.
    public let type: ValueType
    /// Whether the result depends on the zoom (`["zoom"]` appears).
    public let isZoomDependent: Bool
    /// Whether the result depends on the feature (`get`, `has`, `id`, `geometry-type`, `properties`).
    public let isFeatureDependent: Bool

    let node: Node
    let slotCount: Int

    init(node: Node, type: ValueType, slotCount: Int) {
        self.node = node
        self.type = type
        self.slotCount = slotCount
        self.isZoomDependent = !node.isZoomConstant
        self.isFeatureDependent = !node.isFeatureConstant
    }

    /// Parses `json` as an expression whose result should be of type `expected` (nil: any).
    ///
    /// Strings, numbers, booleans and null are literals; arrays and objects appear only inside
    /// `["literal", ...]`. Errors name the offending element by its path, `path` itself for the
    /// whole expression and `path[1]`, `path[2][0]`, ... for elements, e.g.
    /// `layers[3].paint.line-width[2][1]: expected number, found "x"`.
    public static func parse(_ json: JSON, path: String, expected: ValueType?) throws -> StyleExpression {
        try parse(json, path: path, expected: expected, coercesToString: false, allowsInternal: false)
    }

    static func parse(_ json: JSON, path: String, expected: ValueType?, coercesToString: Bool,
                      allowsInternal: Bool, heatmapDensity: Bool = false) throws -> StyleExpression {
        let parser = ExpressionParser(allowsInternal: allowsInternal)
        parser.allowsHeatmapDensity = heatmapDensity
        let context = ParseContext(path: path, expected: expected, scope: nil, coercesToString: coercesToString)
        let parsed = try parser.parse(json, context)
        return StyleExpression(node: parsed.node, type: parsed.type, slotCount: parser.slotCount)
    }

    /// The expression's value for `context`. Throws a ``StyleError`` when evaluation fails
    /// (a type assertion that does not hold, an index out of bounds, an unparsable colour...);
    /// a style property then falls back to its default.
    public func evaluate(_ context: EvaluationContext) throws -> StyleValue {
        var frame = Frame(slotCount: slotCount)
        return try node.evaluate(context, &frame)
    }

    /// Whether the expression is written `["zoom"]`-free except as the input of one top-level
    /// `step` or `interpolate` (possibly inside `let` or `coalesce`), MapLibre's rule for
    /// property expressions. Returns an error message otherwise, and the curve when there is one.
    func zoomCurve() -> Result<Node?, StyleError> {
        node.findZoomCurve()
    }
}
