import Foundation

/// The times a NASA GIBS layer has, from a WMTS DescribeDomains answer (WORLD-DATA.md, section 2):
/// `<DimensionDomain><ows:Identifier>time</ows:Identifier><Domain>START/END/PERIOD,...</Domain>`.
/// Each comma-separated part is a run of times `START`, `START + PERIOD`, ... up to `END`, or a
/// single time; times are `YYYY-MM-DDTHH:MM:SSZ` or a bare date (midnight UTC); periods are ISO
/// 8601 durations of days, hours, minutes and seconds (`PT10M`, `PT30M`, `P1D`).
///
/// Gaps between runs are common (a satellite's outage), so the frames a loop uses come from the
/// last contiguous stretch (`lastRun`). An answer without a time domain, or with a part that is
/// no run, is one error naming the URL: a wrong guess about the format fails safe.
public struct GIBSTimeDomain: Equatable, Sendable {
    public struct Run: Equatable, Sendable {
        /// Unix seconds; `end` >= `start`, `step` > 0 (a single time: start == end, step 1).
        public let start: Double, end: Double, step: Double
        /// How many times the run holds.
        public var count: Int { Int(((end - start) / step).rounded(.down)) + 1 }

        public init(start: Double, end: Double, step: Double) { self.start = start; self.end = end; self.step = step }
    }

    /// In the answer's order.
    public let runs: [Run]

    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// At most this many runs are read (an answer listing a layer's every outage for years).
    public static let runLimit = 10_000

    public init(data: Data, url: String) throws {
        func fail(_ what: String) -> Failure { Failure(description: "\(url): \(what)") }
        guard data.count <= 8 << 20 else { throw fail("DescribeDomains answer larger than 8 MB") }
        let text = String(decoding: data, as: UTF8.self)
        guard let domain = Self.timeDomain(text) else {
            throw fail(MessageText.isHTML(data) ? "an HTML page, not a DescribeDomains answer"
                                                          : "no time domain (<DimensionDomain> with identifier 'time')")
        }
        var runs: [Run] = []
        for part in domain.split(separator: ",", omittingEmptySubsequences: true) {
            let p = part.trimmingCharacters(in: .whitespacesAndNewlines)
            if p.isEmpty { continue }
            guard runs.count < Self.runLimit else { throw fail("time domain of more than \(Self.runLimit) runs") }
            guard let run = Self.run(p) else { throw fail("time domain: '\(MessageText.clipped(p))' is no time or START/END/PERIOD") }
            runs.append(run)
        }
        guard !runs.isEmpty else { throw fail("time domain is empty") }
        self.runs = runs
    }

    /// The last run, grown backwards over the runs before it that it continues (one step, each
    /// starting one step after the one before ends; a single time takes the step of the run it
    /// joins): the newest stretch without a gap.
    public var lastRun: Run? {
        guard var run = runs.last else { return nil }
        var known: Double? = run.count > 1 ? run.step : nil
        for r in runs.dropLast().reversed() {
            let own: Double? = r.count > 1 ? r.step : nil
            let step = known ?? own ?? (run.start - r.start)
            guard step > 0, own == nil || own == step else { break }
            let last = r.start + Double(r.count - 1) * (own ?? step)
            guard abs(last + step - run.start) < 0.5 else { break }
            run = Run(start: r.start, end: run.end, step: step)
            known = step
        }
        return run
    }

    /// The latest time of `run` at or before `t`; nil before its start.
    public static func latest(in run: Run, atOrBefore t: Double) -> Double? {
        guard t >= run.start else { return nil }
        let k = min(Double(run.count - 1), ((t - run.start) / run.step).rounded(.down))
        return run.start + k * run.step
    }

    // MARK: Reading

    /// The text of the `<Domain>` of the `<DimensionDomain>` whose identifier is `time`.
    static func timeDomain(_ text: String) -> String? {
        var rest = Substring(text)
        while let open = rest.range(of: "<DimensionDomain") {
            rest = rest[open.upperBound...]
            guard let close = rest.range(of: "</DimensionDomain>") else { return nil }
            let block = rest[..<close.lowerBound]
            rest = rest[close.upperBound...]
            guard let id = element("Identifier", in: block), id.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() == "time",
                  let domain = element("Domain", in: block) else { continue }
            return String(domain)
        }
        return nil
    }

    /// The text inside the first element named `name` (any namespace prefix) in `block`.
    static func element(_ name: String, in block: Substring) -> Substring? {
        var rest = block
        while let lt = rest.firstIndex(of: "<") {
            rest = rest[rest.index(after: lt)...]
            guard let gt = rest.firstIndex(of: ">") else { return nil }
            let tag = rest[..<gt]
            rest = rest[rest.index(after: gt)...]
            let bare = tag.split(separator: " ").first.map { $0.split(separator: ":").last.map(String.init) ?? "" } ?? ""
            guard bare == name, !tag.hasPrefix("/"), !tag.hasSuffix("/") else { continue }
            guard let end = rest.range(of: "</") else { return nil }
            return rest[..<end.lowerBound]
        }
        return nil
    }

    static func run(_ p: String) -> Run? {
        let pieces = p.split(separator: "/", omittingEmptySubsequences: false)
        switch pieces.count {
        case 1:
            guard let t = time(pieces[0]) else { return nil }
            return Run(start: t, end: t, step: 1)
        case 3:
            guard let a = time(pieces[0]), let b = time(pieces[1]), let step = period(pieces[2]), b >= a,
                  (b - a) / step < 1e7 else { return nil }
            return Run(start: a, end: b, step: step)
        default:
            return nil
        }
    }

    /// `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM:SSZ` (seconds optional) as Unix seconds.
    static func time(_ s: Substring) -> Double? {
        let b = Array(s.utf8)
        func number(_ r: Range<Int>) -> Int? {
            guard r.upperBound <= b.count, !r.isEmpty else { return nil }
            var v = 0
            for i in r { guard b[i] >= 48 && b[i] <= 57 else { return nil }; v = v * 10 + Int(b[i] - 48) }
            return v
        }
        guard b.count >= 10, b[4] == 45, b[7] == 45, let y = number(0..<4), let m = number(5..<7), let d = number(8..<10),
              (1...12).contains(m), d >= 1, d <= UTCText.daysIn(m, y) else { return nil }
        var seconds = 0
        if b.count > 10 {
            guard b[10] == 84, b.last == 90, b.count == 17 || b.count == 20, b[13] == 58,
                  let hh = number(11..<13), let mm = number(14..<16), hh < 24, mm < 60 else { return nil }
            var ss = 0
            if b.count == 20 { guard b[16] == 58, let v = number(17..<19), v < 60 else { return nil }; ss = v }
            seconds = hh * 3600 + mm * 60 + ss
        }
        return Double(UTCText.daysFromCivil(y, m, d) * 86_400 + seconds)
    }

    /// An ISO 8601 duration of days, hours, minutes and seconds, in seconds (> 0).
    static func period(_ s: Substring) -> Double? {
        var rest = Substring(s)
        guard rest.first == "P" else { return nil }
        rest = rest.dropFirst()
        var total = 0.0, inTime = false, any = false, digits = ""
        for c in rest {
            if c == "T" { guard !inTime, digits.isEmpty else { return nil }; inTime = true; continue }
            if c.isASCII && c.isNumber { digits.append(c); guard digits.count <= 9 else { return nil }; continue }
            guard let v = Double(digits) else { return nil }
            digits = ""
            switch (c, inTime) {
            case ("D", false): total += v * 86_400
            case ("H", true): total += v * 3600
            case ("M", true): total += v * 60
            case ("S", true): total += v
            default: return nil
            }
            any = true
        }
        guard any, digits.isEmpty, total > 0 else { return nil }
        return total
    }
}
