import Foundation
import MapCore
import MapData
import NightmapApp
import Raster
import Testing
import TestSupport
@testable import nightmap
@testable import MapRender

/// The live radar's provider follows the view (issue 41): IEM's mosaic (here a WMS stand-in in
/// its place) over the United States, RainViewer (a stand-in) elsewhere, switching as the user
/// pans; `r` cycles the choice; the status line and the attribution name the provider shown.
@Suite(.serialized) struct RadarProviderSwitchTests {
    /// 2026-12-05T07:32:10Z.
    static let now = 1_796_455_930.0


    typealias Lines = ReportedLines

    @Test func theProviderFollowsTheViewAndRCyclesTheChoice() throws {
        let wms = try WMSStandIn(base: Self.now - 11 * 300 - 130)
        let rv = try RainViewerStandIn(newest: Self.now - 130)
        let gibs = try GIBSStandIn(newest: [GeostationarySatellite.goesEast.layer: Self.now - 3730, GeostationarySatellite.goesWest.layer: Self.now - 3730,
                                            GeostationarySatellite.himawari.layer: Self.now - 3730])
        defer { wms.stop(); rv.stop(); gibs.stop() }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nightmap-providers-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let o = try Options.parse(["state", "--iss", "tle", "--tle-url", "none", "--radar-url", wms.template, "--radar-provider", "auto",
                                   "--rainviewer-url", rv.indexURL.absoluteString, "--clouds-url", gibs.base, "--alerts-url", "none", "--time", RadarTime.iso(Self.now), "--size", "800x600",
                                   "--center", "38,-98", "--zoom", "3"])
        var m = try MapSetup.model(o)
        #expect(m.radarChoice == .auto && m.radarProviderCycles)
        let clock = TestClock(Self.now)
        let lines = Lines()
        let made = MapSetup.radarProviders(m, o, clock: { clock.now }, report: { lines.add($0) },
                                           wmsCache: RadarCache(directory: dir.appendingPathComponent("wms")),
                                           tileCache: RadarCache(directory: dir.appendingPathComponent("rv")))
        let providers = try #require(made)
        let feed = try #require(providers.rainViewer)
        // Over the United States: IEM's slot (the WMS), its frames in their box, row by latitude.
        providers.update(&m)
        #expect(m.radarProvider == .iem)
        providers.wms?.refresh()
        #expect(providers.update(&m))
        #expect(m.radar?.placement?.placement == .lonlat)
        #expect(m.radar?.frameSlots.count == 12)
        #expect(StatusLine.radar(m)?.hasPrefix("radar 127.0.0.1 ") == true)
        #expect(rv.server.requests == 0)

        // Panned to Europe: RainViewer, loading until its frames come, then its mosaic.
        m.jump(to: CameraState(center: LngLat(lng: 10, lat: 50), zoom: 3, bearing: 0))
        #expect(providers.update(&m))
        #expect(m.radarProvider == .rainviewer)
        #expect(StatusLine.radar(m) == "radar 127.0.0.1: loading")
        while let next = feed.step(), next < Self.now + 900 { clock.now = max(clock.now, next) }
        #expect(providers.update(&m))
        #expect(m.radar?.placement?.placement == .linear)
        #expect(m.radar?.frameSlots.count == 13)
        #expect(m.radar?.legend == RadarLegend.universalBlue)
        let state = Headless.radarJSON(m)
        #expect(state["provider"] as? String == "127.0.0.1" && state["providerChoice"] as? String == "auto")
        #expect(state["placement"] as? String == "linear")
        let mosaic = try #require(TileMosaic.covering(m.camera.view.visibleMercator, zoom: m.camera.state.zoom, maxZoom: 7))
        #expect(rv.tilesAsked.allSatisfy { $0.tile.z == mosaic.z })
        #expect(Set(rv.tilesAsked.map(\.tile)) == Set(mosaic.tiles.map(\.tile)))
        // The frame drawn is the newest's tile (the loop opens on it): its square where the stand-in put it.
        // (The square nearest the view's middle, clear of the overlay's bars.)
        func spot(_ t: TileID) -> LngLat {
            let mark = RainViewerStandIn.marker(tile: t), n = Double(1 << t.z)
            return WebMercator.unproject(MercatorPoint(x: (Double(t.x) + (Double(mark.x) + 8) / 256) / n,
                                                       y: (Double(t.y) + (Double(mark.y) + 8) / 256) / n))
        }
        func offCentre(_ t: TileID) -> Double {
            let s = m.camera.view.nearestScreen(spot(t))
            return abs(s.x - 400) + abs(s.y - 300)
        }
        let tile = try #require(mosaic.tiles.map(\.tile).min { offCentre($0) < offCentre($1) })
        let p = Pixmap(width: 800, height: 600)
        FrameRenderer().render(m.frame(), into: p)
        let s = m.camera.view.nearestScreen(spot(tile))
        let c = p.color(atX: Int(s.x), y: Int(s.y)), want = RainViewerStandIn.colour(frame: 12)
        #expect(abs(Int(c.r) - Int(want.r)) < 30 && abs(Int(c.g) - Int(want.g)) < 30 && abs(Int(c.b) - Int(want.b)) < 30, "\(c) at \(s)")

        // The clouds' frames arriving leave the radar's as they are.
        let clouds = try #require(providers.clouds)
        while let next = clouds.step(), next < clock.now + 600 { clock.now = max(clock.now, next) }
        #expect(providers.update(&m))
        #expect(m.clouds?.frameSlots.isEmpty == false)
        #expect(m.radar?.frameSlots.count == 13)
        #expect(m.cloudsFrame != nil)
        #expect(m.model.attribution.contains("clouds: NASA EOSDIS GIBS"))
        m.apply(.toggleClouds, now: m.now)
        #expect(!m.cloudsShown && !m.model.attribution.contains("clouds: "))
        m.apply(.toggleClouds, now: m.now)
        #expect(m.cloudsShown && m.model.attribution.contains("clouds: NASA EOSDIS GIBS"))

        // `r`: IEM everywhere, even over Europe; again: RainViewer; again: auto.
        m.apply(.cycleRadarProvider, now: m.now)
        #expect(m.radarChoice == .iem)
        providers.update(&m)
        #expect(m.radarProvider == .iem && m.radar?.placement?.placement == .lonlat)
        m.apply(.cycleRadarProvider, now: m.now)
        providers.update(&m)
        #expect(m.radarChoice == .rainviewer && m.radarProvider == .rainviewer)
        m.apply(.cycleRadarProvider, now: m.now)
        #expect(m.radarChoice == .auto)
        #expect(lines.all.isEmpty, "\(lines.all)")
    }

    @Test func theDefaultsKeepTheRadarURLServiceAloneAndNoneTurnsRainViewerOff() throws {
        let withTemplate = try Options.parse(["state", "--radar-url", "http://127.0.0.1:9/wms?TIME={time}&BBOX={bbox}&WIDTH={width}&HEIGHT={height}"])
        #expect(withTemplate.radarProviders == .iem)
        #expect(try Options.parse(["state"]).radarProviders == .auto)
        #expect(try Options.parse(["state", "--rainviewer-url", "none"]).radarProviders == .iem)
        #expect(try Options.parse(["state", "--radar-provider", "rainviewer"]).radarProviders == .rainviewer)
        #expect(throws: Options.UsageError.self) { _ = try Options.parse(["state", "--radar-provider", "rainviewer", "--rainviewer-url", "none"]) }
        #expect(throws: Options.UsageError.self) { _ = try Options.parse(["state", "--radar-provider", "dwd"]) }
        #expect(throws: Options.UsageError.self) { _ = try Options.parse(["state", "--rainviewer-url", "ftp://x"]) }
    }
}

/// The world radar's options as config lines (issue 41: every service's address is one).
@Suite struct RadarProviderConfigTests {
    @Test func theProviderAndRainViewersIndexAreConfigLines() throws {
        let args = try ConfigFile.arguments(text: "radar-provider = rainviewer\nrainviewer-url = http://127.0.0.1:8/w.json\n")
        let o = try Options.parse(["state"] + args)
        #expect(o.radarProviders == .rainviewer)
        #expect(o.rainViewerURL?.absoluteString == "http://127.0.0.1:8/w.json")
        let off = try Options.parse(["state"] + (try ConfigFile.arguments(text: "rainviewer-url = none\n")))
        #expect(off.rainViewerURL == nil && off.radarProviders == .iem)
    }
}
