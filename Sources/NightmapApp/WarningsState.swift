import Foundation
import MapCore
import MapData

/// What the map keeps of the NWS warnings: the feed's last alerts, which of them the `warnings`
/// source holds, and the pointer the panel follows.
public struct WarningsState: Sendable {
    /// The feed's alerts (nil: none came yet, or the service is off).
    public internal(set) var shown: WarningsFeed.Shown?
    /// The ids drawn, and when the set drawn next changes by itself (an alert expires; Unix s).
    var drawnIDs: [String] = []
    var nextExpiry: Double?
    /// The pointer (device pixels) resting over the map, no button held; nil: none.
    var pointer: ScreenPoint?
    /// What the panel was last made for: the pointer, the camera, the alerts drawn.
    var hoverKey: HoverKey?

    public struct ScreenPoint: Equatable, Sendable {
        public var x: Double, y: Double
        public init(x: Double, y: Double) { self.x = x; self.y = y }
    }

    struct HoverKey: Equatable {
        let pointer: ScreenPoint?, camera: CameraState, drawn: [String], shown: Bool, cached: Bool
    }

    public init() {}

    /// The order warnings are listed in (most severe first) and drawn in (least severe first,
    /// below): severity, then urgency.
    public static func rank(_ a: NWSAlerts.Alert) -> Int {
        let severity = ["Extreme": 4, "Severe": 3, "Moderate": 2, "Minor": 1][a.severity] ?? 0
        let urgency = ["Immediate": 4, "Expected": 3, "Future": 2, "Past": 1][a.urgency] ?? 0
        return severity * 10 + urgency
    }
}
