import Foundation

/// The value semantics shared by the nodes, JavaScript's where MapLibre inherits them:
/// strict equality, `Number(s)`, `String(x)`, truthiness, `slice` and `indexOf` indices,
/// code-point lengths, and the `rgba` and `to-color` checks.
enum Values {
    /// The index of the last label <= `value` (labels ascending); an error for NaN.
    static func stopIndex(_ labels: [Double], _ value: Double) throws -> Int {
        guard !value.isNaN else { throw StyleError("input is not a number") }
        guard let first = labels.first, value > first else { return 0 }
        var lo = 0, hi = labels.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if labels[mid] <= value { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// JavaScript's `===` on expression values: arrays, objects and colours are never equal.
    static func strictEqual(_ a: StyleValue, _ b: StyleValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        default: return false
        }
    }

    /// A comparison; orderings need two numbers or two strings (strings in UTF-16 code unit
    /// order, as JavaScript compares them).
    static func compare(_ op: CompareOp, _ a: StyleValue, _ b: StyleValue) throws -> Bool {
        switch op {
        case .equal: return strictEqual(a, b)
        case .notEqual: return !strictEqual(a, b)
        default: break
        }
        switch (a, b) {
        case (.number(let x), .number(let y)):
            switch op {
            case .less: return x < y
            case .lessOrEqual: return x <= y
            case .greater: return x > y
            default: return x >= y
            }
        case (.string(let x), .string(let y)):
            switch op {
            case .less: return x.utf16.lexicographicallyPrecedes(y.utf16)
            case .lessOrEqual: return !y.utf16.lexicographicallyPrecedes(x.utf16)
            case .greater: return y.utf16.lexicographicallyPrecedes(x.utf16)
            default: return !x.utf16.lexicographicallyPrecedes(y.utf16)
            }
        default:
            throw StyleError("expected arguments for \"\(op.symbol)\" to be (string, string) or (number, number), found (\(a.valueType.kind), \(b.valueType.kind))")
        }
    }

    static func binary(_ op: MathNode.Op, _ a: Double, _ b: Double) -> Double {
        switch op {
        case .subtract: return a - b
        case .divide: return a / b
        case .remainder: return a.truncatingRemainder(dividingBy: b)
        default:
            // Math.pow differs from C's pow for these.
            if b.isNaN || (Swift.abs(a) == 1 && b.isInfinite) { return .nan }
            return Foundation.pow(a, b)
        }
    }

    static func unary(_ op: MathNode.Op, _ x: Double) -> Double {
        switch op {
        case .negate: return -x
        case .sqrt: return x.squareRoot()
        case .abs: return Swift.abs(x)
        case .floor: return x.rounded(.down)
        case .ceil: return x.rounded(.up)
        // MapLibre rounds halves away from zero.
        case .round: return x.rounded(.toNearestOrAwayFromZero)
        case .ln: return Foundation.log(x)
        // As MapLibre computes them, so results match to the last bit.
        case .log10: return Foundation.log(x) / M_LN10
        case .log2: return Foundation.log(x) / M_LN2
        case .sin: return Foundation.sin(x)
        case .cos: return Foundation.cos(x)
        case .tan: return Foundation.tan(x)
        case .asin: return Foundation.asin(x)
        case .acos: return Foundation.acos(x)
        default: return Foundation.atan(x)
        }
    }

    /// `rgb`/`rgba`: components 0-255 and alpha 0-1, else an error.
    static func rgba(_ r: Double, _ g: Double, _ b: Double, _ a: Double?) throws -> Color {
        let listed = ([r, g, b] + (a.map { [$0] } ?? [])).map(JSNumber.format).joined(separator: ", ")
        guard (0...255).contains(r), (0...255).contains(g), (0...255).contains(b) else {
            throw StyleError("invalid rgba value [\(listed)]: 'r', 'g', and 'b' must be between 0 and 255")
        }
        let alpha = a ?? 1
        guard (0...1).contains(alpha) else { throw StyleError("invalid rgba value [\(listed)]: 'a' must be between 0 and 1") }
        return Color(r: r / 255, g: g / 255, b: b / 255, a: alpha)
    }

    /// `to-color` of one value: colours as they are, CSS strings parsed, [r, g, b(, a)] arrays.
    static func color(from value: StyleValue) -> Result<Color, StyleError> {
        switch value {
        case .color(let c):
            return .success(c)
        case .string(let text):
            if let c = Color(css: text) { return .success(c) }
        case .array(let items):
            guard (3...4).contains(items.count) else {
                return .failure(StyleError("invalid rgba value \(value.compactText): expected an array containing either three or four numeric values"))
            }
            let numbers = items.compactMap(\.asNumber)
            guard numbers.count == items.count else {
                return .failure(StyleError("invalid rgba value \(value.compactText): 'r', 'g', and 'b' must be between 0 and 255"))
            }
            do {
                return .success(try rgba(numbers[0], numbers[1], numbers[2], numbers.count == 4 ? numbers[3] : nil))
            } catch let error as StyleError {
                return .failure(error)
            } catch {
                return .failure(StyleError("\(error)"))
            }
        default:
            break
        }
        return .failure(StyleError("expected color, found \(value.compactText)"))
    }

    /// JavaScript truthiness.
    static func truthy(_ v: StyleValue) -> Bool {
        switch v {
        case .null: return false
        case .bool(let b): return b
        case .number(let n): return n != 0 && !n.isNaN
        case .string(let text): return !text.isEmpty
        default: return true
        }
    }

    /// JavaScript's `Number(v)`; arrays convert through their `toString` (`[]` is 0, `[5]` is 5).
    static func jsNumber(_ v: StyleValue) -> Double {
        switch v {
        case .null: return 0
        case .bool(let b): return b ? 1 : 0
        case .number(let n): return n
        case .string(let text): return JSNumber.parse(text)
        case .array: return JSNumber.parse(jsArrayText(v))
        // Converted through its `toString`, the plain text.
        case .formatted(let f): return JSNumber.parse(f.plainText)
        case .color, .object: return .nan
        }
    }

    /// `Array.prototype.toString`: items joined by commas, null as empty.
    static func jsArrayText(_ v: StyleValue) -> String {
        switch v {
        case .null: return ""
        case .array(let items): return items.map(jsArrayText).joined(separator: ",")
        case .object: return "[object Object]"
        default: return jsString(v)
        }
    }

    /// JavaScript's `String(v)` for primitives (`null` is "null", unlike `to-string`).
    static func jsString(_ v: StyleValue) -> String {
        if case .null = v { return "null" }
        return v.toStringText
    }

    static func isPrimitive(_ v: StyleValue) -> Bool {
        switch v {
        case .null, .bool, .number, .string: return true
        default: return false
        }
    }

    static func length(_ v: StyleValue) throws -> StyleValue {
        switch v {
        case .string(let text): return .number(Double(text.unicodeScalars.count))
        case .array(let items): return .number(Double(items.count))
        default: throw StyleError("expected a string or an array, found \(v.valueType)")
        }
    }

    static func at(_ index: Double, _ v: StyleValue) throws -> StyleValue {
        guard case .array(let items) = v else { throw StyleError("expected an array, found \(v.valueType)") }
        if index < 0 { throw StyleError("array index out of bounds: \(JSNumber.format(index)) < 0") }
        if index >= Double(items.count) {
            throw StyleError("array index out of bounds: \(JSNumber.format(index)) > \(items.count - 1)")
        }
        guard index.rounded(.down) == index else {
            throw StyleError("array index must be an integer, found \(JSNumber.format(index))")
        }
        return items[Int(index)]
    }

    static func contains(_ needle: StyleValue, _ haystack: StyleValue) throws -> Bool {
        if !truthy(haystack) { return false }
        guard isPrimitive(needle) else {
            throw StyleError("expected the first argument to be of type boolean, string, number or null, found \(needle.valueType)")
        }
        switch haystack {
        case .string(let text):
            return utf16Search(Array(text.utf16), Array(jsString(needle).utf16), from: 0) != nil
        case .array(let items):
            return items.contains { strictEqual($0, needle) }
        default:
            throw StyleError("expected the second argument to be of type array or string, found \(haystack.valueType)")
        }
    }

    static func indexOf(_ needle: StyleValue, _ haystack: StyleValue, from: Double?) throws -> Double {
        guard isPrimitive(needle) else {
            throw StyleError("expected the first argument to be of type boolean, string, number or null, found \(needle.valueType)")
        }
        let start = integer(from ?? 0)
        switch haystack {
        case .string(let text):
            let units = Array(text.utf16)
            let position = Int(Swift.min(Swift.max(start, 0), Double(units.count)))
            guard let raw = utf16Search(units, Array(jsString(needle).utf16), from: position) else { return -1 }
            // The index in code points, as MapLibre reports it.
            return Double(String(decoding: units[0..<raw], as: UTF16.self).unicodeScalars.count)
        case .array(let items):
            let count = Double(items.count)
            if start >= count { return -1 }
            var k = start >= 0 ? Int(start) : Int(Swift.max(count + start, 0))
            while k < items.count {
                if strictEqual(items[k], needle) { return Double(k) }
                k += 1
            }
            return -1
        default:
            throw StyleError("expected the second argument to be of type array or string, found \(haystack.valueType)")
        }
    }

    /// `slice` on strings (by code points) and arrays, with JavaScript's index rules.
    static func slice(_ v: StyleValue, _ begin: Double, _ end: Double?) throws -> StyleValue {
        func range(_ count: Int) -> Range<Int> {
            let n = Double(count)
            func clampIndex(_ x: Double) -> Int {
                let i = integer(x)
                return Int(i < 0 ? Swift.max(n + i, 0) : Swift.min(i, n))
            }
            let from = clampIndex(begin)
            let to = end.map(clampIndex) ?? count
            return from..<Swift.max(from, to)
        }
        switch v {
        case .string(let text):
            let scalars = Array(text.unicodeScalars)
            var out = String.UnicodeScalarView()
            out.append(contentsOf: scalars[range(scalars.count)])
            return .string(String(out))
        case .array(let items):
            return .array(Array(items[range(items.count)]))
        default:
            throw StyleError("expected the first argument to be of type array or string, found \(v.valueType)")
        }
    }

    /// ToIntegerOrInfinity: NaN is 0, fractions truncate toward zero.
    static func integer(_ x: Double) -> Double {
        x.isNaN ? 0 : x.rounded(.towardZero)
    }

    /// The first UTF-16 index at or after `from` where `needle` occurs in `haystack`.
    static func utf16Search(_ haystack: [UInt16], _ needle: [UInt16], from: Int) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        let last = haystack.count - needle.count
        var i = Swift.max(from, 0)
        while i <= last {
            var matched = true
            for k in 0..<needle.count where haystack[i + k] != needle[k] {
                matched = false
                break
            }
            if matched { return i }
            i += 1
        }
        return nil
    }
}
