/// Where a label's text breaks into lines, as MapLibre GL JS breaks it
/// (`symbol/tagged_string.ts`, `determineLineBreaks`): not greedily, but so that the lines come
/// out about equally long. The text's width decides how many lines it needs at `maxWidth`,
/// hence a target width; every break opportunity is scored by how far the line it ends misses
/// that target (plus penalties), and the chain of breaks with the least total badness wins.
/// Line feeds always break; with an infinite `maxWidth` (labels along lines) nothing else does,
/// since every extra break only adds badness.
enum LineBreaker {
    /// The indices where lines end, ascending, the last one being `text.count`. `advances`
    /// holds each code point's width (glyph advance × scale + letter spacing; 0 without a glyph);
    /// `breaksAfter` the indices of the images in text, after each of which a line may end.
    static func breaks(_ text: [UInt32], advances: [Double], maxWidth: Double, breaksAfter images: Set<Int> = []) -> [Int] {
        let total = advances.reduce(0, +)
        let target = total / max(1, (total / maxWidth).rounded(.up))
        let penalizesIdeographs = text.contains(zeroWidthSpace)
        var candidates: [Candidate] = []
        var x = 0.0
        for index in text.indices {
            let codePoint = text[index]
            if !ScriptProperties.isWhitespace(codePoint) { x += advances[index] }
            guard index + 1 < text.count else { break }
            let next = text[index + 1]
            let ideographic = ScriptProperties.allowsIdeographicBreaking(codePoint)
            let opensBeforeWord = index + 2 < text.count && next == leftParenthesis
            guard breaksAfter.contains(codePoint) || ideographic || opensBeforeWord || images.contains(index) else { continue }
            let penalty = Self.penalty(codePoint, next, ideographic: ideographic && penalizesIdeographs)
            candidates.append(best(endingAt: index + 1, x: x, target: target, after: candidates, penalty: penalty, isLast: false))
        }
        let last = best(endingAt: text.count, x: x, target: target, after: candidates, penalty: 0, isLast: true)
        return chain(endingWith: last, in: candidates)
    }

    /// A place where a line may end, with the least badness of all the lines before it and the
    /// line it ends (`prior` indexes the candidate ending the line before; nil: the first line).
    private struct Candidate {
        let index: Int
        let x: Double
        let badness: Double
        let prior: Int?
    }

    /// The cheapest way to end a line at `x`: as the first line, or after one of `candidates`.
    /// On equal badness the later prior break wins, as in MapLibre.
    private static func best(endingAt index: Int, x: Double, target: Double, after candidates: [Candidate],
                             penalty: Double, isLast: Bool) -> Candidate {
        var prior: Int?
        var least = badness(width: x, target: target, penalty: penalty, isLast: isLast)
        for (candidate, before) in candidates.enumerated() {
            let total = badness(width: x - before.x, target: target, penalty: penalty, isLast: isLast) + before.badness
            if total <= least { prior = candidate; least = total }
        }
        return Candidate(index: index, x: x, badness: least, prior: prior)
    }

    /// How bad a line of `width` is: its squared distance from the target plus the penalty's
    /// signed square. The last line has no penalty and would rather be short than long.
    private static func badness(width: Double, target: Double, penalty: Double, isLast: Bool) -> Double {
        let raggedness = (width - target) * (width - target)
        if isLast { return width < target ? raggedness / 2 : raggedness * 2 }
        return raggedness + abs(penalty) * penalty
    }

    /// What breaking between `codePoint` and `next` costs: a line feed forces the break; where
    /// zero-width spaces mark the intended breaks, a break between ideographs is a poor second;
    /// a line should neither end with an opening parenthesis nor start with a closing one.
    private static func penalty(_ codePoint: UInt32, _ next: UInt32, ideographic: Bool) -> Double {
        var penalty = 0.0
        if codePoint == lineFeed { penalty -= 10_000 }
        if ideographic { penalty += 150 }
        if codePoint == leftParenthesis || codePoint == 0xFF08 { penalty += 50 }
        if next == 0x29 || next == 0xFF09 { penalty += 50 }
        return penalty
    }

    /// The break indices from the first line's end to `last`'s.
    private static func chain(endingWith last: Candidate, in candidates: [Candidate]) -> [Int] {
        var breaks = [last.index]
        var prior = last.prior
        while let index = prior {
            breaks.append(candidates[index].index)
            prior = candidates[index].prior
        }
        return breaks.reversed()
    }

    private static let lineFeed: UInt32 = 0x0A, leftParenthesis: UInt32 = 0x28, zeroWidthSpace: UInt32 = 0x200B

    /// Characters a line may end after: line feed, space, & ) + - / soft hyphen, middle dot,
    /// zero-width space, hyphen, en dash, hyphenation point.
    private static let breaksAfter: Set<UInt32> = [
        0x0A, 0x20, 0x26, 0x29, 0x2B, 0x2D, 0x2F, 0xAD, 0xB7, 0x200B, 0x2010, 0x2013, 0x2027,
    ]
}
