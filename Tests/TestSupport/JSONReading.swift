import Foundation
import MapCore

/// Tests read JSON as the app does, with MapCore's reader (``JSON/parse(_:name:)``): fixtures,
/// the output of `nightmap state` and `passes --json`, archive metadata. A boolean is never
/// read as a number nor a number as a boolean (as `JSONSerialization`'s `NSNumber` would).
extension JSON {
    /// The JSON file at `url`, named by its file name in errors.
    public static func parse(contentsOf url: URL) throws -> JSON {
        try parse(Data(contentsOf: url), name: url.lastPathComponent)
    }

    /// JSON text (what a command printed), named `name` in errors.
    public static func parse(_ text: String, name: String) throws -> JSON {
        try parse(Data(text.utf8), name: name)
    }

    /// The member `key` of an object; nil when there is none or this is not an object.
    public subscript(key: String) -> JSON? { objectValue?[key] }

    /// The integer, if this is a number without a fraction (within `Int`'s range).
    public var intValue: Int? { numberValue.flatMap { Int(exactly: $0) } }

    /// The items of an array each read by `read`; nil when this is not an array or an item
    /// does not read.
    public func arrayOf<T>(_ read: (JSON) -> T?) -> [T]? {
        guard let items = arrayValue else { return nil }
        var out: [T] = []
        out.reserveCapacity(items.count)
        for item in items {
            guard let value = read(item) else { return nil }
            out.append(value)
        }
        return out
    }

    /// The numbers of an array that holds only numbers; nil otherwise.
    public var numbersValue: [Double]? { arrayOf(\.numberValue) }

    /// The member `key` as `read` takes it (`\.numberValue`, `\.stringValue`...); a missing
    /// member or one of another type is an error that names it, for fixtures read into structs.
    public func member<T>(_ key: String, _ read: (JSON) -> T?) throws -> T {
        guard let value = self[key] else { throw JSONReadError(description: "no member \"\(key)\" in \(compactText.prefix(80))") }
        guard let typed = read(value) else { throw JSONReadError(description: "\"\(key)\": unexpected \(value.typeName)") }
        return typed
    }
}

/// A JSON member a test needs is missing or of another type.
public struct JSONReadError: Error, CustomStringConvertible {
    public let description: String
}
