import Foundation
import MapCore

/// The places nightmap labels: `Resources/places/places.tsv` (GeoNames cities, Natural Earth
/// countries), served to style documents as the GeoJSON source data `nightmap://places`: one
/// Point feature per place with properties `name`, `kind` ("city" or "country"), `rank`
/// (population; larger first) and `minzoom` (not labelled below it), in the file's order.
public enum Places {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The data URL a style's GeoJSON source names for them.
    public static let url = "nightmap://places"

    /// Reads the places file: tab-separated kind, name, longitude, latitude, rank, minimum zoom.
    /// (Parsed from bytes: 34,000 lines in a few milliseconds, at every start.)
    public static func read(path: String) throws -> GeoJSONData {
        let data: Data
        do { data = try DataFile.read(path, limit: 64 << 20) } catch { throw Failure(description: error.description) }
        var features: [GeoFeature] = []
        features.reserveCapacity(40_000)
        let city = StyleValue.string("city"), country = StyleValue.string("country")
        // Every place has the same four properties: values beside one shared key table.
        let keys = PropertyTable(keys: ["name", "kind", "rank", "minzoom"])
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
                func failure() -> Failure { Failure(description: "\(path): line \(lineNumber) is not kind, name, longitude, latitude, rank, minzoom") }
                // (Fewer tabs leave cuts at 0: no field ranges to make of them.)
                guard count == 6 else { throw failure() }
                let fields = (cuts.0..<(cuts.1 - 1), cuts.1..<(cuts.2 - 1), cuts.2..<(cuts.3 - 1),
                              cuts.3..<(cuts.4 - 1), cuts.4..<(cuts.5 - 1), cuts.5..<(cuts.6 - 1))
                func number(_ r: Range<Int>) -> Double? { parseDecimal(bytes, r) }
                guard let lon = number(fields.2), let lat = number(fields.3),
                      let rank = number(fields.4), let z = number(fields.5),
                      (-180...180).contains(lon), (-90...90).contains(lat) else { throw failure() }
                let isCountry = bytes[fields.0.lowerBound] == 99 && fields.0.count == 7 && bytes[fields.0.lowerBound + 1] == 111
                let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[fields.1]), as: UTF8.self)
                let point = WebMercator.project(LngLat(lng: lon, lat: lat))
                let properties = FeatureProperties(table: keys, values: [.string(name), isCountry ? country : city, .number(rank), .number(z)])
                features.append(GeoFeature(geometry: FeatureGeometry(point: point), evaluation: EvaluationFeature(properties: properties)))
            }
        }
        return GeoJSONData(features: features)
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
}
