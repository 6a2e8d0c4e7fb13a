/// A NORAD two-line element set, parsed column by column from the standard format.
///
/// Line 1: `1 NNNNNC YYLLLPPP YYDDD.DDDDDDDD +.NNNNNNNN +NNNNN-N +NNNNN-N E NNNNC`
/// (catalogue number, classification, international designator, epoch, ndot/2, nddot/6, B*,
/// ephemeris type, element set number, checksum). Line 2: catalogue number, inclination, RAAN,
/// eccentricity (assumed point), argument of perigee, mean anomaly, mean motion (rev/day),
/// revolution number, checksum. Values are kept in the units of the format; `meanElements`
/// converts them for SGP4.
public struct TLE: Sendable, Hashable {
    /// The name line of a three-line set (trimmed, without a leading "0 "), if there was one.
    public var name: String?
    /// Line 1 and line 2, cut to 69 columns.
    public let line1: String
    public let line2: String

    /// NORAD catalogue number (columns 3-7; Alpha-5 letters are decoded, A0000 = 100000).
    public let catalogNumber: Int
    /// Classification (column 8): U, C or S; blank is read as U.
    public let classification: Character
    /// International designator (columns 10-17), trimmed, e.g. "98067A"; may be empty.
    public let internationalDesignator: String
    /// Four-digit epoch year (two digits in columns 19-20: 57-99 are 19xx, 00-56 are 20xx).
    public let epochYear: Int
    /// Epoch day of the year with its fraction (columns 21-32); 1.0 is 1 January 0h UTC.
    public let epochDayOfYear: Double
    /// First derivative of the mean motion over 2 (columns 34-43), rev/day².
    public let meanMotionDotOver2: Double
    /// Second derivative of the mean motion over 6 (columns 45-52), rev/day³.
    public let meanMotionDDotOver6: Double
    /// B* drag term (columns 54-61), 1/Earth radii.
    public let bstar: Double
    /// Ephemeris type (column 63); blank is read as 0.
    public let ephemerisType: Int
    /// Element set number (columns 65-68); blank is read as 0.
    public let elementSetNumber: Int

    /// Inclination (line 2 columns 9-16), degrees.
    public let inclinationDegrees: Double
    /// Right ascension of the ascending node (columns 18-25), degrees.
    public let raanDegrees: Double
    /// Eccentricity (columns 27-33, assumed leading decimal point).
    public let eccentricity: Double
    /// Argument of perigee (columns 35-42), degrees.
    public let argumentOfPerigeeDegrees: Double
    /// Mean anomaly (columns 44-51), degrees.
    public let meanAnomalyDegrees: Double
    /// Mean motion (columns 53-63), revolutions per day.
    public let meanMotionRevPerDay: Double
    /// Revolution number at epoch (columns 64-68); blank is read as 0.
    public let revolutionNumber: Int

    /// The epoch as a UTC Julian date.
    public let epoch: JulianDate

    /// The epoch in seconds since 1970-01-01 0h UTC.
    public var epochUnixSeconds: Double { epoch.unixSeconds }

    /// Parses a two-line set (and an optional name line).
    ///
    /// Lines longer than 69 characters are cut to 69; a trailing CR or LF is ignored.
    /// Checks: length, line numbers, both checksums (unless `verifyChecksums` is false), blank
    /// separator columns, every field's format, and that both lines name the same satellite.
    /// The thrown `TLEError`'s description is one line saying which line, columns and field.
    public init<S: StringProtocol>(line1: S, line2: S, name: String? = nil,
                                   verifyChecksums: Bool = true) throws(TLEError) {
        let l1 = try TLELine(Substring(line1), number: 1)
        let l2 = try TLELine(Substring(line2), number: 2)
        if verifyChecksums {
            try l1.verifyChecksum()
            try l2.verifyChecksum()
        }

        // Line 1.
        for column in [2, 9, 18, 33, 44, 53, 62, 64] { try l1.requireBlank(column) }
        catalogNumber = try l1.catalogNumber()
        let cls = l1.bytes[7]
        guard cls == UInt8(ascii: " ") || (cls >= UInt8(ascii: "A") && cls <= UInt8(ascii: "Z")) else {
            throw l1.error(8...8, "classification", "'\(l1.raw(8...8))' is not a letter")
        }
        classification = cls == UInt8(ascii: " ") ? "U" : Character(Unicode.Scalar(cls))
        let designator = l1.raw(10...17)
        guard designator.allSatisfy({ $0 == " " || ($0.isASCII && ($0.isLetter || $0.isNumber)) }) else {
            throw l1.error(10...17, "international designator", "'\(designator)' has characters other than letters and digits")
        }
        internationalDesignator = designator.trimmingBlanks()
        let yy = try l1.integer(19...20, "epoch year")
        guard l1.bytes[18] != UInt8(ascii: " ") else {
            throw l1.error(19...20, "epoch year", "'\(l1.raw(19...20))' is not a two-digit year")
        }
        epochYear = yy < 57 ? 2000 + yy : 1900 + yy
        epochDayOfYear = try l1.decimal(21...32, "epoch day")
        guard epochDayOfYear >= 1, epochDayOfYear < 367 else {
            throw l1.error(21...32, "epoch day", "\(epochDayOfYear) is not a day of the year (1 to 366.99…)")
        }
        meanMotionDotOver2 = try l1.decimal(34...43, "ndot/2")
        meanMotionDDotOver6 = try l1.exponential(45...52, "nddot/6")
        bstar = try l1.exponential(54...61, "bstar")
        ephemerisType = try l1.integer(63...63, "ephemeris type", blankValue: 0)
        elementSetNumber = try l1.integer(65...68, "element set number", blankValue: 0)

        // Line 2.
        for column in [2, 8, 17, 26, 34, 43, 52] { try l2.requireBlank(column) }
        let catalog2 = try l2.catalogNumber()
        guard catalog2 == catalogNumber else {
            throw TLEError(kind: .catalogNumberMismatch, line: 2, columns: 3...7, field: "catalogue number",
                           message: "'\(l2.raw(3...7))' does not match line 1's '\(l1.raw(3...7))'")
        }
        inclinationDegrees = try l2.decimal(9...16, "inclination")
        guard (0...180).contains(inclinationDegrees) else {
            throw l2.error(9...16, "inclination", "\(inclinationDegrees) is outside 0...180 degrees")
        }
        raanDegrees = try l2.decimal(18...25, "right ascension of the ascending node")
        guard (0...360).contains(raanDegrees) else {
            throw l2.error(18...25, "right ascension of the ascending node", "\(raanDegrees) is outside 0...360 degrees")
        }
        eccentricity = try l2.assumedDecimal(27...33, "eccentricity")
        argumentOfPerigeeDegrees = try l2.decimal(35...42, "argument of perigee")
        guard (0...360).contains(argumentOfPerigeeDegrees) else {
            throw l2.error(35...42, "argument of perigee", "\(argumentOfPerigeeDegrees) is outside 0...360 degrees")
        }
        meanAnomalyDegrees = try l2.decimal(44...51, "mean anomaly")
        guard (0...360).contains(meanAnomalyDegrees) else {
            throw l2.error(44...51, "mean anomaly", "\(meanAnomalyDegrees) is outside 0...360 degrees")
        }
        meanMotionRevPerDay = try l2.decimal(53...63, "mean motion")
        guard meanMotionRevPerDay > 0 else {
            throw l2.error(53...63, "mean motion", "\(meanMotionRevPerDay) rev/day is not positive")
        }
        revolutionNumber = try l2.integer(64...68, "revolution number", blankValue: 0)

        self.line1 = l1.text
        self.line2 = l2.text
        self.name = name.map { $0.trimmingBlanks() }.flatMap { $0.isEmpty ? nil : $0 }

        // Epoch: 0h of 1 January plus (day of year - 1). Day 366 of a common year is the next
        // 1 January, as Vallado's days2mdhms/jday also make it.
        let wholeDay = epochDayOfYear.rounded(.down)
        let jan1 = Double(JulianDate.dayNumber(year: epochYear, month: 1, day: 1)) - 0.5
        epoch = JulianDate(day: jan1 + (wholeDay - 1), fraction: epochDayOfYear - wholeDay)
    }

    /// The elements in SGP4's units (radians, radians per minute, days since 1950).
    public var meanElements: MeanElements {
        let d2r = SGP4Math.deg2rad
        return MeanElements(
            epoch: epoch,
            bstar: bstar,
            ndot: meanMotionDotOver2 / (SGP4Math.xpdotp * 1440.0),
            nddot: meanMotionDDotOver6 / (SGP4Math.xpdotp * 1440.0 * 1440.0),
            eccentricity: eccentricity,
            argumentOfPerigee: argumentOfPerigeeDegrees * d2r,
            inclination: inclinationDegrees * d2r,
            meanAnomaly: meanAnomalyDegrees * d2r,
            meanMotion: meanMotionRevPerDay / SGP4Math.xpdotp,
            raan: raanDegrees * d2r)
    }
}

extension StringProtocol {
    /// Without leading and trailing blanks and tabs.
    func trimmingBlanks() -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0.isNewline }
        guard let start = firstIndex(where: { !isBlank($0) }),
              let end = lastIndex(where: { !isBlank($0) }) else { return "" }
        return String(self[start...end])
    }
}
