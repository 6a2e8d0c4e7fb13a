import Foundation
import MapCore
import Testing

/// `collator` with the comparisons, `resolved-locale`, `is-supported-script`, `image` and
/// `line-progress`.
@Suite struct TextExpressionTests {
    func eval(_ text: String, _ properties: [String: StyleValue] = [:]) throws -> StyleValue {
        try SpecTest.evaluate(text, properties)
    }

    @Test func collatorCaseAndDiacritics() throws {
        let props: [String: StyleValue] = ["a": .string("Résumé"), "b": .string("resume"), "c": .string("RESUME")]
        func equal(_ options: String, _ x: String, _ y: String) throws -> StyleValue {
            try eval(#"["==", ["get", "\#(x)"], ["get", "\#(y)"], ["collator", \#(options)]]"#, props)
        }
        #expect(try equal("{}", "a", "b") == .bool(true))
        #expect(try equal(#"{"case-sensitive": true}"#, "a", "b") == .bool(false))
        #expect(try equal(#"{"case-sensitive": true}"#, "b", "c") == .bool(false))
        #expect(try equal(#"{"case-sensitive": true}"#, "b", "b") == .bool(true))
        #expect(try equal(#"{"diacritic-sensitive": true}"#, "a", "b") == .bool(false))
        #expect(try equal(#"{"diacritic-sensitive": true}"#, "b", "c") == .bool(true))
        #expect(try equal(#"{"case-sensitive": true, "diacritic-sensitive": true}"#, "a", "b") == .bool(false))
        #expect(try eval(#"["!=", "a", "A", ["collator", {"case-sensitive": false}]]"#) == .bool(false))
        // Orderings follow the locale's collation, not code units: "a" < "B" (code units: "B" < "a").
        #expect(try eval(#"["<", "a", "B", ["collator", {}]]"#) == .bool(true))
        #expect(try eval(#"["<", "a", "B"]"#) == .bool(false))
        #expect(try eval(#"[">=", "b", "A", ["collator", {"case-sensitive": true}]]"#) == .bool(true))
        // Option values may be expressions.
        #expect(try eval(#"["==", "a", "A", ["collator", {"case-sensitive": ["get", "s"]}]]"#, ["s": .bool(true)]) == .bool(false))
        // Equality between values that are not both strings compares them as without a collator.
        #expect(try eval(#"["==", ["get", "n"], 1, ["collator", {}]]"#, ["n": .number(1)]) == .bool(true))
    }

    @Test func collatorErrors() {
        #expect(SpecTest.parseError(#"["==", 1, 2, ["collator", {}]]"#) == "e: cannot use collator to compare non-string types")
        #expect(SpecTest.parseError(#"["==", "a", "b", "c"]"#) == "e[3]: expected collator, found \"c\"")
        #expect(SpecTest.parseError(#"["collator", 1]"#) == "e[1]: collator options argument must be an object")
    }

    @Test func resolvedLocale() throws {
        #expect(try eval(#"["resolved-locale", ["collator", {"locale": "fr"}]]"#) == .string("fr"))
        #expect(try eval(#"["resolved-locale", ["collator", {}]]"#) == .string("en-US"))
        #expect(try eval(#"["resolved-locale", ["collator", {"locale": "zzz"}]]"#) == .string("en-US"))
    }

    @Test func supportedScripts() throws {
        func supported(_ text: String) throws -> StyleValue {
            try eval(#"["is-supported-script", ["get", "t"]]"#, ["t": .string(text)])
        }
        #expect(try supported("Hello") == .bool(true))
        #expect(try supported("سلام۳۹") == .bool(true))          // Arabic: shaped and reordered
        #expect(try supported("שלום") == .bool(true))            // Hebrew
        #expect(try supported("東京タワー") == .bool(true))       // CJK
        #expect(try supported("देवनागरी") == .bool(false))       // Devanagari needs complex shaping
        #expect(try supported("Tokyo ភ្នំពេញ") == .bool(false))   // Khmer, after Latin
        #expect(try supported("ཀ") == .bool(false))              // Tibetan
    }

    @Test func imageFallsThroughToAnAvailableOne() throws {
        let e = try SpecTest.expression(#"["coalesce", ["image", "a"], ["image", "b"]]"#, expected: .string)
        var c = EvaluationContext(zoom: 0)
        #expect(try e.evaluate(c) == .string("a"))         // (availability unknown: every image counts)
        c.imageAvailable = { $0 == "b" }
        #expect(try e.evaluate(c) == .string("b"))
        c.imageAvailable = { $0 == "a" }
        #expect(try e.evaluate(c) == .string("a"))
        // None available: the first name asked for.
        c.imageAvailable = { _ in false }
        #expect(try e.evaluate(c) == .string("a"))
        let then = try SpecTest.expression(#"["coalesce", ["image", "a"], ["get", "x"]]"#)
        #expect(try then.evaluate(c) == .null)
        #expect(try SpecTest.evaluate(#"["image", ""]"#) == .null)
    }

    @Test func lineProgressOnlyInLineGradient() throws {
        let gradient = try SpecTest.value(#"["interpolate", ["linear"], ["line-progress"], 0, "blue", 1, "red"]"#, "line", "line-gradient")
        var c = EvaluationContext(zoom: 0)
        c.lineProgress = 0.5
        #expect(gradient.evaluate(c) == .color(Color(r: 0.5, g: 0, b: 0.5)))
        #expect(SpecTest.propertyError(#"["*", ["line-progress"], 2]"#, "line", "line-width")
                == #"p: "line-progress" is only allowed in line-gradient"#)
        // line-gradient reads the progress only: no feature data, no zoom.
        #expect(SpecTest.propertyError(#"["interpolate", ["linear"], ["line-progress"], 0, ["get", "c"], 1, "red"]"#, "line", "line-gradient")
                == "p: data expressions not supported")
        #expect(SpecTest.propertyError(#"["interpolate", ["linear"], ["zoom"], 0, "blue", 1, "red"]"#, "line", "line-gradient")
                == "p: zoom expressions not supported")
        #expect(SpecTest.propertyError(#"["step", ["line-progress"], "blue", 0.5, ["to-color", ["concat", "r", "ed"]]]"#, "line", "line-gradient") == nil)
    }

    /// The cases of MapLibre's number-format render and expression tests.
    @Test func numberFormatAsMapLibresTests() throws {
        #expect(try eval(#"["number-format", 123456.789, {}]"#) == .string("123,456.789"))
        #expect(try eval(#"["number-format", 123456.789, {"currency": "JPY"}]"#) == .string("¥123,457"))
        #expect(try eval(#"["number-format", 123456.789, {"currency": "EUR"}]"#) == .string("€123,456.79"))
    }
}
