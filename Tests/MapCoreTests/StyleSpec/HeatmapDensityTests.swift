import Foundation
import MapCore
import Raster
import Testing

/// `["heatmap-density"]` and the heatmap colour ramp made from `heatmap-color`.
@Suite struct HeatmapDensityTests {
    func density(_ value: PropertyValue, _ d: Double) -> StyleValue {
        var c = EvaluationContext(zoom: 0)
        c.heatmapDensity = d
        return value.evaluate(c)
    }

    @Test func heatmapColorReadsTheDensity() throws {
        let v = try SpecTest.value(#"["step", ["heatmap-density"], "red", 0.5, "blue"]"#, "heatmap", "heatmap-color")
        #expect(v.expression != nil)                       // (not folded into a constant)
        #expect(density(v, 0.2) == .color(Color(r: 1, g: 0, b: 0)))
        #expect(density(v, 0.7) == .color(Color(r: 0, g: 0, b: 1)))
    }

    @Test func heatmapDensityElsewhereIsAnError() {
        #expect(SpecTest.propertyError(#"["*", 2, ["heatmap-density"]]"#, "circle", "circle-radius")
                == #"p[2]: "heatmap-density" may only be used in heatmap-color"#)
        #expect(SpecTest.propertyError(#"["heatmap-density"]"#, "heatmap", "heatmap-weight")
                == #"p: "heatmap-density" may only be used in heatmap-color"#)
        #expect(SpecTest.parseError(#"["+", 1, ["heatmap-density"]]"#) == #"e[2]: "heatmap-density" may only be used in heatmap-color"#)
        let filter = SpecTest.error { _ = try Filter(json: SpecTest.json(#"[">", ["heatmap-density"], 0.5]"#), path: "layers[0].filter") }
        #expect(filter == #"layers[0].filter[1]: "heatmap-density" may only be used in heatmap-color"#)
    }

    @Test func heatmapColorTakesNoZoomNorData() {
        #expect(SpecTest.propertyError(#"["interpolate", ["linear"], ["zoom"], 0, "red", 10, "blue"]"#, "heatmap", "heatmap-color")
                == "p: zoom expressions not supported")
        #expect(SpecTest.propertyError(#"["to-color", ["get", "c"]]"#, "heatmap", "heatmap-color") == "p: data expressions not supported")
        #expect(SpecTest.propertyError(#"["heatmap-density", 1]"#, "heatmap", "heatmap-color") == "p: expected 0 arguments, found 1")
    }

    @Test func rampEntries() throws {
        // Entry i is the colour at density i / 255: the default ramp runs from transparent to red.
        let standard = HeatmapRamp.standard.colors
        #expect(standard.count == 256)
        #expect(standard[0] == 0)
        #expect(standard[255] == RGBA8(255, 0, 0).premultiplied.packed)
        // Straight channels are floored, then premultiplied: half-transparent white is 127/128.
        let step = HeatmapRamp(try SpecTest.value(#"["step", ["heatmap-density"], "rgba(255, 255, 255, 0.5)", 0.5, "blue"]"#,
                                                  "heatmap", "heatmap-color")).colors
        #expect(step[127] == RGBA8(255, 255, 255, 127).premultiplied.packed)
        #expect(step[128] == RGBA8(0, 0, 255).premultiplied.packed)
        let constant = HeatmapRamp(try SpecTest.value(#""lime""#, "heatmap", "heatmap-color")).colors
        #expect(Set(constant) == [RGBA8(0, 255, 0).premultiplied.packed])
    }

    @Test func heatmapProperties() {
        let paint = StyleProperties.paint("heatmap")
        #expect(paint["heatmap-radius"]?.defaultValue == .number(30) && paint["heatmap-radius"]?.dataDriven == true)
        #expect(paint["heatmap-weight"]?.dataDriven == true && paint["heatmap-intensity"]?.dataDriven == false)
        #expect(paint["heatmap-opacity"]?.maximum == 1 && paint["heatmap-color"]?.zoomDependent == false)
        #expect(StyleProperties.layout("heatmap").keys.sorted() == ["visibility"])
    }
}
