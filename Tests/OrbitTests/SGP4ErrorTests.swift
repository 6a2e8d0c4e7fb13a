import Foundation
import Orbit
import Testing

@Suite struct SGP4ErrorTests {
    static func set(_ satnum: Int) throws -> TLE {
        let sets = try TLE.parseAll(ReferenceFiles.text("SGP4-VER.TLE"), verifyChecksums: false)
        return try #require(sets.first { $0.catalogNumber == satnum })
    }

    /// The SGP4 error code at `minutes`, or nil when a state comes back.
    static func code(_ satnum: Int, _ minutes: Double) throws -> Int? {
        let sgp4 = SGP4(tle: try set(satnum))
        do {
            _ = try sgp4.propagate(minutesSinceEpoch: minutes)
            return nil
        } catch {
            #expect(!error.description.contains("\n"))
            return error.code
        }
    }

    @Test func errorCodes() throws {
        #expect(try Self.code(22312, 494.2028672) == 1)  // mean eccentricity < -0.001
        #expect(try Self.code(33334, 0) == 3)            // perturbed eccentricity, at epoch
        #expect(try Self.code(33333, 20) == nil)
        #expect(try Self.code(33333, 25) == 4)           // semi-latus rectum < 0
        #expect(try Self.code(28872, 50) == nil)
        #expect(try Self.code(28872, 55) == 6)           // decayed
        #expect(try Self.code(33335, 1440) == nil)       // announced as code 3, but propagates
    }

    @Test func errorDescriptions() {
        #expect(SGP4Error.decayed(radius: 0.99).description
                == "SGP4 error 6: satellite has decayed (radius 0.99 Earth radii)")
        #expect(SGP4Error.meanMotion(-1).code == 2)
    }

    @Test func checkEpochReportsTheSubOrbitalCase() throws {
        // 28872: perigee 51 km below the surface at epoch (code 5 in the 2006 sgp4init), yet the
        // reference output propagates it for 50 minutes, so only checkEpoch reports it.
        do {
            try SGP4(tle: Self.set(28872)).checkEpoch()
            Issue.record("28872 should be sub-orbital at its epoch")
        } catch let error as SGP4Error {
            #expect(error.code == 5)
        }
        do {
            try SGP4(tle: Self.set(33334)).checkEpoch()
            Issue.record("33334 should fail at its epoch")
        } catch let error as SGP4Error {
            #expect(error.code == 3)
        }
        try SGP4(tle: Self.set(5)).checkEpoch()
        #expect(try SGP4(tle: Self.set(20413)).isDeepSpace)
        #expect(try !SGP4(tle: Self.set(88888)).isDeepSpace)
    }
}
