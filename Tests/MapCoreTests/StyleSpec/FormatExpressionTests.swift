import Foundation
@testable import MapCore
import Testing

/// `format` and `number-format`: formatted sections and their overrides, per-feature values,
/// image sections, parse errors, numbers as `Intl.NumberFormat` writes them, and formatted text
/// through `to-string`, the decisions and `text-field`.
@Suite struct FormatExpressionTests {
    typealias Section = Formatted.Section

    func eval(_ text: String, _ properties: [String: StyleValue] = [:]) throws -> StyleValue {
        try SpecTest.evaluate(text, properties)
    }

    func runtimeError(_ text: String, _ properties: [String: StyleValue] = [:]) -> String? {
        SpecTest.error { _ = try eval(text, properties) }
    }

    /// `text` as the `text-field` of a symbol layer, evaluated for a feature with `properties`.
    func textField(_ text: String, _ properties: [String: StyleValue] = [:]) throws -> StyleValue {
        try SpecTest.value(text, "symbol", "text-field").evaluate(EvaluationContext(zoom: 0, feature: SpecTest.feature(properties)))
    }

    func formatted(_ sections: Section...) -> StyleValue { .formatted(Formatted(sections: sections)) }

    // MARK: format

    @Test func sectionsWithEachOption() throws {
        let text = #"""
            ["format", "Big", {"font-scale": 1.5}, "\n", {}, "Bold", {"text-font": ["literal", ["Open Sans Bold", "Noto Sans"]]},
             "Red", {"text-color": "red"}, "Top", {"vertical-align": "top"}, "Plain"]
            """#
        #expect(try SpecTest.expression(text).type == .formatted)
        let value = try eval(text)
        #expect(value == formatted(Section(text: "Big", scale: 1.5), Section(text: "\n"),
                                   Section(text: "Bold", textFont: ["Open Sans Bold", "Noto Sans"]),
                                   Section(text: "Red", textColor: Color(r: 1, g: 0, b: 0)),
                                   Section(text: "Top", verticalAlign: "top"), Section(text: "Plain")))
        #expect(value.typeName == "formatted")
        #expect(value.asString == "Big\nBoldRedTopPlain")
        // A zero is given (MapLibre Native's reading; GL JS would skip it as falsy).
        #expect(try eval(#"["format", "a", {"font-scale": 0}]"#) == formatted(Section(text: "a", scale: 0)))
    }

    @Test func perFeatureValuesInSectionsAndOptions() throws {
        let text = #"""
            ["format", ["get", "name"], {"font-scale": ["get", "scale"], "text-color": ["get", "colour"],
                                         "text-font": ["array", "string", ["get", "font"]], "vertical-align": ["get", "align"]},
             " ", {}, ["get", "population"], {}, ["get", "missing"], {}]
            """#
        let expression = try SpecTest.expression(text)
        #expect(expression.isFeatureDependent)
        let properties: [String: StyleValue] = ["name": .string("Oslo"), "scale": .number(0.8), "colour": .string("#00ff00"),
                                                "font": .array([.string("Serif")]), "align": .string("center"), "population": .number(709_037)]
        #expect(try eval(text, properties) == formatted(
            Section(text: "Oslo", scale: 0.8, textFont: ["Serif"], textColor: Color(r: 0, g: 1, b: 0), verticalAlign: "center"),
            Section(text: " "), Section(text: "709037"), Section(text: "")))
        // An alignment the specification does not define, computed per feature, is dropped.
        var odd = properties
        odd["align"] = .string("middle")
        guard case .formatted(let value) = try eval(text, odd) else { Issue.record("not formatted"); return }
        #expect(value.sections[0].verticalAlign == nil)
        #expect(runtimeError(text, properties.merging(["scale": .string("big")]) { $1 }) == #"expected number, found "big""#)
        #expect(runtimeError(text, properties.merging(["colour": .string("nope")]) { $1 }) == #"expected color, found "nope""#)
    }

    @Test func imageSections() throws {
        #expect(try eval(#"["format", ["image", "shield"], {"vertical-align": "center", "font-scale": 2}, " 42", {}]"#)
                == formatted(Section(text: "", image: "shield", verticalAlign: "center"), Section(text: " 42")))
        let value = try eval(#"["format", ["image", ["get", "icon"]], "x"]"#, ["icon": .string("bus")])
        #expect(value == formatted(Section(text: "", image: "bus"), Section(text: "x")))
        #expect(value.toStringText == "x")
        #expect(runtimeError(#"["format", ["image", ["get", "icon"]]]"#) == "expected string, found null")
        #expect(SpecTest.parseError(#"["format", ["image", "a", "b"]]"#) == "e[1]: expected 1 argument, found 2")
        // Only as a section of `format`: the image operator is not an expression of its own.
        #expect(try eval(#"["image", "a"]"#) == .string("a"))
    }

    @Test func formatErrors() {
        #expect(SpecTest.parseError(#"["format"]"#) == "e: expected at least 1 argument, found 0")
        #expect(SpecTest.parseError(#"["format", {"font-scale": 2}, "a"]"#)
                == #"e[1]: the first argument of "format" must be a text or an image section, found an options object"#)
        // What follows an input and is not an object is the next section, here not text.
        #expect(SpecTest.parseError(#"["format", "a", 5]"#) == #"e[2]: expected a string, an image or null as a section of "format", found 5"#)
        #expect(SpecTest.parseError(#"["format", "a", ["to-color", "red"]]"#)
                == #"e[2]: expected a string, an image or null as a section of "format", found color"#)
        #expect(SpecTest.parseError(#"["format", "a", {}, {}]"#)
                == #"e[3]: a bare object is not an expression; write ["literal", {...}]"#)
        #expect(SpecTest.parseError(#"["format", "a", {"vertical-align": "middle"}]"#)
                == #"e[2].vertical-align: expected one of bottom, center, top, found "middle""#)
        #expect(SpecTest.parseError(#"["format", "a", {"vertical-align": 1}]"#) == "e[2].vertical-align: expected string, found 1")
        #expect(SpecTest.parseError(#"["format", "a", {}, "b", {"font-scale": "big"}]"#) == #"e[4].font-scale: expected number, found "big""#)
        #expect(SpecTest.parseError(#"["format", "a", {"text-font": ["literal", [1]]}]"#)
                == "e[2].text-font: expected array<string>, found [1]")
        #expect(SpecTest.parseError(#"["format", "a", {"text-color": "nope"}]"#) == #"e[2].text-color: expected color, found "nope""#)
        // Formatted text is not a string.
        #expect(SpecTest.parseError(#"["format", "a"]"#, expected: .string) == "e: expected string, found formatted")
        #expect(SpecTest.parseError(#"["==", ["format", "a"], "a"]"#) == #"e[1]: "==" comparisons are not supported for type formatted"#)
    }

    // MARK: number-format

    @Test func numberFormat() throws {
        func format(_ number: Double, _ options: String) throws -> StyleValue {
            try eval(#"["number-format", \#(JSNumber.format(number)), \#(options)]"#)
        }
        #expect(try format(1234.5678, #"{"max-fraction-digits": 2}"#) == .string("1,234.57"))
        #expect(try format(1234.5678, #"{"currency": "USD"}"#) == .string("$1,234.57"))
        #expect(try format(1234.5678, #"{"locale": "de-DE"}"#) == .string("1.234,568"))
        #expect(try format(5, #"{"min-fraction-digits": 2}"#) == .string("5.00"))
        #expect(try format(1234.5678, "{}") == .string("1,234.568"))
        // A currency's own digits, unless a bound says otherwise (a maximum alone lowers the
        // minimum, a minimum alone raises the maximum).
        #expect(try format(1234.5678, #"{"currency": "jpy"}"#) == .string("¥1,235"))
        #expect(try format(1234.5678, #"{"currency": "JPY", "max-fraction-digits": 2}"#) == .string("¥1,234.57"))
        #expect(try format(1234.5678, #"{"currency": "USD", "max-fraction-digits": 1}"#) == .string("$1,234.6"))
        #expect(try format(1234.5, #"{"currency": "USD", "min-fraction-digits": 0}"#) == .string("$1,234.5"))
        #expect(try format(1.23456, #"{"min-fraction-digits": 4}"#) == .string("1.2346"))
        #expect(try format(1234.5, #"{"locale": "de-DE", "currency": "EUR"}"#) == .string("1.234,50\u{A0}€"))
        // Halves away from zero, as Intl rounds; an explicit 0 is honoured.
        #expect(try format(2.5, #"{"max-fraction-digits": 0}"#) == .string("3"))
        #expect(try format(-2.5, #"{"max-fraction-digits": 0}"#) == .string("-3"))
        #expect(try eval(#"["number-format", ["/", 1, 0], {}]"#) == .string("∞"))
        #expect(try eval(#"["number-format", ["get", "n"], {"locale": ["get", "l"]}]"#, ["n": .number(0.5), "l": .string("fr-FR")])
                == .string("0,5"))
    }

    @Test func numberFormatErrors() {
        #expect(SpecTest.parseError(#"["number-format", 5, "en-US"]"#) == #"e[2]: expected an options object, found "en-US""#)
        #expect(SpecTest.parseError(#"["number-format", 5]"#) == "e: expected 2 arguments, found 1")
        #expect(SpecTest.parseError(#"["number-format", "5", {}]"#) == #"e[1]: expected number, found "5""#)
        #expect(SpecTest.parseError(#"["number-format", 5, {"locale": 1}]"#) == "e[2].locale: expected string, found 1")
        #expect(SpecTest.parseError(#"["number-format", 5, {"min-fraction-digits": 3, "max-fraction-digits": 2}]"#)
                == "e: min-fraction-digits 3 is greater than max-fraction-digits 2")
        #expect(SpecTest.parseError(#"["number-format", 5, {"max-fraction-digits": 101}]"#)
                == "e: max-fraction-digits must be between 0 and 100, found 101")
        #expect(SpecTest.parseError(#"["number-format", 5, {"locale": "en_US"}]"#) == #"e: invalid locale "en_US""#)
        #expect(SpecTest.parseError(#"["number-format", 5, {"currency": "US"}]"#) == #"e: invalid currency code "US""#)
    }

    // MARK: Formatted text elsewhere

    @Test func toStringOfFormat() throws {
        #expect(try eval(#"["to-string", ["format", "a", {"font-scale": 2}, ["get", "n"], {}]]"#, ["n": .number(1)]) == .string("a1"))
        #expect(try eval(#"["concat", ["format", "x", {}, ["image", "i"]], "!"]"#) == .string("x!"))
        #expect(try eval(#"["typeof", ["format", "x"]]"#) == .string("formatted"))
        #expect(try eval(#"["to-number", ["format", "1", {}, "2"]]"#) == .number(12))
    }

    @Test func textFieldKeepsStringsAndFormattedText() throws {
        #expect(try textField(#""Plain""#) == .string("Plain"))
        #expect(try textField(#""{name} Street""#, ["name": .string("Main")]) == .string("Main Street"))
        #expect(try textField(#"["get", "name"]"#, ["name": .number(5)]) == .string("5"))
        #expect(try textField(#"["format", ["get", "name"], {"font-scale": 0.5}]"#, ["name": .string("a")])
                == formatted(Section(text: "a", scale: 0.5)))
        let big = #"["format", "B", {"font-scale": 2}]"#
        #expect(try textField(#"["case", ["has", "b"], \#(big), "plain"]"#, ["b": .bool(true)]) == formatted(Section(text: "B", scale: 2)))
        #expect(try textField(#"["case", ["has", "b"], \#(big), "plain"]"#) == .string("plain"))
        #expect(try textField(#"["match", ["get", "k"], "a", \#(big), ["get", "name"]]"#, ["k": .string("a")])
                == formatted(Section(text: "B", scale: 2)))
        #expect(try textField(#"["match", ["get", "k"], "a", \#(big), ["get", "name"]]"#, ["name": .number(7)]) == .string("7"))
        #expect(try textField(#"["coalesce", \#(big), "plain"]"#) == formatted(Section(text: "B", scale: 2)))
        // An untyped first argument makes the coalesce untyped; formatted text still comes through.
        #expect(try textField(#"["coalesce", ["get", "label"], \#(big)]"#) == formatted(Section(text: "B", scale: 2)))
        #expect(try textField(#"["coalesce", ["get", "label"], \#(big)]"#, ["label": .number(3)]) == .string("3"))
        #expect(try textField(#"["step", ["get", "rank"], \#(big), 5, ["number-format", ["get", "rank"], {}]]"#, ["rank": .number(6)])
                == .string("6"))
    }

    /// What the label drawing reads: the layer's `text-field` evaluated for a feature.
    @Test func symbolLayerReadsFormattedTextField() throws {
        let style = try StyleDocument(json: JSON.parse(Data(#"""
            {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},
             "layers": [{"id": "l", "type": "symbol", "source": "s",
                         "layout": {"text-field": ["format", ["get", "name"], {"text-color": "blue"}, "!", {}]}}]}
            """#.utf8), name: "t"))
        let layer = try #require(style.layers.first)
        let context = EvaluationContext(zoom: 3, feature: SpecTest.feature(["name": .string("Rome")]))
        #expect(StyledLayer(layer).layout(SymbolLayoutProperty.textField, context)
                == formatted(Section(text: "Rome", textColor: Color(r: 0, g: 0, b: 1)), Section(text: "!")))
    }
}
