import Foundation

/// Legacy (pre-expression) property functions and `{token}` strings, converted to expressions.
///
/// Zoom functions (`{"stops": [[z, v], ...]}`), property functions (`"property": "p"`),
/// zoom-and-property functions (stops keyed `{"zoom": z, "value": v}`) and identity functions
/// (`"type": "identity"`, no stops), with `base`, `default` and `colorSpace`. The type defaults
/// to `exponential` for interpolatable properties and `interval` otherwise. As in MapLibre GL
/// JS, zoom-and-property functions interpolate across zoom with the function's `base` and
/// within each zoom level linearly.
enum LegacyFunction {
    static let keys: Set<String> = ["stops", "base", "type", "property", "default", "colorSpace"]

    static func expression(_ function: JSONObject, spec: PropertySpec, path: String) throws -> StyleExpression {
        guard spec.zoomDependent || spec.dataDriven else { throw StyleError("\(path): functions not supported") }
        for key in function.keys where !keys.contains(key) {
            throw StyleError("\(path).\(key): unknown function property")
        }
        var type: String?
        if let t = function["type"] {
            guard case .string(let name) = t, ["exponential", "interval", "categorical", "identity"].contains(name) else {
                throw StyleError("\(path).type: expected one of [identity, exponential, interval, categorical], found \(t.compactText)")
            }
            type = name
        }
        var base = 1.0
        if let b = function["base"] {
            guard case .number(let n) = b, n >= 0 else { throw StyleError("\(path).base: expected a number >= 0, found \(b.compactText)") }
            base = n
        }
        var property: String?
        if let p = function["property"] {
            guard case .string(let name) = p else { throw StyleError("\(path).property: expected string, found \(p.compactText)") }
            property = name
        }
        var interpolateOperator = "interpolate"
        if let space = function["colorSpace"] {
            switch space {
            case .string("rgb"): break
            case .string("lab"): interpolateOperator = "interpolate-lab"
            case .string("hcl"): interpolateOperator = "interpolate-hcl"
            default: throw StyleError("\(path).colorSpace: expected one of [rgb, lab, hcl], found \(space.compactText)")
            }
        }
        let fallback: JSON?
        if let d = function["default"] {
            _ = try PropertyValue.literal(d, spec: spec, path: "\(path).default")
            fallback = d
        } else {
            fallback = nil
        }
        let parameters = Parameters(type: type, base: base, property: property, fallback: fallback,
                                    interpolate: interpolateOperator, spec: spec, path: path)
        let json: JSON
        if let stops = function["stops"] {
            guard type != "identity" else { throw StyleError("\(path).stops: identity functions may not have stops") }
            json = try parameters.convert(stops: stops)
        } else {
            guard type == "identity" else { throw StyleError("\(path): missing required property \"stops\"") }
            guard let property else { throw StyleError("\(path): identity functions require a \"property\"") }
            guard spec.dataDriven else { throw StyleError("\(path): property functions not supported") }
            json = parameters.identity(property)
        }
        return try PropertyValue.expression(json, spec: spec, path: path, allowsInternal: true)
    }

    /// `"a {name} b"` as `["concat", "a ", ["to-string"...]...]`: each `{name}` becomes the
    /// feature property's `to-string` text ("" when missing); nil when there are no tokens.
    static func tokenExpression(_ text: String) -> JSON? {
        let scalars = Array(text.unicodeScalars)
        var parts: [JSON] = [.string("concat")]
        var literalStart = 0
        var i = 0
        func string(_ range: Range<Int>) -> String {
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars[range])
            return String(view)
        }
        while i < scalars.count {
            if scalars[i] == "{" {
                var j = i + 1
                while j < scalars.count, scalars[j] != "}", scalars[j] != "{" { j += 1 }
                if j < scalars.count, scalars[j] == "}", j > i + 1 {
                    if i > literalStart { parts.append(.string(string(literalStart..<i))) }
                    parts.append(.array([.string("get"), .string(string(i + 1..<j))]))
                    literalStart = j + 1
                    i = j + 1
                    continue
                }
            }
            i += 1
        }
        if parts.count == 1 { return nil }
        if literalStart < scalars.count {
            parts.append(.string(string(literalStart..<scalars.count)))
        } else if parts.count == 2 {
            return .array([.string("to-string"), parts[1]])
        }
        return .array(parts)
    }

    /// A function's settings, and the conversion of its stops.
    struct Parameters {
        var type: String?
        var base: Double
        var property: String?
        var fallback: JSON?
        var interpolate: String
        var spec: PropertySpec
        var path: String

        /// The function type, defaulting by the property's interpolability.
        var resolvedType: String { type ?? (spec.interpolated ? "exponential" : "interval") }

        /// A stop output or default as an expression argument (arrays and objects wrapped).
        func literal(_ value: JSON) -> JSON {
            switch value {
            case .array, .object: return .array([.string("literal"), value])
            default: return value
            }
        }

        /// The function's `default`, or a typed null that makes the property fall back to its
        /// specification default.
        var fallbackArgument: JSON { fallback.map(literal) ?? .array([.string(ExpressionParser.internalNull)]) }

        var get: JSON { .array([.string("get"), .string(property ?? "")]) }

        func convert(stops json: JSON) throws -> JSON {
            guard case .array(let stops) = json, !stops.isEmpty else {
                throw StyleError("\(path).stops: expected a non-empty array of stops")
            }
            var pairs: [(input: JSON, output: JSON)] = []
            for (i, stop) in stops.enumerated() {
                guard case .array(let pair) = stop, pair.count == 2 else {
                    throw StyleError("\(path).stops[\(i)]: expected a [input, output] pair, found \(stop.compactText)")
                }
                pairs.append((pair[0], pair[1]))
            }
            let zoomAndProperty: Bool
            if case .object = pairs[0].input { zoomAndProperty = true } else { zoomAndProperty = false }
            let featureDependent = zoomAndProperty || property != nil
            if featureDependent && !spec.dataDriven { throw StyleError("\(path): property functions not supported") }
            if !featureDependent && !spec.zoomDependent { throw StyleError("\(path): zoom functions not supported") }
            if zoomAndProperty && property == nil { throw StyleError("\(path): zoom-and-property functions require a \"property\"") }
            let kind = resolvedType
            if kind == "exponential" && !spec.interpolated {
                throw StyleError("\(path).type: exponential functions not supported for this property")
            }
            if kind == "categorical" && !featureDependent {
                throw StyleError("\(path).type: categorical functions require a \"property\"")
            }
            for (i, pair) in pairs.enumerated() {
                _ = try PropertyValue.literal(pair.output, spec: spec, path: "\(path).stops[\(i)][1]")
            }
            if zoomAndProperty { return try zoomAndPropertyFunction(pairs) }
            let inputs = try checkedInputs(pairs.map(\.input), categorical: kind == "categorical", firstIndex: 0)
            let outputs = pairs.map { pair -> JSON in
                if spec.tokens && !featureDependent, case .string(let s) = pair.output, let tokens = tokenExpression(s) { return tokens }
                return literal(pair.output)
            }
            if featureDependent { return propertyFunction(kind, Array(zip(inputs, outputs)), base: base) }
            return curve(kind, input: .array([.string("zoom")]), base: base, Array(zip(inputs, outputs)))
        }

        /// Validates stop inputs: numbers in ascending order, or for categorical functions
        /// strings, numbers or booleans of one type.
        func checkedInputs(_ inputs: [JSON], categorical: Bool, firstIndex: Int, suffix: String = "") throws -> [JSON] {
            var previous: JSON?
            for (k, input) in inputs.enumerated() {
                let inputPath = "\(path).stops[\(firstIndex + k)][0]\(suffix)"
                switch (categorical, input) {
                case (false, .number(let n)):
                    if case .number(let p)? = previous, n < p {
                        throw StyleError("\(inputPath): stop inputs must be in ascending order")
                    }
                case (true, .number), (true, .string), (true, .bool):
                    if let previous, previous.typeName != input.typeName {
                        throw StyleError("\(inputPath): expected \(previous.typeName), found \(input.compactText)")
                    }
                default:
                    throw StyleError("\(inputPath): expected \(categorical ? "a string, number or boolean" : "number"), found \(input.compactText)")
                }
                previous = input
            }
            return inputs
        }

        func zoomAndPropertyFunction(_ pairs: [(input: JSON, output: JSON)]) throws -> JSON {
            var groups: [(zoom: Double, stops: [(JSON, JSON)], first: Int)] = []
            for (i, pair) in pairs.enumerated() {
                guard case .object(let key) = pair.input, case .number(let zoom)? = key["zoom"], let value = key["value"] else {
                    throw StyleError("\(path).stops[\(i)][0]: expected {\"zoom\": number, \"value\": ...}, found \(pair.input.compactText)")
                }
                if let last = groups.last, zoom < last.zoom {
                    throw StyleError("\(path).stops[\(i)][0].zoom: stop zooms must be in ascending order")
                }
                if groups.last?.zoom == zoom {
                    groups[groups.count - 1].stops.append((value, literal(pair.output)))
                } else {
                    groups.append((zoom, [(value, literal(pair.output))], i))
                }
            }
            let kind = resolvedType
            var zoomStops: [(JSON, JSON)] = []
            for group in groups {
                let inputs = try checkedInputs(group.stops.map(\.0), categorical: kind == "categorical", firstIndex: group.first, suffix: ".value")
                // Within a zoom level the legacy evaluator interpolated linearly.
                zoomStops.append((.number(group.zoom), propertyFunction(kind, Array(zip(inputs, group.stops.map(\.1))), base: 1)))
            }
            return curve(spec.interpolated ? "exponential" : "interval", input: .array([.string("zoom")]), base: base, zoomStops)
        }

        /// A `step` (interval) or `interpolate` (exponential) over `input`, skipping repeated
        /// inputs as MapLibre's converter does.
        func curve(_ kind: String, input: JSON, base: Double, _ stops: [(JSON, JSON)]) -> JSON {
            var items: [JSON]
            let isStep = kind != "exponential"
            if isStep {
                items = [.string("step"), input]
            } else {
                let interpolation: JSON = base == 1 ? .array([.string("linear")]) : .array([.string("exponential"), .number(base)])
                items = [.string(interpolate), interpolation, input]
            }
            for (stopInput, output) in stops {
                if items.count > 3, items[items.count - 2] == stopInput { continue }
                if !(isStep && items.count == 2) { items.append(stopInput) }
                items.append(output)
            }
            if isStep && items.count == 3 { items += [.number(0), items[2]] }
            return .array(items)
        }

        /// A property function over `property` (`get`), of the given type.
        func propertyFunction(_ kind: String, _ stops: [(JSON, JSON)], base: Double) -> JSON {
            switch kind {
            case "categorical":
                // Repeated inputs keep their first position and their last output (as the
                // legacy evaluator's lookup table did).
                func key(_ input: JSON) -> String { "\(input.typeName):\(input.compactText)" }
                var outputs: [String: JSON] = [:]
                for (input, output) in stops { outputs[key(input)] = output }
                var seen: Set<String> = []
                let unique = stops.filter { seen.insert(key($0.0)).inserted }.map { ($0.0, outputs[key($0.0)] ?? fallbackArgument) }
                let allStrings = unique.allSatisfy { if case .string = $0.0 { return true } else { return false } }
                let allIntegers = unique.allSatisfy {
                    if case .number(let n) = $0.0 { return n.rounded(.down) == n && abs(n) <= 9_007_199_254_740_991 }
                    return false
                }
                var items: [JSON]
                if allStrings || allIntegers {
                    items = [.string("match"), get]
                    for (input, output) in unique { items += [input, output] }
                } else {
                    items = [.string("case")]
                    for (input, output) in unique { items += [.array([.string("=="), get, input]), output] }
                }
                return .array(items + [fallbackArgument])
            default:
                let typed: JSON = .array([.string("number"), get])
                let expression = curve(kind, input: typed, base: base, stops)
                guard let fallback else { return expression }
                let isNumber: JSON = .array([.string("=="), .array([.string("typeof"), get]), .string("number")])
                return .array([.string("case"), isNumber, expression, literal(fallback)])
            }
        }

        /// `["get", property]` with the function's default when the value does not fit.
        func identity(_ property: String) -> JSON {
            let get: JSON = .array([.string("get"), .string(property)])
            guard let fallback else { return spec.type == .string ? .array([.string("string"), get]) : get }
            let value = literal(fallback)
            switch spec.type {
            case .enumeration(let values):
                return .array([.string("match"), get, .array(values.map(JSON.string)), get, value])
            case .color: return .array([.string("to-color"), get, value])
            case .number: return .array([.string("number"), get, value])
            case .boolean: return .array([.string("boolean"), get, value])
            case .string, .resolvedImage, .formatted: return .array([.string("string"), get, value])
            case .numberArray(let count):
                return .array([.string("array"), .string("number"), count.map { .number(Double($0)) } ?? .null, get, value])
            case .stringArray:
                return .array([.string("array"), .string("string"), .null, get, value])
            case .padding, .variableAnchorOffsets:
                return .array([.string("coalesce"), get, value])
            }
        }
    }
}
