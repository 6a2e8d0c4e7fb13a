// libFuzzer entry (tools/fuzz.sh). Built only with NIGHTMAP_FUZZ=1; see Package.swift.
import CFuzzer
import Foundation
import MapCore
import MapData

/// A vector tile as it comes from a source: inflated when gzipped (16 MB at most), decoded, every
/// feature's geometry walked; then prepared as a loader prepares it (projected, cut to its
/// square) for two tiles side by side, and the two joined as a frame's cover joins them.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var bytes = Data(bytes: data, count: size)
    if Inflate.isGzip(bytes) {
        guard let inflated = try? Inflate.decompress(bytes) else { return 0 }
        bytes = inflated
    }
    guard let tile = try? VectorTile(data: bytes) else { return 0 }
    var sum: Int64 = 0
    for layer in tile.layers {
        for f in layer.features { for part in f.geometry { for p in part { sum &+= Int64(p.x) &+ Int64(p.y) } } }
    }
    withExtendedLifetime(sum) {}
    guard let west = TileID(z: 3, x: 2, y: 5), let east = TileID(z: 3, x: 3, y: 5) else { return 0 }
    let set = TileSet(definition: TiledSourceDefinition(), kind: .vector)
    for t in [west, east] { set.deliver(t, .vector(TileDecoder.features(tile, tile: t))) }
    let cover = CoverFeatures(entries: set.cover([west, east]))
    for layer in tile.layers { sum &+= Int64(cover.layer(layer.name).features.count) }
    withExtendedLifetime(sum) {}
    return 0
}

/// SwiftPM links an executable with `--defsym main=<module>_main` (so tests can link its code):
/// that symbol is the process entry here, and hands over to libFuzzer's driver.
@_cdecl("FuzzMVT_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc, argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in data.map { fuzz($0, size) } ?? 0 }
}
