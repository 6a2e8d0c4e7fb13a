import Foundation
import Orbit
import Testing

@Suite struct TLETests {
    // ISS set A of Tests/Fixtures/sgp4/iss_tles.txt.
    static let issName = "ISS (ZARYA)"
    static let iss1 = "1 25544U 98067A   18184.80969102  .00001614  00000-0  31745-4 0  9993"
    static let iss2 = "2 25544  51.6414 295.8524 0003435 262.6267 204.2868 15.54005638121106"

    /// `line` with its column 69 recomputed (digits summed, '-' counting 1, mod 10), so that a test
    /// can break one field without tripping the checksum first.
    static func withChecksum(_ line: String) -> String {
        let body = line.prefix(68)
        let sum = body.reduce(0) { $0 + ($1 == "-" ? 1 : Int(String($1)) ?? 0) }
        return body + String(sum % 10)
    }

    /// `line` with the characters from 1-based `column` replaced by `text`.
    static func replacing(_ line: String, column: Int, with text: String) -> String {
        var chars = Array(line)
        chars.replaceSubrange((column - 1)..<(column - 1 + text.count), with: text)
        return String(chars)
    }

    /// Parses and returns the thrown error, recording an issue when nothing is thrown.
    static func parseError(_ l1: String, _ l2: String) -> TLEError? {
        do {
            _ = try TLE(line1: l1, line2: l2)
            Issue.record("expected a TLEError for\n\(l1)\n\(l2)")
            return nil
        } catch {
            #expect(!error.description.contains("\n"), "error description is not one line: \(error)")
            return error
        }
    }

    @Test func parsesEveryFieldOfTheISSSet() throws {
        let tle = try TLE(line1: Self.iss1, line2: Self.iss2, name: Self.issName)
        #expect(tle.name == "ISS (ZARYA)")
        #expect(tle.catalogNumber == 25544)
        #expect(tle.classification == "U")
        #expect(tle.internationalDesignator == "98067A")
        #expect(tle.epochYear == 2018)
        #expect(tle.epochDayOfYear == 184.80969102)
        #expect(tle.meanMotionDotOver2 == 0.00001614)
        #expect(tle.meanMotionDDotOver6 == 0)
        #expect(abs(tle.bstar - 0.31745e-4) < 1e-20)
        #expect(tle.ephemerisType == 0)
        #expect(tle.elementSetNumber == 999)
        #expect(tle.inclinationDegrees == 51.6414)
        #expect(tle.raanDegrees == 295.8524)
        #expect(tle.eccentricity == 0.0003435)
        #expect(tle.argumentOfPerigeeDegrees == 262.6267)
        #expect(tle.meanAnomalyDegrees == 204.2868)
        #expect(tle.meanMotionRevPerDay == 15.54005638)
        #expect(tle.revolutionNumber == 12110)
        #expect(tle.line1 == Self.iss1 && tle.line2 == Self.iss2)
    }

    @Test func epochAsUTCDateJulianDateAndUnixSeconds() throws {
        let tle = try TLE(line1: Self.iss1, line2: Self.iss2)
        // Day 184 of 2018 is 3 July; 0.80969102 d = 69957.304128 s = 19:25:57.304128.
        let c = tle.epoch.calendar
        #expect(c.year == 2018 && c.month == 7 && c.day == 3 && c.hour == 19 && c.minute == 25)
        #expect(abs(c.second - 57.304128) < 1e-5)
        #expect(tle.epoch.day == 2458302.5)
        #expect(abs(tle.epoch.fraction - 0.80969102) < 1e-13)  // the day's ulp is 2.8e-14
        // 2018-07-03 00:00:00 UTC = 1530576000 (Python calendar.timegm).
        #expect(abs(tle.epochUnixSeconds - (1530576000 + 0.80969102 * 86400)) < 1e-6)
    }

    @Test func dayOf366InACommonYearIsTheNextFirstOfJanuary() throws {
        // Set B of iss_tles.txt: epoch "19366.82137887" = 2020-01-01 19:42:47 UTC.
        let tle = try TLE(line1: "1 25544U 98067A   19366.82137887  .00016717  00000-0  10270-3 0  9129",
                          line2: "2 25544  51.6392  96.6358 0005156  88.7140 271.4601 15.49497216  6061")
        let c = tle.epoch.calendar
        #expect(c.year == 2020 && c.month == 1 && c.day == 1 && c.hour == 19 && c.minute == 42)
        #expect(abs(tle.epochUnixSeconds - (1577836800 + 0.82137887 * 86400)) < 1e-6)
    }

    @Test func threeLineSetsFromTheISSFile() throws {
        let sets = try TLE.parseAll(ReferenceFiles.text("iss_tles.txt"))
        #expect(sets.count == 5)
        #expect(sets.allSatisfy { $0.name == "ISS (ZARYA)" && $0.catalogNumber == 25544 })
        #expect(sets.map(\.epochYear) == [2018, 2019, 2025, 2025, 2025])
        #expect(sets[0].line1 == Self.iss1 && sets[0].line2 == Self.iss2)
        #expect(sets.map(\.epoch) == sets.map(\.epoch).sorted())
    }

    @Test func parseAllReadsTwoLineSetsAndZeroPrefixedNames() throws {
        let text = "0 ISS (ZARYA)\r\n\(Self.iss1)\r\n\(Self.iss2)\r\n\n\(Self.iss1)\n\(Self.iss2)\n"
        let sets = try TLE.parseAll(text)
        #expect(sets.count == 2)
        #expect(sets[0].name == "ISS (ZARYA)")
        #expect(sets[1].name == nil)
    }

    @Test func verificationFileChecksumsAndOddColumns() throws {
        // SGP4-VER.TLE: every checksum is right except the deliberately broken 33333 (both lines),
        // 33334 (line 1) and 33335 (line 1). Line 2 has extra columns after 69.
        let sets = try TLE.parseAll(ReferenceFiles.text("SGP4-VER.TLE"), verifyChecksums: false)
        #expect(sets.count == 33)
        for tle in sets {
            let broken = [33333, 33334, 33335].contains(tle.catalogNumber)
            do {
                _ = try TLE(line1: tle.line1, line2: tle.line2)
                #expect(!broken, "\(tle.catalogNumber) should fail its checksum")
            } catch {
                #expect(broken && error.kind == .badChecksum, "\(tle.catalogNumber): \(error)")
            }
        }
        let s11801 = try #require(sets.first { $0.catalogNumber == 11801 })
        #expect(s11801.ephemerisType == 0 && s11801.elementSetNumber == 1)
        #expect(s11801.internationalDesignator == "")
        #expect(s11801.epochYear == 1980)
        let s4632 = try #require(sets.first { $0.catalogNumber == 4632 })
        #expect(s4632.meanMotionDotOver2 == -0.00000084)
        let s21897 = try #require(sets.first { $0.catalogNumber == 21897 })
        #expect(abs(s21897.bstar - -0.13525e-3) < 1e-18)
        let s16925 = try #require(sets.first { $0.catalogNumber == 16925 })
        #expect(abs(s16925.meanMotionDDotOver6 - -0.30915e-6) < 1e-20)
        #expect(sets.allSatisfy { $0.line2.count == 69 })
    }

    @Test func badChecksum() throws {
        let l1 = Self.replacing(Self.iss1, column: 69, with: "4")
        let error = try #require(Self.parseError(l1, Self.iss2))
        #expect(error.kind == .badChecksum && error.line == 1 && error.columns == 69...69)
        #expect(error.description == "TLE line 1 column 69 (checksum): checksum is 4, expected 3")
        let l2 = Self.replacing(Self.iss2, column: 69, with: "0")
        let error2 = try #require(Self.parseError(Self.iss1, l2))
        #expect(error2.description == "TLE line 2 column 69 (checksum): checksum is 0, expected 6")
    }

    @Test func wrongLineNumber() throws {
        let error = try #require(Self.parseError(Self.iss2, Self.iss1))
        #expect(error.kind == .wrongLineNumber && error.line == 1)
        #expect(error.description == "TLE line 1 column 1 (line number): found '2', expected '1'")
    }

    @Test func malformedNumbersInColumns() throws {
        let cases: [(line: Int, column: Int, text: String, columns: ClosedRange<Int>, field: String)] = [
            (2, 27, "00a3435", 27...33, "eccentricity"),
            (2, 9, " 51.6.14", 9...16, "inclination"),
            (2, 53, "15.5400x638", 53...63, "mean motion"),
            (2, 44, "   nan  ", 44...51, "mean anomaly"),
            (1, 54, " 31745x4", 54...61, "bstar"),
            (1, 45, " 0000 -0", 45...52, "nddot/6"),
            (1, 34, " .0000 614", 34...43, "ndot/2"),
            (1, 21, "184.8096910x", 21...32, "epoch day"),
            (1, 3, "2554Z", 3...7, "catalogue number"),
            (1, 65, " 9x9", 65...68, "element set number"),
        ]
        for c in cases {
            var l1 = Self.iss1, l2 = Self.iss2
            if c.line == 1 { l1 = Self.withChecksum(Self.replacing(l1, column: c.column, with: c.text)) }
            else { l2 = Self.withChecksum(Self.replacing(l2, column: c.column, with: c.text)) }
            let error = try #require(Self.parseError(l1, l2))
            #expect(error.kind == .malformedField && error.line == c.line && error.columns == c.columns
                    && error.field == c.field, "\(c.field): \(error)")
            #expect(error.description.hasPrefix("TLE line \(c.line) columns \(c.columns.lowerBound)-\(c.columns.upperBound) (\(c.field)): '"),
                    "\(error)")
        }
        // A field spilling over its separator.
        let shifted = Self.withChecksum(Self.replacing(Self.iss2, column: 26, with: "1"))
        let error = try #require(Self.parseError(Self.iss1, shifted))
        #expect(error.description == "TLE line 2 column 26 (separator): expected a blank between fields, found '1'")
    }

    @Test func valuesOutOfRange() throws {
        let l2 = Self.withChecksum(Self.replacing(Self.iss2, column: 9, with: "181.6414"))
        let error = try #require(Self.parseError(Self.iss1, l2))
        #expect(error.description == "TLE line 2 columns 9-16 (inclination): 181.6414 is outside 0...180 degrees")
        let zero = Self.withChecksum(Self.replacing(Self.iss2, column: 53, with: " 0.00000000"))
        let error2 = try #require(Self.parseError(Self.iss1, zero))
        #expect(error2.field == "mean motion")
    }

    @Test func tooShortLine() throws {
        let error = try #require(Self.parseError(String(Self.iss1.prefix(60)), Self.iss2))
        #expect(error.kind == .lineTooShort && error.line == 1)
        #expect(error.description == "TLE line 1: has 60 characters, expected 69")
    }

    @Test func mismatchedCatalogNumbers() throws {
        let l2 = Self.withChecksum(Self.replacing(Self.iss2, column: 3, with: "25545"))
        let error = try #require(Self.parseError(Self.iss1, l2))
        #expect(error.kind == .catalogNumberMismatch && error.line == 2)
        #expect(error.description == "TLE line 2 columns 3-7 (catalogue number): '25545' does not match line 1's '25544'")
    }

    @Test func alpha5CatalogueNumbers() throws {
        let l1 = Self.withChecksum(Self.replacing(Self.iss1, column: 3, with: "A0001"))
        let l2 = Self.withChecksum(Self.replacing(Self.iss2, column: 3, with: "A0001"))
        #expect(try TLE(line1: l1, line2: l2).catalogNumber == 100001)
        let z1 = Self.withChecksum(Self.replacing(Self.iss1, column: 3, with: "Z9999"))
        let z2 = Self.withChecksum(Self.replacing(Self.iss2, column: 3, with: "Z9999"))
        #expect(try TLE(line1: z1, line2: z2).catalogNumber == 339999)
        let i1 = Self.withChecksum(Self.replacing(Self.iss1, column: 3, with: "I0001"))
        let i2 = Self.withChecksum(Self.replacing(Self.iss2, column: 3, with: "I0001"))
        #expect(Self.parseError(i1, i2)?.field == "catalogue number")
    }

    @Test func parseAllErrorsNameTheTextLine() throws {
        let missing2 = "# comment\nISS (ZARYA)\n\(Self.iss1)\n"
        #expect(throws: TLEError.self) { try TLE.parseAll(missing2) }
        do {
            _ = try TLE.parseAll(missing2)
        } catch {
            #expect(error.kind == .incompleteSet && error.textLine == 3)
            #expect(error.description == "text line 3: TLE line 1: is not followed by a line 2")
        }
        let badSecond = "\(Self.iss1)\n\(Self.iss2)\nISS\n\(Self.iss1)\n\(Self.replacing(Self.iss2, column: 69, with: "1"))\n"
        do {
            _ = try TLE.parseAll(badSecond)
            Issue.record("expected a checksum error")
        } catch {
            #expect(error.description == "text line 5: TLE line 2 column 69 (checksum): checksum is 1, expected 6")
        }
        do {
            _ = try TLE.parseAll("ISS\nanother name\n")
            Issue.record("expected an error for a name without a set")
        } catch {
            #expect(error.textLine == 1 && !error.description.contains("\n"))
        }
    }
}
