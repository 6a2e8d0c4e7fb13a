// libFuzzer entry (tools/fuzz.sh). Built only with NIGHTMAP_FUZZ=1; see Package.swift.
import CFuzzer
import Foundation
import MapCore
import MapRender
import Raster

/// A style document (`--style FILE.json`) through the tolerant path: JSON, sources (inline
/// GeoJSON), layers, expressions, filters, refs, sprites. It must never trap and must give a
/// style that draws or an error with at least one line; what it keeps is drawn into a small
/// frame at its own camera.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    do {
        let document = try StyleDocument(data: Data(bytes: data, count: size), name: "fuzz.json")
        var features: [String: GeoJSONData] = [:]
        for (id, source) in document.sources {
            if case let .geojson(.inline(d)) = source { features[id] = d }
        }
        let style = Style(document: document, features: features, images: [:])
        let camera = CameraState(center: document.center ?? LngLat(lng: 0, lat: 0), zoom: document.zoom ?? 0, bearing: document.bearing)
        var model = MapModel(style: style, size: ViewportSize(width: 32, height: 32), camera: camera)
        model.advance(to: 1)
        FrameRenderer().render(model.frame(), into: Pixmap(width: 32, height: 32))
    } catch let e as StyleDocumentError {
        precondition(!e.problems.isEmpty, "a refused document must say why")
    } catch {
        preconditionFailure("an error other than StyleDocumentError: \(error)")
    }
    return 0
}

/// SwiftPM links an executable with `--defsym main=<module>_main` (so tests can link its code):
/// that symbol is the process entry here, and hands over to libFuzzer's driver.
@_cdecl("FuzzStyle_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc, argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in data.map { fuzz($0, size) } ?? 0 }
}
