import Foundation
import MapCore
import Testing

@Suite struct InterpolationTests {
    func at(_ zoom: Double, _ text: String, expected: ValueType? = nil) throws -> StyleValue {
        try SpecTest.evaluate(text, expected: expected, zoom: zoom)
    }

    /// y of the CSS cubic Bézier through (x1, y1), (x2, y2) at x, by bisection on the curve's
    /// parameter (independent of the solver under test).
    func bezier(_ x: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
        func coordinate(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
            let u = 1 - s
            return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
        }
        var lo = 0.0, hi = 1.0
        for _ in 0..<200 {
            let mid = (lo + hi) / 2
            if coordinate(mid, x1, x2) < x { lo = mid } else { hi = mid }
        }
        return coordinate((lo + hi) / 2, y1, y2)
    }

    @Test func linear() throws {
        let text = #"["interpolate", ["linear"], ["zoom"], 0, 0, 10, 100]"#
        #expect(try at(2.5, text) == .number(25))
        #expect(try at(-1, text) == .number(0))
        #expect(try at(11, text) == .number(100))
        let single = #"["interpolate", ["linear"], ["zoom"], 5, 7]"#
        #expect(try at(0, single) == .number(7))
        #expect(try at(9, single) == .number(7))
    }

    @Test func exponentialBaseTwo() throws {
        let text = #"["interpolate", ["exponential", 2], ["zoom"], 5, 1, 10, 33]"#
        // t = (2^(7-5) - 1) / (2^(10-5) - 1) = 3/31; 1 + 32 * 3/31 = 4.0967741935...
        #expect(SpecTest.close(try at(7, text), 1 + 32 * 3.0 / 31.0))
        #expect(SpecTest.close(try at(7, text), 4.096774193548387))
        #expect(try at(5, text) == .number(1))
        #expect(try at(10, text) == .number(33))
        #expect(SpecTest.close(try at(5, #"["interpolate", ["exponential", 2], ["zoom"], 0, 0, 10, 1023]"#), 31))
    }

    @Test func cubicBezier() throws {
        let text = #"["interpolate", ["cubic-bezier", 0.42, 0, 0.58, 1], ["zoom"], 0, 0, 10, 100]"#
        #expect(SpecTest.close(try at(5, text), 50))
        #expect(SpecTest.close(try at(2, text), 100 * bezier(0.2, 0.42, 0, 0.58, 1)))
        #expect(SpecTest.close(try at(8, text), 100 * bezier(0.8, 0.42, 0, 0.58, 1)))
        #expect(SpecTest.close(try at(2, text), 8.165985626589748, 1e-9))
        #expect(SpecTest.parseError(#"["interpolate", ["cubic-bezier", 0.42, 0, 1.5, 1], ["zoom"], 0, 0, 10, 1]"#)
                == "e[1]: cubic-bezier interpolation requires four numeric arguments with values between 0 and 1")
    }

    @Test func coloursMixInStraightRGB() throws {
        let redToBlue = #"["interpolate", ["linear"], ["zoom"], 0, "red", 10, "blue"]"#
        #expect(try at(5, redToBlue, expected: .color) == .color(Color(r: 0.5, g: 0, b: 0.5)))
        // Straight (not premultiplied) components, as MapLibre 5: the transparent red keeps its red.
        #expect(try at(5, #"["interpolate", ["linear"], ["zoom"], 0, "rgba(255, 0, 0, 0)", 10, "rgba(0, 0, 255, 1)"]"#, expected: .color)
                == .color(Color(r: 0.5, g: 0, b: 0.5, a: 0.5)))
        #expect(try SpecTest.expression(redToBlue, expected: .color).type == .color)
        #expect(try at(5, #"["interpolate", ["linear"], ["zoom"], 0, ["to-color", "red"], 10, ["rgb", 0, 0, 255]]"#)
                == .color(Color(r: 0.5, g: 0, b: 0.5)))
        // Without an expected colour, strings are strings, which do not interpolate.
        #expect(SpecTest.parseError(redToBlue) == "e: type string is not interpolatable")
    }

    @Test func labAndHCL() throws {
        let lab = try at(5, #"["interpolate-lab", ["linear"], ["zoom"], 0, "white", 10, "black"]"#)
        #expect(SpecTest.close(lab, 0.466326592803128, 0.4663266373746893, 0.46632660471855175, 1, 1e-12))
        let labRedBlue = try at(5, #"["interpolate-lab", ["linear"], ["zoom"], 0, "red", 10, "blue"]"#)
        #expect(SpecTest.close(labRedBlue, 0.790241519179369, 0, 0.5352758988392934, 1, 1e-12))
        let hcl = try at(5, #"["interpolate-hcl", ["linear"], ["zoom"], 0, "red", 10, "blue"]"#)
        #expect(SpecTest.close(hcl, 0.9822822089152777, 0, 0.5034234435986553, 1, 1e-12))
        #expect(SpecTest.parseError(#"["interpolate-hcl", ["linear"], ["zoom"], 0, 1, 10, 2]"#) == "e[4]: expected color, found 1")
    }

    @Test func numberArrays() throws {
        let text = #"["interpolate", ["linear"], ["zoom"], 0, ["literal", [0, 0]], 10, ["literal", [10, 20]]]"#
        #expect(try at(5, text) == SpecTest.numbers(5, 10))
        #expect(try SpecTest.expression(text).type == .array(.number, 2))
        #expect(SpecTest.parseError(#"["interpolate", ["linear"], ["zoom"], 0, ["literal", [0]], 10, ["literal", [1, 2]]]"#)
                == "e[6]: expected array<number, 1>, found [1,2]")
    }

    @Test func dataInputs() throws {
        let text = #"["interpolate", ["linear"], ["get", "v"], 0, 0, 100, 1]"#
        #expect(try SpecTest.evaluate(text, ["v": .number(25)]) == .number(0.25))
        #expect(SpecTest.error { _ = try SpecTest.evaluate(text, ["v": .string("x")]) } == #"expected number, found "x""#)
        #expect(SpecTest.error { _ = try SpecTest.evaluate(#"["interpolate", ["linear"], ["/", 0, ["get", "z"]], 0, 0, 1, 1]"#, ["z": .number(0)]) }
                == "input is not a number")
    }

    @Test func malformed() {
        #expect(SpecTest.parseError(#"["interpolate", ["linear"], ["zoom"], 0, "a", 1, "b"]"#) == "e: type string is not interpolatable")
        #expect(SpecTest.parseError(#"["interpolate", ["quadratic"], ["zoom"], 0, 0, 1, 1]"#) == #"e[1][0]: unknown interpolation type "quadratic""#)
        #expect(SpecTest.parseError(#"["interpolate", ["exponential"], ["zoom"], 0, 0, 1, 1]"#) == "e[1][1]: exponential interpolation requires a numeric base")
        #expect(SpecTest.parseError(#"["interpolate", "linear", ["zoom"], 0, 0, 1, 1]"#)
                == #"e[1]: expected an interpolation type: ["linear"], ["exponential", base] or ["cubic-bezier", x1, y1, x2, y2]"#)
        #expect(SpecTest.parseError(#"["interpolate", ["linear"], ["zoom"], 1, 0, 0, 1]"#) == "e[5]: interpolation inputs must be in strictly ascending order")
        #expect(SpecTest.parseError(#"["interpolate", ["linear"], ["zoom"], 0, 0, ["get", "x"], 1]"#)
                == #"e[5]: interpolation inputs must be literal numbers, found ["get","x"]"#)
        #expect(SpecTest.parseError(#"["interpolate", ["linear"], ["zoom"], 0, 0, 1]"#) == "e: expected an even number of arguments")
        #expect(SpecTest.parseError(#"["interpolate", ["linear"], "x", 0, 0, 1, 1]"#) == #"e[2]: expected number, found "x""#)
    }
}
