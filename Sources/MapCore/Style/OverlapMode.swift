/// How a symbol's part may overlap others (`text-overlap`, `icon-overlap`; `*-allow-overlap` true is `always`).
///
/// When both are set, `*-overlap` wins over `*-allow-overlap` (MapLibre's `getOverlapMode`).
/// A new part may be placed over one already placed only if its own mode is `always`, or if
/// neither its mode nor the placed one's is `never` (`allowsOverlap(over:)`).
public enum OverlapMode: String, Sendable, Hashable {
    case never, always, cooperative

    /// The mode a layer's `*-overlap` (nil when unset) and `*-allow-overlap` give.
    public init(overlap: OverlapMode?, allowOverlap: Bool) {
        self = overlap ?? (allowOverlap ? .always : .never)
    }

    /// Whether a new symbol part with this mode may be placed over a placed part whose mode is
    /// `placed`: `always` goes over anything; `cooperative` goes over `cooperative` and `always`
    /// but not over `never`; `never` goes over nothing.
    @inline(__always)
    public func allowsOverlap(over placed: OverlapMode) -> Bool {
        self == .always || (self != .never && placed != .never)
    }
}
