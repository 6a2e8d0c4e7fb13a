/// A paint or layout property of one layer type as a value (`LinePaintProperty.width`), the
/// style's equivalent of MapLibre Native's generated `LineWidth` types. The case's `rawValue`
/// is its place in the type's `LayerPropertyTable`: a layer keeps its values in arrays in that order,
/// so evaluation reads a property by index, never by name (names are resolved when a style is
/// parsed or changed through the API).
protocol LayerProperty: CaseIterable, RawRepresentable, Sendable where RawValue == Int, AllCases == [Self] {
    /// The layer type the property belongs to (its index means nothing in another type's table).
    static var layerType: LayerType { get }
    /// The type's properties of this kind, in case order.
    static var table: LayerPropertyTable { get }
    /// The property as the specification defines it (read once, into `table`).
    var spec: PropertySpec { get }
    /// Whether a fill or line layer that sets it can still draw all its features with one
    /// paint, as one geometry set (the renderer's fast path handles it).
    var drawsAlike: Bool { get }
}

extension LayerProperty {
    var drawsAlike: Bool { false }

    /// The table of `allCases`, in case order.
    static func makeTable() -> LayerPropertyTable {
        LayerPropertyTable(allCases.map { (spec: $0.spec, drawsAlike: $0.drawsAlike) })
    }
}

/// A paint property of one layer type.
protocol PaintProperty: LayerProperty {}

/// A layout property of one layer type.
protocol LayoutProperty: LayerProperty {}
