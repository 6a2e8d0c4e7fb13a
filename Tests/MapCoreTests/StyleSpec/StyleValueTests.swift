import Foundation
import MapCore
import Testing

@Suite struct StyleValueTests {
    @Test func buildsFromJSON() throws {
        let value = StyleValue(json: try SpecTest.json(#"{"a": [1, "x", null, true], "b": {"c": 2}}"#))
        #expect(value == .object(["a": .array([.number(1), .string("x"), .null, .bool(true)]), "b": .object(["c": .number(2)])]))
        #expect(StyleValue(json: .string("#ff0000")) == .string("#ff0000"))
    }

    @Test func accessorsAndTypeNames() {
        #expect(StyleValue.number(2).asNumber == 2)
        #expect(StyleValue.string("2").asNumber == nil)
        #expect(StyleValue.string("a").asString == "a")
        #expect(StyleValue.bool(true).asBool == true)
        #expect(StyleValue.color(.white).asColor == .white)
        #expect(StyleValue.string("white").asColor == nil)
        #expect(SpecTest.numbers(1, 2).asNumbers == [1, 2])
        #expect(StyleValue.array([]).asNumbers == [])
        #expect(StyleValue.array([.number(1), .string("x")]).asNumbers == nil)
        let all: [StyleValue] = [.null, .bool(false), .number(0), .string(""), .color(.black), .array([]), .object([:])]
        #expect(all.map(\.typeName) == ["null", "boolean", "number", "string", "color", "array", "object"])
    }

    @Test func toStringTextFollowsJavaScript() {
        #expect(StyleValue.null.toStringText == "")
        #expect(StyleValue.bool(true).toStringText == "true")
        #expect(StyleValue.number(1).toStringText == "1")
        #expect(StyleValue.number(-0.0).toStringText == "0")
        #expect(StyleValue.number(0.5).toStringText == "0.5")
        #expect(StyleValue.number(0.1 + 0.2).toStringText == "0.30000000000000004")
        #expect(StyleValue.number(123456789).toStringText == "123456789")
        #expect(StyleValue.number(1e21).toStringText == "1e+21")
        #expect(StyleValue.number(1.5e300).toStringText == "1.5e+300")
        #expect(StyleValue.number(123e18).toStringText == "123000000000000000000")
        #expect(StyleValue.number(0.000001).toStringText == "0.000001")
        #expect(StyleValue.number(1e-7).toStringText == "1e-7")
        #expect(StyleValue.number(-2.5e-8).toStringText == "-2.5e-8")
        #expect(StyleValue.number(.infinity).toStringText == "Infinity")
        #expect(StyleValue.number(.nan).toStringText == "NaN")
        #expect(StyleValue.string("x").toStringText == "x")
        #expect(StyleValue.color(Color(r: 1, g: 0, b: 0)).toStringText == "rgba(255,0,0,1)")
        #expect(StyleValue.color(Color(r: 26.0 / 255, g: 207.0 / 255, b: 26.0 / 255, a: 0.73)).toStringText == "rgba(26,207,26,0.73)")
        #expect(StyleValue.array([.number(1), .string("a\"b"), .null]).toStringText == #"[1,"a\"b",null]"#)
        #expect(StyleValue.object(["b": .array([.bool(true)]), "a": .number(1)]).toStringText == #"{"a":1,"b":[true]}"#)
    }
}
