/// A named starting point: camera, bounds and timer (the `--scene` option).
public struct Scene: Equatable, Sendable {
    public let name: String
    public let camera: CameraState
    public let bounds: CameraBounds
    public let timerStartsPlaying: Bool

    public init(name: String, camera: CameraState, bounds: CameraBounds, timerStartsPlaying: Bool) {
        self.name = name; self.camera = camera; self.bounds = bounds; self.timerStartsPlaying = timerStartsPlaying
    }

    /// The Mapbox weather example: US Northeast, zoom 5 within [4, 5.99], timer playing.
    public static let radar = Scene(name: "radar",
                                    camera: CameraState(center: LngLat(lng: -75.789, lat: 41.874), zoom: 5),
                                    bounds: CameraBounds(minZoom: 4, maxZoom: 5.99),
                                    timerStartsPlaying: true)

    public static let all: [Scene] = [.radar]

    public static func named(_ name: String) -> Scene? { all.first { $0.name == name } }
}
