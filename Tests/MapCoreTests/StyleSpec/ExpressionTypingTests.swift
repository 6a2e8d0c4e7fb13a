import Foundation
import MapCore
import Testing

/// Static typing: inferred assertions and coercions, and parse errors with exact paths.
@Suite struct ExpressionTypingTests {
    @Test func errorsNameTheOffendingElement() throws {
        let json = try SpecTest.json(#"["interpolate", ["linear"], ["zoom"], 0, 1, 10, "x"]"#)
        let message = SpecTest.error { _ = try StyleExpression.parse(json, path: "layers[3].paint.line-width", expected: .number) }
        #expect(message == #"layers[3].paint.line-width[6]: expected number, found "x""#)
        #expect(SpecTest.parseError(#"["+", 1, "x"]"#) == #"e[2]: expected number, found "x""#)
        #expect(SpecTest.parseError(#"["+", 1, ["*", 2, "x"]]"#) == #"e[2][2]: expected number, found "x""#)
        #expect(SpecTest.parseError(#"["+", 1, ["concat", "a"]]"#) == "e[2]: expected number, found string")
        #expect(SpecTest.parseError(#"["+", 1, ["literal", "x"]]"#) == #"e[2]: expected number, found "x""#)
        #expect(SpecTest.parseError(#""x""#, expected: .number) == #"e: expected number, found "x""#)
    }

    @Test func unknownOperatorsAndShapes() {
        #expect(SpecTest.parseError(#"["foo", 1]"#) == #"e[0]: unknown expression "foo""#)
        #expect(SpecTest.parseError(#"["+", 1, ["bar"]]"#) == #"e[2][0]: unknown expression "bar""#)
        #expect(SpecTest.parseError("[1, 2]") == #"e[0]: expected an expression name (a string), found 1; write ["literal", [...]] for an array"#)
        #expect(SpecTest.parseError("[]") == #"e: an expression needs at least an operator; write ["literal", []] for an empty array"#)
        #expect(SpecTest.parseError(#"{"a": 1}"#) == #"e: a bare object is not an expression; write ["literal", {...}]"#)
        #expect(SpecTest.parseError(#"["literal"]"#) == "e: expected 1 argument, found 0")
        #expect(SpecTest.parseError(#"["rgb", 1, 2]"#) == "e: expected 3 arguments, found 2")
        #expect(SpecTest.parseError(#"["at", 1]"#) == "e: expected 2 arguments, found 1")
        #expect(SpecTest.parseError(#"["get"]"#) == "e: expected 1 to 2 arguments, found 0")
        #expect(SpecTest.parseError(#"["get", 5]"#) == "e[1]: expected string, found 5")
        #expect(SpecTest.parseError(#"["zoom", 1]"#) == "e: expected 0 arguments, found 1")
    }

    @Test func colourStringsBecomeColoursAtParseTime() throws {
        let red = try SpecTest.expression(##""#f00""##, expected: .color)
        #expect(red.type == .color)
        #expect(!red.isFeatureDependent && !red.isZoomDependent)
        #expect(try red.evaluate(EvaluationContext(zoom: 0)) == .color(Color(r: 1, g: 0, b: 0)))
        #expect(SpecTest.parseError(#""not-a-color""#, expected: .color) == #"e: expected color, found "not-a-color""#)
        #expect(SpecTest.parseError(#"["case", true, "red", "nope"]"#, expected: .color) == #"e[3]: expected color, found "nope""#)
        #expect(SpecTest.parseError("5", expected: .color) == "e: expected color, found 5")
    }

    @Test func getIsAssertedWhereATypeIsExpected() throws {
        let width = try SpecTest.expression(#"["get", "w"]"#, expected: .number)
        #expect(width.type == .number)
        func evaluate(_ value: StyleValue?) throws -> StyleValue {
            try width.evaluate(EvaluationContext(zoom: 0, feature: SpecTest.feature(value.map { ["w": $0] } ?? [:])))
        }
        #expect(try evaluate(.number(3)) == .number(3))
        #expect(SpecTest.error { _ = try evaluate(.string("x")) } == #"expected number, found "x""#)
        #expect(SpecTest.error { _ = try evaluate(nil) } == "expected number, found null")
        let color = try SpecTest.expression(#"["get", "c"]"#, expected: .color)
        #expect(try color.evaluate(EvaluationContext(zoom: 0, feature: SpecTest.feature(["c": .string("lime")])))
                == .color(Color(r: 0, g: 1, b: 0)))
        let list = try SpecTest.expression(#"["get", "v"]"#, expected: .array(.number, 2))
        #expect(list.type == .array(.number, 2))
        #expect(SpecTest.error { _ = try list.evaluate(EvaluationContext(zoom: 0, feature: SpecTest.feature(["v": SpecTest.numbers(1, 2, 3)]))) }
                == "expected array<number, 2>, found [1,2,3]")
    }

    @Test func outputTypesAreInferredFromTheFirstBranch() throws {
        #expect(try SpecTest.expression(#"["case", ["has", "a"], 1, 2]"#).type == .number)
        #expect(try SpecTest.expression(#"["match", ["get", "a"], "x", "red", "blue"]"#, expected: .color).type == .color)
        #expect(try SpecTest.expression(#"["step", ["zoom"], ["get", "a"], 5, 1]"#).type == .value)
        #expect(try SpecTest.expression(#"["at", 0, ["literal", ["a"]]]"#).type == .string)
        #expect(try SpecTest.expression(#"["slice", ["literal", [1, 2, 3]], 1]"#).type == .array(.number, nil))
        #expect(SpecTest.parseError(#"["length", 5]"#) == "e: expected an argument of type string or array, found 5")
        #expect(SpecTest.parseError(#"["at", 0, ["literal", ["a"]]]"#, expected: .number) == #"e[2]: expected array<number>, found ["a"]"#)
    }

    @Test func deepNestingIsAnErrorNotACrash() throws {
        var text = "1"
        for _ in 0..<200 { text = #"["+", \#(text)]"# }
        #expect(try SpecTest.evaluate(text) == .number(1))
        var json = JSON.number(1)
        for _ in 0..<400 { json = .array([.string("-"), json]) }
        let message = SpecTest.error { _ = try StyleExpression.parse(json, path: "e", expected: nil) }
        #expect(message?.hasSuffix("expression nesting deeper than 256 levels") == true)
    }
}
