/// Unix times written as UTC text without Foundation's formatters (which allocate per call and,
/// under the fuzzers' leak checker, leaked): for messages naming a time.
public enum UTCText {
    /// `yyyy-MM-dd HH:mm UTC` for `t` (Unix seconds, rounded down to the minute); a time beyond
    /// the years 0-9999 is written as its number.
    public static func minute(_ t: Double) -> String {
        guard t.isFinite, t >= -62_167_219_200, t < 253_402_300_800 else { return "\(t)" }
        let seconds = Int(t.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : -((-seconds + 86_399) / 86_400)
        let inDay = seconds - days * 86_400
        let (y, m, d) = civil(days)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let year = String(y)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year + "-\(two(m))-\(two(d)) \(two(inDay / 3600)):\(two(inDay % 3600 / 60)) UTC"
    }

    /// Year, month and day of `days` since 1970-01-01 (the proleptic Gregorian calendar;
    /// H. Hinnant's civil_from_days).
    static func civil(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
