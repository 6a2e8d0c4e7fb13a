/// Unix times written as UTC text, and the proleptic Gregorian calendar the readers of dates use,
/// without Foundation's formatters (which allocate per call and, under the fuzzers' leak checker,
/// leaked).
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

    /// Days in month `month` (1...12) of `year`.
    static func daysIn(_ month: Int, _ year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to the date (H. Hinnant's days_from_civil).
    static func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
