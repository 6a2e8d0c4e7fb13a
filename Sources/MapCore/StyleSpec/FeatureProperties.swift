/// A feature's properties, read by name. Held as a dictionary, or, for data sets of many
/// features with the same keys (nightmap's 34,000 places, a tile's layer), as values beside a
/// key table they share: a fraction of the memory, and no key hashed to make one.
public struct FeatureProperties: Equatable, Sendable, ExpressibleByDictionaryLiteral {
    private enum Storage: Sendable {
        case dictionary([String: StyleValue])
        case table(PropertyTable, [StyleValue])
    }
    private let storage: Storage

    public init(_ dictionary: [String: StyleValue]) { storage = .dictionary(dictionary) }
    public init(dictionaryLiteral elements: (String, StyleValue)...) {
        storage = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    /// `values[i]` is the value of `table.keys[i]` (missing values: none given for that key).
    public init(table: PropertyTable, values: [StyleValue]) { storage = .table(table, values) }

    public subscript(name: String) -> StyleValue? {
        switch storage {
        case let .dictionary(d): return d[name]
        case let .table(t, values):
            guard let i = t.index[name], i < values.count else { return nil }
            return values[i]
        }
    }

    /// Every property, as a dictionary (`["properties"]`).
    public var dictionary: [String: StyleValue] {
        switch storage {
        case let .dictionary(d): return d
        case let .table(t, values):
            var d = [String: StyleValue](minimumCapacity: values.count)
            for (k, v) in zip(t.keys, values) { d[k] = v }
            return d
        }
    }

    public static func == (a: FeatureProperties, b: FeatureProperties) -> Bool { a.dictionary == b.dictionary }
}

/// The keys features of one data set share, in order, with each key's position.
public final class PropertyTable: Sendable {
    public let keys: [String]
    let index: [String: Int]
    public init(keys: [String]) {
        self.keys = keys
        index = Dictionary(keys.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
    }
}
