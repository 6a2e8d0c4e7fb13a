import Foundation

/// The symbol context of the last frame, handed out again while the frame's symbol sets and
/// boxes to keep clear stay the same: the placement then sees the same object and keeps what it
/// placed, and a warm frame makes no new context (the inputs are gathered in kept storage).
final class SymbolContextCache: @unchecked Sendable {
    private let lock = NSLock()
    private var last = SymbolContext.unplaced
    private var avoid: [FrameDescription.ScreenBox] = []
    private var sets: [SymbolSet] = []

    /// The context for the symbol layers among `layers`, with the boxes `fill` adds.
    func context(layers: [FrameDescription.DrawLayer], avoid fill: (inout [FrameDescription.ScreenBox]) -> Void) -> SymbolContext {
        lock.lock()
        defer { lock.unlock() }
        avoid.removeAll(keepingCapacity: true)
        sets.removeAll(keepingCapacity: true)
        fill(&avoid)
        for layer in layers { if let s = layer.symbols { sets.append(s.set) } }
        if avoid != last.avoid || !sets.elementsEqual(last.sets, by: ===) { last = SymbolContext(avoid: avoid, sets: sets) }
        return last
    }
}
