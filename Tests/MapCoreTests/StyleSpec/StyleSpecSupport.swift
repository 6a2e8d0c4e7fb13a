import Foundation
import MapCore

/// Shared helpers for the style specification tests: JSON from text, expressions evaluated
/// against a feature, and the message of the error a step throws.
enum SpecTest {
    static func json(_ text: String) throws -> JSON {
        try JSON.parse(Data(text.utf8), name: "test")
    }

    static func feature(_ properties: [String: StyleValue] = [:], id: StyleValue? = nil, geometry: String = "Point") -> EvaluationFeature {
        EvaluationFeature(properties: properties, id: id, geometryType: geometry)
    }

    static func expression(_ text: String, expected: ValueType? = nil) throws -> StyleExpression {
        try StyleExpression.parse(json(text), path: "e", expected: expected)
    }

    /// Evaluates the expression `text` at `zoom` for a feature with `properties`.
    static func evaluate(_ text: String, expected: ValueType? = nil, zoom: Double = 0,
                         _ properties: [String: StyleValue] = [:], id: StyleValue? = nil, geometry: String = "Point") throws -> StyleValue {
        try expression(text, expected: expected)
            .evaluate(EvaluationContext(zoom: zoom, feature: feature(properties, id: id, geometry: geometry)))
    }

    /// The description of the `StyleError` `body` throws; nil when it does not throw one.
    static func error(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as StyleError {
            return error.description
        } catch {
            return "unexpected error \(error)"
        }
    }

    static func parseError(_ text: String, expected: ValueType? = nil) -> String? {
        error { _ = try expression(text, expected: expected) }
    }

    static func property(_ layerType: String, _ name: String) -> PropertySpec {
        if let spec = StyleProperties.paint(layerType)[name] ?? StyleProperties.layout(layerType)[name] { return spec }
        return PropertySpec(name: "missing \(layerType) \(name)", type: .boolean)
    }

    static func value(_ text: String, _ layerType: String, _ name: String, path: String = "p") throws -> PropertyValue {
        try PropertyValue(json: json(text), spec: property(layerType, name), path: path)
    }

    static func propertyError(_ text: String, _ layerType: String, _ name: String, path: String = "p") -> String? {
        error { _ = try value(text, layerType, name, path: path) }
    }

    static func numbers(_ values: Double...) -> StyleValue { .array(values.map(StyleValue.number)) }

    /// Whether `value` is a number within 1e-9 of `expected`.
    static func close(_ value: StyleValue, _ expected: Double, _ tolerance: Double = 1e-9) -> Bool {
        guard case .number(let n) = value else { return false }
        return abs(n - expected) <= tolerance
    }

    /// Whether `value` is a colour within `tolerance` of (r, g, b, a) in every component.
    static func close(_ value: StyleValue, _ r: Double, _ g: Double, _ b: Double, _ a: Double, _ tolerance: Double = 1e-9) -> Bool {
        guard case .color(let c) = value else { return false }
        return abs(c.r - r) <= tolerance && abs(c.g - g) <= tolerance && abs(c.b - b) <= tolerance && abs(c.a - a) <= tolerance
    }
}
