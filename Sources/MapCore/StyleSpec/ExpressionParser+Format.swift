import Foundation

/// Parsing of the text-building operators `format` and `number-format`.
extension ExpressionParser {
    /// `["format", input, options?, input, options?, ...]`. Each input is a section: text (a
    /// string, an untyped value converted with to-string at evaluation, or null) or
    /// `["image", name]`. The object after an input, if any, holds that section's overrides,
    /// each a literal or an expression: `font-scale` (number), `text-font` (array of
    /// strings), `text-color` (colour), `vertical-align` ("bottom", "center" or "top").
    func parseFormat(_ items: [JSON], _ ctx: ParseContext) throws -> Typed {
        try checkArity(items, 1...Int.max, ctx)
        if case .object = items[1] {
            throw fail("\(ctx.path)[1]", "the first argument of \"format\" must be a text or an image section, found an options object")
        }
        var sections: [FormatNode.Section] = []
        var i = 1
        while i < items.count {
            let (content, isImage) = try formatContent(items[i], ctx.argument(i))
            var options = JSONObject()
            if i + 1 < items.count, case .object(let object) = items[i + 1] {
                options = object
                i += 1
            }
            let optionsPath = "\(ctx.path)[\(i)]"
            func option(_ name: String, _ type: ValueType) throws -> Node? {
                try parseOption(options, name, type, path: optionsPath, ctx)
            }
            if case .string(let align)? = options["vertical-align"], !Formatted.verticalAlignments.contains(align) {
                throw fail("\(optionsPath).vertical-align",
                           "expected one of \(Formatted.verticalAlignments.joined(separator: ", ")), found \(JSON.string(align).compactText)")
            }
            let scale = try option("font-scale", .number)
            let font = try option("text-font", .array(.string, nil))
            let color = try option("text-color", .color)
            let verticalAlign = try option("vertical-align", .string)
            // An image is drawn at its own size and in its own colours, so of the overrides
            // only the alignment applies to it (the others are still checked).
            sections.append(isImage
                ? FormatNode.Section(content: content, isImage: true, scale: nil, font: nil, color: nil, verticalAlign: verticalAlign)
                : FormatNode.Section(content: content, isImage: false, scale: scale, font: font, color: color, verticalAlign: verticalAlign))
            i += 1
        }
        return Typed(node: FormatNode(sections), type: .formatted)
    }

    /// A section's input: the name expression of `["image", name]`, or text of type string,
    /// null or untyped (a number or a colour must be converted explicitly, as in MapLibre).
    private func formatContent(_ json: JSON, _ ctx: ParseContext) throws -> (node: Node, isImage: Bool) {
        if case .array(let items) = json, items.first == .string("image") {
            try checkArity(items, 1...1, ctx)
            return (try parse(items[1], ctx.argument(1, .string)).node, true)
        }
        let content = try parse(json, ctx)
        switch content.type.kind {
        case .string, .null, .value:
            return (content.node, false)
        default:
            throw fail(ctx.path, "expected a string, an image or null as a section of \"format\", found \(found(json, content.type))")
        }
    }

    /// `["number-format", number, options]`: options `locale` (a BCP 47 tag), `currency` (an
    /// ISO 4217 code, which makes the number an amount of money), `min-fraction-digits` and
    /// `max-fraction-digits`, each a literal or an expression; the result is a string.
    func parseNumberFormat(_ items: [JSON], _ ctx: ParseContext) throws -> Typed {
        try checkArity(items, 2...2, ctx)
        let number = try parse(items[1], ctx.argument(1, .number))
        guard case .object(let options) = items[2] else {
            throw fail("\(ctx.path)[2]", "expected an options object, found \(items[2].compactText)")
        }
        func option(_ name: String, _ type: ValueType) throws -> Node? {
            try parseOption(options, name, type, path: "\(ctx.path)[2]", ctx)
        }
        let node = NumberFormatNode(number: number.node, locale: try option("locale", .string), currency: try option("currency", .string),
                                    minFractionDigits: try option("min-fraction-digits", .number),
                                    maxFractionDigits: try option("max-fraction-digits", .number))
        return Typed(node: node, type: .string)
    }

    /// The option `name` of an options object, parsed as an expression of `type`; nil when it
    /// is absent or null. Present means given, 0 included, as MapLibre Native reads options
    /// (GL JS skips any falsy value, so it ignores `"max-fraction-digits": 0`).
    private func parseOption(_ options: JSONObject, _ name: String, _ type: ValueType, path: String, _ ctx: ParseContext) throws -> Node? {
        guard let json = options[name], json != .null else { return nil }
        return try parse(json, ParseContext(path: "\(path).\(name)", expected: type, scope: ctx.scope)).node
    }
}
