import Foundation
import MapCore
import Testing

/// Random expression trees, filters and property values never trap: each either parses (and
/// then evaluates or throws) or is refused with an error.
@Suite struct StyleSpecFuzzTests {
    static let operators = [
        "literal", "get", "has", "id", "geometry-type", "properties", "zoom", "==", "!=", "<", "<=", ">", ">=", "all", "any", "!",
        "match", "case", "coalesce", "step", "interpolate", "interpolate-hcl", "interpolate-lab", "to-number", "to-string",
        "to-color", "to-boolean", "number", "string", "boolean", "array", "object", "typeof", "+", "-", "*", "/", "%", "^",
        "sqrt", "abs", "floor", "ceil", "round", "min", "max", "ln", "log10", "log2", "sin", "cos", "tan", "asin", "acos",
        "atan", "e", "pi", "ln2", "length", "at", "in", "index-of", "slice", "concat", "downcase", "upcase", "rgb", "rgba",
        "to-rgba", "let", "var", "in", "!in", "has", "!has", "none", "linear", "exponential", "cubic-bezier", "a", "b",
    ]

    struct Generator {
        var rng: StyleSpecRandom

        mutating func int(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }

        mutating func scalar() -> JSON {
            switch int(7) {
            case 0: return .null
            case 1: return .bool(int(2) == 0)
            case 2: return .number([0, 1, -1, 0.5, 2, 10, 255, 1e300, -3.5, 7][int(10)])
            case 3: return .string(["a", "b", "red", "#0f0", "x", "", "rgb(1,2,3)", "1", "{a}"][int(9)])
            case 4: return .string(StyleSpecFuzzTests.operators[int(StyleSpecFuzzTests.operators.count)])
            default: return .number(Double(int(12)))
            }
        }

        mutating func value(depth: Int) -> JSON {
            if depth > 5 || int(3) == 0 { return scalar() }
            if int(8) == 0 {
                return .object(JSONObject([(key: "zoom", value: scalar()), (key: "value", value: scalar()), (key: "stops", value: value(depth: depth + 1))]))
            }
            var items: [JSON] = [.string(StyleSpecFuzzTests.operators[int(StyleSpecFuzzTests.operators.count)])]
            for _ in 0..<int(7) { items.append(value(depth: depth + 1)) }
            if int(6) == 0 { items[0] = value(depth: depth + 1) }
            return .array(items)
        }

        mutating func feature() -> EvaluationFeature {
            var properties: [String: StyleValue] = [:]
            for key in ["a", "b", "x"] where int(2) == 0 { properties[key] = StyleValue(json: scalar()) }
            if int(4) == 0 { properties["a"] = .array([.number(1), .number(2)]) }
            return EvaluationFeature(properties: properties, id: int(2) == 0 ? .number(1) : nil, geometryType: ["Point", "LineString", "Polygon"][int(3)])
        }
    }

    @Test func randomExpressionsParseOrFail() {
        var generator = Generator(rng: StyleSpecRandom(seed: 7))
        let types: [ValueType?] = [nil, .number, .color, .string, .boolean, .array(.number, 2), .value]
        var parsed = 0
        for _ in 0..<10_000 {
            let json = generator.value(depth: 0)
            guard let expression = try? StyleExpression.parse(json, path: "e", expected: types[generator.int(types.count)]) else { continue }
            parsed += 1
            for zoom in [-1.0, 0, 5.5, 30, .nan] {
                _ = try? expression.evaluate(EvaluationContext(zoom: zoom, feature: generator.feature()))
            }
        }
        #expect(parsed > 100)
    }

    @Test func randomFiltersAndPropertiesParseOrFail() {
        var generator = Generator(rng: StyleSpecRandom(seed: 11))
        let specs = ["fill", "line", "circle", "symbol", "raster", "background"].flatMap { type in
            Array(StyleProperties.paint(type).values) + Array(StyleProperties.layout(type).values)
        }
        var accepted = 0
        for _ in 0..<10_000 {
            let json = generator.value(depth: 0)
            if let filter = try? Filter(json: json, path: "f") {
                accepted += 1
                _ = filter.matches(generator.feature(), zoom: 3)
            }
            let spec = specs[generator.int(specs.count)]
            if let value = try? PropertyValue(json: json, spec: spec, path: "p") {
                accepted += 1
                _ = value.evaluate(EvaluationContext(zoom: 4, feature: generator.feature()))
            }
        }
        #expect(accepted > 100)
    }
}
