import Foundation

/// Pieces of outside data quoted in a one-line message.
public enum MessageText {
    /// `s` as it is, or its first `limit - 3` characters and "..." when longer than `limit`.
    public static func clipped(_ s: some StringProtocol, to limit: Int = 60) -> String {
        s.count > limit ? String(s.prefix(max(0, limit - 3))) + "..." : String(s)
    }

    /// Whether an answer is an HTML page (a proxy's or server's error page) rather than data.
    public static func isHTML(_ data: Data) -> Bool {
        if case .html = RadarImage.ImageKind(data) { return true }
        return false
    }

    /// Whether an answer starts as a PNG image.
    static func isPNG(_ data: Data) -> Bool {
        if case .png = RadarImage.ImageKind(data) { return true }
        return false
    }
}
