// libFuzzer entry (tools/fuzz.sh). Built only with NIGHTMAP_FUZZ=1; see Package.swift.
import CFuzzer
import Foundation
import MapCore
import MapData

/// A TileJSON document read into a source definition (vector and raster), then every template
/// it gives expanded for a tile of zooms 0, 7 and 22 (xyz or tms, `{quadkey}`, `{bbox-epsg-3857}`).
/// Any failure is one line naming the document.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    for kind in [TileSet.Kind.vector, .raster] {
        var d = TiledSourceDefinition()
        do {
            try TiledSources.readTileJSON(bytes, url: "fuzz.json", kind: kind, into: &d)
        } catch {
            let text = String(describing: error)
            if text.contains("\n") || !text.contains("fuzz.json") { fatalError("not one line naming the document: \(text)") }
            continue
        }
        if !(d.minZoom <= d.maxZoom) { fatalError("zoom range \(d.minZoom)...\(d.maxZoom)") }
        let templates = TileTemplates(d.tiles, scheme: d.scheme, pixelRatio: 2)
        for (z, x, y) in [(0, 0, 0), (7, 100, 27), (22, 4_194_303, 1)] {
            if let t = TileID(z: z, x: x, y: y) { _ = templates.url(t) }
        }
    }
    return 0
}

/// SwiftPM links an executable with `--defsym main=<module>_main` (so tests can link its code):
/// that symbol is the process entry here, and hands over to libFuzzer's driver.
@_cdecl("FuzzTileJSON_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc, argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in data.map { fuzz($0, size) } ?? 0 }
}
