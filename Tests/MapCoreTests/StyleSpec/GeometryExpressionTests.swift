import Foundation
import MapCore
import Testing

/// `within` and `distance`: expressions that read the feature's geometry.
@Suite struct GeometryExpressionTests {
    func feature(_ kind: FeatureGeometry.Kind, _ parts: [[(Double, Double)]], polygonStarts: [Int] = [0]) -> EvaluationFeature {
        let projected = parts.map { $0.map { WebMercator.project(LngLat(lng: $0.0, lat: $0.1)) } }
        let type = kind == .points ? "Point" : kind == .lines ? "LineString" : "Polygon"
        let g = FeatureGeometry(kind: kind, parts: projected, polygonStarts: kind == .polygons ? polygonStarts : [])
        return GeoFeature(geometry: g, evaluation: EvaluationFeature(geometryType: type)).evaluation
    }

    func eval(_ text: String, _ f: EvaluationFeature, zoom: Double = 14) throws -> StyleValue {
        try SpecTest.expression(text).evaluate(EvaluationContext(zoom: zoom, feature: f))
    }

    /// An L: the square 0...2 without its north-east quarter.
    let ell = #"{"type": "Polygon", "coordinates": [[[0, 0], [2, 0], [2, 1], [1, 1], [1, 2], [0, 2], [0, 0]]]}"#

    @Test func pointsWithin() throws {
        let within = #"["within", \#(ell)]"#
        #expect(try eval(within, feature(.points, [[(0.5, 1.5)]])) == .bool(true))
        #expect(try eval(within, feature(.points, [[(1.5, 0.5)]])) == .bool(true))
        // In the missing quarter, and outside.
        #expect(try eval(within, feature(.points, [[(1.5, 1.5)]])) == .bool(false))
        #expect(try eval(within, feature(.points, [[(3, 0.5)]])) == .bool(false))
        // On an edge inside the box: not within.
        #expect(try eval(within, feature(.points, [[(1, 1.5)]])) == .bool(false))
        #expect(try eval(within, feature(.points, [[(1.5, 1)]])) == .bool(false))
        // Every point of a MultiPoint must be inside.
        #expect(try eval(within, feature(.points, [[(0.5, 0.5)], [(0.5, 1.5)]])) == .bool(true))
        #expect(try eval(within, feature(.points, [[(0.5, 0.5)], [(1.5, 1.5)]])) == .bool(false))
        // Polygon features are never within.
        #expect(try eval(within, feature(.polygons, [[(0.5, 0.5), (0.6, 0.5), (0.6, 0.6), (0.5, 0.5)]])) == .bool(false))
    }

    @Test func holesAndCollections() throws {
        let holed = #"{"type": "Polygon", "coordinates": [[[0, 0], [4, 0], [4, 4], [0, 4], [0, 0]], [[1, 1], [3, 1], [3, 3], [1, 3], [1, 1]]]}"#
        #expect(try eval(#"["within", \#(holed)]"#, feature(.points, [[(2, 2)]])) == .bool(false))
        #expect(try eval(#"["within", \#(holed)]"#, feature(.points, [[(0.5, 2)]])) == .bool(true))
        let collection = #"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Point", "coordinates": [9, 9]}}, {"type": "Feature", "geometry": \#(ell)}, {"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[10, 10], [11, 10], [11, 11], [10, 10]]]}}]}"#
        #expect(try eval(#"["within", \#(collection)]"#, feature(.points, [[(0.5, 0.5)]])) == .bool(true))
        #expect(try eval(#"["within", \#(collection)]"#, feature(.points, [[(10.8, 10.2)]])) == .bool(true))
        #expect(try eval(#"["within", \#(collection)]"#, feature(.points, [[(9, 9)]])) == .bool(false))
        #expect(SpecTest.parseError(#"["within", {"type": "Point", "coordinates": [0, 0]}]"#)
                == #"e[1]: "within" expression requires a valid GeoJSON object that contains polygon geometry type"#)
        #expect(SpecTest.parseError(#"["within"]"#) == #"e: "within" expression requires exactly one argument, but found 0 instead"#)
    }

    @Test func linesWithin() throws {
        let within = #"["within", \#(ell)]"#
        #expect(try eval(within, feature(.lines, [[(0.5, 0.5), (0.5, 1.5)]])) == .bool(true))
        #expect(try eval(within, feature(.lines, [[(0.5, 0.5), (1.5, 0.5)]])) == .bool(true))
        // Both ends inside, the middle across the missing quarter.
        #expect(try eval(within, feature(.lines, [[(0.5, 1.8), (1.8, 0.5)]])) == .bool(false))
        // A vertex on the boundary.
        #expect(try eval(within, feature(.lines, [[(0.5, 0.5), (1, 1.5)]])) == .bool(false))
    }

    /// Metres per degree of latitude at the equator, by the cheap ruler.
    let metresPerDegree = 110_574.2727

    @Test func distanceToPoints() throws {
        let point = #"["distance", {"type": "Point", "coordinates": [0, 0.001]}]"#
        let d = try eval(point, feature(.points, [[(0, 0)]]), zoom: 18)
        #expect(SpecTest.close(d, 0.001 * metresPerDegree, 0.02))
        // (The feature's position is on the tile grid, the argument's is not: nearly 0.)
        #expect(SpecTest.close(try eval(point, feature(.points, [[(0, 0.001)]]), zoom: 18), 0, 0.01))
        // The nearest of several.
        let multi = #"["distance", {"type": "MultiPoint", "coordinates": [[0, 0.01], [0, 0.002]]}]"#
        #expect(SpecTest.close(try eval(multi, feature(.points, [[(0, 0)]]), zoom: 18), 0.002 * metresPerDegree, 0.02))
    }

    @Test func distanceToLinesAndPolygons() throws {
        let line = #"["distance", {"type": "LineString", "coordinates": [[-1, 0], [1, 0]]}]"#
        #expect(SpecTest.close(try eval(line, feature(.points, [[(0.3, 0.001)]]), zoom: 18), 0.001 * metresPerDegree, 0.02))
        // A line feature crossing the line: 0; one beside it: the gap.
        #expect(try eval(line, feature(.lines, [[(0, -0.001), (0, 0.001)]]), zoom: 18) == .number(0))
        #expect(SpecTest.close(try eval(line, feature(.lines, [[(0, 0.002), (0.5, 0.003)]]), zoom: 18), 0.002 * metresPerDegree, 0.02))
        let square = #"["distance", {"type": "Polygon", "coordinates": [[[0, 0], [0, 0.001], [0.001, 0.001], [0.001, 0], [0, 0]]]}]"#
        // Inside, on the edge, outside.
        #expect(try eval(square, feature(.points, [[(0.0005, 0.0005)]]), zoom: 18) == .number(0))
        #expect(try eval(square, feature(.points, [[(0, 0.0005)]]), zoom: 18) == .number(0))
        #expect(SpecTest.close(try eval(square, feature(.points, [[(0.0005, 0.0012)]]), zoom: 18), 0.0002 * metresPerDegree, 0.02))
        // A line passing through the square without a vertex in it.
        #expect(try eval(square, feature(.lines, [[(-0.001, 0.0005), (0.002, 0.0005)]]), zoom: 18) == .number(0))
        // A polygon feature: the gap between the polygons.
        let beside = feature(.polygons, [[(0.002, 0), (0.003, 0), (0.003, 0.001), (0.002, 0.001), (0.002, 0)]])
        let gap = try eval(square, beside, zoom: 18)
        #expect(SpecTest.close(gap, 0.001 * CheapRulerScale.kx, 0.05))
        // Empty argument collections give infinity; a feature without geometry NaN.
        let none = #"["distance", {"type": "FeatureCollection", "features": []}]"#
        #expect(try eval(none, feature(.points, [[(0, 0)]])) == .number(.infinity))
        let bare = try SpecTest.expression(line).evaluate(EvaluationContext(zoom: 14, feature: EvaluationFeature()))
        #expect(bare.asNumber?.isNaN == true)
    }

    @Test func geometryOnTheTileGrid() throws {
        // At zoom 15 positions snap to 1/8192 of a tile, as MapLibre's tiles hold them: the
        // render test distance/paint-text labels this distance "22.147".
        let square = #"["number-format", ["distance", {"type": "Polygon", "coordinates": [[[0, 0], [0, 0.001], [0.001, 0.001], [0.001, 0], [0, 0]]]}], {"max-fraction-digits": 3}]"#
        #expect(try eval(square, feature(.points, [[(0.0005, 0.0012)]]), zoom: 15) == .string("22.147"))
    }
}

/// The cheap ruler's metres per degree of longitude at the equator.
enum CheapRulerScale {
    static let kx = 111_319.4908
}
