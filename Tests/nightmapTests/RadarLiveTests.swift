import Foundation
import MapCore
import MapData
import NightmapApp
import Raster
import Testing
import TestSupport
@testable import nightmap
@testable import MapRender

/// The live radar as `snapshot` and `state` show it, from a local stand-in for a time-enabled
/// WMS (issue 20): the slot's square at the predicted pixel, the loop at exact instants, the
/// status line and what `state` reports.
@Suite(.serialized) struct RadarLiveTests {
    /// 2025-12-01T15:32:10Z: slots 14:35 ... 15:30.
    static let now = 1_764_603_130.0
    static let newest = 1_764_603_000.0
    static let box = LngLatBounds(west: -80, south: 38, east: -72, north: 46)

    static func cache() -> RadarCache {
        RadarCache(directory: FileManager.default.temporaryDirectory.appendingPathComponent("nightmap-radar-live-\(UUID().uuidString)"))
    }

    /// The map `snapshot` draws at `elapsed`, its radar loaded from the stand-in.
    static func model(_ wms: WMSStandIn, elapsed: Double, cache: RadarCache, time: Double = now, extra: [String] = []) throws -> (MapApp, Options) {
        let o = try Options.parse(["snapshot", "-o", "unused.png", "--iss", "tle", "--clouds-url", "none", "--radar-url", wms.template,
                                   "--radar-bounds", "-80,38,-72,46", "--time", RadarTime.iso(time), "--elapsed", "\(elapsed)",
                                   "--size", "800x600", "--radar-timeout", "5"] + extra)
        var m = try MapSetup.model(o)
        Headless.loadRadarOnce(&m, o, cache: cache, report: { _ in })
        return (m, o)
    }

    static func render(_ m: MapApp) -> Pixmap {
        let p = Pixmap(width: m.camera.size.width, height: m.camera.size.height)
        FrameRenderer().render(m.frame(), into: p)
        return p
    }

    /// Where the centre of slot `k`'s square lands on screen.
    static func squareOnScreen(_ m: MapApp, _ wms: WMSStandIn, slot k: Int) throws -> (x: Int, y: Int) {
        let live = try #require(m.radarLive)
        let sq = wms.marker(slot: k, width: live.width, height: live.height)
        // (The upper part of the square: its middle row is 42° N, where the New York - Pennsylvania
        // border is drawn over the radar.)
        let cx = Double(sq.x) + Double(wms.side) / 2, cy = Double(sq.y) + Double(wms.side) / 4
        // `lonlat` placement: columns linear in longitude, rows linear in latitude.
        let lon = box.west + cx / Double(live.width) * (box.east - box.west)
        let lat = box.north - cy / Double(live.height) * (box.north - box.south)
        let s = m.camera.view.nearestScreen(LngLat(lng: lon, lat: lat))
        return (Int(s.x), Int(s.y))
    }

    /// The radar's magenta over what the map shows there without the radar (labels and lines
    /// above the radar may cover part of it).
    static func showsSquare(_ p: Pixmap, _ base: Pixmap, _ at: (x: Int, y: Int)) -> Bool {
        let c = p.color(atX: at.x, y: at.y), b = base.color(atX: at.x, y: at.y)
        return Int(c.r) - Int(b.r) > 60 && Int(c.b) - Int(b.b) > 60 && Int(c.g) <= Int(b.g) + 8
    }

    @Test func theLoopOpensOnTheNewestFrameThenPlaysFromTheOldest() throws {
        let wms = try WMSStandIn(base: Self.newest - 11 * 300, side: 16, spacing: 24)
        defer { wms.stop() }
        let cache = Self.cache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        for (elapsed, slot) in [(0.0, 11), (1.9, 11), (2.0, 0), (3.5, 1), (12.99, 10), (13.0, 11)] {
            let (m, _) = try Self.model(wms, elapsed: elapsed, cache: cache)
            #expect(m.radarFrame?.slot == slot, "at \(elapsed) s")
            let p = Self.render(m)
            var bare = m
            bare.model.setVisibility(layer: "radar", false)
            let base = Self.render(bare)
            let at = try Self.squareOnScreen(m, wms, slot: slot)
            #expect(Self.showsSquare(p, base, at), "slot \(slot)'s square at \(at) at \(elapsed) s: \(p.color(atX: at.x, y: at.y))")
            let other = try Self.squareOnScreen(m, wms, slot: slot == 11 ? 0 : 11)
            #expect(!Self.showsSquare(p, base, other), "another slot's square at \(elapsed) s")
        }
        // Twelve requests in all: later launches took every slot from the disk cache.
        #expect(wms.timesAsked.count == 12)
    }

    @Test func stateAndTheStatusLineDescribeTheFrameShown() throws {
        let wms = try WMSStandIn(base: Self.newest - 11 * 300, side: 16, spacing: 24)
        defer { wms.stop() }
        wms.bad = [RadarTime.iso(Self.newest - 300): .status(404, "<html>gone</html>")]
        let cache = Self.cache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        var (m, o) = try Self.model(wms, elapsed: 0, cache: cache)
        let state = try JSON.parse(Data(Headless.stateJSON(m, options: o).utf8), name: "state")
        let radar = try #require(state.objectValue?["radar"]?.objectValue)
        #expect(radar["source"] == .string("live"))
        let frames = try #require(radar["frames"]?.arrayValue).compactMap(\.objectValue)
        #expect(frames.count == 12)
        #expect(frames.first?["time"] == .string("2025-12-01T14:35:00Z") && frames.last?["time"] == .string("2025-12-01T15:30:00Z"))
        #expect(frames[10]["status"] == .string("missing") && frames[11]["status"] == .string("ok"))
        #expect(radar["frame"] == .number(11) && radar["playing"] == .bool(true))
        #expect(radar["lastError"]?.stringValue?.contains("HTTP 404") == true)
        let ny = try #require(TimeZone(identifier: "America/New_York"))
        #expect(StatusLine.radar(m, zone: ny) == "radar 15:30 UTC (10:30 EST) 12/12 playing")
        // The oldest frame is 57 minutes old: its age is shown. The missing slot is skipped.
        m.advance(to: 2)
        #expect(StatusLine.radar(m, zone: ny) == "radar 14:35 UTC (09:35 EST) 1/12 playing, 57 min old")
        m.advance(to: 2 + 9)
        #expect(m.radarFrame?.slot == 9)
        m.advance(to: 2 + 10)
        #expect(m.radarFrame?.slot == 11, "the missing slot 10 is skipped")
        #expect(m.model.attribution.hasSuffix("radar: 127.0.0.1"), "\(m.model.attribution)")
    }

    /// The server gone: a launch one slot later shows the loop the disk cache holds, and `state`
    /// and the status line call it cached and say why.
    @Test func aLoopFromTheCacheWithTheServerGoneIsCachedWithTheError() throws {
        let wms = try WMSStandIn(base: Self.newest - 11 * 300, side: 16, spacing: 24)
        defer { wms.stop() }
        let cache = Self.cache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        _ = try Self.model(wms, elapsed: 0, cache: cache)
        wms.server.behaviour = .refuse
        let (m, o) = try Self.model(wms, elapsed: 0, cache: cache, time: Self.now + 300)
        let radar = try JSON.parse(Data(Headless.stateJSON(m, options: o).utf8), name: "state").objectValue?["radar"]?.objectValue
        #expect(radar?["source"] == .string("cache"))
        #expect(radar?["lastError"]?.stringValue?.contains("connection refused") == true, "\(radar?["lastError"] ?? .null)")
        let line = try #require(StatusLine.radar(m))
        #expect(line.hasPrefix("cached radar ") && line.hasSuffix(")") && line.contains(" (source: connection refused"), "\(line)")
        #expect(StatusLine.radar(m, short: true)?.hasPrefix("cached radar ") == true)
        #expect(StatusLine.radar(m, short: true)?.contains("refused") == false)
    }

    /// The timeline: a filled mark per slot with a frame, a hollow one for a missing slot, the
    /// one shown taller.
    @Test func theTimelineMarksEverySlot() throws {
        let wms = try WMSStandIn(base: Self.newest - 11 * 300, side: 16, spacing: 24)
        defer { wms.stop() }
        wms.bad = [RadarTime.iso(Self.newest - 2 * 300): .status(500, "<html>oops</html>")]     // slot 9
        let cache = Self.cache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        let (m, _) = try Self.model(wms, elapsed: 3.5, cache: cache)           // slot 1 shown
        let t = try #require(m.overlayLayout?.timeline)
        #expect(m.overlay.timeline?.filled == (0..<12).map { $0 != 9 })
        let p = Self.render(m)
        func centre(_ k: Int, high: Bool = false) -> RGBA8 {
            let x = t.x0 + Double(k) * t.step + t.markWidth / 2
            return p.color(atX: Int(x), y: Int(t.bottom - (high ? t.tall - 1 : t.short / 2)))
        }
        func bright(_ c: RGBA8) -> Bool { Int(c.r) + Int(c.g) + Int(c.b) > 500 }
        #expect(bright(centre(0)) && bright(centre(11)), "filled marks")
        #expect(!bright(centre(9)), "the missing slot's mark is hollow: \(centre(9))")
        #expect(bright(centre(1, high: true)) && !bright(centre(2, high: true)), "the mark shown is taller")
        // No legend for a source whose ramp is not known.
        #expect(m.overlay.legend == nil)
    }

    /// The legend: the demo frames' NWS table (IEM's N0Q for IEM's mosaic), `g` hides it.
    @Test func theLegendShowsTheSourcesRampAndGHidesIt() throws {
        let o = try Options.parse(["snapshot", "-o", "unused.png", "--iss", "tle", "--radar", "demo", "--size", "800x600"])
        var m = try MapSetup.model(o)
        let l = try #require(m.overlayLayout?.legend)
        #expect(m.overlay.legend?.bins == RadarLegend.nws.bins && m.overlay.legend?.ticks == RadarLegend.nws.ticks)
        #expect(m.overlayLayout?.timeline != nil)
        let p = Self.render(m)
        // The 5-10 dBZ bin and the 50-55 dBZ bin, in the table's colours.
        func at(_ dbz: Double) -> (Int, Int) {
            (Int(l.bar.minX + (dbz - 5) / 75 * (l.bar.maxX - l.bar.minX)), Int((l.bar.minY + l.bar.maxY) / 2))
        }
        #expect(p.color(atX: at(7.5).0, y: at(7.5).1) == RGBA8(0x04, 0xe9, 0xe7))
        #expect(p.color(atX: at(52.5).0, y: at(52.5).1) == RGBA8(0xfd, 0x00, 0x00))
        m.apply(.toggleLegend, now: 0)
        #expect(m.overlay.legend == nil && m.overlayLayout?.legend == nil)
        let hidden = Self.render(m)
        #expect(hidden.color(atX: at(52.5).0, y: at(52.5).1) != RGBA8(0xfd, 0x00, 0x00))
        // IEM's mosaic, live or cached, has IEM's ramp: 40 dBZ is (255, 226, 0).
        let iem = RadarSeries(origin: .cache, slots: [], provider: RadarFeed.Source.iemProvider)
        let n0q = try #require(RadarLegend.legend(for: iem))
        #expect(n0q.bins.count == 161 && n0q.bins[80].from == 40 && n0q.bins[80].color.bytes == (255, 226, 0, 255))
        #expect(RadarLegend.legend(for: RadarSeries(origin: .live, slots: [], provider: "maps.dwd.de")) == nil)
    }

    /// The legend and the timeline describe the radar image: over Helsinki, far from it, neither
    /// is laid out (the radar keeps playing, and the status line says so); back over the US
    /// Northeast both return.
    @Test func theLegendAndTimelineShowOnlyWhileTheRadarIsInView() throws {
        let o = try Options.parse(["snapshot", "-o", "unused.png", "--iss", "tle", "--radar", "demo", "--size", "800x600"])
        var m = try MapSetup.model(o)
        #expect(m.overlayLayout?.legend != nil && m.overlayLayout?.timeline != nil)
        m.jump(to: CameraState(center: LngLat(lng: 24.94, lat: 60.17), zoom: 5.5))
        #expect(m.overlay.legend != nil && m.overlay.timeline != nil)
        #expect(m.overlayLayout?.legend == nil && m.overlayLayout?.timeline == nil)
        m.jump(to: CameraState(center: LngLat(lng: -75.789, lat: 41.874), zoom: 5.5))
        #expect(m.overlayLayout?.legend != nil && m.overlayLayout?.timeline != nil)
    }

    @Test func keysPauseStepJumpAndChangeTheSpeed() throws {
        let wms = try WMSStandIn(base: Self.newest - 11 * 300, side: 16, spacing: 24)
        defer { wms.stop() }
        let cache = Self.cache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        var (m, _) = try Self.model(wms, elapsed: 0, cache: cache)
        var input = InputController()
        func press(_ k: Key, at t: Double) { for c in input.handle(.keyDown(k, modifiers: [], time: t)) { m.apply(c, now: t) }; m.advance(to: t) }
        press(.home, at: 0.5)
        #expect(m.radarFrame?.slot == 0)
        press(.space, at: 0.7)
        m.advance(to: 30)
        #expect(m.radarFrame?.slot == 0 && m.radarFrame?.playing == false)
        press(.character("."), at: 30)
        press(.character("."), at: 30)
        #expect(m.radarFrame?.slot == 2)
        press(.end, at: 31)
        #expect(m.radarFrame?.slot == 11)
        press(.space, at: 32)
        press(.character("["), at: 32)              // half a second a frame: the dwell is still 2 s
        m.advance(to: 33.99)
        #expect(m.radarFrame?.slot == 11)
        m.advance(to: 34.0)
        #expect(m.radarFrame?.slot == 0)
        m.advance(to: 34.5)
        #expect(m.radarFrame?.slot == 1)
        #expect(m.loop.frameSeconds == 0.5)
        press(.character("]"), at: 35)
        press(.character("]"), at: 35)
        #expect(m.loop.frameSeconds == 2)
    }
}

/// The radar swapping every frame under labels and borders that stay: the run of unchanged
/// layers above it is kept as an image and composited, and every frame is the one a renderer
/// without that image draws (to a level of rounding).
@Suite struct KeptRunTests {
    @Test func swappedFramesUnderKeptLabelsMatchAFreshRenderer() throws {
        let o = try Options.parse(["snapshot", "-o", "unused.png", "--iss", "tle", "--radar", "demo", "--size", "640x400",
                                   "--time", "2025-10-01T12:00:00Z"])
        var m = try MapSetup.model(o)
        m.apply(.togglePulse, now: 0)               // (only the radar changes from frame to frame)
        m.apply(.toggleTimer, now: 0)
        let kept = FrameRenderer()
        var worst = 0, differing = 0
        for k in 0..<6 {
            m.apply(.stepFrame(1), now: Double(k) / 60)       // (at 60 frames a second, as the bench swaps them)
            m.advance(to: Double(k) / 60)
            let frame = m.frame()
            let a = Pixmap(width: 640, height: 400), b = Pixmap(width: 640, height: 400)
            kept.render(frame, into: a)
            FrameRenderer().render(frame, into: b)
            for i in 0..<a.count where a.pixels[i] != b.pixels[i] {
                differing += 1
                let x = a.pixels[i], y = b.pixels[i]
                for s in stride(from: 0, to: 32, by: 8) { worst = max(worst, abs(Int(x >> UInt32(s) & 255) - Int(y >> UInt32(s) & 255))) }
            }
        }
        #expect(kept.cache.entries.contains { $0.role == .run && $0.layers.contains { $0.symbols != nil } },
                "the labels and borders above the radar were not kept")
        #expect(worst <= 2, "a kept frame differs by \(worst) levels (\(differing) pixels)")
    }
}

/// A loop of radar frames over a still camera: each frame's pixels are kept when it comes round
/// again for the view and composited after, to the bit what drawing it again gives; a moved camera drops them.
@Suite struct DrawnRasterTests {
    /// The largest channel difference between two pixmaps, and how many pixels differ.
    func difference(_ a: Pixmap, _ b: Pixmap) -> (worst: Int, count: Int) {
        var worst = 0, count = 0
        for i in 0..<a.count where a.pixels[i] != b.pixels[i] {
            count += 1
            let x = a.pixels[i], y = b.pixels[i]
            for s in stride(from: 0, to: 32, by: 8) { worst = max(worst, abs(Int(x >> UInt32(s) & 255) - Int(y >> UInt32(s) & 255))) }
        }
        return (worst, count)
    }

    @Test func aLoopOverAStillCameraIsDrawnOnceAndMatchesAFreshRenderer() throws {
        let o = try Options.parse(["snapshot", "-o", "unused.png", "--iss", "tle", "--radar", "demo", "--size", "640x400",
                                   "--time", "2025-10-01T12:00:00Z"])
        var m = try MapSetup.model(o)
        m.apply(.togglePulse, now: 0)
        m.apply(.toggleTimer, now: 0)
        let renderer = FrameRenderer()
        // (Every layer but the radar hidden: the frame is the radar over the bottom layers, with
        // no kept run above it to round.)
        for id in ["coastline", "state-borders", "country-borders", "country-labels", "city-labels", "route",
                   "iss-track-past", "iss-track-future", "iss"] { m.model.setVisibility(layer: id, false) }
        m.overlay.enabled = false
        let frames = m.radar?.frameSlots.count ?? 0
        #expect(frames == 5)
        for k in 0..<(2 * frames + 1) {
            m.apply(.stepFrame(1), now: 0)
            let frame = m.frame()
            let a = Pixmap(width: 640, height: 400), b = Pixmap(width: 640, height: 400)
            renderer.render(frame, into: a)
            FrameRenderer().render(frame, into: b)
            let d = difference(a, b)
            #expect(d.count == 0, "frame \(k) differs from a fresh renderer's by \(d.worst) levels in \(d.count) pixels")
        }
        // Each frame is kept from its second showing (the loop's second round), and drawn from
        // what was kept in the third.
        let kept = renderer.cache.entries.filter { $0.role == .layer }
        #expect(kept.count == frames)
        #expect(kept.allSatisfy { if case let .sparse(s) = $0.pixels { s.count > 1000 } else { false } }, "a kept frame holds almost nothing")

        // A moved camera: nothing kept is used for it, and what is drawn is the fresh renderer's.
        var moved = m.camera.state
        moved.center.lng += 0.5
        m.jump(to: moved)
        let frame = m.frame()
        let a = Pixmap(width: 640, height: 400), b = Pixmap(width: 640, height: 400)
        renderer.render(frame, into: a)
        FrameRenderer().render(frame, into: b)
        #expect(difference(a, b).count == 0)
        #expect(renderer.cache.entries.isEmpty, "frames kept for the old view outlived it")
    }
}
