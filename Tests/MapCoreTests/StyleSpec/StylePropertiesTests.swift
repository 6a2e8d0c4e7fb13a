import Foundation
import MapCore
import Testing

@Suite struct StylePropertiesTests {
    func defaultValue(_ layerType: String, _ name: String) -> StyleValue? {
        (StyleProperties.paint(layerType)[name] ?? StyleProperties.layout(layerType)[name])?.defaultValue
    }

    @Test func specificationDefaults() {
        #expect(defaultValue("fill", "fill-antialias") == .bool(true))
        #expect(defaultValue("fill", "fill-translate") == SpecTest.numbers(0, 0))
        #expect(defaultValue("fill", "fill-translate-anchor") == .string("map"))
        #expect(defaultValue("fill", "fill-color") == .color(.black))
        #expect(defaultValue("fill", "fill-outline-color") == .null)
        #expect(defaultValue("line", "line-miter-limit") == .number(2))
        #expect(defaultValue("line", "line-round-limit") == .number(1.05))
        #expect(defaultValue("line", "line-cap") == .string("butt"))
        #expect(defaultValue("line", "line-join") == .string("miter"))
        #expect(defaultValue("line", "line-width") == .number(1))
        #expect(defaultValue("line", "line-dasharray") == .null)
        #expect(defaultValue("circle", "circle-radius") == .number(5))
        #expect(defaultValue("circle", "circle-color") == .color(Color(r: 0, g: 0, b: 0)))
        #expect(defaultValue("circle", "circle-pitch-scale") == .string("map"))
        #expect(defaultValue("circle", "circle-pitch-alignment") == .string("viewport"))
        #expect(defaultValue("circle", "circle-stroke-width") == .number(0))
        #expect(defaultValue("symbol", "icon-size") == .number(1))
        #expect(defaultValue("symbol", "icon-anchor") == .string("center"))
        #expect(defaultValue("symbol", "icon-halo-width") == .number(0))
        #expect(defaultValue("symbol", "icon-halo-color") == .color(Color(r: 0, g: 0, b: 0, a: 0)))
        #expect(defaultValue("symbol", "icon-image") == .null)
        #expect(defaultValue("symbol", "icon-padding") == SpecTest.numbers(2, 2, 2, 2))
        #expect(defaultValue("symbol", "symbol-spacing") == .number(250))
        #expect(defaultValue("symbol", "symbol-placement") == .string("point"))
        #expect(defaultValue("symbol", "text-keep-upright") == .bool(true))
        #expect(defaultValue("symbol", "text-size") == .number(16))
        #expect(defaultValue("symbol", "text-field") == .string(""))
        #expect(defaultValue("symbol", "text-font") == .array([.string("Open Sans Regular"), .string("Arial Unicode MS Regular")]))
        #expect(defaultValue("raster", "raster-fade-duration") == .number(300))
        #expect(defaultValue("raster", "raster-brightness-max") == .number(1))
        #expect(defaultValue("raster", "raster-resampling") == .string("linear"))
        #expect(defaultValue("raster", "raster-contrast") == .number(0))
        #expect(defaultValue("background", "background-opacity") == .number(1))
    }

    @Test func everyLayerTypeHasVisibilityAndEmissiveStrength() {
        for type in ["background", "fill", "line", "circle", "raster", "symbol"] {
            let visibility = StyleProperties.layout(type)["visibility"]
            #expect(visibility?.defaultValue == .string("visible"), "\(type)")
            #expect(visibility?.type == .enumeration(["visible", "none"]), "\(type)")
            #expect(visibility?.zoomDependent == false, "\(type)")
            let emissive = StyleProperties.paint(type)[type == "symbol" ? "icon-emissive-strength" : "\(type)-emissive-strength"]
            #expect(emissive?.defaultValue == .number(0), "\(type)")
            #expect(emissive?.minimum == 0 && emissive?.maximum == nil && emissive?.transition == true, "\(type)")
        }
        #expect(StyleProperties.paint("nope").isEmpty)
        #expect(StyleProperties.layout("nope").isEmpty)
    }

    @Test func propertyListsAreComplete() {
        let paint: [String: Set<String>] = [
            "background": ["background-color", "background-pattern", "background-opacity", "background-emissive-strength"],
            "fill": ["fill-antialias", "fill-opacity", "fill-color", "fill-outline-color", "fill-translate", "fill-translate-anchor",
                     "fill-pattern", "fill-emissive-strength"],
            "line": ["line-opacity", "line-color", "line-translate", "line-translate-anchor", "line-width", "line-gap-width",
                     "line-offset", "line-blur", "line-dasharray", "line-pattern", "line-gradient", "line-emissive-strength"],
            "circle": ["circle-radius", "circle-color", "circle-blur", "circle-opacity", "circle-translate", "circle-translate-anchor",
                       "circle-pitch-scale", "circle-pitch-alignment", "circle-stroke-width", "circle-stroke-color",
                       "circle-stroke-opacity", "circle-emissive-strength"],
            "raster": ["raster-opacity", "raster-hue-rotate", "raster-brightness-min", "raster-brightness-max", "raster-saturation",
                       "raster-contrast", "raster-resampling", "raster-fade-duration", "raster-emissive-strength"],
            "symbol": ["icon-opacity", "icon-color", "icon-halo-color", "icon-halo-width", "icon-halo-blur", "icon-translate",
                       "icon-translate-anchor", "text-opacity", "text-color", "text-halo-color", "text-halo-width", "text-halo-blur",
                       "text-translate", "text-translate-anchor", "icon-emissive-strength", "text-emissive-strength"],
        ]
        for (type, names) in paint {
            #expect(Set(StyleProperties.paint(type).keys) == names, "\(type)")
            #expect(StyleProperties.paint(type).values.allSatisfy { !$0.isLayout }, "\(type)")
        }
        let symbolLayout: Set<String> = [
            "symbol-placement", "symbol-spacing", "symbol-avoid-edges", "symbol-sort-key", "symbol-z-order", "icon-allow-overlap",
            "icon-overlap", "icon-ignore-placement", "icon-optional", "icon-rotation-alignment", "icon-size", "icon-text-fit",
            "icon-text-fit-padding", "icon-image", "icon-rotate", "icon-padding", "icon-keep-upright", "icon-offset", "icon-anchor",
            "icon-pitch-alignment", "text-pitch-alignment", "text-rotation-alignment", "text-field", "text-font", "text-size",
            "text-max-width", "text-line-height", "text-letter-spacing", "text-justify", "text-radial-offset", "text-variable-anchor",
            "text-variable-anchor-offset", "text-anchor", "text-max-angle", "text-writing-mode", "text-rotate", "text-padding",
            "text-keep-upright", "text-transform", "text-offset", "text-allow-overlap", "text-overlap", "text-ignore-placement",
            "text-optional", "visibility",
        ]
        #expect(Set(StyleProperties.layout("symbol").keys) == symbolLayout)
        #expect(Set(StyleProperties.layout("line").keys) == ["line-cap", "line-join", "line-miter-limit", "line-round-limit", "line-sort-key", "visibility"])
        #expect(StyleProperties.layout("symbol").values.allSatisfy { $0.isLayout })
    }

    @Test func dependenceAndRanges() {
        let width = StyleProperties.paint("line")["line-width"]
        #expect(width?.dataDriven == true && width?.zoomDependent == true && width?.interpolated == true && width?.transition == true)
        // Data-driven since MapLibre GL JS 5 (the render suite has a property-function test for it).
        let dashes = StyleProperties.paint("line")["line-dasharray"]
        #expect(dashes?.type == .numberArray(count: nil) && dashes?.dataDriven == true && dashes?.interpolated == false && dashes?.minimum == 0)
        let raster = StyleProperties.paint("raster")
        #expect(raster["raster-opacity"]?.dataDriven == false)
        #expect(raster["raster-saturation"]?.minimum == -1 && raster["raster-saturation"]?.maximum == 1)
        #expect(raster["raster-fade-duration"]?.transition == false)
        let icon = StyleProperties.layout("symbol")["icon-image"]
        #expect(icon?.tokens == true && icon?.type == .resolvedImage && icon?.dataDriven == true)
        #expect(StyleProperties.layout("symbol")["text-field"]?.tokens == true)
        #expect(StyleProperties.layout("symbol")["symbol-spacing"]?.minimum == 1)
        #expect(StyleProperties.layout("line")["line-cap"]?.dataDriven == false)
        #expect(StyleProperties.layout("line")["line-join"]?.dataDriven == true)
    }
}
