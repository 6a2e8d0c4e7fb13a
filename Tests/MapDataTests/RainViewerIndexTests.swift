import Foundation
import Testing
@testable import MapData

/// RainViewer's `weather-maps.json` read as the radar's frames (recorded shapes in
/// Tests/Fuzz/rainviewerindex, also the fuzz target's seeds).
@Suite struct RainViewerIndexTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/rainviewerindex")
    static func file(_ name: String) throws -> Data { try Data(contentsOf: folder.appendingPathComponent(name)) }
    static let url = "https://api.rainviewer.com/public/weather-maps.json"
    /// 2026-12-04 04:50 UTC, the recorded index's `generated`.
    static let generated = 1_796_359_800.0

    static func message(_ body: () throws -> Void) -> String {
        do { try body(); return "" } catch { return "\(error)" }
    }

    @Test func framesAreTheIndexsPastOldestFirstWithTheirTileTemplates() throws {
        let index = try RainViewerIndex(data: try Self.file("weather-maps.json"), url: Self.url, now: Self.generated + 30)
        #expect(index.generated == Self.generated)
        #expect(index.frames.count == 13 && index.skipped.isEmpty)
        #expect(index.frames.first?.time == Self.generated - 7500 && index.frames.last?.time == Self.generated - 300)
        #expect(zip(index.frames, index.frames.dropFirst()).allSatisfy { $0.time + 600 == $1.time })
        let last = try #require(index.frames.last)
        #expect(last.template == "https://tilecache.rainviewer.com/v2/radar/5d1e0c9a770c/256/{z}/{x}/{y}/2/1_0.png")
        #expect(RainViewerIndex.url(last, z: 5, x: 17, y: 11)
                == "https://tilecache.rainviewer.com/v2/radar/5d1e0c9a770c/256/5/17/11/2/1_0.png")
    }

    @Test func badEntriesAreSkippedAndNamedAndTheRestKept() throws {
        let index = try RainViewerIndex(data: try Self.file("mixed-entries.json"), url: Self.url, now: Self.generated)
        // The host's trailing slash goes; the one good frame stays (its duplicate is named).
        #expect(index.frames == [.init(time: Self.generated - 600,
                                       template: "https://tilecache.rainviewer.com/v2/radar/ab12/256/{z}/{x}/{y}/2/1_0.png")])
        #expect(index.skipped == [
            "radar.past[1].time: missing or not a time; skipped",
            "radar.past[2]: frame of 2026-12-05 04:50 UTC is later than now (2026-12-04 04:50 UTC); skipped",
            "radar.past[3]: a second frame of 2026-12-04 04:40 UTC; the first kept",
            "radar.past[4].time: missing or not a time; skipped",
            "radar.past[5].path: missing or not a tile path; skipped",
            "radar.past[6]: not an object; skipped",
        ])
    }

    @Test func answersThatAreNoIndexAreOneNamedError() throws {
        let u = Self.url
        func error(_ text: String, now: Double = 2e9) -> String {
            Self.message { _ = try RainViewerIndex(data: Data(text.utf8), url: u, now: now) }
        }
        #expect(Self.message { _ = try RainViewerIndex(data: try Self.file("html.json"), url: u, now: 2e9) }
                == "\(u): an HTML page, not the weather maps index")
        #expect(Self.message { _ = try RainViewerIndex(data: try Self.file("empty-past.json"), url: u, now: 2e9) }
                == "\(u): radar.past lists no frames")
        #expect(error("") .hasPrefix("\(u): not JSON (line 1, column 1: "))
        #expect(error("[1]") == "\(u): expected a JSON object, not the weather maps index")
        #expect(error(#"{"radar": {"past": []}}"#) == "\(u): host: missing or not a string")
        #expect(error(#"{"host": "ftp://x", "radar": {"past": []}}"#) == "\(u): host: 'ftp://x' is not an http(s) address")
        #expect(error(#"{"host": "https://a b", "radar": {"past": []}}"#) == "\(u): host: 'https://a b' is not an http(s) address")
        #expect(error(#"{"host": "https://x.example"}"#) == "\(u): radar: missing or not an object")
        #expect(error(#"{"host": "https://x.example", "radar": {}}"#) == "\(u): radar.past: missing or not a list")
        // Every frame in the future (a server or a clock wrong): no frame, the loop keeps its own.
        #expect(error(#"{"host": "https://x.example", "radar": {"past": [{"time": 1900000000, "path": "/a"}]}}"#, now: 1_800_000_000)
                .hasPrefix("\(u): radar.past: no usable frame (radar.past[0]: frame of 2030-03-17 17:46 UTC is later than now"))
    }

    @Test func aMissingGeneratedTimeIsTheNewestFrames() throws {
        let text = #"{"host": "http://127.0.0.1:8080", "radar": {"past": [{"time": 1000, "path": "/b"}, {"time": 400, "path": "/a"}]}}"#
        let index = try RainViewerIndex(data: Data(text.utf8), url: "u", now: 2000)
        #expect(index.generated == 1000 && index.frames.map(\.time) == [400, 1000])
        #expect(index.frames[0].template == "http://127.0.0.1:8080/a/256/{z}/{x}/{y}/2/1_0.png")
        #expect(index.skipped == ["generated: missing or not a time; the newest frame's time taken"])
    }

    @Test func onlyTheNewestFramesUpToTheLimitAreKept() throws {
        let past = (0..<60).map { #"{"time": \#(1000 + 600 * $0), "path": "/f\#($0)"}"# }.joined(separator: ",")
        let index = try RainViewerIndex(data: Data(#"{"generated": 5, "host": "https://h.example", "radar": {"past": [\#(past)]}}"#.utf8),
                                        url: "u", now: 1e9)
        #expect(index.frames.count == RainViewerIndex.frameLimit && index.frames.first?.template.contains("/f12/") == true)
        #expect(index.skipped == ["radar.past: 60 frames; the newest 48 kept"])
    }

    @Test func pathsAndHostsThatWouldChangeTheURLAreRefused() {
        #expect(RainViewerIndex.isPath("/v2/radar/5d1e0c9a77b2"))
        for bad in ["", "v2/radar", "/v2/../x", "//evil.example/x", "/a b", "/a?b=1", "/a#b", "/ä", "/{z}"] {
            #expect(!RainViewerIndex.isPath(bad), "\(bad)")
        }
        #expect(RainViewerIndex.host("https://tilecache.rainviewer.com/") == "https://tilecache.rainviewer.com")
        for bad in ["tilecache.rainviewer.com", "https://", "https://x.example?a", "file:///etc"] {
            #expect(RainViewerIndex.host(bad) == nil, "\(bad)")
        }
    }

    @Test func zoomRefusalsAreToldByContent() {
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        png.append(Data(repeating: 7, count: 1370 - png.count))
        #expect(RainViewerIndex.isZoomRefusal(png, zoom: 9))
        #expect(!RainViewerIndex.isZoomRefusal(png, zoom: 7))            // at 7 and less: radar
        #expect(!RainViewerIndex.isZoomRefusal(png + Data([0]), zoom: 9))
        #expect(RainViewerIndex.isZoomRefusal(Data("Zoom level restricted to maximum 7".utf8), zoom: 8))
        #expect(!RainViewerIndex.isZoomRefusal(Data("Not found".utf8), zoom: 8))
    }

    @Test func utcTextMatchesTheCalendar() {
        #expect(UTCText.minute(0) == "1970-01-01 00:00 UTC")
        #expect(UTCText.minute(951_782_400) == "2000-02-29 00:00 UTC")
        #expect(UTCText.minute(1_796_359_859.9) == "2026-12-04 04:50 UTC")
        #expect(UTCText.minute(-1) == "1969-12-31 23:59 UTC")
        #expect(UTCText.minute(.nan) == "nan")
        #expect(UTCText.minute(1e300) == "1e+300")
    }
}
