import Foundation

// Nodes about text and images: `collator`, `resolved-locale`, `is-supported-script`, `image`,
// and `line-progress`.

/// `["collator", {case-sensitive, diacritic-sensitive, locale}]`: how `==`, `!=`, `<` ... given
/// it as their third argument compare strings, as `Intl.Collator` with `usage: "search"` does
/// (ICU collation through Foundation): insensitive to case, to diacritics, or to both, in the
/// locale's order. Without a locale it collates for "en-US", as `number-format` formats.
final class CollatorNode: Node, @unchecked Sendable {
    let caseSensitive: Node?
    let diacriticSensitive: Node?
    let locale: Node?

    init(caseSensitive: Node?, diacriticSensitive: Node?, locale: Node?) {
        self.caseSensitive = caseSensitive
        self.diacriticSensitive = diacriticSensitive
        self.locale = locale
        super.init([caseSensitive, diacriticSensitive, locale].compactMap { $0 })
    }

    struct Collator {
        var options: String.CompareOptions
        var locale: Locale
        /// The locale asked for.
        var tag: String

        func compare(_ a: String, _ b: String) -> ComparisonResult {
            a.compare(b, options: options, range: nil, locale: locale)
        }
    }

    /// A collator is not a value the other expressions can hold; only the comparisons and
    /// `resolved-locale` read it (``collator(_:_:)``).
    override func evaluate(_ c: EvaluationContext, _ f: inout Frame) throws -> StyleValue { .null }

    override var isConstantExpression: Bool { false }

    func collator(_ c: EvaluationContext, _ f: inout Frame) throws -> Collator {
        var options: String.CompareOptions = []
        if try !(caseSensitive?.boolean(c, &f) ?? false) { options.insert(.caseInsensitive) }
        if try !(diacriticSensitive?.boolean(c, &f) ?? false) { options.insert(.diacriticInsensitive) }
        let tag = try locale?.string(c, &f) ?? NumberFormatNode.defaultLocale
        return Collator(options: options, locale: locales.locale(tag), tag: tag)
    }

    /// The locale of the last tag used (nearly always the same one): made once, not per comparison.
    private let locales = LocaleCache()

    final class LocaleCache: @unchecked Sendable {
        private let lock = NSLock()
        private var last: (tag: String, locale: Locale)?
        func locale(_ tag: String) -> Locale {
            lock.lock()
            defer { lock.unlock() }
            if let last, last.tag == tag { return last.locale }
            let locale = Locale(identifier: tag)
            last = (tag, locale)
            return locale
        }
    }

    /// The locale a collator of `tag` uses, as `resolvedOptions().locale` reports it: the tag
    /// when its language is one ICU knows, else the default.
    static func resolved(_ tag: String) -> String {
        let language = tag.split(separator: "-").first.map(String.init) ?? ""
        guard !language.isEmpty, language.count <= 3, Locale.availableIdentifiers.contains(where: {
            $0 == language || $0.hasPrefix(language + "_")
        }) else { return NumberFormatNode.defaultLocale }
        return tag
    }

    /// The collator node behind `node` (itself, or a variable bound to one).
    static func behind(_ node: Node) -> CollatorNode? {
        if let collator = node as? CollatorNode { return collator }
        if let variable = node as? VariableNode { return behind(variable.bound) }
        return nil
    }
}

/// A comparison with a collator: strings compared by the collator; `==` and `!=` between
/// values that are not both strings compare as without one.
final class CollatedCompareNode: Node, @unchecked Sendable {
    let op: CompareOp
    let collator: CollatorNode

    init(_ op: CompareOp, _ lhs: Node, _ rhs: Node, collator: CollatorNode) {
        self.op = op
        self.collator = collator
        super.init([lhs, rhs, collator])
    }

    override func evaluate(_ c: EvaluationContext, _ f: inout Frame) throws -> StyleValue {
        let a = try children[0].evaluate(c, &f)
        let b = try children[1].evaluate(c, &f)
        guard case .string(let x) = a, case .string(let y) = b else {
            if !op.isOrdering { return .bool(try Values.compare(op, a, b)) }
            throw StyleError("expected arguments for \"\(op.symbol)\" to be (string, string), found (\(a.valueType.kind), \(b.valueType.kind))")
        }
        let order = try collator.collator(c, &f).compare(x, y)
        switch op {
        case .equal: return .bool(order == .orderedSame)
        case .notEqual: return .bool(order != .orderedSame)
        case .less: return .bool(order == .orderedAscending)
        case .lessOrEqual: return .bool(order != .orderedDescending)
        case .greater: return .bool(order == .orderedDescending)
        case .greaterOrEqual: return .bool(order != .orderedAscending)
        }
    }
}

/// `["resolved-locale", collator]`: the locale the collator uses.
final class ResolvedLocaleNode: Node, @unchecked Sendable {
    let collator: CollatorNode
    init(_ collator: CollatorNode) {
        self.collator = collator
        super.init([collator])
    }
    override func evaluate(_ c: EvaluationContext, _ f: inout Frame) throws -> StyleValue {
        .string(CollatorNode.resolved(try collator.collator(c, &f).tag))
    }
}

/// `["is-supported-script", text]`: false when the text holds a character of a script that
/// needs complex shaping MapLibre does not do (Indic scripts and Sinhala U+0900-0DFF, Tibetan
/// and Myanmar U+0F00-109F, Khmer U+1780-17FF). Right-to-left scripts are supported: this
/// engine orders and shapes them as MapLibre does with its RTL plugin.
final class SupportedScriptNode: Node, @unchecked Sendable {
    init(_ text: Node) { super.init([text]) }

    static func isSupported(_ text: String) -> Bool {
        !text.unicodeScalars.contains { u in
            let v = u.value
            return (0x0900...0x0DFF).contains(v) || (0x0F00...0x109F).contains(v) || (0x1780...0x17FF).contains(v)
        }
    }

    override func evaluate(_ c: EvaluationContext, _ f: inout Frame) throws -> StyleValue {
        .bool(Self.isSupported(try children[0].string(c, &f)))
    }
}

/// `["image", name]`: the image's name (null for ""). Whether the style has the image is known
/// only while a layer's image property is evaluated (``EvaluationContext/imageAvailable``), so
/// an image is never folded into a literal; `coalesce` passes over images the style lacks.
final class ImageNode: Node, @unchecked Sendable {
    init(_ name: Node) { super.init([name]) }

    override var isConstantExpression: Bool { false }

    /// The name, and whether the style has an image of it.
    func resolve(_ c: EvaluationContext, _ f: inout Frame) throws -> (name: String, available: Bool)? {
        let name = try children[0].string(c, &f)
        guard !name.isEmpty else { return nil }
        return (name, c.imageAvailable?(name) ?? true)
    }

    override func evaluate(_ c: EvaluationContext, _ f: inout Frame) throws -> StyleValue {
        try resolve(c, &f).map { .string($0.name) } ?? .null
    }
}

/// `["line-progress"]`: how far along its line the point being coloured is (0 elsewhere).
final class LineProgressNode: Node, @unchecked Sendable {
    init() { super.init([], readsFeature: true) }
    override var isConstantExpression: Bool { false }
    override func evaluate(_ c: EvaluationContext, _ f: inout Frame) throws -> StyleValue {
        .number(c.lineProgress ?? 0)
    }
}

extension ImageNode {
    /// `coalesce` over arguments some of which are images: an image the style lacks counts as
    /// null, and when the last argument is such an image the first missing image's name is the
    /// result (so the style can be told which image is missing).
    static func coalesce(_ nodes: [Node], _ c: EvaluationContext, _ f: inout Frame) throws -> StyleValue {
        var requested: String?
        for (i, node) in nodes.enumerated() {
            if let image = node as? ImageNode {
                guard let resolved = try image.resolve(c, &f) else { continue }
                if resolved.available { return .string(resolved.name) }
                if requested == nil { requested = resolved.name }
                if i == nodes.count - 1, let requested { return .string(requested) }
                continue
            }
            let value = try node.evaluate(c, &f)
            if case .null = value { continue }
            return value
        }
        return .null
    }
}
