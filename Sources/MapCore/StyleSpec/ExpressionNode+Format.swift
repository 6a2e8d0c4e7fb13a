import Foundation

// The text-building nodes: `format` and `number-format`.

/// `format`: one ``Formatted/Section`` per input, with the overrides of its options object.
final class FormatNode: Node, @unchecked Sendable {
    struct Section {
        /// The section's text (any value, converted with to-string), or for an image section
        /// the image's name (a string).
        let content: Node
        let isImage: Bool
        let scale: Node?
        let font: Node?
        let color: Node?
        let verticalAlign: Node?
    }

    let sections: [Section]

    init(_ sections: [Section]) {
        self.sections = sections
        super.init(sections.flatMap { section in
            [section.content] + [section.scale, section.font, section.color, section.verticalAlign].compactMap { $0 }
        })
    }

    override func evaluate(_ c: EvaluationContext, _ f: inout Frame) throws -> StyleValue {
        var out: [Formatted.Section] = []
        out.reserveCapacity(sections.count)
        for section in sections {
            // Only literals are checked when parsing; a computed value the specification does
            // not define is dropped, which leaves the default alignment as MapLibre's shaping
            // does for a value it does not know.
            let align = try section.verticalAlign.map { try $0.string(c, &f) }
                .flatMap { Formatted.verticalAlignments.contains($0) ? $0 : nil }
            if section.isImage {
                out.append(Formatted.Section(text: "", image: try section.content.string(c, &f), verticalAlign: align))
                continue
            }
            let text = try section.content.evaluate(c, &f).toStringText
            let scale = try section.scale.map { try $0.number(c, &f) }
            let font = try section.font.map { try fontStack($0.evaluate(c, &f)) }
            let color = try section.color.map { try sectionColor($0.evaluate(c, &f)) }
            out.append(Formatted.Section(text: text, scale: scale, textFont: font, textColor: color, verticalAlign: align))
        }
        return .formatted(Formatted(sections: out))
    }

    private func fontStack(_ value: StyleValue) throws -> [String] {
        guard case .array(let items) = value else { throw StyleError("expected array<string>, found \(value.compactText)") }
        return try items.map { item in
            guard case .string(let name) = item else { throw StyleError("expected array<string>, found \(value.compactText)") }
            return name
        }
    }

    private func sectionColor(_ value: StyleValue) throws -> Color {
        guard case .color(let color) = value else { throw StyleError("expected color, found \(value.compactText)") }
        return color
    }
}

/// `number-format`: the number as JavaScript's `Intl.NumberFormat` writes it for the options,
/// which is what MapLibre calls: grouped digits and the locale's separators, an amount of
/// money when a currency is given, and the fraction digits bounded.
///
/// Without a `locale`, MapLibre formats for the JavaScript runtime's default locale, the
/// browser's language; this engine formats for "en-US", the locale MapLibre's render tests
/// run in, so that a map reads the same on every machine rather than following `LANG`.
final class NumberFormatNode: Node, @unchecked Sendable {
    static let defaultLocale = "en-US"

    let number: Node
    let locale: Node?
    let currency: Node?
    let minFractionDigits: Node?
    let maxFractionDigits: Node?
    /// The formatter of the last options used: options are nearly always constant, and
    /// making a formatter costs far more than using one.
    private let cache = FormatterCache()

    init(number: Node, locale: Node?, currency: Node?, minFractionDigits: Node?, maxFractionDigits: Node?) {
        self.number = number
        self.locale = locale
        self.currency = currency
        self.minFractionDigits = minFractionDigits
        self.maxFractionDigits = maxFractionDigits
        super.init([number] + [locale, currency, minFractionDigits, maxFractionDigits].compactMap { $0 })
    }

    override func evaluate(_ c: EvaluationContext, _ f: inout Frame) throws -> StyleValue {
        let value = try number.number(c, &f)
        let localeTag = try locale?.string(c, &f) ?? Self.defaultLocale
        guard Self.isWellFormedTag(localeTag) else { throw StyleError("invalid locale \(StyleValue.string(localeTag).compactText)") }
        let currencyCode = try currency.map { try $0.string(c, &f).uppercased() }
        if let currencyCode, currencyCode.utf8.count != 3 || !currencyCode.utf8.allSatisfy({ (65...90).contains($0) }) {
            throw StyleError("invalid currency code \(StyleValue.string(currencyCode).compactText)")
        }
        let options = Options(locale: localeTag, currency: currencyCode,
                              minFractionDigits: try minFractionDigits.map { try Self.digits($0.number(c, &f), "min-fraction-digits") },
                              maxFractionDigits: try maxFractionDigits.map { try Self.digits($0.number(c, &f), "max-fraction-digits") })
        return .string(try cache.format(value, options))
    }

    /// A fraction-digit count as `Intl.NumberFormat` takes one: 0 to 100, fractions dropped.
    private static func digits(_ n: Double, _ name: String) throws -> Int {
        guard n >= 0, n <= 100 else { throw StyleError("\(name) must be between 0 and 100, found \(JSNumber.format(n))") }
        return Int(n)
    }

    /// Whether `tag` has the shape of a BCP 47 language tag (subtags of 1-8 letters or digits
    /// joined by "-", the first letters only): `Intl.NumberFormat` refuses others ("en_US"),
    /// where `Locale(identifier:)` would take anything.
    private static func isWellFormedTag(_ tag: String) -> Bool {
        let subtags = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = subtags.first, first.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic }) else { return false }
        return subtags.allSatisfy { subtag in
            (1...8).contains(subtag.count) && subtag.unicodeScalars.allSatisfy { $0.isASCII && CharacterSet.alphanumerics.contains($0) }
        }
    }

    struct Options: Equatable {
        var locale: String
        var currency: String?
        var minFractionDigits: Int?
        var maxFractionDigits: Int?
    }

    /// One formatter behind a lock: `NumberFormatter` may not be used from two threads at
    /// once, and labels are evaluated on several.
    final class FormatterCache: @unchecked Sendable {
        private let lock = NSLock()
        private var last: (options: Options, formatter: NumberFormatter)?

        func format(_ value: Double, _ options: Options) throws -> String {
            lock.lock()
            defer { lock.unlock() }
            let formatter: NumberFormatter
            if let last, last.options == options {
                formatter = last.formatter
            } else {
                formatter = try Self.formatter(options)
                last = (options, formatter)
            }
            guard let text = formatter.string(from: NSNumber(value: value)) else {
                throw StyleError("could not format \(JSNumber.format(value))")
            }
            return text
        }

        /// A formatter set up as `Intl.NumberFormat` is for the options. The fraction digits
        /// follow ECMA-402: by default 0 to 3 for a decimal and the currency's own digits for
        /// money; a minimum alone raises the maximum to it, a maximum alone lowers the
        /// minimum to it, and a minimum above a given maximum is an error. They are written
        /// into the locale's pattern rather than set as the formatter's fraction-digit
        /// properties, which Foundation on Linux does not always apply to money (USD with
        /// 1 to 1 digits comes out with 2).
        private static func formatter(_ options: Options) throws -> NumberFormatter {
            let formatter = NumberFormatter()
            formatter.locale = Locale(identifier: options.locale)
            formatter.numberStyle = options.currency == nil ? .decimal : .currency
            var defaults = 0...3
            if let code = options.currency {
                formatter.currencyCode = code
                let digits = currencyDigits(code)
                defaults = digits...digits
            }
            let minimum: Int, maximum: Int
            switch (options.minFractionDigits, options.maxFractionDigits) {
            case (let low?, let high?):
                guard low <= high else {
                    throw StyleError("min-fraction-digits \(low) is greater than max-fraction-digits \(high)")
                }
                (minimum, maximum) = (low, high)
            case (let low?, nil): (minimum, maximum) = (low, Swift.max(defaults.upperBound, low))
            case (nil, let high?): (minimum, maximum) = (Swift.min(defaults.lowerBound, high), high)
            case (nil, nil): (minimum, maximum) = (defaults.lowerBound, defaults.upperBound)
            }
            if let positive = formatter.positiveFormat {
                let negative = formatter.negativeFormat
                formatter.positiveFormat = pattern(positive, fractionDigits: minimum, maximum)
                // A locale without a negative pattern of its own puts a minus before the positive one.
                if let negative, negative != positive { formatter.negativeFormat = pattern(negative, fractionDigits: minimum, maximum) }
            }
            // Intl rounds halves away from zero; the formatter's default is to even.
            formatter.roundingMode = .halfUp
            // Intl writes "∞"; the formatter's default is "+∞".
            formatter.positiveInfinitySymbol = "∞"
            return formatter
        }

        /// `pattern` (an ICU number pattern: "¤#,##0.00", "#,##0.### ¤") with the fraction
        /// of its number part made `minimum` required and up to `maximum` digits.
        private static func pattern(_ pattern: String, fractionDigits minimum: Int, _ maximum: Int) -> String {
            let characters = Array(pattern)
            guard let last = characters.lastIndex(where: { $0 == "0" || $0 == "#" }) else { return pattern }
            var first = last
            while first > 0, "#0,.".contains(characters[first - 1]) { first -= 1 }
            let integer = characters[first...last].prefix { $0 != "." }
            let fraction = String(repeating: "0", count: minimum) + String(repeating: "#", count: maximum - minimum)
            return String(characters[..<first]) + String(integer) + (fraction.isEmpty ? "" : "." + fraction)
                + String(characters[(last + 1)...])
        }

        /// The fraction digits a currency is written with (JPY 0, USD 2, BHD 3), as ICU
        /// knows them; Foundation has no call for it, so they are read off a formatted zero.
        private static func currencyDigits(_ code: String) -> Int {
            let probe = NumberFormatter()
            probe.locale = Locale(identifier: "en-US")
            probe.numberStyle = .currency
            probe.currencyCode = code
            guard let text = probe.string(from: 0), let point = text.lastIndex(of: ".") else { return 0 }
            return text[text.index(after: point)...].prefix(while: { $0 == "0" }).count
        }
    }
}
