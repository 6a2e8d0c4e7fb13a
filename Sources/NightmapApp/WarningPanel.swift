import Foundation
import MapCore
import MapData

/// The panel the pointer resting over warnings shows: for each (most severe first) its event in
/// its colour, its headline, onset and expiry in UTC and local time, and its instruction clipped
/// to a sane length; wrapped when drawn (`AppOverlay+WarningPanel.swift`), beside the pointer.
public struct WarningPanel: Equatable, Sendable {
    public struct Entry: Equatable, Sendable {
        public var title: String
        public var color: Color
        /// Paragraphs, each wrapped to the panel's width when drawn.
        public var lines: [String]
    }

    public var entries: [Entry]
    /// A last line when more warnings lie under the pointer than the panel lists.
    public var more: String?
    /// The pointer (device pixels): the panel goes below right of it, kept in the window.
    public var x: Double, y: Double

    /// Warnings listed at most, and the instruction's length at most (characters).
    public static let listed = 4, instructionLength = 280

    /// The panel for `warnings` (most severe first) under a pointer at (`x`, `y`); nil for none.
    public static func make(_ warnings: [NWSAlerts.Alert], cached: Bool, x: Double, y: Double, zone: TimeZone = .current) -> WarningPanel? {
        guard !warnings.isEmpty else { return nil }
        let entries = warnings.prefix(listed).map { a -> Entry in
            var lines: [String] = []
            if let h = a.headline { lines.append(MessageText.clipped(h, to: 200)) }
            if let t = a.onset { lines.append("from " + time(t, zone)) }
            if let t = a.expires { lines.append("until " + time(t, zone)) }
            if let i = a.instruction {
                lines.append(MessageText.clipped(i.split(whereSeparator: \.isWhitespace).joined(separator: " "), to: instructionLength))
            }
            return Entry(title: a.event + (cached ? " (cached)" : ""), color: a.color, lines: lines)
        }
        let more = warnings.count > listed ? "and \(warnings.count - listed) more warning\(warnings.count - listed == 1 ? "" : "s") here" : nil
        return WarningPanel(entries: Array(entries), more: more, x: x, y: y)
    }

    /// "Dec 3 22:40 UTC (16:40 CST)".
    static func time(_ t: Double, _ zone: TimeZone) -> String {
        let iso = RadarTime.iso(t)                          // 2026-12-03T22:40:00Z
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let parts = iso.split(separator: "-")
        let clock = "\(RadarTime.hourMinute(t)) UTC (\(RadarTime.local(t, zone: zone)))"
        guard parts.count >= 3 else { return clock }
        let month = Int(parts[1]).map { months[max(0, min(11, $0 - 1))] } ?? String(parts[1])
        let day = Int(parts[2].prefix(2)) ?? 0
        return "\(month) \(day) \(clock)"
    }
}
