import Foundation
import MapCore
import Testing

@Suite struct LegacyFunctionTests {
    func evaluate(_ text: String, _ layerType: String, _ name: String, zoom: Double = 0,
                  _ properties: [String: StyleValue] = [:]) throws -> StyleValue {
        try SpecTest.value(text, layerType, name)
            .evaluate(EvaluationContext(zoom: zoom, feature: SpecTest.feature(properties)))
    }

    @Test func zoomFunctions() throws {
        let linear = #"{"stops": [[5, 1], [10, 4]]}"#
        #expect(try SpecTest.value(linear, "line", "line-width").isZoomDependent)
        #expect(try evaluate(linear, "line", "line-width", zoom: 7.5) == .number(2.5))
        #expect(try evaluate(linear, "line", "line-width", zoom: 2) == .number(1))
        #expect(try evaluate(linear, "line", "line-width", zoom: 20) == .number(4))
        let exponential = #"{"base": 2, "stops": [[0, 0], [10, 1023]]}"#
        #expect(SpecTest.close(try evaluate(exponential, "line", "line-width", zoom: 5), 31))
        #expect(try evaluate(#"{"stops": [[5, 2]]}"#, "line", "line-width", zoom: 0) == .number(2))
        #expect(try evaluate(#"{"stops": [[5, 2]]}"#, "line", "line-width", zoom: 9) == .number(2))
        #expect(try evaluate(#"{"stops": [[0, "red"], [10, "blue"]]}"#, "fill", "fill-color", zoom: 5)
                == .color(Color(r: 0.5, g: 0, b: 0.5)))
        #expect(try evaluate(#"{"stops": [[0, [0, 0]], [10, [10, -10]]]}"#, "fill", "fill-translate", zoom: 5)
                == SpecTest.numbers(5, -5))
        // Repeated stop inputs are skipped.
        #expect(try evaluate(#"{"stops": [[0, 1], [0, 3], [10, 11]]}"#, "line", "line-width", zoom: 5) == .number(6))
    }

    @Test func intervalIsTheDefaultForNonInterpolatedProperties() throws {
        let cap = #"{"stops": [[0, "butt"], [10, "round"]]}"#
        #expect(try evaluate(cap, "line", "line-cap", zoom: 9.9) == .string("butt"))
        #expect(try evaluate(cap, "line", "line-cap", zoom: 10) == .string("round"))
        let dashes = #"{"stops": [[0, [1, 1]], [10, [4, 2]]]}"#
        #expect(try evaluate(dashes, "line", "line-dasharray", zoom: 9) == SpecTest.numbers(1, 1))
        #expect(try evaluate(dashes, "line", "line-dasharray", zoom: 10) == SpecTest.numbers(4, 2))
        let interval = #"{"type": "interval", "stops": [[0, 1], [10, 4]]}"#
        #expect(try evaluate(interval, "line", "line-width", zoom: 9) == .number(1))
    }

    @Test func propertyFunctions() throws {
        let exponential = #"{"property": "pop", "stops": [[0, 1], [100, 11]]}"#
        let value = try SpecTest.value(exponential, "circle", "circle-radius")
        #expect(value.isFeatureDependent && !value.isZoomDependent)
        #expect(try evaluate(exponential, "circle", "circle-radius", ["pop": .number(50)]) == .number(6))
        #expect(try evaluate(exponential, "circle", "circle-radius", ["pop": .string("x")]) == .number(5))
        #expect(try evaluate(exponential, "circle", "circle-radius") == .number(5))
        let withDefault = #"{"property": "pop", "stops": [[0, 1], [100, 11]], "default": 2}"#
        #expect(try evaluate(withDefault, "circle", "circle-radius") == .number(2))
        #expect(try evaluate(withDefault, "circle", "circle-radius", ["pop": .number(100)]) == .number(11))
        let interval = #"{"property": "n", "type": "interval", "stops": [[0, 1], [10, 2]]}"#
        #expect(try evaluate(interval, "circle", "circle-radius", ["n": .number(5)]) == .number(1))
        #expect(try evaluate(interval, "circle", "circle-radius", ["n": .number(10)]) == .number(2))
        #expect(try evaluate(interval, "circle", "circle-radius", ["n": .number(-5)]) == .number(1))
    }

    @Test func categoricalFunctions() throws {
        let kinds = #"{"property": "kind", "type": "categorical", "stops": [["park", "green"], ["water", "blue"]], "default": "gray"}"#
        #expect(try evaluate(kinds, "fill", "fill-color", ["kind": .string("park")]) == .color(Color(r: 0, g: 128.0 / 255, b: 0)))
        #expect(try evaluate(kinds, "fill", "fill-color", ["kind": .string("rock")])
                == .color(Color(r: 128.0 / 255, g: 128.0 / 255, b: 128.0 / 255)))
        let noDefault = #"{"property": "kind", "type": "categorical", "stops": [["park", "green"]]}"#
        #expect(try evaluate(noDefault, "fill", "fill-color", ["kind": .string("rock")]) == .color(.black))
        #expect(try evaluate(noDefault, "fill", "fill-outline-color", ["kind": .string("rock")]) == .null)
        let ranks = #"{"property": "rank", "type": "categorical", "stops": [[1, 10], [2, 5.5]]}"#
        #expect(try evaluate(ranks, "circle", "circle-radius", ["rank": .number(2)]) == .number(5.5))
        #expect(try evaluate(ranks, "circle", "circle-radius", ["rank": .string("1")]) == .number(5))
        let flags = #"{"property": "big", "type": "categorical", "stops": [[true, 10], [false, 2]]}"#
        #expect(try evaluate(flags, "circle", "circle-radius", ["big": .bool(true)]) == .number(10))
        #expect(try evaluate(flags, "circle", "circle-radius", ["big": .bool(false)]) == .number(2))
        let fractions = #"{"property": "v", "type": "categorical", "stops": [[0.5, 7], [1, 8]]}"#
        #expect(try evaluate(fractions, "circle", "circle-radius", ["v": .number(0.5)]) == .number(7))
        let repeated = #"{"property": "k", "type": "categorical", "stops": [["a", 1], ["a", 2]]}"#
        #expect(try evaluate(repeated, "circle", "circle-radius", ["k": .string("a")]) == .number(2))
    }

    @Test func identityFunctions() throws {
        let radius = #"{"property": "r", "type": "identity"}"#
        #expect(try evaluate(radius, "circle", "circle-radius", ["r": .number(7)]) == .number(7))
        #expect(try evaluate(radius, "circle", "circle-radius", ["r": .string("x")]) == .number(5))
        #expect(try evaluate(#"{"property": "r", "type": "identity", "default": 3}"#, "circle", "circle-radius", ["r": .string("x")]) == .number(3))
        #expect(try evaluate(#"{"property": "c", "type": "identity"}"#, "fill", "fill-color", ["c": .string("#ff0000")])
                == .color(Color(r: 1, g: 0, b: 0)))
        let cap = #"{"property": "cap", "type": "identity"}"#
        #expect(try evaluate(#"{"property": "j", "type": "identity"}"#, "line", "line-join", ["j": .string("round")]) == .string("round"))
        #expect(SpecTest.propertyError(cap, "line", "line-cap") == "p: property functions not supported")
        let join = #"{"property": "j", "type": "identity", "default": "bevel"}"#
        #expect(try evaluate(join, "line", "line-join", ["j": .string("bad")]) == .string("bevel"))
        #expect(try evaluate(join, "line", "line-join", ["j": .string("round")]) == .string("round"))
        #expect(try evaluate(#"{"property": "t", "type": "identity"}"#, "symbol", "text-field", ["t": .number(5)]) == .string("5"))
    }

    @Test func zoomAndPropertyFunctions() throws {
        let text = """
        {"property": "rating", "stops": [[{"zoom": 0, "value": 0}, 0], [{"zoom": 0, "value": 10}, 10],
                                         [{"zoom": 10, "value": 0}, 0], [{"zoom": 10, "value": 10}, 100]]}
        """
        let value = try SpecTest.value(text, "circle", "circle-radius")
        #expect(value.isZoomDependent && value.isFeatureDependent)
        #expect(try evaluate(text, "circle", "circle-radius", zoom: 5, ["rating": .number(5)]) == .number(27.5))
        #expect(try evaluate(text, "circle", "circle-radius", zoom: 10, ["rating": .number(5)]) == .number(50))
        #expect(try evaluate(text, "circle", "circle-radius", zoom: 0, ["rating": .number(20)]) == .number(10))
        // Across zoom the function's base applies, within a zoom level interpolation is linear.
        let based = """
        {"property": "v", "base": 2, "stops": [[{"zoom": 0, "value": 0}, 0], [{"zoom": 10, "value": 0}, 1023]]}
        """
        #expect(SpecTest.close(try evaluate(based, "circle", "circle-radius", zoom: 5, ["v": .number(0)]), 31))
        let categorical = """
        {"property": "k", "type": "categorical", "stops": [[{"zoom": 0, "value": "a"}, 1], [{"zoom": 10, "value": "a"}, 11]]}
        """
        #expect(try evaluate(categorical, "circle", "circle-radius", zoom: 5, ["k": .string("a")]) == .number(6))
    }

    @Test func tokensInZoomFunctions() throws {
        let text = #"{"stops": [[0, "{a}"], [10, "{b}-x"]]}"#
        #expect(try evaluate(text, "symbol", "icon-image", zoom: 12, ["a": .string("A"), "b": .string("B")]) == .string("B-x"))
        #expect(try evaluate(text, "symbol", "icon-image", zoom: 1, ["a": .string("A")]) == .string("A"))
    }

    @Test func malformedFunctions() {
        #expect(SpecTest.propertyError(#"{"stops": []}"#, "line", "line-width") == "p.stops: expected a non-empty array of stops")
        #expect(SpecTest.propertyError(#"{"stops": [[0, "x"]]}"#, "line", "line-width") == #"p.stops[0][1]: expected number, found "x""#)
        #expect(SpecTest.propertyError(#"{"stops": [[10, 1], [5, 2]]}"#, "line", "line-width") == "p.stops[1][0]: stop inputs must be in ascending order")
        #expect(SpecTest.propertyError(#"{"stops": [[0, 1, 2]]}"#, "line", "line-width") == "p.stops[0]: expected a [input, output] pair, found [0,1,2]")
        #expect(SpecTest.propertyError(#"{"stops": [["a", 1]]}"#, "line", "line-width") == #"p.stops[0][0]: expected number, found "a""#)
        #expect(SpecTest.propertyError(#"{"property": "x", "stops": [[0, 1]]}"#, "raster", "raster-opacity") == "p: property functions not supported")
        #expect(SpecTest.propertyError(#"{"stops": [[0, "none"]]}"#, "fill", "visibility") == "p: functions not supported")
        #expect(SpecTest.propertyError(#"{"stops": [[0, 1]], "foo": 1}"#, "line", "line-width") == "p.foo: unknown function property")
        #expect(SpecTest.propertyError(#"{"type": "exponential", "stops": [[0, "butt"]]}"#, "line", "line-cap")
                == "p.type: exponential functions not supported for this property")
        #expect(SpecTest.propertyError(#"{"type": "linear", "stops": [[0, 1]]}"#, "line", "line-width")
                == #"p.type: expected one of [identity, exponential, interval, categorical], found "linear""#)
        #expect(SpecTest.propertyError(#"{"property": "x"}"#, "line", "line-width") == #"p: missing required property "stops""#)
        #expect(SpecTest.propertyError(#"{"type": "identity"}"#, "line", "line-width") == #"p: identity functions require a "property""#)
        #expect(SpecTest.propertyError(#"{"property": "x", "type": "categorical", "stops": [["a", 1], [2, 3]]}"#, "line", "line-width")
                == "p.stops[1][0]: expected string, found 2")
        #expect(SpecTest.propertyError(#"{"property": "x", "stops": [[0, 1]], "default": "wide"}"#, "line", "line-width")
                == #"p.default: expected number, found "wide""#)
        #expect(SpecTest.propertyError(#"{"base": -1, "stops": [[0, 1]]}"#, "line", "line-width") == "p.base: expected a number >= 0, found -1")
    }
}
