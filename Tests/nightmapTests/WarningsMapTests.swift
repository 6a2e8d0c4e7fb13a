import Foundation
import MapCore
import MapData
import MapRender
import NightmapApp
import Raster
import Testing
import TestSupport
@testable import nightmap

/// The NWS warnings on nightmap's own map, from the local stand-in (`NWSStandIn`): the colours
/// drawn inside a storm polygon and inside a zone, unlit by the night preset; the panel under the
/// pointer; `w`; `state`; expired alerts never drawn.
@Suite(.serialized) struct WarningsMapTests {
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [String] = []
        func add(_ s: String) { lock.lock(); stored.append(s); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return stored }
    }

    /// Alerts issued ten minutes ago (a map of now shows them; live alerts say nothing of other times).
    static func standIn() throws -> NWSStandIn {
        let now = (Date().timeIntervalSince1970 / 60).rounded(.down) * 60
        let nws = try NWSStandIn(issued: now - 600)
        nws.now = now
        return nws
    }

    /// Oklahoma at zoom 7, the night preset, with the stand-in's warnings loaded as `state` loads them.
    static func model(_ nws: NWSStandIn, lines: Lines = Lines(), cache: AlertsCache? = nil) throws -> (MapApp, Options, AlertsCache) {
        let o = try Options.parse(["state", "--radar", "demo", "--iss", "tle", "--tle-url", "none", "--center", "35.7,-98.3", "--zoom", "7",
                                   "--size", "800x600", "--alerts-url", nws.base, "--contact", "ops@example.org"])
        var m = try MapSetup.model(o)
        let c = cache ?? AlertsCache(directory: FileManager.default.temporaryDirectory.appendingPathComponent("nightmap-alerts-\(UUID().uuidString)"))
        Headless.loadWarningsOnce(&m, o, cache: c, report: { lines.add($0) })
        return (m, o, c)
    }

    static func render(_ m: MapApp) -> Pixmap {
        let p = Pixmap(width: m.camera.size.width, height: m.camera.size.height)
        FrameRenderer().render(m.frame(), into: p)
        return p
    }

    static func screen(_ m: MapApp, _ lng: Double, _ lat: Double) -> (x: Double, y: Double) {
        m.camera.view.nearestScreen(LngLat(lng: lng, lat: lat))
    }

    static func pixel(_ p: Pixmap, _ s: (x: Double, y: Double)) -> (r: Int, g: Int, b: Int) {
        let c = p.color(atX: Int(s.x), y: Int(s.y))
        return (Int(c.r), Int(c.g), Int(c.b))
    }

    @Test func stormPolygonsAndZonesAreDrawnInTheirNWSColoursUnlitAtNight() throws {
        let nws = try Self.standIn()
        defer { nws.stop() }
        let lines = Lines()
        let (m, _, cache) = try Self.model(nws, lines: lines)
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        #expect(lines.all.isEmpty)
        #expect(m.lightPreset == .night && m.showsWarnings)
        var hidden = m
        hidden.apply(.toggleWarnings, now: m.now)
        let on = Self.render(m), off = Self.render(hidden)
        // Inside the Tornado Warning: the night map tinted red (#FF0000 at 0.25).
        let t = NWSStandIn.tornadoBox, z = NWSStandIn.zoneBox
        let storm = Self.screen(m, (t.west + t.east) / 2, (t.south + t.north) / 2)
        let a = Self.pixel(on, storm), a0 = Self.pixel(off, storm)
        #expect(a.r - a0.r > 40 && abs(a.g - a0.g) < 12 && abs(a.b - a0.b) < 12, "\(a) over \(a0)")
        // Its outline: red itself (emissive strength 1: the night preset does not darken it).
        let edge = Self.screen(m, t.west, (t.south + t.north) / 2)
        let e = Self.pixel(on, (edge.x.rounded(.down) + 0.5, edge.y))
        #expect(e.r > 200 && e.g < 60 && e.b < 60, "outline \(e)")
        // The Winter Storm Watch, drawn where its zone is, steel blue (#4682B4).
        let zone = Self.screen(m, (z.west + z.east) / 2, (z.south + z.north) / 2)
        let b = Self.pixel(on, zone), b0 = Self.pixel(off, zone)
        // (A watch is filled at 0.1: the blue gains most, then the green, the red least.)
        #expect(b.b - b0.b >= 12 && b.g - b0.g >= 6 && b.b - b0.b > b.g - b0.g && b.g - b0.g > b.r - b0.r, "\(b) over \(b0)")
        // Outside both: nothing changed.
        let outside = Self.screen(m, -97.0, 36.5)
        #expect(Self.pixel(on, outside) == Self.pixel(off, outside))
        // The attribution credits the NWS while they are shown.
        #expect(m.model.attribution.contains("Alerts: NOAA/National Weather Service"))
        #expect(!hidden.model.attribution.contains("Alerts: NOAA/National Weather Service"))
    }

    @Test func thePointerOverAWarningShowsItsPanelAndNothingOutside() throws {
        let nws = try Self.standIn()
        defer { nws.stop() }
        var (m, _, cache) = try Self.model(nws)
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        let t = NWSStandIn.tornadoBox
        let inside = Self.screen(m, (t.west + t.east) / 2, (t.south + t.north) / 2)
        m.setWarningPointer(.init(x: inside.x, y: inside.y))
        let panel = try #require(m.overlay.warningPanel)
        #expect(panel.entries.map(\.title) == ["Tornado Warning"])
        let text = panel.entries[0].lines
        #expect(text.first == "Tornado Warning issued December 3 at 4:40PM CST by NWS Norman OK")
        let expires = RadarTime.hourMinute(nws.issued + nws.lifetime)
        let onset = RadarTime.hourMinute(nws.issued)
        #expect(text.contains { $0.hasPrefix("from ") && $0.contains("\(onset) UTC (") }, "\(text)")
        #expect(text.contains { $0.hasPrefix("until ") && $0.contains("\(expires) UTC (") && $0.hasSuffix(")") }, "\(text)")
        #expect(text.last?.hasPrefix("TAKE COVER NOW!") == true)
        // Drawn in the overlay, its lines wrapped.
        let drawn: [String] = m.frame().overlay?.items.compactMap { item -> String? in if case let .text(s) = item { return s.text } else { return nil } } ?? []
        #expect(drawn.contains("Tornado Warning") && drawn.contains { $0.hasPrefix("TAKE COVER NOW!") })
        // Outside every warning, or with the pointer gone: no panel.
        let outside = Self.screen(m, -97.0, 36.5)
        m.setWarningPointer(.init(x: outside.x, y: outside.y))
        #expect(m.overlay.warningPanel == nil)
        m.setWarningPointer(.init(x: inside.x, y: inside.y))
        m.setWarningPointer(nil)
        #expect(m.overlay.warningPanel == nil)
    }

    @Test func severalWarningsUnderThePointerAreListedMostSevereFirst() throws {
        let nws = try Self.standIn()
        defer { nws.stop() }
        var (m, _, cache) = try Self.model(nws)
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        // The watch given the tornado's polygon too, listed first in the answer.
        let shown = try #require(m.warnings.shown)
        let storm = shown.warnings[0], watch = shown.warnings[1]
        m.showWarnings(.init(warnings: [.init(alert: watch.alert, shape: storm.shape), storm], origin: .cache, lastError: nil, fetched: 0))
        let t = NWSStandIn.tornadoBox
        let inside = Self.screen(m, (t.west + t.east) / 2, (t.south + t.north) / 2)
        m.setWarningPointer(.init(x: inside.x, y: inside.y))
        #expect(m.overlay.warningPanel?.entries.map(\.title) == ["Tornado Warning (cached)", "Winter Storm Watch (cached)"])
    }

    @Test func wTogglesTheWarningsAndStateListsThem() throws {
        let nws = try Self.standIn()
        defer { nws.stop() }
        var (m, o, cache) = try Self.model(nws)
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        let state = try JSON.parse(Headless.stateJSON(m, options: o), name: "state")
        let w = try #require(state["warnings"])
        #expect(w["source"] == .string("live") && w["count"] == .number(2) && w["shown"] == .bool(true) && w["lastError"] == .null)
        #expect(StatusLine.warnings(m) == "NWS: 2 alerts")
        let first = try #require(w["alerts"]?.arrayValue?.first)
        #expect(first["event"] == .string("Tornado Warning") && first["color"] == .string("#ff0000"))
        #expect(first["expires"] == .string(RadarTime.iso(nws.issued + nws.lifetime)))
        #expect(state["layers"]?.arrayValue?.contains(.string("warnings-fill")) == true)
        // `w` hides them (layers, panel, credit) and shows them again.
        var c = InputController()
        let t = NWSStandIn.tornadoBox
        let inside = Self.screen(m, (t.west + t.east) / 2, (t.south + t.north) / 2)
        m.setWarningPointer(.init(x: inside.x, y: inside.y))
        #expect(m.overlay.warningPanel != nil)
        for cmd in c.handle(.keyDown(.character("w"), modifiers: [], time: 0)) { m.apply(cmd, now: m.now) }
        #expect(!m.showsWarnings && m.overlay.warningPanel == nil && !m.model.visibleLayerIDs.contains("warnings-fill"))
        #expect(StatusLine.warnings(m) == nil)
        let hidden = try JSON.parse(Headless.stateJSON(m, options: o), name: "state")
        #expect(hidden["warnings"]?["shown"] == .bool(false))
        for cmd in c.handle(.keyDown(.character("w"), modifiers: [], time: 0)) { m.apply(cmd, now: m.now) }
        #expect(m.showsWarnings && m.overlay.warningPanel != nil)
        // Off by option: "off", and nothing asked.
        let none = try Options.parse(["state", "--radar", "demo", "--alerts-url", "none"])
        #expect(none.alertsURL == nil)
        var quiet = try MapSetup.model(none)
        Headless.loadWarningsOnce(&quiet, none, cache: cache, report: { _ in })
        #expect(try JSON.parse(Headless.stateJSON(quiet, options: none), name: "state")["warnings"]?["source"] == .string("off"))
        #expect(HelpText.lines.joined().contains("w: NWS warnings"))
    }

    @Test func theSameAlertsAnsweredAgainChangeNothingDrawn() throws {
        let nws = try Self.standIn()
        defer { nws.stop() }
        var (m, _, cache) = try Self.model(nws)
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        let source = try #require(m.model.style.geojson(MapApp.warningsSourceID))
        #expect(source.features.count == 2)
        let frame = m.frame()
        // A new answer with the same alerts (new objects, read again): the window has nothing to redraw.
        let feed = WarningsFeed(base: nws.base, cache: nil, clock: { nws.now }, report: { _ in })
        feed.poll()
        m.showWarnings(try #require(feed.take(after: 0)).shown)
        #expect(m.model.style.geojson(MapApp.warningsSourceID) === source)
        #expect(m.frame() == frame)
        // One alert fewer: drawn at once.
        var fewer = try #require(m.warnings.shown)
        fewer.warnings.removeFirst()
        m.showWarnings(fewer)
        #expect(m.model.style.geojson(MapApp.warningsSourceID)?.features.count == 1)
    }

    @Test func expiredWarningsAreNeverDrawnNotEvenFromTheCacheOffline() throws {
        let nws = try Self.standIn()
        let cache = AlertsCache(directory: FileManager.default.temporaryDirectory.appendingPathComponent("nightmap-alerts-\(UUID().uuidString)"))
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        _ = try Self.model(nws, cache: cache)
        nws.stop()
        // Offline: the cached answer, labelled cached, drawn while in force.
        let lines = Lines()
        var (m, o, _) = try Self.model(nws, lines: lines, cache: cache)
        #expect(lines.all.count == 1 && lines.all[0].hasSuffix("connection refused (nothing listening)"))
        #expect(m.warnings.shown?.origin == .cache && m.currentWarnings.count == 2)
        let state = try JSON.parse(Headless.stateJSON(m, options: o), name: "state")
        #expect(state["warnings"]?["source"] == .string("cache") && state["warnings"]?["count"] == .number(2))
        #expect(StatusLine.warnings(m) == "NWS: 2 alerts, cached (source: connection refused (nothing listening))")
        let t = NWSStandIn.tornadoBox
        let storm = Self.screen(m, (t.west + t.east) / 2, (t.south + t.north) / 2)
        let drawn = Self.pixel(Self.render(m), storm)
        // The map's instant reaches the expiry: they go.
        let expiry = nws.issued + nws.lifetime - m.clockOrigin
        m.advance(to: expiry + 1)
        #expect(m.currentWarnings.isEmpty)
        var hidden = m
        hidden.apply(.toggleWarnings, now: m.now)
        #expect(Self.pixel(Self.render(m), storm) == Self.pixel(Self.render(hidden), storm))
        #expect(Self.pixel(Self.render(m), storm) != drawn)
        let after = try JSON.parse(Headless.stateJSON(m, options: o), name: "state")
        #expect(after["warnings"]?["count"] == .number(0))
    }
}
