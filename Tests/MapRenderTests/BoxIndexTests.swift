import MapCore
@testable import MapRender
import Testing

/// The label collision index answers exactly what a scan of every box answers.
@Suite struct BoxIndexTests {
    typealias Box = FrameDescription.ScreenBox

    @Test func answersWhatAScanOfEveryBoxAnswers() {
        var seed: UInt64 = 7
        func random(_ range: ClosedRange<Double>) -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return range.lowerBound + Double(seed >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
        }
        // Boxes on whole multiples of the cell size (edges that only touch), boxes reaching
        // past the window on every side, huge and infinite ones, and ones with NaN.
        func box() -> Box {
            switch Int(random(0...9.99)) {
            case 0:
                let x = (random(0...10)).rounded(.down) * BoxIndex.cell, y = (random(0...6)).rounded(.down) * BoxIndex.cell
                return Box(minX: x, minY: y, maxX: x + BoxIndex.cell, maxY: y + BoxIndex.cell)
            case 1: return Box(minX: -.infinity, minY: random(-50...500), maxX: random(-80...40), maxY: random(500...900))
            case 2: return Box(minX: .nan, minY: 10, maxX: 50, maxY: 60)
            case 3: return Box(minX: random(-300...900), minY: random(-300...600), maxX: 1e9, maxY: random(-200...700))
            default:
                let x = random(-60...700), y = random(-60...460)
                return Box(minX: x, minY: y, maxX: x + random(0...150), maxY: y + random(0...40))
            }
        }
        var index = BoxIndex()
        var mismatches = 0, hits = 0, queries = 0
        for round in 0..<20 {
            index.reset(width: round % 2 == 0 ? 640 : 301, height: round % 3 == 0 ? 400 : 97)
            var placed: [Box] = []
            for _ in 0..<60 {
                let b = box()
                placed.append(b)
                index.insert(b)
                for _ in 0..<10 {
                    let q = box()
                    let scan = placed.contains { $0.intersects(q) }
                    if index.intersectsAny(q) != scan { mismatches += 1 }
                    if scan { hits += 1 }
                    queries += 1
                }
            }
        }
        #expect(mismatches == 0, "\(mismatches) of \(queries) answers differ from the scan")
        // Both answers occur often enough for the comparison to mean something.
        #expect(hits > queries / 5 && hits < queries * 4 / 5, "\(hits) hits in \(queries)")
    }
}
