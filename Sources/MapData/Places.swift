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
    /// (Parsed from bytes: 34,000 lines in a few milliseconds, at every start.)
    public static func read(path: String) throws -> (cities: [Place], countries: [Place]) {
        let data: Data
        do { data = try DataFile.read(path, limit: 64 << 20) } catch { throw Failure(description: error.description) }
        var cities: [Place] = [], countries: [Place] = []
        cities.reserveCapacity(40_000)
        try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            var i = 0, lineNumber = 0
            let n = bytes.count
            while i < n {
                lineNumber += 1
                var end = i
                while end < n && bytes[end] != 10 { end += 1 }
                defer { i = end + 1 }
                if end == i || bytes[i] == 35 { continue }                    // empty or '#'
                // The six fields' starts and ends, without an array per line.
                var cuts = (i, 0, 0, 0, 0, 0, 0)              // field k spans cuts.k ..< next cut - 1
                var count = 1
                var k = i
                while k < end {
                    if bytes[k] == 9 {
                        switch count {
                        case 1: cuts.1 = k + 1
                        case 2: cuts.2 = k + 1
                        case 3: cuts.3 = k + 1
                        case 4: cuts.4 = k + 1
                        case 5: cuts.5 = k + 1
                        default: break
                        }
                        count += 1
                    }
                    k += 1
                }
                cuts.6 = end + 1
                let fields = (cuts.0..<(cuts.1 - 1), cuts.1..<(cuts.2 - 1), cuts.2..<(cuts.3 - 1),
                              cuts.3..<(cuts.4 - 1), cuts.4..<(cuts.5 - 1), cuts.5..<(cuts.6 - 1))
                func number(_ r: Range<Int>) -> Double? { parseDecimal(bytes, r) }
                guard count == 6, let lon = number(fields.2), let lat = number(fields.3),
                      let rank = number(fields.4), let z = number(fields.5),
                      (-180...180).contains(lon), (-90...90).contains(lat) else {
                    throw Failure(description: "\(path): line \(lineNumber) is not kind, name, longitude, latitude, rank, minzoom")
                }
                let kind: Place.Kind = bytes[fields.0.lowerBound] == 99 && fields.0.count == 7 && bytes[fields.0.lowerBound + 1] == 111 ? .country : .city
                let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[fields.1]), as: UTF8.self)
                let place = Place(kind: kind, name: name, position: LngLat(lng: lon, lat: lat), rank: rank, minZoom: z)
                if kind == .country { countries.append(place) } else { cities.append(place) }
            }
        }
        return (cities, countries)
    }

    /// A plain decimal number (optional sign, digits, optional fraction) from ASCII bytes.
    static func parseDecimal(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Double? {
        var i = r.lowerBound
        guard i < r.upperBound else { return nil }
        var negative = false
        if b[i] == 45 { negative = true; i += 1 }
        var value = 0.0, digits = 0
        while i < r.upperBound, b[i] >= 48, b[i] <= 57 { value = value * 10 + Double(b[i] - 48); i += 1; digits += 1 }
        if i < r.upperBound, b[i] == 46 {
            i += 1
            var scale = 0.1
            while i < r.upperBound, b[i] >= 48, b[i] <= 57 { value += Double(b[i] - 48) * scale; scale /= 10; i += 1; digits += 1 }
        }
        guard digits > 0, i == r.upperBound else { return nil }
        return negative ? -value : value
    }

    /// Adds the places, the font and the two label layers (countries under cities) to `style`.
    public static func add(to style: inout Style, resources: URL) throws {
        let (cities, countries) = try read(path: resources.appendingPathComponent("places/places.tsv").path)
        style.places[cityLayer] = PlaceSet(cities)
        style.places[countryLayer] = PlaceSet(countries, forCapitals: true)
        style.font = try FontFace(path: resources.appendingPathComponent("fonts/DejaVuSans.ttf").path)
        style.layers.append(Layer(id: countryLayer, source: countryLayer,
                                  paint: .labels(LabelPaint(textSize: 12, dotRadius: 0, uppercase: true, letterSpacing: 1.5,
                                                            textColor: Color(rgb: 0x9AA6B6), maxZoom: 6))))
        style.layers.append(Layer(id: cityLayer, source: cityLayer, paint: .labels(LabelPaint(textSize: 13))))
    }
}
