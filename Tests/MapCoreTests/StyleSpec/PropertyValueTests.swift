import Foundation
import MapCore
import Testing

@Suite struct PropertyValueTests {
    func evaluate(_ text: String, _ layerType: String, _ name: String, zoom: Double = 0,
                  _ properties: [String: StyleValue] = [:]) throws -> StyleValue {
        try SpecTest.value(text, layerType, name)
            .evaluate(EvaluationContext(zoom: zoom, feature: SpecTest.feature(properties)))
    }

    @Test func literalsAreCheckedWithPaths() {
        #expect(SpecTest.propertyError(#""x""#, "line", "line-width", path: "layers[3].paint.line-width")
                == #"layers[3].paint.line-width: expected number, found "x""#)
        #expect(SpecTest.propertyError(#""flat""#, "line", "line-cap", path: "layers[1].layout.line-cap")
                == #"layers[1].layout.line-cap: expected one of [butt, round, square], found "flat""#)
        #expect(SpecTest.propertyError(#""nope""#, "fill", "fill-color") == #"p: expected color, found "nope""#)
        #expect(SpecTest.propertyError("1.5", "fill", "fill-opacity") == "p: 1.5 is greater than the maximum value 1")
        #expect(SpecTest.propertyError("-1", "line", "line-width") == "p: -1 is less than the minimum value 0")
        #expect(SpecTest.propertyError(#"[2, "a"]"#, "line", "line-dasharray") == #"p[1]: expected number, found "a""#)
        #expect(SpecTest.propertyError("[2, -1]", "line", "line-dasharray") == "p[1]: -1 is less than the minimum value 0")
        #expect(SpecTest.propertyError("[0]", "fill", "fill-translate") == "p: expected an array of 2 numbers, found [0]")
        #expect(SpecTest.propertyError("1", "fill", "fill-antialias") == "p: expected boolean, found 1")
        #expect(SpecTest.propertyError(#"["Open Sans", 3]"#, "symbol", "text-font") == "p[1]: expected string, found 3")
        #expect(SpecTest.propertyError(#"["top", "middle"]"#, "symbol", "text-variable-anchor")
                == #"p[1]: expected one of [center, left, right, top, bottom, top-left, top-right, bottom-left, bottom-right], found "middle""#)
    }

    @Test func literalValues() throws {
        #expect(try SpecTest.value("[2, 1]", "line", "line-dasharray").constant == SpecTest.numbers(2, 1))
        #expect(try SpecTest.value("[0, 0]", "fill", "fill-translate").constant == SpecTest.numbers(0, 0))
        #expect(try SpecTest.value(#""rgba(0, 0, 255, 0.5)""#, "fill", "fill-color").constant == .color(Color(r: 0, g: 0, b: 1, a: 0.5)))
        #expect(try SpecTest.value(#""round""#, "line", "line-join").constant == .string("round"))
        #expect(try SpecTest.value("3", "symbol", "icon-padding").constant == SpecTest.numbers(3, 3, 3, 3))
        #expect(try SpecTest.value("[1, 2]", "symbol", "icon-padding").constant == SpecTest.numbers(1, 2, 1, 2))
        #expect(try SpecTest.value("[1, 2, 3]", "symbol", "icon-padding").constant == SpecTest.numbers(1, 2, 3, 2))
        #expect(try SpecTest.value("null", "circle", "circle-radius").constant == .number(5))
        #expect(PropertyValue(spec: SpecTest.property("raster", "raster-fade-duration")).constant == .number(300))
        let font = try SpecTest.value(#"["Noto Sans Regular"]"#, "symbol", "text-font")
        #expect(font.constant == .array([.string("Noto Sans Regular")]))
        let plain = try SpecTest.value("2", "line", "line-width")
        #expect(!plain.isZoomDependent && !plain.isFeatureDependent && plain.expression == nil)
        #expect(plain.evaluate(EvaluationContext(zoom: 9)) == .number(2))
    }

    @Test func expressions() throws {
        let width = try SpecTest.value(#"["interpolate", ["linear"], ["zoom"], 0, 1, 10, 5]"#, "line", "line-width")
        #expect(width.isZoomDependent && !width.isFeatureDependent && width.constant == nil)
        #expect(width.evaluate(EvaluationContext(zoom: 5)) == .number(3))
        let folded = try SpecTest.value(#"["+", 0.25, 0.25]"#, "fill", "fill-opacity")
        #expect(folded.constant == .number(0.5))
        #expect(try SpecTest.value(#"["literal", [2, 1]]"#, "line", "line-dasharray").constant == SpecTest.numbers(2, 1))
        let dashes = try SpecTest.value(#"["step", ["zoom"], ["literal", [1, 1]], 10, ["literal", [2, 2]]]"#, "line", "line-dasharray")
        #expect(dashes.evaluate(EvaluationContext(zoom: 12)) == SpecTest.numbers(2, 2))
        #expect(try evaluate(#"["get", "c"]"#, "fill", "fill-color", ["c": .string("#00ff00")]) == .color(Color(r: 0, g: 1, b: 0)))
        #expect(try evaluate(#"["interpolate", ["linear"], ["zoom"], 0, 2, 10, 12]"#, "symbol", "icon-padding", zoom: 5)
                == SpecTest.numbers(7, 7, 7, 7))
    }

    @Test func runtimeFailuresFallBackToTheDefault() throws {
        let radius = #"["get", "r"]"#
        #expect(try evaluate(radius, "circle", "circle-radius", ["r": .number(3)]) == .number(3))
        #expect(try evaluate(radius, "circle", "circle-radius", ["r": .string("x")]) == .number(5))
        #expect(try evaluate(radius, "circle", "circle-radius") == .number(5))
        #expect(try evaluate(#"["sqrt", ["get", "x"]]"#, "circle", "circle-radius", ["x": .number(-1)]) == .number(5))
        #expect(try evaluate(#"["get", "c"]"#, "fill", "fill-color", ["c": .string("bogus")]) == .color(.black))
        #expect(try evaluate(#"["get", "j"]"#, "line", "line-join", ["j": .string("flat")]) == .string("miter"))
        #expect(try evaluate(#"["get", "j"]"#, "line", "line-join", ["j": .string("bevel")]) == .string("bevel"))
        #expect(try evaluate(#"["get", "d"]"#, "fill", "fill-outline-color") == .null)
    }

    @Test func numbersAreClampedToTheRange() throws {
        #expect(try evaluate(#"["get", "o"]"#, "line", "line-opacity", ["o": .number(1.5)]) == .number(1))
        #expect(try evaluate(#"["get", "o"]"#, "line", "line-opacity", ["o": .number(-2)]) == .number(0))
        #expect(try evaluate(#"["get", "w"]"#, "line", "line-width", ["w": .number(-3)]) == .number(0))
        let curve = #"["interpolate", ["linear"], ["zoom"], 0, -5, 10, 5]"#
        #expect(try evaluate(curve, "raster", "raster-contrast", zoom: 2) == .number(-1))
    }

    @Test func stringPropertiesCoerce() throws {
        #expect(try evaluate(#"["get", "name"]"#, "symbol", "text-field", ["name": .number(5)]) == .string("5"))
        #expect(try evaluate(#"["case", ["has", "n"], ["get", "n"], "none"]"#, "symbol", "text-field", ["n": .number(7)]) == .string("7"))
        #expect(try evaluate(#"["get", "icon"]"#, "symbol", "icon-image", ["icon": .string("bus")]) == .string("bus"))
        #expect(try evaluate(#"["get", "a"]"#, "symbol", "icon-anchor", ["a": .number(1)]) == .string("center"))
    }

    @Test func tokens() throws {
        let icon = try SpecTest.value(#""{image}-15""#, "symbol", "icon-image")
        #expect(icon.isFeatureDependent)
        #expect(icon.evaluate(EvaluationContext(zoom: 0, feature: SpecTest.feature(["image": .string("bus")]))) == .string("bus-15"))
        #expect(icon.evaluate(EvaluationContext(zoom: 0, feature: SpecTest.feature())) == .string("-15"))
        #expect(try evaluate(#""{image}""#, "symbol", "icon-image", ["image": .number(12)]) == .string("12"))
        #expect(try evaluate(#""{a} and {b}!""#, "symbol", "text-field", ["a": .string("x"), "b": .bool(true)]) == .string("x and true!"))
        #expect(try evaluate(#""{a}{""#, "symbol", "text-field", ["a": .string("x")]) == .string("x{"))
        let plain = try SpecTest.value(#""plain {}""#, "symbol", "icon-image")
        #expect(plain.constant == .string("plain {}"))
        // Tokens are only read for token properties.
        #expect(SpecTest.propertyError(#""{x}""#, "symbol", "text-transform") == #"p: expected one of [none, uppercase, lowercase], found "{x}""#)
    }

    @Test func expressionsMustFitTheProperty() {
        #expect(SpecTest.propertyError(#"["get", "cap"]"#, "line", "line-cap") == "p: data expressions not supported")
        #expect(SpecTest.propertyError(#"["get", "x"]"#, "raster", "raster-opacity") == "p: data expressions not supported")
        #expect(SpecTest.propertyError(#"["step", ["zoom"], "visible", 5, "none"]"#, "fill", "visibility") == "p: zoom expressions not supported")
        #expect(SpecTest.propertyError(#"["+", ["zoom"], 1]"#, "line", "line-width")
                == #"p: "zoom" expression may only be used as input to a top-level "step" or "interpolate" expression"#)
        #expect(SpecTest.propertyError(#"["+", 1, ["interpolate", ["linear"], ["zoom"], 0, 1, 10, 2]]"#, "line", "line-width")
                == #"p: "zoom" expression may only be used as input to a top-level "step" or "interpolate" expression"#)
        #expect(SpecTest.propertyError(#"["interpolate", ["linear"], ["zoom"], 0, ["step", ["zoom"], 1, 5, 2], 10, 2]"#, "line", "line-width")
                == #"p: only one zoom-based "step" or "interpolate" subexpression may be used in an expression"#)
        #expect(SpecTest.propertyError(#"["interpolate", ["linear"], ["zoom"], 0, 1, 10, 2]"#, "fill", "fill-sort-key")
                == #"p: "interpolate" expressions cannot be used with this property"#)
        #expect(SpecTest.propertyError(#"["interpolate", ["linear"], ["zoom"], 0, 1, 10, "x"]"#, "line", "line-width", path: "layers[3].paint.line-width")
                == #"layers[3].paint.line-width[6]: expected number, found "x""#)
        #expect(SpecTest.propertyError(#"["frobnicate", 1]"#, "line", "line-width") == #"p[0]: unknown expression "frobnicate""#)
        #expect(SpecTest.propertyError(#"["step", ["zoom"], "a", 5, "b"]"#, "line", "line-width") == #"p[2]: expected number, found "a""#)
    }

    @Test func zoomCurvesMayBeWrappedInLetAndCoalesce() throws {
        let wrapped = try SpecTest.value(#"["let", "w", 2, ["interpolate", ["linear"], ["zoom"], 0, ["var", "w"], 10, 12]]"#, "line", "line-width")
        #expect(wrapped.evaluate(EvaluationContext(zoom: 5)) == .number(7))
        let coalesced = try SpecTest.value(#"["coalesce", ["step", ["zoom"], 1, 5, 3], 4]"#, "circle", "circle-radius")
        #expect(coalesced.isZoomDependent && !coalesced.isFeatureDependent)
        #expect(coalesced.evaluate(EvaluationContext(zoom: 6)) == .number(3))
        #expect(coalesced.evaluate(EvaluationContext(zoom: 1)) == .number(1))
        // An untyped argument makes the coalesce untyped; the assertion MapLibre wraps around it
        // then hides the curve, as in MapLibre.
        #expect(SpecTest.propertyError(#"["coalesce", ["get", "r"], ["step", ["zoom"], 1, 5, 3]]"#, "circle", "circle-radius")
                == #"p: "zoom" expression may only be used as input to a top-level "step" or "interpolate" expression"#)
        // Nested lets are checked in linear time.
        var text = #"["interpolate", ["linear"], ["zoom"], 0, ["var", "v39"], 10, 1]"#
        for i in stride(from: 39, through: 1, by: -1) { text = #"["let", "v\#(i)", ["var", "v\#(i - 1)"], \#(text)]"# }
        text = #"["let", "v0", ["get", "n"], \#(text)]"#
        let nested = try SpecTest.value(text, "line", "line-width")
        #expect(nested.evaluate(EvaluationContext(zoom: 0, feature: SpecTest.feature(["n": .number(4)]))) == .number(4))
    }
}
