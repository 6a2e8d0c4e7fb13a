import Foundation

extension MapModel {
    /// Sets the style's `light` from its JSON (MapLibre's `setLight`): members not given take
    /// their defaults. A wrong member throws, naming it, and nothing changes.
    public mutating func setStyleLight(_ json: JSON) throws {
        var problems: [String] = []
        let light = StyleLight(json: json, problems: &problems)
        if let first = problems.first { throw StyleError(first) }
        mutateStyle { $0.light = light }
    }
}
