import Foundation
import MapCore
import MapData
import Testing

/// The places file becomes Point features with `name`, `kind`, `rank` and `minzoom`, in the
/// file's order; a bad line is an error naming the file and the line.
@Suite struct PlacesTests {
    func read(_ text: String) throws -> GeoJSONData {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("places-\(UUID().uuidString).tsv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return try Places.read(path: path)
    }

    @Test func linesBecomePointFeatures() throws {
        let data = try read("# comment\ncity\tMontréal\t-73.5878\t45.5088\t1762949\t3.5\n\ncountry\tCanada\t-101\t57\t38000000\t2\n")
        #expect(data.features.count == 2)
        let montreal = data.features[0], canada = data.features[1]
        #expect(montreal.evaluation.properties == ["name": .string("Montréal"), "kind": .string("city"), "rank": .number(1762949), "minzoom": .number(3.5)])
        #expect(canada.evaluation.properties == ["name": .string("Canada"), "kind": .string("country"), "rank": .number(38000000), "minzoom": .number(2)])
        let p = WebMercator.project(LngLat(lng: -73.5878, lat: 45.5088))
        #expect(montreal.geometry.kind == .points && montreal.geometry.coordinates == [p.x, p.y] && montreal.geometry.partCount == 1)
        #expect(montreal.evaluation.geometryType == "Point")
    }

    @Test func aBadLineIsNamed() throws {
        #expect(throws: Places.Failure.self) { try read("city\tA\t1\t2\t3\n") }
        do { _ = try read("city\tA\t1\t2\t3\t4\ncity\tB\tx\t2\t3\t4\n") } catch {
            #expect("\(error)".hasSuffix(": line 2 is not kind, name, longitude, latitude, rank, minzoom"))
        }
    }
}
