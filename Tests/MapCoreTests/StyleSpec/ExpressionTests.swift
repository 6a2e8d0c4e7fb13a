import Foundation
import MapCore
import Testing

/// Literals, feature lookups, comparisons and the decision operators.
@Suite struct ExpressionTests {
    func eval(_ text: String, zoom: Double = 0, _ properties: [String: StyleValue] = [:], id: StyleValue? = nil,
              geometry: String = "Point") throws -> StyleValue {
        try SpecTest.evaluate(text, zoom: zoom, properties, id: id, geometry: geometry)
    }

    @Test func literals() throws {
        #expect(try eval("5") == .number(5))
        #expect(try eval(#""x""#) == .string("x"))
        #expect(try eval("true") == .bool(true))
        #expect(try eval("null") == .null)
        #expect(try eval(#"["literal", [1, "a"]]"#) == .array([.number(1), .string("a")]))
        #expect(try eval(#"["literal", {"a": [1]}]"#) == .object(["a": .array([.number(1)])]))
        #expect(try SpecTest.expression(#"["literal", [1, 2]]"#).type == .array(.number, 2))
        #expect(try SpecTest.expression(#"["literal", []]"#, expected: .array(.string, nil)).type == .array(.string, nil))
        #expect(try SpecTest.expression(#""x""#).type == .string)
    }

    @Test func featureLookups() throws {
        let props: [String: StyleValue] = ["name": .string("A"), "n": .number(3), "nothing": .null]
        #expect(try eval(#"["get", "name"]"#, props) == .string("A"))
        #expect(try eval(#"["get", "missing"]"#, props) == .null)
        #expect(try eval(#"["get", ["concat", "na", "me"]]"#, props) == .string("A"))
        #expect(try eval(#"["get", "a", ["literal", {"a": 3}]]"#) == .number(3))
        #expect(try eval(#"["has", "name"]"#, props) == .bool(true))
        #expect(try eval(#"["has", "nothing"]"#, props) == .bool(true))
        #expect(try eval(#"["has", "missing"]"#, props) == .bool(false))
        #expect(try eval(#"["has", "a", ["literal", {"a": null}]]"#) == .bool(true))
        #expect(try eval(#"["id"]"#, id: .number(7)) == .number(7))
        #expect(try eval(#"["id"]"#) == .null)
        #expect(try eval(#"["geometry-type"]"#, geometry: "LineString") == .string("LineString"))
        #expect(try eval(#"["geometry-type"]"#, geometry: "MultiPolygon") == .string("Polygon"))
        #expect(try eval(#"["properties"]"#, ["n": .number(3)]) == .object(["n": .number(3)]))
        #expect(try eval(#"["zoom"]"#, zoom: 3.5) == .number(3.5))
        let noFeature = try SpecTest.expression(#"["get", "name"]"#).evaluate(EvaluationContext(zoom: 1))
        #expect(noFeature == .null)
    }

    @Test func dependenceFlags() throws {
        let zoom = try SpecTest.expression(#"["interpolate", ["linear"], ["zoom"], 0, 1, 10, 2]"#)
        #expect(zoom.isZoomDependent && !zoom.isFeatureDependent)
        let data = try SpecTest.expression(#"["get", "x"]"#)
        #expect(!data.isZoomDependent && data.isFeatureDependent)
        let folded = try SpecTest.expression(#"["+", 1, ["*", 2, 3]]"#)
        #expect(!folded.isZoomDependent && !folded.isFeatureDependent)
        #expect(try folded.evaluate(EvaluationContext(zoom: 0)) == .number(7))
        let bound = try SpecTest.expression(#"["let", "g", ["get", "x"], ["var", "g"]]"#)
        #expect(bound.isFeatureDependent)
        #expect(!(try SpecTest.expression(#"["get", "x", ["literal", {}]]"#).isFeatureDependent))
    }

    @Test func equality() throws {
        #expect(try eval(#"["==", 1, 1]"#) == .bool(true))
        #expect(try eval(#"["==", ["get", "n"], "1"]"#, ["n": .number(1)]) == .bool(false))
        #expect(try eval(#"["!=", ["get", "n"], "1"]"#, ["n": .number(1)]) == .bool(true))
        #expect(try eval(#"["==", ["get", "missing"], null]"#) == .bool(true))
        #expect(try eval(#"["==", ["get", "b"], true]"#, ["b": .bool(true)]) == .bool(true))
        #expect(try eval(#"["==", ["get", "a"], ["get", "a"]]"#, ["a": SpecTest.numbers(1)]) == .bool(false))
    }

    @Test func ordering() throws {
        #expect(try eval(#"["<", ["get", "n"], 2]"#, ["n": .number(1)]) == .bool(true))
        #expect(try eval(#"[">=", ["get", "n"], 2]"#, ["n": .number(2)]) == .bool(true))
        #expect(try eval(#"["<=", "a", "b"]"#) == .bool(true))
        #expect(try eval(#"[">", "b", "a"]"#) == .bool(true))
        // JavaScript orders strings by UTF-16 code units: U+FF5E sorts after the surrogates of U+1F600.
        #expect(try eval(#"["<", "～", "😀"]"#) == .bool(false))
        #expect(SpecTest.error { _ = try eval(#"["<", ["get", "s"], ["get", "n"]]"#, ["s": .string("a"), "n": .number(1)]) }
                == #"expected arguments for "<" to be (string, string) or (number, number), found (string, number)"#)
        #expect(SpecTest.error { _ = try eval(#"["<", ["get", "s"], 2]"#, ["s": .string("a")]) } == #"expected number, found "a""#)
        #expect(SpecTest.parseError(#"["<", 1, "a"]"#) == "e: cannot compare types number and string")
        #expect(SpecTest.parseError(#"["<", true, false]"#) == #"e[1]: "<" comparisons are not supported for type boolean"#)
        #expect(SpecTest.parseError(#"["==", ["literal", [1]], 1]"#) == #"e[1]: "==" comparisons are not supported for type array<number, 1>"#)
        #expect(SpecTest.parseError(#"["==", 1, 1, ["collator", {}]]"#) == "e: cannot use collator to compare non-string types")
    }

    @Test func logic() throws {
        #expect(try eval(#"["all", true, ["==", 1, 1]]"#) == .bool(true))
        #expect(try eval(#"["all", true, false]"#) == .bool(false))
        #expect(try eval(#"["all"]"#) == .bool(true))
        #expect(try eval(#"["any"]"#) == .bool(false))
        #expect(try eval(#"["any", false, ["has", "x"]]"#, ["x": .null]) == .bool(true))
        #expect(try eval(#"["!", false]"#) == .bool(true))
        #expect(try eval(#"["!", ["get", "b"]]"#, ["b": .bool(true)]) == .bool(false))
        #expect(SpecTest.error { _ = try eval(#"["all", ["get", "flag"]]"#, ["flag": .number(1)]) } == "expected boolean, found 1")
        // `all` stops at the first false, so later errors do not happen.
        #expect(try eval(#"["all", false, ["get", "flag"]]"#, ["flag": .number(1)]) == .bool(false))
    }

    @Test func match() throws {
        let text = #"["match", ["get", "k"], "a", 1, ["b", "c"], 2, 0]"#
        #expect(try eval(text, ["k": .string("c")]) == .number(2))
        #expect(try eval(text, ["k": .string("a")]) == .number(1))
        #expect(try eval(text, ["k": .string("z")]) == .number(0))
        #expect(try eval(text, ["k": .number(1)]) == .number(0))
        #expect(try eval(text) == .number(0))
        let numbers = #"["match", ["get", "n"], [1, 2], "low", 3, "mid", "other"]"#
        #expect(try eval(numbers, ["n": .number(2)]) == .string("low"))
        #expect(try eval(numbers, ["n": .number(3)]) == .string("mid"))
        #expect(try eval(numbers, ["n": .number(2.5)]) == .string("other"))
        #expect(try eval(numbers, ["n": .string("2")]) == .string("other"))
        #expect(SpecTest.parseError(#"["match", ["get", "k"], "a", 1, "a", 2, 0]"#) == "e[4]: branch labels must be unique")
        #expect(SpecTest.parseError(#"["match", ["get", "k"], 1.5, 1, 0]"#) == "e[2]: numeric branch labels must be integer values")
        #expect(SpecTest.parseError(#"["match", ["get", "k"], "a", 1, 2, 3, 0]"#) == "e[4]: expected string, found 2")
        #expect(SpecTest.parseError(#"["match", ["get", "k"], [], 1, 0]"#) == "e[2]: expected at least one branch label")
        #expect(SpecTest.parseError(#"["match", ["get", "k"], "a", 1, "b"]"#) == #"e[4]: expected number, found "b""#)
        #expect(SpecTest.parseError(#"["match", 1, "a", 1, 0]"#) == "e[1]: expected string, found 1")
        #expect(SpecTest.parseError(#"["match", ["get", "k"], "a", 1]"#) == "e: expected at least 4 arguments, found 3")
    }

    @Test func caseAndCoalesce() throws {
        let text = #"["case", ["==", ["get", "n"], 1], "one", ["==", ["get", "n"], 2], "two", "many"]"#
        #expect(try eval(text, ["n": .number(1)]) == .string("one"))
        #expect(try eval(text, ["n": .number(2)]) == .string("two"))
        #expect(try eval(text, ["n": .number(5)]) == .string("many"))
        #expect(SpecTest.parseError(#"["case", true, 1, "x"]"#) == #"e[3]: expected number, found "x""#)
        #expect(SpecTest.parseError(#"["case", true, 1]"#) == "e: expected at least 3 arguments, found 2")
        #expect(SpecTest.parseError(#"["case", 1, 1, 2]"#) == "e[1]: expected boolean, found 1")
        let coalesce = #"["coalesce", ["get", "a"], ["get", "b"], "z"]"#
        #expect(try eval(coalesce, ["b": .string("B")]) == .string("B"))
        #expect(try eval(coalesce, ["a": .number(0), "b": .string("B")]) == .number(0))
        #expect(try eval(coalesce) == .string("z"))
        #expect(try eval(#"["coalesce", null]"#) == .null)
        // Typed: the result, not each argument, is converted to the expected colour.
        let color = try SpecTest.expression(#"["coalesce", ["get", "c"], "red"]"#, expected: .color)
        #expect(color.type == .color)
        #expect(try color.evaluate(EvaluationContext(zoom: 0, feature: SpecTest.feature())) == .color(Color(r: 1, g: 0, b: 0)))
        #expect(try color.evaluate(EvaluationContext(zoom: 0, feature: SpecTest.feature(["c": .string("blue")])))
                == .color(Color(r: 0, g: 0, b: 1)))
        #expect(SpecTest.error { _ = try color.evaluate(EvaluationContext(zoom: 0, feature: SpecTest.feature(["c": .number(5)]))) }
                == "expected color, found 5")
    }

    @Test func step() throws {
        let text = #"["step", ["zoom"], 0, 5, 10, 10, 20]"#
        #expect(try eval(text, zoom: 4.9) == .number(0))
        #expect(try eval(text, zoom: 5) == .number(10))
        #expect(try eval(text, zoom: 9.99) == .number(10))
        #expect(try eval(text, zoom: 12) == .number(20))
        #expect(try eval(#"["step", ["get", "n"], "a", 1, "b"]"#, ["n": .number(-3)]) == .string("a"))
        #expect(SpecTest.error { _ = try eval(#"["step", ["get", "n"], "a", 1, "b"]"#, ["n": .string("x")]) } == #"expected number, found "x""#)
        #expect(SpecTest.parseError(#"["step", ["zoom"], 0, 5, 10, 5, 20]"#) == "e[5]: step inputs must be in strictly ascending order")
        #expect(SpecTest.parseError(#"["step", ["zoom"], 0, "5", 10]"#) == #"e[3]: step inputs must be literal numbers, found "5""#)
        #expect(SpecTest.parseError(#"["step", ["zoom"], 0, 5]"#) == "e: expected at least 4 arguments, found 3")
    }

    @Test func letAndVar() throws {
        #expect(try eval(#"["let", "a", ["get", "n"], "b", 2, ["*", ["var", "a"], ["var", "b"]]]"#, ["n": .number(3)]) == .number(6))
        #expect(try eval(#"["let", "a", 1, ["let", "a", 2, ["var", "a"]]]"#) == .number(2))
        #expect(SpecTest.parseError(#"["var", "x"]"#) == #"e[1]: unknown variable "x"; bind it with an enclosing "let""#)
        #expect(SpecTest.parseError(#"["let", "a", 1, "b", ["var", "a"], ["var", "b"]]"#)
                == #"e[4][1]: unknown variable "a"; bind it with an enclosing "let""#)
        #expect(SpecTest.parseError(#"["let", "a-b", 1, 2]"#) == "e[1]: variable names may contain only letters, digits and '_'")
        #expect(SpecTest.parseError(#"["let", "a", 1, "b", 2]"#) == "e: expected name-value pairs followed by one expression")
    }

    /// Each binding is evaluated once per evaluation, so doubling chains stay linear.
    @Test func bindingsAreEvaluatedOnce() throws {
        var text = #"["var", "v39"]"#
        for i in stride(from: 39, through: 1, by: -1) {
            text = #"["let", "v\#(i)", ["+", ["var", "v\#(i - 1)"], ["var", "v\#(i - 1)"]], \#(text)]"#
        }
        text = #"["let", "v0", ["get", "n"], \#(text)]"#
        #expect(try eval(text, ["n": .number(1)]) == .number(549_755_813_888))
    }
}
