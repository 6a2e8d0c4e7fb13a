/// Why an element set was rejected. `description` is one line naming the line, the columns
/// (1-based, as in the format's documentation) and the field, e.g.
/// `TLE line 2 column 69 (checksum): checksum is 3, expected 7`.
public struct TLEError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// A line has fewer than 69 characters.
        case lineTooShort
        /// Column 1 is not the expected line number ('1' or '2').
        case wrongLineNumber
        /// Column 69 does not match the sum of the line's digits (minus signs count 1) mod 10.
        case badChecksum
        /// A column holds something that is not what the format allows there.
        case malformedField
        /// Lines 1 and 2 name different catalogue numbers.
        case catalogNumberMismatch
        /// A multi-set text has a line 1 without its line 2, or the like.
        case incompleteSet
    }

    public let kind: Kind
    /// 1 or 2 (line of the element set), or nil when the error is about the set as a whole.
    public let line: Int?
    /// 1-based columns of the field, when the error is about one field.
    public let columns: ClosedRange<Int>?
    /// Name of the field, e.g. "eccentricity".
    public let field: String?
    /// What is wrong, without the location.
    public let message: String
    /// Line number in a text of several sets (`TLE.parseAll`), when known.
    public let textLine: Int?

    public init(kind: Kind, line: Int?, columns: ClosedRange<Int>? = nil, field: String? = nil,
                message: String, textLine: Int? = nil) {
        self.kind = kind
        self.line = line
        self.columns = columns
        self.field = field
        self.message = message
        self.textLine = textLine
    }

    /// The same error, located at a line of a longer text.
    func at(textLine: Int) -> TLEError {
        TLEError(kind: kind, line: line, columns: columns, field: field, message: message,
                 textLine: textLine)
    }

    public var description: String {
        var where_ = "TLE"
        if let line { where_ += " line \(line)" }
        if let columns {
            where_ += columns.count == 1 ? " column \(columns.lowerBound)"
                : " columns \(columns.lowerBound)-\(columns.upperBound)"
        }
        if let field { where_ += " (\(field))" }
        if let textLine { where_ = "text line \(textLine): " + where_ }
        // One line, whatever the message quoted.
        let text = "\(where_): \(message)"
        return String(text.map { $0.isNewline ? " " : $0 })
    }
}
