import Foundation

extension StyleDocumentReader {
    /// A `raster-dem` source: tiles or a TileJSON url as a raster source has them, `tileSize`
    /// (512 by default) and the `encoding` of elevations in the pixels: `mapbox` (the default),
    /// `terrarium`, or `custom` with `redFactor`, `greenFactor`, `blueFactor`, `baseShift`.
    mutating func rasterDEMSource(_ o: JSONObject, _ path: String) -> SourceDefinition? {
        var d = TiledSourceDefinition(tileSize: 512)
        d.url = string(o["url"], "\(path).url")
        if let t = o["tileSize"] {
            if case let .number(n) = t, n >= 1, n <= 4096, n == n.rounded() { d.tileSize = Int(n) } else {
                problems.append("\(path).tileSize: expected a whole number of pixels within 1...4096, found \(t.compactText)")
            }
        }
        d.read(o, path: path, problems: &problems)
        d.dem = demEncoding(o, path)
        if o["tiles"] == nil, o["url"] == nil { problems.append("\(path): a raster-dem source needs tiles or a url"); return nil }
        return .raster(d)
    }

    private mutating func demEncoding(_ o: JSONObject, _ path: String) -> DEMEncoding {
        let name: String
        switch o["encoding"] {
        case nil: name = "mapbox"
        case let .string(s)? where ["mapbox", "terrarium", "custom"].contains(s): name = s
        case let v?:
            problems.append("\(path).encoding: expected one of [mapbox, terrarium, custom], found \(v.compactText)")
            name = "mapbox"
        }
        var custom = DEMEncoding(redFactor: 1, greenFactor: 1, blueFactor: 1, baseShift: 0)
        let finite = -Double.greatestFiniteMagnitude ... Double.greatestFiniteMagnitude
        custom.redFactor = number(o["redFactor"], "\(path).redFactor", range: finite) ?? 1
        custom.greenFactor = number(o["greenFactor"], "\(path).greenFactor", range: finite) ?? 1
        custom.blueFactor = number(o["blueFactor"], "\(path).blueFactor", range: finite) ?? 1
        custom.baseShift = number(o["baseShift"], "\(path).baseShift", range: finite) ?? 0
        switch name {
        case "terrarium": return .terrarium
        case "custom": return custom
        default: return .mapbox
        }
    }
}

extension LayerType {
    /// Hillshade and color-relief layers draw a raster-dem source, and only those.
    var drawsDEM: Bool { self == .hillshade || self == .colorRelief }
}

extension SourceDefinition {
    /// A raster-dem source.
    var isDEM: Bool { if case let .raster(d) = self { return d.dem != nil } else { return false } }
}
