/// HTTP dates (`Expires`, `Last-Modified`), in the three forms a recipient must accept (RFC 9110,
/// 5.6.7): IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`, the obsolete RFC 850 form
/// `Sunday, 06-Nov-94 08:49:37 GMT` and asctime's `Sun Nov  6 08:49:37 1994`. The weekday is not
/// checked against the date; anything else, or a field out of range, is not a date.
public enum HTTPDate {
    /// Seconds since 1970-01-01 00:00:00 UTC, or nil.
    public static func parse(_ text: String) -> Double? {
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        if words.count == 6, words[0].hasSuffix(","), words[5] == "GMT" {
            // IMF-fixdate: "Sun," "06" "Nov" "1994" "08:49:37" "GMT".
            guard words[1].count == 2, words[3].count == 4, let day = digits(words[1]), let month = month(words[2]),
                  let year = digits(words[3]) else { return nil }
            return seconds(year, month, day, words[4])
        }
        if words.count == 4, words[0].hasSuffix(","), words[3] == "GMT" {
            // RFC 850: "Sunday," "06-Nov-94" "08:49:37" "GMT" (a two-digit year: the century that
            // puts it nearest, within 50 years ahead, as RFC 9110 asks; taken here as 1970 - 2069).
            let parts = words[1].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3, parts[0].count == 2, parts[2].count == 2, let day = digits(parts[0]),
                  let month = month(parts[1]), let yy = digits(parts[2]) else { return nil }
            return seconds(yy < 70 ? 2000 + yy : 1900 + yy, month, day, words[2])
        }
        if words.count == 5, !words[0].hasSuffix(",") {
            // asctime: "Sun" "Nov" "6" "08:49:37" "1994".
            guard (1...2).contains(words[2].count), words[4].count == 4, let month = month(words[1]), let day = digits(words[2]),
                  let year = digits(words[4]) else { return nil }
            return seconds(year, month, day, words[3])
        }
        return nil
    }

    /// The value of a string of ASCII digits only (no sign, no spaces), or nil.
    private static func digits(_ s: String) -> Int? {
        guard !s.isEmpty, s.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return Int(s)
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// 1...12 for a month's three-letter name (any case).
    private static func month(_ s: String) -> Int? {
        guard s.count == 3, let i = months.firstIndex(of: s.lowercased()) else { return nil }
        return i + 1
    }

    /// `hh:mm:ss` on the given day, checked, as seconds since 1970.
    private static func seconds(_ year: Int, _ month: Int, _ day: Int, _ time: String) -> Double? {
        let hms = time.split(separator: ":", omittingEmptySubsequences: false)
        guard hms.count == 3, hms.allSatisfy({ $0.count == 2 }),
              let h = digits(String(hms[0])), let m = digits(String(hms[1])), let s = digits(String(hms[2])),
              (0...23).contains(h), (0...59).contains(m), (0...60).contains(s),
              (1...9999).contains(year), day >= 1, day <= UTCText.daysIn(month, year) else { return nil }
        return Double(UTCText.daysFromCivil(year, month, day)) * 86_400 + Double(h * 3600 + m * 60 + s)
    }
}
