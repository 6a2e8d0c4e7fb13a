/// Typed reads of a ``JSON`` value for the files the app reads (routes, the ISS feed, render-test
/// metadata): each is nil unless the value is of exactly that type, so a boolean is never taken
/// for a number nor a number for a boolean (as `JSONSerialization`'s `NSNumber` would).
extension JSON {
    /// The number; nil for any other type, `true` and `false` included.
    public var numberValue: Double? {
        if case let .number(n) = self { return n }
        return nil
    }

    public var boolValue: Bool? {
        if case let .bool(b) = self { return b }
        return nil
    }

    public var stringValue: String? {
        if case let .string(s) = self { return s }
        return nil
    }

    public var arrayValue: [JSON]? {
        if case let .array(a) = self { return a }
        return nil
    }

    public var objectValue: JSONObject? {
        if case let .object(o) = self { return o }
        return nil
    }

    /// The message of a ``parse(_:name:)`` error without the name it starts with:
    /// `"line L, column C: <what is wrong>"`, for a caller that names the input its own way.
    public static func parseFailure(_ error: Error, name: String) -> String {
        let text = "\(error)"
        return text.hasPrefix(name + ": ") ? String(text.dropFirst(name.count + 2)) : text
    }
}
