import MapCore

/// A scene's pitch: where it starts (`--pitch`) and how far it may tilt (`--max-pitch`).
extension Scene {
    /// The same scene starting at `pitch` degrees (clamped to its bounds' `maxPitch` when the camera is).
    public func tilted(to pitch: Double) -> Scene {
        var c = camera
        c.pitch = pitch
        return Scene(name: name, camera: c, fit: fit, padding: padding, bounds: bounds, timerStartsPlaying: timerStartsPlaying,
                     followsIss: followsIss, followZoom: followZoom, opensOnGlobe: opensOnGlobe)
    }

    /// The same scene whose camera may tilt up to `maxPitch` degrees (0...85).
    public func limitingPitch(to maxPitch: Double) -> Scene {
        Scene(name: name, camera: camera, fit: fit, padding: padding, bounds: bounds.limitingPitch(to: maxPitch),
              timerStartsPlaying: timerStartsPlaying, followsIss: followsIss, followZoom: followZoom, opensOnGlobe: opensOnGlobe)
    }
}

extension CameraBounds {
    /// These bounds allowing a pitch up to `maxPitch` degrees (0...85).
    public func limitingPitch(to maxPitch: Double) -> CameraBounds {
        CameraBounds(bounds: bounds, minZoom: minZoom, maxZoom: maxZoom, maxPitch: maxPitch)
    }
}
