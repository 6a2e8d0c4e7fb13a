import Foundation

/// MapLibre's `mergeLines`: before line labels are laid out, features with the same text whose
/// lines meet end to start are joined into one line, so that a road cut into many features gets
/// labels along its whole length instead of a short label, or none, on each piece. A line is
/// joined at its start to a line ending there and at its end to one starting there, both with the
/// same text; a line that joins two others makes them one. Lines only join head to tail, as
/// stored: one running the other way is not turned. Features without text are left as they are.
public enum MergeLines {
    public struct Merged: Equatable, Sendable {
        /// The joined line, normalised Web Mercator (the shared point once).
        public var line: [MercatorPoint]
        /// The input features it is made of, in the order of their lines along it.
        public var features: [Int]
        /// The text shared by those features (nil for a feature without text).
        public var text: String?

        public init(line: [MercatorPoint], features: [Int], text: String?) {
            self.line = line; self.features = features; self.text = text
        }
    }

    /// The features joined, in the order MapLibre keeps them: each merged line where the first of
    /// its features stood.
    /// - Parameter features: each feature's text (nil or empty: no text) and line.
    public static func merge(_ features: [(text: String?, line: [MercatorPoint])]) -> [Merged] {
        struct End: Hashable { let text: String, x: Double, y: Double }
        var merged: [Merged?] = []
        var byStart: [End: Int] = [:]   // a line's first point -> the merged line that starts there
        var byEnd: [End: Int] = [:]     // a line's last point -> the merged line that ends there
        func start(_ text: String, _ line: [MercatorPoint]) -> End { End(text: text, x: line[0].x, y: line[0].y) }
        func end(_ text: String, _ line: [MercatorPoint]) -> End { End(text: text, x: line[line.count - 1].x, y: line[line.count - 1].y) }

        /// Appends `line` to the merged line ending where it starts; that one now ends where it ends.
        func appendToEnding(at head: End, newEnd tail: End, _ line: [MercatorPoint], _ ids: [Int]) -> Int {
            // (Called only where a merged line ends at `head`.)
            guard let i = byEnd.removeValue(forKey: head) else { return -1 }
            byEnd[tail] = i
            merged[i]?.line.removeLast()
            merged[i]?.line += line
            merged[i]?.features += ids
            return i
        }
        /// Puts `line` before the merged line starting where it ends; that one now starts where it starts.
        func prependToStarting(at tail: End, newStart head: End, _ line: [MercatorPoint], _ ids: [Int]) -> Int {
            // (Called only where a merged line starts at `tail`.)
            guard let i = byStart.removeValue(forKey: tail) else { return -1 }
            byStart[head] = i
            guard var m = merged[i] else { return i }
            m.line.removeFirst()
            m.line = line + m.line
            m.features = ids + m.features
            merged[i] = m
            return i
        }

        for (k, feature) in features.enumerated() {
            guard let text = feature.text, !text.isEmpty, !feature.line.isEmpty else {
                merged.append(Merged(line: feature.line, features: [k], text: feature.text))
                continue
            }
            let head = start(text, feature.line), tail = end(text, feature.line)
            if let before = byEnd[head], let after = byStart[tail], before != after {
                // Lines meet both ends: the one after takes this line, then the one before takes both.
                let j = prependToStarting(at: tail, newStart: head, feature.line, [k])
                guard let after = merged[j] else { continue }
                let i = appendToEnding(at: head, newEnd: tail, after.line, after.features)
                byStart.removeValue(forKey: head)
                byEnd.removeValue(forKey: tail)
                if let line = merged[i]?.line { byEnd[end(text, line)] = i }
                merged[j] = nil
            } else if byEnd[head] != nil {
                _ = appendToEnding(at: head, newEnd: tail, feature.line, [k])
            } else if byStart[tail] != nil {
                _ = prependToStarting(at: tail, newStart: head, feature.line, [k])
            } else {
                merged.append(Merged(line: feature.line, features: [k], text: text))
                byStart[head] = merged.count - 1
                byEnd[tail] = merged.count - 1
            }
        }
        return merged.compactMap { $0 }
    }
}
