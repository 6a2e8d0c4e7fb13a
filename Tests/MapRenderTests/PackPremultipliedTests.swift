import Testing
@testable import MapRender

/// `packPremultiplied` (branch-free on x86_64) against the plain per-channel formula.
@Suite struct PackPremultipliedTests {
    /// Each channel clamped to 0...1 (NaN: 0), times 255 rounded half up, colour capped at alpha.
    static func reference(_ p: SIMD4<Double>) -> UInt32 {
        func q(_ v: Double) -> UInt32 { UInt32((v > 0 ? min(v, 1) : 0) * 255 + 0.5) }
        let a = q(p[3])
        return a << 24 | min(q(p[0]), a) << 16 | min(q(p[1]), a) << 8 | min(q(p[2]), a)
    }

    @Test func matchesTheFormulaOnEdgesAndRandomValues() {
        let specials: [Double] = [0, 1, 0.5, 0.5 / 255, 1.5 / 255, 254.5 / 255, -0.0, -1, 2, .nan, .infinity, -.infinity, 1e300]
        var cases: [SIMD4<Double>] = []
        for a in specials { for b in specials { cases.append(SIMD4(a, b, 0.25, 0.75)); cases.append(SIMD4(0.1, a, b, 0.3)); cases.append(SIMD4(b, 0.9, 0.2, a)) } }
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            cases.append(SIMD4(Double.random(in: -0.1...1.1, using: &rng), Double.random(in: -0.1...1.1, using: &rng),
                               Double.random(in: -0.1...1.1, using: &rng), Double.random(in: -0.1...1.1, using: &rng)))
        }
        for c in cases {
            #expect(packPremultiplied(c) == Self.reference(c), "\(c)")
        }
    }

    @Test func knownColours() {
        #expect(packPremultiplied(SIMD4(1, 0, 0, 1)) == 0xFFFF_0000)
        #expect(packPremultiplied(SIMD4(0, 0.5, 0, 0.5)) == 0x8000_8000)
        // Colour above alpha (not premultiplied) is capped at alpha.
        #expect(packPremultiplied(SIMD4(1, 1, 1, 0.2)) == 0x3333_3333)
    }
}
