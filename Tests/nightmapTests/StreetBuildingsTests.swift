import Foundation
import MapCore
import MapData
import MapRender
import NightmapApp
import Raster
import Testing
@testable import nightmap

/// The street map's buildings raised to their heights: the tiles' `render_height` and
/// `render_min_height`, the style's hidden `building-3d` layer, `b` and `--buildings` showing it.
@Suite struct StreetBuildingsTests {
    static let fixed = ["--iss", "tle", "--time", "2026-12-01T12:00:00Z", "--radar", "demo", "--tle-url", "none"]

    /// Hotelli Torni (24.93866 E, 60.1678 N): 70 m (OSM `height`), the extract's tallest.
    static let torni = LngLat(lng: 24.93866, lat: 60.1678), torniHeight = 70.0

    /// Helsinki Central Station's z15 tile has buildings, each with a height and a base (metres,
    /// the base not above the height), some taller than the 5 m default; the metadata names them.
    @Test func theTilesCarryBuildingHeights() throws {
        let archive = try PMTiles(path: try ResourceLocator.resourcesDirectory().appendingPathComponent("streets/helsinki.pmtiles").path)
        let n = 32768.0
        let id = try #require(TileID(z: 15, x: Int(WebMercator.x(lng: 24.9414) * n), y: Int(WebMercator.y(lat: 60.1710) * n)))
        let tile = try VectorTile(data: try #require(try archive.tile(id)))
        let buildings = try #require(tile.layer("building")).features
        #expect(buildings.count > 20)
        var tallest = 0.0
        for f in buildings {
            let h = try #require(f.properties["render_height"]?.asNumber), b = try #require(f.properties["render_min_height"]?.asNumber)
            #expect(b >= 0 && b <= h && h <= 1000)
            tallest = max(tallest, h)
        }
        #expect(tallest > 5 && tallest < 100, "tallest \(tallest) m")
        let metadata = try JSON.parse(try archive.metadata(), name: "metadata")
        let layer = metadata["vector_layers"]?.arrayValue?.first { $0["id"] == .string("building") }
        #expect(layer?["fields"]?["render_height"] == .string("Number") && layer?["fields"]?["render_min_height"] == .string("Number"))
    }

    /// `building-3d` extrudes the tiles' heights over the roads and rails (walls hide the streets
    /// behind them), under the street names; it is hidden: the street map starts flat.
    @Test func theStyleHasHiddenExtrudedBuildings() throws {
        let document = try StyleLoader.readDocument(path: try ResourceLocator.resourcesDirectory().appendingPathComponent("style/streets.json").path)
        let ids = document.layers.map(\.id)
        let i = try #require(ids.firstIndex(of: "building-3d"))
        #expect(Array(ids.suffix(from: i + 1)) == ["road-labels"] && (ids.firstIndex(of: "building") ?? i) < i)
        let layer = document.layers[i]
        #expect(layer.type == .fillExtrusion && layer.sourceLayer == "building" && layer.minZoom >= 14 && !layer.visible)
        let m = try MapSetup.model(try Options.parse(["state", "--scene", "streets"] + Self.fixed))
        #expect(m.buildings == .flat && m.hasBuildings3D)
        #expect(m.model.visibleLayerIDs.contains("building") && !m.model.visibleLayerIDs.contains("building-3d"))
    }

    /// `b` shows the extruded buildings instead of the flat ones, and back; `--buildings 3d`
    /// starts so; `nightmap state` and the saved state say so.
    @Test func theKeyAndTheOptionSwitchTheBuildings() throws {
        var input = InputController()
        var m = try MapSetup.model(try Options.parse(["state", "--scene", "streets"] + Self.fixed))
        for c in input.handle(.keyDown(.character("b"), modifiers: [], time: 0)) { m.apply(c, now: 0) }
        #expect(m.buildings == .threeD)
        #expect(m.model.visibleLayerIDs.contains("building-3d") && !m.model.visibleLayerIDs.contains("building"))
        for c in input.handle(.keyDown(.character("B"), modifiers: [.shift], time: 1)) { m.apply(c, now: 1) }
        #expect(m.buildings == .flat && m.model.visibleLayerIDs.contains("building"))

        let o = try Options.parse(["state", "--scene", "streets", "--buildings", "3d"] + Self.fixed)
        let flatOption = try Options.parse(["state", "--buildings=flat"])
        #expect(o.buildings == .threeD && flatOption.buildings == .flat)
        #expect(try Options.parse(["state"]).buildings == nil)
        let json = try JSON.parse(try Headless.state(o), name: "state")
        #expect(json["buildings"] == .string("3d"))
        let layers = json["layers"]?.arrayValue ?? []
        #expect(layers.contains(.string("building-3d")) && !layers.contains(.string("building")))
        let flat = try JSON.parse(try Headless.state(try Options.parse(["state", "--scene", "streets"] + Self.fixed)), name: "state")
        #expect(flat["buildings"] == .string("flat"))

        // Remembered while raised; the command line wins; a bad value is refused.
        let raised = try MapSetup.model(o)
        let state = SavedState(model: raised, window: .init(width: 900, height: 600, fullscreen: false))
        #expect(state.buildings == "3d")
        let back = try SavedState.decode(try JSONEncoder().encode(state), name: "state.json")
        var restored = try Options.parse(["view"])
        back.restore(into: &restored, given: restored.given)
        #expect(restored.buildings == .threeD)
        var told = try Options.parse(["view", "--buildings", "flat"])
        back.restore(into: &told, given: told.given)
        #expect(told.buildings == .flat)
        #expect(SavedState(model: try MapSetup.model(try Options.parse(["state", "--scene", "streets"] + Self.fixed)),
                           window: .init(width: 9, height: 6, fullscreen: false)).buildings == nil)
        let bad = #"{"version":1,"camera":{"lat":40,"lon":-75,"zoom":5},"scene":"radar","light":"night","units":"metric","overlays":{"help":false},"window":{"width":800,"height":600,"fullscreen":false},"buildings":"tall"}"#
        #expect { _ = try SavedState.decode(Data(bad.utf8), name: "s") } throws: { "\($0)" == "s: unknown buildings 'tall' (flat or 3d)" }
    }

    @Test func badValuesAreOneLine() throws {
        #expect { _ = try Options.parse(["snapshot", "-o", "a.png", "--buildings", "tall"]) } throws: {
            "\($0)" == "option --buildings: 'tall' is not flat or 3d"
        }
        #expect { _ = try Options.parse(["state", "--buildings"]) } throws: { "\($0)" == "option --buildings needs a value" }
        #expect(try ConfigFile.arguments(text: "buildings = 3d\n") == ["--buildings=3d"])
        #expect { _ = try ConfigFile.arguments(text: "light = day\nbuildings = 2d\n") } throws: {
            "\($0)" == "nightmap.conf:2: option --buildings: '2d' is not flat or 3d"
        }
        #expect(Options.usage.contains("--buildings flat|3d"))
    }

    /// At pitch 60, Hotelli Torni's roof is drawn 70 m up: well above where its footprint
    /// lands, in the roof's colour, where the flat map shows the ground.
    @Test func aTallBuildingsRoofRisesAboveItsFootprint() throws {
        func render(_ mode: String) throws -> (MapApp, Pixmap) {
            let m = try MapSetup.model(try Options.parse(["state", "--scene", "streets", "--size", "640x400", "--zoom", "16", "--pitch", "60",
                                                          "--center", "\(Self.torni.lat),\(Self.torni.lng)", "--buildings", mode] + Self.fixed))
            let pm = Pixmap(width: 640, height: 400)
            FrameRenderer().render(m.frame(), into: pm)
            return (m, pm)
        }
        let (m, raised) = try render("3d")
        let (_, flat) = try render("flat")
        let camera = m.camera.state
        let p = ViewTransform.perspective(camera, m.camera.size)
        let metres = p.worldSize / (2 * Double.pi * 6_371_008.8 * cos(camera.center.lat * Double.pi / 180))
        let foot = p.project(WebMercator.project(Self.torni))
        let roof = p.project(WebMercator.project(Self.torni), height: Self.torniHeight * metres)
        #expect(roof.y < foot.y - 60 && abs(roof.x - foot.x) < 2, "roof \(roof), footprint \(foot)")
        let top = raised.color(atX: Int(roof.x), y: Int(roof.y)), ground = flat.color(atX: Int(roof.x), y: Int(roof.y))
        // (The lit roof: #6a7890 under the night preset, 0.9 opaque; the flat map shows Mannerheimintie there.)
        #expect(abs(Int(top.r) - 45) <= 6 && abs(Int(top.g) - 51) <= 6 && abs(Int(top.b) - 66) <= 6, "roof pixel \(top)")
        #expect(top != ground)
    }
}
