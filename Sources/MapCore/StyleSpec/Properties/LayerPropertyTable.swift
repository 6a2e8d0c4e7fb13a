/// One layer type's paint or layout properties in the order of its `LayerProperty` cases: what
/// a layer needs to resolve a name once (`index(of:)`) and then read by index.
public struct LayerPropertyTable: Sendable {
    /// The properties by index.
    public let specs: [PropertySpec]
    /// Each property's specification default, by index (kept apart from `specs`: evaluation
    /// reads it without copying a whole `PropertySpec`).
    let defaults: [StyleValue]
    /// Whether a fill or line layer setting the property may be drawn as one geometry set, by index.
    let drawsAlike: [Bool]
    /// The properties by name (parsing and the style API take names).
    public let byName: [String: PropertySpec]
    private let indices: [String: Int]

    init(_ entries: [(spec: PropertySpec, drawsAlike: Bool)]) {
        let specs = entries.map(\.spec)
        self.specs = specs
        defaults = specs.map(\.defaultValue)
        drawsAlike = entries.map(\.drawsAlike)
        byName = Dictionary(specs.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
        indices = Dictionary(specs.indices.map { (specs[$0].name, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// An empty table (a layer type without properties of this kind).
    static let empty = LayerPropertyTable([])

    var count: Int { specs.count }

    /// The index of property `name`, or nil when the layer type has none of that name.
    public func index(of name: String) -> Int? { indices[name] }
}
