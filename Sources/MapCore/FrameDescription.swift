/// Everything needed to draw one frame, evaluated for one instant: read-only input to the renderer.
///
/// Two equal descriptions give the same pixels, so the run loop redraws only when the
/// description changes.
public struct FrameDescription: Equatable, Sendable {
    /// One layer ready to draw.
    public struct DrawLayer: Equatable, Sendable {
        public let id: String
        public let paint: LayerPaint
        public let geometry: GeometrySet?

        public init(id: String, paint: LayerPaint, geometry: GeometrySet?) {
            self.id = id; self.paint = paint; self.geometry = geometry
        }

        public static func == (a: DrawLayer, b: DrawLayer) -> Bool {
            a.id == b.id && a.paint == b.paint && a.geometry === b.geometry
        }
    }

    public let view: ViewTransform
    public let layers: [DrawLayer]

    public init(view: ViewTransform, layers: [DrawLayer]) {
        self.view = view; self.layers = layers
    }
}
