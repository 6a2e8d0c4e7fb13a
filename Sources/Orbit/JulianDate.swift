/// A Julian date kept in two parts for precision: `day` is a whole day plus one half (the Julian
/// date at 0h UTC of a calendar day) and `fraction` the part of that day that has passed.
/// Time scale: UTC (also used as UT1 here, see `SiderealTime`).
public struct JulianDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Julian date at 0h of the day (…​.5).
    public let day: Double
    /// Fraction of the day since 0h, in [0, 1) once normalised.
    public let fraction: Double

    /// Julian date of the Unix epoch, 1970-01-01 0h UTC.
    public static let unixEpoch = 2440587.5
    /// J2000.0 (2000-01-01 12h).
    public static let j2000 = 2451545.0

    /// Any split of a Julian date; normalised so that `day` ends in .5 and `fraction` is in [0, 1).
    public init(day: Double, fraction: Double = 0) {
        let base = (day - 0.5).rounded(.down) + 0.5
        var f = (day - base) + fraction
        var d = base
        let whole = f.rounded(.down)
        d += whole
        f -= whole
        self.day = d
        self.fraction = f
    }

    /// From a UTC calendar date (proleptic Gregorian; months 1...12; `second` may carry a fraction).
    /// Out-of-range days, hours, minutes or seconds roll over (day 32 of December is 1 January).
    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Double = 0) {
        let jd0 = Double(JulianDate.dayNumber(year: year, month: month, day: day)) - 0.5
        let seconds = Double(hour) * 3600 + Double(minute) * 60 + second
        self.init(day: jd0, fraction: seconds / 86400)
    }

    /// From seconds since 1970-01-01 0h UTC (Unix time, leap seconds not counted).
    public init(unixSeconds: Double) {
        let days = (unixSeconds / 86400).rounded(.down)
        let rest = unixSeconds - days * 86400
        self.init(day: JulianDate.unixEpoch + days, fraction: rest / 86400)
    }

    /// The Julian date as one number (loses about 40 µs of resolution in the present era).
    public var value: Double { day + fraction }

    /// Seconds since 1970-01-01 0h UTC.
    public var unixSeconds: Double { (day - JulianDate.unixEpoch) * 86400 + fraction * 86400 }

    /// Days from `other` to `self`, differencing the parts first.
    public func days(since other: JulianDate) -> Double {
        (day - other.day) + (fraction - other.fraction)
    }

    /// Days added.
    public func adding(days: Double) -> JulianDate {
        JulianDate(day: day, fraction: fraction + days)
    }

    /// The UTC calendar date (proleptic Gregorian).
    public var calendar: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Double) {
        // Fliegel & Van Flandern's inverse of the day number.
        let jdn = Int((day + 0.5).rounded())
        var l = jdn + 68569
        let n = 4 * l / 146097
        l -= (146097 * n + 3) / 4
        let i = 4000 * (l + 1) / 1461001
        l = l - 1461 * i / 4 + 31
        let j = 80 * l / 2447
        let d = l - 2447 * j / 80
        l = j / 11
        let m = j + 2 - 12 * l
        let y = 100 * (n - 49) + i + l
        var s = fraction * 86400
        let h = Int(s / 3600)
        s -= Double(h) * 3600
        let mi = Int(s / 60)
        s -= Double(mi) * 60
        return (y, m, d, h, mi, s)
    }

    public static func < (a: JulianDate, b: JulianDate) -> Bool {
        a.day < b.day || (a.day == b.day && a.fraction < b.fraction)
    }

    public var description: String {
        let c = calendar
        func pad(_ v: Int, _ w: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, w - s.count)) + s
        }
        let sec = Int(c.second)
        let micro = Int(((c.second - Double(sec)) * 1e6).rounded(.down))
        return "\(pad(c.year, 4))-\(pad(c.month, 2))-\(pad(c.day, 2)) "
            + "\(pad(c.hour, 2)):\(pad(c.minute, 2)):\(pad(sec, 2)).\(pad(micro, 6)) UTC "
            + "(JD \(value))"
    }

    /// Julian day number (the Julian date at noon) of a Gregorian calendar day; Fliegel & Van
    /// Flandern (1968), valid for any day after 4801 BC. Days outside the month are allowed.
    static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        let a = (month - 14) / 12  // -1 for January and February, 0 otherwise
        return (1461 * (year + 4800 + a)) / 4
            + (367 * (month - 2 - 12 * a)) / 12
            - (3 * ((year + 4900 + a) / 100)) / 4
            + day - 32075
    }
}
