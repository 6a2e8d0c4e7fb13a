/// The compass: shown, and clickable, while the map is not north-up or is tilted.
extension MapModel {
    /// Where the compass is on screen; nil while the map is north-up and flat (none is drawn).
    public var compassArea: CompassArea? {
        guard camera.state.bearing != 0 || camera.state.pitch != 0 else { return nil }
        return Overlay.compassArea(width: Double(camera.size.width), pixelRatio: pixelRatio)
    }
}
