import Foundation
import MapCore
import Testing

/// Types and conversions, math, strings, arrays and colours.
@Suite struct ExpressionFunctionTests {
    func eval(_ text: String, _ properties: [String: StyleValue] = [:]) throws -> StyleValue {
        try SpecTest.evaluate(text, properties)
    }

    func runtimeError(_ text: String, _ properties: [String: StyleValue] = [:]) -> String? {
        SpecTest.error { _ = try eval(text, properties) }
    }

    @Test func conversions() throws {
        #expect(try eval(#"["to-number", "12.5"]"#) == .number(12.5))
        #expect(try eval(#"["to-number", null]"#) == .number(0))
        #expect(try eval(#"["to-number", true]"#) == .number(1))
        #expect(try eval(#"["to-number", "x", "7"]"#) == .number(7))
        #expect(try eval(#"["to-number", ["get", "s"]]"#, ["s": .string(" 0x1F ")]) == .number(31))
        #expect(try eval(#"["to-number", ["get", "s"]]"#, ["s": .string("")]) == .number(0))
        #expect(try eval(#"["to-number", ["get", "s"]]"#, ["s": .string("-1e3")]) == .number(-1000))
        #expect(try eval(#"["to-number", ["get", "a"]]"#, ["a": SpecTest.numbers(5)]) == .number(5))
        #expect(runtimeError(#"["to-number", ["get", "s"]]"#, ["s": .string("nan")]) == #"could not convert "nan" to number"#)
        #expect(SpecTest.parseError(#"["to-number", "x"]"#) == #"e: could not convert "x" to number"#)
        #expect(try eval(#"["to-string", 1.5]"#) == .string("1.5"))
        #expect(try eval(#"["to-string", null]"#) == .string(""))
        #expect(try eval(#"["to-string", ["to-color", "red"]]"#) == .string("rgba(255,0,0,1)"))
        #expect(try eval(#"["to-string", ["literal", [1, "a"]]]"#) == .string(#"[1,"a"]"#))
        #expect(try eval(#"["to-boolean", 0]"#) == .bool(false))
        #expect(try eval(#"["to-boolean", "a"]"#) == .bool(true))
        #expect(try eval(#"["to-boolean", ""]"#) == .bool(false))
        #expect(try eval(#"["to-boolean", null]"#) == .bool(false))
        #expect(try eval(#"["to-boolean", ["literal", []]]"#) == .bool(true))
        #expect(try eval(##"["to-color", "#00ff00"]"##) == .color(Color(r: 0, g: 1, b: 0)))
        #expect(try eval(#"["to-color", ["get", "c"]]"#, ["c": SpecTest.numbers(255, 0, 0)]) == .color(Color(r: 1, g: 0, b: 0)))
        #expect(try eval(#"["to-color", ["get", "c"], "blue"]"#, ["c": .string("nope")]) == .color(Color(r: 0, g: 0, b: 1)))
        #expect(runtimeError(#"["to-color", ["get", "c"]]"#, ["c": .string("nope")]) == #"expected color, found "nope""#)
        #expect(runtimeError(#"["to-color", ["get", "c"]]"#, ["c": SpecTest.numbers(1, 2)])
                == "invalid rgba value [1,2]: expected an array containing either three or four numeric values")
        #expect(SpecTest.parseError(#"["to-string", 1, 2]"#) == "e: expected 1 argument, found 2")
    }

    @Test func assertionsAndTypeof() throws {
        #expect(try eval(#"["number", ["get", "n"]]"#, ["n": .number(2)]) == .number(2))
        #expect(runtimeError(#"["number", ["get", "n"]]"#, ["n": .string("x")]) == #"expected number, found "x""#)
        #expect(try eval(#"["number", ["get", "a"], ["get", "b"], 5]"#, ["b": .number(1)]) == .number(1))
        #expect(try eval(#"["string", ["get", "a"], "fallback"]"#) == .string("fallback"))
        #expect(try eval(#"["boolean", ["get", "b"]]"#, ["b": .bool(false)]) == .bool(false))
        #expect(try eval(#"["object", ["get", "o"]]"#, ["o": .object([:])]) == .object([:]))
        #expect(try eval(#"["array", "number", 2, ["get", "v"]]"#, ["v": SpecTest.numbers(1, 2)]) == SpecTest.numbers(1, 2))
        #expect(runtimeError(#"["array", "number", 2, ["get", "v"]]"#, ["v": SpecTest.numbers(1)]) == "expected array<number, 2>, found [1]")
        #expect(runtimeError(#"["array", "string", ["get", "v"]]"#, ["v": SpecTest.numbers(1)]) == "expected array<string>, found [1]")
        #expect(try eval(#"["array", ["get", "v"]]"#, ["v": .array([])]) == .array([]))
        #expect(try SpecTest.expression(#"["array", "number", 2, ["get", "v"]]"#).type == .array(.number, 2))
        #expect(SpecTest.parseError(#"["array", "color", ["get", "v"]]"#) == #"e[1]: the item type argument of "array" must be one of string, number, boolean"#)
        #expect(SpecTest.parseError(#"["array", "number", -1, ["get", "v"]]"#) == #"e[2]: the length argument to "array" must be a positive integer literal"#)
        #expect(try eval(#"["typeof", ["get", "v"]]"#, ["v": SpecTest.numbers(1, 2)]) == .string("array<number, 2>"))
        #expect(try eval(#"["typeof", ["literal", [1, "a"]]]"#) == .string("array<value, 2>"))
        #expect(try eval(#"["typeof", ["get", "v"]]"#, ["v": .string("x")]) == .string("string"))
        #expect(try eval(#"["typeof", ["get", "missing"]]"#) == .string("null"))
        #expect(try eval(#"["typeof", ["properties"]]"#) == .string("object"))
        #expect(try eval(#"["typeof", ["to-color", "red"]]"#) == .string("color"))
    }

    @Test func arithmetic() throws {
        #expect(try eval(#"["+", 1, 2, 3]"#) == .number(6))
        #expect(try eval(#"["+"]"#) == .number(0))
        #expect(try eval(#"["-", 5]"#) == .number(-5))
        #expect(try eval(#"["-", 5, 2]"#) == .number(3))
        #expect(try eval(#"["*", 2, 3, 4]"#) == .number(24))
        #expect(try eval(#"["/", 1, 4]"#) == .number(0.25))
        #expect(try eval(#"["/", 1, 0]"#) == .number(.infinity))
        #expect(try eval(#"["%", 7, 3]"#) == .number(1))
        #expect(try eval(#"["%", -7, 3]"#) == .number(-1))
        #expect(try eval(#"["^", 2, 10]"#) == .number(1024))
        #expect(try eval(#"["sqrt", 16]"#) == .number(4))
        #expect(try eval(#"["abs", -2]"#) == .number(2))
        #expect(try eval(#"["floor", -1.5]"#) == .number(-2))
        #expect(try eval(#"["ceil", 1.2]"#) == .number(2))
        #expect(try eval(#"["round", 2.5]"#) == .number(3))
        #expect(try eval(#"["round", -2.5]"#) == .number(-3))
        #expect(try eval(#"["round", 1.4]"#) == .number(1))
        #expect(try eval(#"["min", 3, 1, 2]"#) == .number(1))
        #expect(try eval(#"["max", 3, 1, 2]"#) == .number(3))
        #expect(try eval(#"["min"]"#) == .number(.infinity))
        #expect(try eval(#"["+", ["get", "a"], 1]"#, ["a": .number(2)]) == .number(3))
        #expect(runtimeError(#"["+", ["get", "a"], 1]"#) == "expected number, found null")
    }

    @Test func mathFunctionsAndConstants() throws {
        #expect(try eval(#"["e"]"#) == .number(M_E))
        #expect(try eval(#"["pi"]"#) == .number(Double.pi))
        #expect(try eval(#"["ln2"]"#) == .number(M_LN2))
        #expect(try eval(#"["ln", ["e"]]"#) == .number(1))
        // Computed as ln(x) / ln(10), as MapLibre does.
        #expect(try eval(#"["log10", 1000]"#) == .number(2.9999999999999996))
        #expect(try eval(#"["log10", 100]"#) == .number(2))
        #expect(try eval(#"["log2", 8]"#) == .number(3))
        #expect(try eval(#"["sin", ["/", ["pi"], 2]]"#) == .number(1))
        #expect(try eval(#"["cos", 0]"#) == .number(1))
        #expect(try eval(#"["tan", 0]"#) == .number(0))
        #expect(try eval(#"["asin", 1]"#) == .number(Double.pi / 2))
        #expect(try eval(#"["acos", 1]"#) == .number(0))
        #expect(try eval(#"["atan", 1]"#) == .number(Double.pi / 4))
        #expect(SpecTest.parseError(#"["sqrt", 1, 2]"#) == "e: expected 1 argument, found 2")
        #expect(SpecTest.parseError(#"["pi", 1]"#) == "e: expected 0 arguments, found 1")
        #expect(SpecTest.parseError(#"["-"]"#) == "e: expected 1 to 2 arguments, found 0")
    }

    @Test func strings() throws {
        #expect(try eval(#"["concat", "a", 1, true, null, ["literal", [1, 2]]]"#) == .string("a1true[1,2]"))
        #expect(try eval(#"["concat"]"#) == .string(""))
        #expect(try eval(#"["downcase", "ABC"]"#) == .string("abc"))
        #expect(try eval(#"["upcase", "straße"]"#) == .string("STRASSE"))
        #expect(try eval(#"["length", "héllo😀"]"#) == .number(6))
        #expect(try eval(#"["slice", "abcdef", -2]"#) == .string("ef"))
        #expect(try eval(#"["slice", "a😀bc", 1, 2]"#) == .string("😀"))
        #expect(try eval(#"["in", "ell", "hello"]"#) == .bool(true))
        #expect(try eval(#"["in", 1, "a1"]"#) == .bool(true))
        #expect(try eval(#"["in", "x", ["get", "missing"]]"#) == .bool(false))
        #expect(try eval(#"["index-of", "l", "hello", 3]"#) == .number(3))
        #expect(try eval(#"["index-of", "b", "a😀b"]"#) == .number(2))
        #expect(try eval(#"["index-of", "z", "abc"]"#) == .number(-1))
        #expect(SpecTest.parseError(#"["upcase", 1]"#) == "e[1]: expected string, found 1")
    }

    @Test func arrays() throws {
        let abc = #"["literal", ["a", "b", "c"]]"#
        #expect(try eval(#"["at", 1, \#(abc)]"#) == .string("b"))
        #expect(try eval(#"["at", ["get", "i"], \#(abc)]"#, ["i": .number(2)]) == .string("c"))
        #expect(SpecTest.parseError(#"["at", 3, \#(abc)]"#) == "e: array index out of bounds: 3 > 2")
        #expect(SpecTest.parseError(#"["at", -1, \#(abc)]"#) == "e: array index out of bounds: -1 < 0")
        #expect(SpecTest.parseError(#"["at", 1.5, \#(abc)]"#) == "e: array index must be an integer, found 1.5")
        #expect(try eval(#"["length", \#(abc)]"#) == .number(3))
        #expect(runtimeError(#"["length", ["get", "n"]]"#, ["n": .number(5)]) == "expected a string or an array, found number")
        #expect(try eval(#"["in", "b", \#(abc)]"#) == .bool(true))
        #expect(try eval(#"["in", "z", \#(abc)]"#) == .bool(false))
        #expect(runtimeError(#"["in", ["get", "v"], \#(abc)]"#, ["v": SpecTest.numbers(1)])
                == "expected the first argument to be of type boolean, string, number or null, found array<number, 1>")
        #expect(try eval(#"["index-of", "b", ["literal", ["a", "b", "b"]]]"#) == .number(1))
        #expect(try eval(#"["index-of", "b", ["literal", ["a", "b", "b"]], 2]"#) == .number(2))
        #expect(try eval(#"["index-of", "b", ["literal", ["a", "b", "c"]], -1]"#) == .number(-1))
        #expect(try eval(#"["slice", ["literal", [1, 2, 3, 4]], 1, 3]"#) == SpecTest.numbers(2, 3))
        #expect(try eval(#"["slice", ["literal", [1, 2, 3, 4]], 3, 1]"#) == .array([]))
        #expect(runtimeError(#"["slice", ["get", "n"], 1]"#, ["n": .number(5)]) == "expected the first argument to be of type array or string, found number")
    }

    @Test func colours() throws {
        #expect(try eval(#"["rgb", 255, 128, 0]"#) == .color(Color(r: 1, g: 128.0 / 255, b: 0)))
        #expect(try eval(#"["rgba", 0, 0, 255, 0.5]"#) == .color(Color(r: 0, g: 0, b: 1, a: 0.5)))
        #expect(try eval(#"["rgb", ["get", "r"], 0, 0]"#, ["r": .number(51)]) == .color(Color(r: 0.2, g: 0, b: 0)))
        #expect(SpecTest.parseError(#"["rgb", 256, 0, 0]"#) == "e: invalid rgba value [256, 0, 0]: 'r', 'g', and 'b' must be between 0 and 255")
        #expect(SpecTest.parseError(#"["rgba", 0, 0, 0, 2]"#) == "e: invalid rgba value [0, 0, 0, 2]: 'a' must be between 0 and 1")
        #expect(try eval(#"["to-rgba", "rgba(255, 0, 0, 0.5)"]"#) == SpecTest.numbers(255, 0, 0, 0.5))
        #expect(try SpecTest.expression(#"["to-rgba", "red"]"#).type == .array(.number, 4))
        #expect(SpecTest.parseError(#"["to-rgba", "nope"]"#) == #"e[1]: expected color, found "nope""#)
    }
}
