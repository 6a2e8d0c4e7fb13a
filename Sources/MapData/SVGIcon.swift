import Foundation
import MapCore

/// Reads the small SVG subset nightmap's icons use: `<svg viewBox>`, `<path fill d>` with
/// absolute or relative M, L, H, V, C, Q and Z commands, and `<circle cx cy r fill>` (both with an
/// optional `fill-opacity`). Anything else is an error naming the file.
public enum SVGIcon {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public static func read(path: String, name: String) throws -> VectorIcon {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw Failure(description: "\(path): cannot read file")
        }
        return try parse(text, name: name, origin: path)
    }

    public static func parse(_ text: String, name: String, origin: String) throws -> VectorIcon {
        guard let viewBox = attribute("viewBox", in: text) else { throw Failure(description: "\(origin): no viewBox") }
        let vb = viewBox.split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Double($0) }
        guard vb.count == 4, vb[2] > 0, vb[3] > 0 else { throw Failure(description: "\(origin): bad viewBox \"\(viewBox)\"") }
        var shapes: [VectorIcon.Shape] = []
        var rest = Substring(text)
        // <path> and <circle> elements, in document order.
        while let r = [rest.range(of: "<path"), rest.range(of: "<circle")].compactMap({ $0 }).min(by: { $0.lowerBound < $1.lowerBound }) {
            let isCircle = rest[r].hasPrefix("<circle")
            guard let end = rest[r.upperBound...].range(of: ">") else {
                throw Failure(description: "\(origin): unterminated \(isCircle ? "<circle" : "<path")")
            }
            let element = String(rest[r.lowerBound..<end.upperBound])
            rest = rest[end.upperBound...]
            let fill = attribute("fill", in: element) ?? "#000000"
            guard var color = Color(hex: fill) else { throw Failure(description: "\(origin): fill \"\(fill)\" is not #rrggbb") }
            if let o = attribute("fill-opacity", in: element) {
                guard let a = Double(o), (0...1).contains(a) else { throw Failure(description: "\(origin): fill-opacity \"\(o)\" is not a number in 0...1") }
                color = Color(r: color.r, g: color.g, b: color.b, a: color.a * a)
            }
            if isCircle {
                func number(_ name: String) throws -> Double {
                    guard let v = attribute(name, in: element).flatMap(Double.init), v.isFinite else {
                        throw Failure(description: "\(origin): <circle> needs a number \(name)")
                    }
                    return v
                }
                let radius = try number("r")
                guard radius >= 0 else { throw Failure(description: "\(origin): <circle> radius \(radius) is negative") }
                shapes.append(.init(color: color, commands: [.circle(try number("cx") - vb[0], try number("cy") - vb[1], radius)]))
                continue
            }
            guard let d = attribute("d", in: element) else { throw Failure(description: "\(origin): <path> without d") }
            let commands = try pathData(d, origin: origin).map { translate($0, -vb[0], -vb[1]) }
            shapes.append(.init(color: color, commands: commands))
        }
        guard !shapes.isEmpty else { throw Failure(description: "\(origin): no <path> or <circle> elements") }
        return VectorIcon(name: name, width: vb[2], height: vb[3], shapes: shapes)
    }

    static func translate(_ c: VectorIcon.Command, _ dx: Double, _ dy: Double) -> VectorIcon.Command {
        switch c {
        case let .move(x, y): return .move(x + dx, y + dy)
        case let .line(x, y): return .line(x + dx, y + dy)
        case let .cubic(a, b, c1, d, e, f): return .cubic(a + dx, b + dy, c1 + dx, d + dy, e + dx, f + dy)
        case let .quad(a, b, c1, d): return .quad(a + dx, b + dy, c1 + dx, d + dy)
        case let .circle(x, y, r): return .circle(x + dx, y + dy, r)
        case .close: return .close
        }
    }

    static func attribute(_ name: String, in text: String) -> String? {
        guard let r = text.range(of: " \(name)=\"") else { return nil }
        guard let end = text[r.upperBound...].firstIndex(of: "\"") else { return nil }
        return String(text[r.upperBound..<end])
    }

    /// SVG path data to absolute commands.
    static func pathData(_ d: String, origin: String) throws -> [VectorIcon.Command] {
        var tokens: [String] = []
        var current = ""
        for ch in d {
            if ch.isLetter && ch != "e" && ch != "E" {
                if !current.isEmpty { tokens.append(current); current = "" }
                tokens.append(String(ch))
            } else if ch == "," || ch == " " || ch == "\n" || ch == "\t" {
                if !current.isEmpty { tokens.append(current); current = "" }
            } else if ch == "-" && !current.isEmpty && !current.hasSuffix("e") && !current.hasSuffix("E") {
                tokens.append(current); current = "-"
            } else {
                current.append(ch)
            }
        }
        if !current.isEmpty { tokens.append(current) }
        var out: [VectorIcon.Command] = []
        var i = 0, command: Character = "M"
        var x = 0.0, y = 0.0, startX = 0.0, startY = 0.0
        func number() throws -> Double {
            guard i < tokens.count, let v = Double(tokens[i]), v.isFinite else {
                throw Failure(description: "\(origin): bad path data near \"\(tokens[min(i, tokens.count - 1)])\"")
            }
            i += 1
            return v
        }
        while i < tokens.count {
            if let c = tokens[i].first, tokens[i].count == 1, c.isLetter { command = c; i += 1 }
            let relative = command.isLowercase
            let ox = relative ? x : 0, oy = relative ? y : 0
            switch command.uppercased() {
            case "M":
                x = try number() + ox; y = try number() + oy
                startX = x; startY = y
                out.append(.move(x, y))
                command = relative ? "l" : "L"
            case "L":
                x = try number() + ox; y = try number() + oy
                out.append(.line(x, y))
            case "H":
                x = try number() + ox
                out.append(.line(x, y))
            case "V":
                y = try number() + oy
                out.append(.line(x, y))
            case "C":
                let a = try number() + ox, b = try number() + oy, c = try number() + ox, e = try number() + oy
                x = try number() + ox; y = try number() + oy
                out.append(.cubic(a, b, c, e, x, y))
            case "Q":
                let a = try number() + ox, b = try number() + oy
                x = try number() + ox; y = try number() + oy
                out.append(.quad(a, b, x, y))
            case "Z":
                out.append(.close)
                x = startX; y = startY
                if i < tokens.count, Double(tokens[i]) != nil { throw Failure(description: "\(origin): numbers after Z") }
                // Z reads nothing, so anything after it but a command would be met again forever.
                if i < tokens.count, !(tokens[i].count == 1 && tokens[i].first?.isLetter == true) {
                    throw Failure(description: "\(origin): bad path data near \"\(tokens[i].prefix(40))\" (a command must follow Z)")
                }
            default:
                throw Failure(description: "\(origin): unsupported path command \(command)")
            }
        }
        return out
    }
}
