import Foundation
import MapCore
import Testing

@Suite struct JSONTests {
    func parse(_ text: String) throws -> JSON { try JSON.parse(Data(text.utf8), name: "style.json") }

    func failure(_ bytes: [UInt8]) -> String? {
        SpecTest.error { _ = try JSON.parse(Data(bytes), name: "style.json") }
    }

    func failure(_ text: String) -> String? { failure(Array(text.utf8)) }

    @Test func parsesEveryKindKeepingNumbersAndBooleansApart() throws {
        let value = try parse(#" { "n": 1, "f": -2.5e2, "t": true, "z": null, "s": "x", "a": [0, false], "o": {} } "#)
        guard case .object(let o) = value else { Issue.record("not an object"); return }
        #expect(o.keys == ["n", "f", "t", "z", "s", "a", "o"])
        #expect(o["n"] == .number(1))
        #expect(o["f"] == .number(-250))
        #expect(o["t"] == .bool(true))
        #expect(o["z"] == .null)
        #expect(o["s"] == .string("x"))
        #expect(o["a"] == .array([.number(0), .bool(false)]))
        #expect(o["o"] == .object(JSONObject()))
        #expect(o["missing"] == nil)
    }

    @Test func duplicateKeysKeepBothEntriesAndTheLastWins() throws {
        guard case .object(let o) = try parse(#"{"a": 1, "b": 2, "a": 3}"#) else { Issue.record("not an object"); return }
        #expect(o.keys == ["a", "b", "a"])
        #expect(o["a"] == .number(3))
        #expect(StyleValue(json: .object(o)) == .object(["a": .number(3), "b": .number(2)]))
    }

    @Test func objectEqualityIsOrderSensitive() throws {
        #expect(try parse(#"{"a":1,"b":2}"#) == parse(#"{ "a" : 1 , "b" : 2 }"#))
        #expect(try parse(#"{"a":1,"b":2}"#) != parse(#"{"b":2,"a":1}"#))
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        #expect(try parse(#""\"\\\/\b\f\n\r\t\u00e9\u0041""#) == .string("\"\\/\u{08}\u{0C}\n\r\té" + "A"))
        #expect(try parse(#""\ud83d\ude00 x""#) == .string("😀 x"))
        #expect(try parse("\"héllo 😀\"") == .string("héllo 😀"))
        #expect(try parse(#""\u0000""#) == .string("\u{0}"))
    }

    @Test func acceptsALeadingByteOrderMark() throws {
        #expect(try JSON.parse(Data([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)), name: "x") == .array([.number(1)]))
        #expect(failure([0xEF, 0xBB, 0xBF] + Array("[1,]".utf8)) == "style.json: line 1, column 4: unexpected ']', expected a value")
    }

    @Test func numbersFollowTheRFCGrammar() throws {
        #expect(try parse("-0.5") == .number(-0.5))
        #expect(try parse("1E3") == .number(1000))
        #expect(try parse("12e-1") == .number(1.2))
        #expect(failure("01") == "style.json: line 1, column 2: leading zeros are not allowed in numbers")
        #expect(failure("1.") == "style.json: line 1, column 3: expected a digit after the decimal point")
        #expect(failure("1e+") == "style.json: line 1, column 4: expected a digit in the exponent")
        #expect(failure("-x") == "style.json: line 1, column 2: unexpected 'x' in a number")
        #expect(failure("+1") == "style.json: line 1, column 1: unexpected '+', expected a value")
        #expect(failure("[1e400]") == "style.json: line 1, column 2: number 1e400 is out of range")
    }

    @Test func errorsNameLineAndColumn() {
        #expect(failure(#"{"a": 1,}"#) == "style.json: line 1, column 9: unexpected '}', expected a member name in double quotes")
        #expect(failure("{\n  \"a\": tru\n}") == "style.json: line 2, column 11: unexpected character U+000A in a literal")
        #expect(failure("[1] x") == "style.json: line 1, column 5: unexpected 'x' after the JSON value")
        #expect(failure("[\"abc") == "style.json: line 1, column 2: unterminated string")
        #expect(failure("") == "style.json: line 1, column 1: expected a JSON value, found the end of the input")
        #expect(failure("  \n ") == "style.json: line 2, column 2: expected a JSON value, found the end of the input")
        #expect(failure("[1 2]") == "style.json: line 1, column 4: unexpected '2', expected ',' or ']'")
        #expect(failure(#"{"a" 1}"#) == "style.json: line 1, column 6: unexpected '1', expected ':' after a member name")
        #expect(failure("[1,") == "style.json: line 1, column 4: unexpected end of input, expected a value")
        #expect(failure("nul") == "style.json: line 1, column 4: unexpected end of input in a literal")
        #expect(failure(#"["é", x]"#) == "style.json: line 1, column 7: unexpected 'x', expected a value")
    }

    @Test func rejectsBadStrings() {
        #expect(failure([0x22, 0xFF, 0x22]) == "style.json: line 1, column 2: invalid UTF-8 in a string")
        #expect(failure([0x22, 0xC0, 0xAF, 0x22]) == "style.json: line 1, column 2: invalid UTF-8 in a string")
        #expect(failure([0x22, 0xED, 0xA0, 0x80, 0x22]) == "style.json: line 1, column 2: invalid UTF-8 in a string")
        #expect(failure([0x22, 0xE2, 0x82]) == "style.json: line 1, column 2: invalid UTF-8 in a string")
        #expect(failure([0x5B, 0xFF]) == "style.json: line 1, column 2: unexpected invalid UTF-8, expected a value")
        #expect(failure(#""\ud800""#) == "style.json: line 1, column 2: unpaired surrogate \\uD800")
        #expect(failure(#""\ud800\u0041""#) == "style.json: line 1, column 2: unpaired surrogate \\uD800")
        #expect(failure(#""\udc00""#) == "style.json: line 1, column 2: unpaired surrogate \\uDC00")
        #expect(failure(#""\u12G4""#) == "style.json: line 1, column 2: invalid \\u escape: expected four hex digits")
        #expect(failure(#""a\qb""#) == "style.json: line 1, column 3: invalid escape \\q")
        #expect(failure("\"a\u{01}\"") == "style.json: line 1, column 3: control character U+0001 in a string; escape it")
        #expect(failure("\"a\nb\"") == "style.json: line 1, column 3: control character U+000A in a string; escape it")
    }

    @Test func limitsNestingTo256Levels() throws {
        let deep = String(repeating: "[", count: 256) + String(repeating: "]", count: 256)
        #expect(try parse(deep) != .null)
        let tooDeep = String(repeating: "[", count: 257) + String(repeating: "]", count: 257)
        #expect(failure(tooDeep) == "style.json: line 1, column 257: nesting deeper than 256 levels")
        let objects = String(repeating: "{\"a\":", count: 257) + "1" + String(repeating: "}", count: 257)
        #expect(failure(objects)?.hasSuffix("nesting deeper than 256 levels") == true)
        // Far deeper input fails the same way instead of exhausting the stack.
        #expect(failure(String(repeating: "[", count: 100_000))?.hasSuffix("nesting deeper than 256 levels") == true)
    }

    @Test func compactTextAndTypeNames() throws {
        let value = try parse(#" { "a" : [ 1, 2.5, "x\"y\n" ], "b": null, "c": true, "d": 1e21 } "#)
        #expect(value.compactText == #"{"a":[1,2.5,"x\"y\n"],"b":null,"c":true,"d":1e+21}"#)
        #expect(JSON.string("x").compactText == "\"x\"")
        #expect(JSON.number(-0.000001).compactText == "-0.000001")
        #expect(try parse(value.compactText) == value)
        #expect([JSON.null, .bool(true), .number(1), .string(""), .array([]), .object(JSONObject())].map(\.typeName)
                == ["null", "boolean", "number", "string", "array", "object"])
    }

    /// Random mutations of a style document never trap: each either parses or throws.
    @Test func survivesRandomlyMutatedInput() {
        let seed = Array(#"{"version":8,"layers":[{"id":"a","paint":{"line-width":["interpolate",["linear"],["zoom"],0,1,10,"\u00e9"]}}],"x":[true,false,null,-1.5e-3]}"#.utf8)
        var rng = StyleSpecRandom(seed: 42)
        var parsed = 0, failed = 0
        for _ in 0..<3000 {
            var bytes = seed
            for _ in 0..<Int(rng.next() % 4 + 1) {
                let i = Int(rng.next() % UInt64(bytes.count))
                switch rng.next() % 3 {
                case 0: bytes[i] = UInt8(truncatingIfNeeded: rng.next())
                case 1: bytes.remove(at: i)
                default: bytes.insert(UInt8(truncatingIfNeeded: rng.next()), at: i)
                }
                if bytes.isEmpty { bytes = [0x20] }
            }
            if (try? JSON.parse(Data(bytes), name: "fuzz")) != nil { parsed += 1 } else { failed += 1 }
        }
        #expect(parsed + failed == 3000)
        #expect(failed > 0)
    }
}

/// A small deterministic generator for the fuzz tests.
struct StyleSpecRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
