import MapCore

extension MapApp {
    /// Sees the map through `--projection`'s projection, else the globe for a scene that opens on
    /// it, else the style's.
    mutating func applyProjection() {
        model.setProjection(projectionOverride ?? (scene.opensOnGlobe ? .globe : nil))
    }
}
