import Foundation
import Testing
@testable import MapData

/// GIBS DescribeDomains answers read as runs of times (recorded shapes in Tests/Fuzz/gibsdomains,
/// also the fuzz target's seeds).
@Suite struct GIBSTimeDomainTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/gibsdomains")
    static func file(_ name: String) throws -> Data { try Data(contentsOf: folder.appendingPathComponent(name)) }
    static let url = "https://gibs.earthdata.nasa.gov/wmts/epsg3857/best/1.0.0/GOES-East_ABI_Band13_Clean_Infrared/default/GoogleMapsCompatible_Level6/all/2026-12-03--2026-12-04.xml"
    /// 2026-12-03 00:00 UTC.
    static let day = 1_796_256_000.0

    static func message(_ body: () throws -> Void) -> String {
        do { try body(); return "" } catch { return "\(error)" }
    }

    @Test func runsAndTheNewestStretchWithoutAGap() throws {
        let d = try GIBSTimeDomain(data: try Self.file("band13.xml"), url: Self.url)
        #expect(d.runs == [.init(start: Self.day, end: Self.day + 26 * 3600 + 600, step: 600),
                           .init(start: Self.day + 26 * 3600 + 1800, end: Self.day + 27 * 3600 + 3000, step: 600)])
        #expect(d.runs.map(\.count) == [158, 9])
        // The 02:20 frame is missing: the stretch the loop uses starts at 02:30.
        let run = try #require(d.lastRun)
        #expect(run.start == Self.day + 26 * 3600 + 1800 && run.count == 9)
        // Matched to radar times: the latest cloud frame at or before each.
        #expect(GIBSTimeDomain.latest(in: run, atOrBefore: Self.day + 27 * 3600 + 1799) == Self.day + 27 * 3600 + 1200)
        #expect(GIBSTimeDomain.latest(in: run, atOrBefore: Self.day + 40 * 3600) == run.end)
        #expect(GIBSTimeDomain.latest(in: run, atOrBefore: Self.day) == nil)
    }

    @Test func contiguousRunsJoinAndBareDatesAreMidnight() throws {
        let d = try GIBSTimeDomain(data: try Self.file("imerg-dates.xml"), url: "u")
        #expect(d.runs == [.init(start: Self.day - 2 * 86_400, end: Self.day + 12 * 3600, step: 1800)] && d.runs[0].count == 121)
        let text = "<DimensionDomain><ows:Identifier>time</ows:Identifier><Domain>2026-12-03T00:00:00Z/2026-12-03T01:00:00Z/PT30M, 2026-12-03T01:30:00Z/2026-12-03T02:00:00Z/PT30M,2026-12-03T02:30Z</Domain></DimensionDomain>"
        let joined = try GIBSTimeDomain(data: Data(text.utf8), url: "u")
        #expect(joined.runs.count == 3)
        #expect(joined.lastRun == .init(start: Self.day, end: Self.day + 9000, step: 1800))
    }

    @Test func answersWithoutATimeDomainAreOneNamedError() throws {
        let u = Self.url
        #expect(Self.message { _ = try GIBSTimeDomain(data: try Self.file("html.xml"), url: u) } == "\(u): an HTML page, not a DescribeDomains answer")
        #expect(Self.message { _ = try GIBSTimeDomain(data: try Self.file("no-time.xml"), url: u) }
                == "\(u): no time domain (<DimensionDomain> with identifier 'time')")
        func error(_ domain: String) -> String {
            Self.message { _ = try GIBSTimeDomain(data: Data("<DimensionDomain><ows:Identifier>time</ows:Identifier><Domain>\(domain)</Domain></DimensionDomain>".utf8), url: "u") }
        }
        #expect(error("") == "u: time domain is empty")
        #expect(error("2026-12-03T00:00:00Z/2026-12-02T00:00:00Z/PT10M") == "u: time domain: '2026-12-03T00:00:00Z/2026-12-02T00:00:00Z/PT10M' is no time or START/END/PERIOD")
        #expect(error("2026-02-30") == "u: time domain: '2026-02-30' is no time or START/END/PERIOD")
        #expect(error("2026-12-03T00:00:00Z/2026-12-04T00:00:00Z/PT0M").hasSuffix("is no time or START/END/PERIOD"))
        #expect(error("2026-12-03T00:00:00Z/2026-12-04T00:00:00Z/P1M").hasSuffix("is no time or START/END/PERIOD"))   // months: not a fixed length
        #expect(error("1900-01-01/2026-01-01/PT1S").hasSuffix("is no time or START/END/PERIOD"))                       // 4e9 times
    }

    @Test func periodsAndTimes() {
        #expect(GIBSTimeDomain.period("PT10M") == 600 && GIBSTimeDomain.period("P1D") == 86_400 && GIBSTimeDomain.period("PT1H30M") == 5400)
        for bad in ["", "P", "PT", "10M", "PT10", "P1H", "PT1D", "PTT1M", "P-1D"] { #expect(GIBSTimeDomain.period(Substring(bad)) == nil, "\(bad)") }
        #expect(GIBSTimeDomain.time("2024-02-29") == 1_709_164_800)
        #expect(GIBSTimeDomain.time("2026-12-03T00:00:00Z") == Self.day && GIBSTimeDomain.time("2026-12-03T00:10Z") == Self.day + 600)
        for bad in ["2023-02-29", "2026-13-01", "2026-12-03T24:00:00Z", "2026-12-03T00:00:00", "2026-12-3", "20261203"] {
            #expect(GIBSTimeDomain.time(Substring(bad)) == nil, "\(bad)")
        }
    }
}
