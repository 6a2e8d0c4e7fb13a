import Foundation
import MapCore

/// The place labels: `Resources/places/places.tsv` (GeoNames cities, Natural Earth countries)
/// and the font they are set in.
public enum PlaceLabels {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public static let cityLayer = "city-labels"
    public static let countryLayer = "country-labels"

    /// Reads the places file: tab-separated kind, name, longitude, latitude, rank, minimum zoom.
    public static func read(path: String) throws -> (cities: [Place], countries: [Place]) {
        guard let data = FileManager.default.contents(atPath: path) else { throw Failure(description: "\(path): cannot read file") }
        var cities: [Place] = [], countries: [Place] = []
        cities.reserveCapacity(40_000)
        var lineNumber = 0
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true) {
            lineNumber += 1
            if line.hasPrefix("#") { continue }
            let f = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard f.count == 6, let lon = Double(f[2]), let lat = Double(f[3]), let rank = Double(f[4]), let z = Double(f[5]),
                  (-180...180).contains(lon), (-90...90).contains(lat) else {
                throw Failure(description: "\(path): line \(lineNumber) is not kind, name, longitude, latitude, rank, minzoom")
            }
            let place = Place(kind: f[0] == "country" ? .country : .city, name: String(f[1]),
                              position: LngLat(lng: lon, lat: lat), rank: rank, minZoom: z)
            if place.kind == .country { countries.append(place) } else { cities.append(place) }
        }
        return (cities, countries)
    }

    /// Adds the places, the font and the two label layers (countries under cities) to `style`.
    public static func add(to style: inout Style, resources: URL) throws {
        let (cities, countries) = try read(path: resources.appendingPathComponent("places/places.tsv").path)
        style.places[cityLayer] = PlaceSet(cities)
        style.places[countryLayer] = PlaceSet(countries)
        style.font = try FontFace(path: resources.appendingPathComponent("fonts/DejaVuSans.ttf").path)
        style.layers.append(Layer(id: countryLayer, source: countryLayer,
                                  paint: .labels(LabelPaint(textSize: 12, dotRadius: 0, uppercase: true, letterSpacing: 1.5,
                                                            textColor: Color(hex: "#9aa6b6")!, maxZoom: 6))))
        style.layers.append(Layer(id: cityLayer, source: cityLayer, paint: .labels(LabelPaint(textSize: 13))))
    }
}
