// swift-tools-version:6.0
import PackageDescription

let uncheckedExclusivity: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]

let package = Package(
    name: "nightmap",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "nightmap", targets: ["nightmap"]),
        .library(name: "MapRender", targets: ["MapRender"]),
    ],
    targets: [
        .systemLibrary(name: "CSDL2", path: "Sources/CSDL2"),
        .systemLibrary(name: "CPNG", path: "Sources/CPNG"),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        .systemLibrary(name: "CJPEG", path: "Sources/CJPEG"),
        .systemLibrary(name: "CWebP", path: "Sources/CWebP"),
        .systemLibrary(name: "CGif", path: "Sources/CGif"),
        .systemLibrary(name: "CFreeType", path: "Sources/CFreeType", pkgConfig: "freetype2"),
        .systemLibrary(name: "CFontconfig", path: "Sources/CFontconfig", pkgConfig: "fontconfig"),
        .systemLibrary(name: "CHarfBuzz", path: "Sources/CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // The drawing loops of these two modules modify the renderer's scratch state (a class's
        // stored properties: rasterizer, stroker, masks) tens of thousands of times a frame, and
        // Swift checks each such access for exclusivity at run time unless told not to: 2.1 M
        // instructions of a 31 M pan frame, more in the world view (callgrind). The compile-time
        // checks stay, and debug builds (the tests) keep the run-time ones.
        .target(name: "Raster", dependencies: ["CPrefetch"], swiftSettings: uncheckedExclusivity),
        // The processor's prefetch hint, for Raster's `Pixmap.prefetch`.
        .target(name: "CPrefetch"),
        // Counts heap allocations for the benchmark (its malloc family wraps glibc's).
        .target(name: "CAllocCount"),
        // Debian's ICU for MapData's ICUBidi, behind C types of its own (see its header).
        .target(name: "CICU", linkerSettings: [.linkedLibrary("icuuc")]),
        .target(name: "MapCore", dependencies: ["Raster"]),
        .target(name: "MapData", dependencies: ["MapCore", "Raster", "CPNG", "CJPEG", "CWebP", "CZlib", "CSQLite", "CGif", "CFreeType", "CFontconfig", "CHarfBuzz", "CCurl", "CICU"]),
        .target(name: "MapRender", dependencies: ["MapCore", "Raster"], swiftSettings: uncheckedExclusivity),
        .target(name: "Orbit"),
        // nightmap's demos over the engine: the radar player, the ISS tracker, the route pulse,
        // scenes, key bindings and help text; the only module that names them.
        .target(name: "NightmapApp", dependencies: ["MapCore", "MapData", "Orbit", "Raster"]),
        .executableTarget(
            name: "nightmap",
            dependencies: ["NightmapApp", "MapCore", "MapRender", "MapData", "Orbit", "Raster", "CSDL2", "CAllocCount"],
            resources: []
        ),
        .target(name: "TestSupport", dependencies: ["Raster", "MapCore", "MapData"], path: "Tests/TestSupport"),
        .testTarget(name: "RasterTests", dependencies: ["Raster", "TestSupport"], exclude: ["References"]),
        .testTarget(name: "MapCoreTests", dependencies: ["MapCore", "Raster", "TestSupport"]),
        .testTarget(name: "NightmapAppTests", dependencies: ["NightmapApp", "MapCore", "MapData", "Raster", "TestSupport"]),
        .testTarget(name: "OrbitTests", dependencies: ["Orbit", "MapCore", "TestSupport"]),
        .testTarget(name: "MapDataTests", dependencies: ["MapData", "MapCore", "Raster", "CSQLite", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "MapRenderTests", dependencies: ["MapRender", "MapData", "MapCore", "Raster", "TestSupport"],
                    exclude: ["References"]),
        .testTarget(name: "nightmapTests", dependencies: ["nightmap", "NightmapApp", "MapCore", "MapData", "MapRender", "Orbit", "Raster", "CSDL2", "TestSupport"],
                    exclude: ["Fixtures", "References"]),
    ]
)

// libFuzzer targets (tools/fuzz.sh, `make fuzz`): one executable per input kind under Sources/Fuzz,
// each defining LLVMFuzzerTestOneInput and an entry that runs libFuzzer's driver (CFuzzer). Only
// declared when NIGHTMAP_FUZZ=1, so a plain `swift build` or `swift test` never sees them (they
// link only with -sanitize=fuzzer).
if Context.environment["NIGHTMAP_FUZZ"] == "1" {
    let fuzzTargets: [(name: String, dependencies: [Target.Dependency])] = [
        ("GIF", ["MapData"]),
        ("PNG", ["MapData"]),
        ("Style", ["MapCore", "MapRender", "Raster"]),
        ("GeoJSON", ["MapCore", "MapData", "NightmapApp"]),
        ("TLE", ["Orbit", "MapData", "NightmapApp"]),
        ("IssFeed", ["MapData", "NightmapApp"]),
        ("WorldFile", ["MapData"]),
        ("SVG", ["MapData"]),
        ("Config", ["MapData"]),
        ("State", ["MapData", "NightmapApp"]),
        ("RadarAnswer", ["MapData", "MapCore"]),
        ("RainViewerIndex", ["MapData"]),
        ("GIBSDomains", ["MapData"]),
        ("NWSAlerts", ["MapCore", "MapData"]),
        ("NWSZone", ["MapCore", "MapData"]),
        ("MVT", ["MapCore", "MapData"]),
        ("PMTiles", ["MapCore", "MapData"]),
        ("JPEG", ["MapData"]),
        ("WebP", ["MapData"]),
        ("TileJSON", ["MapCore", "MapData"]),
        ("TileCache", ["MapData"]),
        ("Glyphs", ["MapData"]),
        ("Fonts", ["MapData"]),
    ]
    package.targets.append(.systemLibrary(name: "CFuzzer", path: "Sources/Fuzz/CFuzzer"))
    for t in fuzzTargets {
        package.targets.append(.executableTarget(
            name: "Fuzz\(t.name)", dependencies: t.dependencies + ["CFuzzer"], path: "Sources/Fuzz/\(t.name)",
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]))
    }
}
