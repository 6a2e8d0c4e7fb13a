import Foundation
@testable import MapCore
import Testing

/// The typed property tables: each case reads its own property, and the geometry-set flags are
/// those the renderer's fast path draws.
@Suite struct LayerPropertyTableTests {
    func names<P: LayerProperty>(_: P.Type) -> [String] { P.allCases.map { P.table.specs[$0.rawValue].name } }

    @Test func everyTypeHasItsTablesByName() {
        for type in LayerType.allCases {
            for table in [StyleProperties.paint(type), StyleProperties.layout(type)] {
                #expect(Set(table.specs.map(\.name)).count == table.count, "\(type): a name twice")
                for (i, spec) in table.specs.enumerated() {
                    #expect(table.index(of: spec.name) == i)
                    #expect(table.defaults[i] == spec.defaultValue)
                }
            }
        }
        #expect(StyleProperties.paint(.line).index(of: "fill-color") == nil)
    }

    @Test func casesNameTheirProperties() {
        #expect(LinePaintProperty.table.specs[LinePaintProperty.width.rawValue].name == "line-width")
        #expect(LineLayoutProperty.table.specs[LineLayoutProperty.miterLimit.rawValue].name == "line-miter-limit")
        #expect(FillPaintProperty.table.specs[FillPaintProperty.outlineColor.rawValue].name == "fill-outline-color")
        #expect(SymbolLayoutProperty.table.specs[SymbolLayoutProperty.placement.rawValue].name == "symbol-placement")
        #expect(SymbolPaintProperty.table.specs[SymbolPaintProperty.textTranslateAnchor.rawValue].name == "text-translate-anchor")
        #expect(names(RasterPaintProperty.self).allSatisfy { $0.hasPrefix("raster-") })
        #expect(names(CirclePaintProperty.self).allSatisfy { $0.hasPrefix("circle-") })
        #expect(names(BackgroundPaintProperty.self).allSatisfy { $0.hasPrefix("background-") })
    }

    @Test func geometrySetProperties() {
        func alike(_ table: LayerPropertyTable) -> Set<String> {
            Set(table.specs.indices.filter { table.drawsAlike[$0] }.map { table.specs[$0].name })
        }
        #expect(alike(StyleProperties.paint(.fill)) == ["fill-color", "fill-opacity", "fill-emissive-strength", "fill-antialias"])
        #expect(alike(StyleProperties.paint(.line)) == ["line-color", "line-width", "line-opacity", "line-dasharray", "line-gap-width",
                                                       "line-blur", "line-emissive-strength"])
        #expect(alike(StyleProperties.layout(.line)) == ["visibility", "line-cap", "line-join", "line-miter-limit", "line-round-limit"])
        #expect(alike(StyleProperties.layout(.fill)) == ["visibility"])
    }
}
