import Foundation

/// One part of the status line, in order of importance: its text, a shorter form for narrow
/// windows, and whether it must stay (what the map shows and where its data comes from) or may
/// go (the pointer's coordinates, the frame rate, the help hint).
public struct StatusPart: Equatable, Sendable {
    public var text: String
    public var short: String?
    public var essential: Bool
    public init(_ text: String, short: String? = nil, essential: Bool) {
        self.text = text; self.short = short; self.essential = essential
    }
}
