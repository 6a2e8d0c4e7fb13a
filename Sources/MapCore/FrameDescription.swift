import Raster
/// Everything needed to draw one frame, evaluated for one instant: read-only input to the renderer.
///
/// Two equal descriptions give the same pixels, so the run loop redraws only when the
/// description changes.
public struct FrameDescription: Equatable, Sendable {
    /// What a raster layer shows: the current image, and while cross-fading the one before it.
    public struct ImageDraw: Equatable, Sendable {
        public let image: any RasterTexture
        public let previous: (any RasterTexture)?
        /// Progress of the cross-fade from `previous` to `image`, 0...1.
        public let fade: Double
        public let corners: ImageCorners
        public let placement: ImagePlacement
        /// Per-channel factor from the light: mix(radiance, 1, emissive strength).
        public let light: Color
        /// Snap the view's centre to the pixel grid for this image (the reference engines do so
        /// while the camera is still, so texels fall on the same pixels from frame to frame).
        public let pixelAligned: Bool
        /// Device pixels per CSS pixel: the grid `pixelAligned` snaps to.
        public let gridStep: Double
        /// The image's clear runs, when the source found them beforehand.
        public let runs: ImageRuns?
        /// Pixels are in or out by their centres, not anti-aliased at the edges: a tile, so
        /// that tiles side by side leave no seam (as a GPU draws them).
        public let aliased: Bool

        public init(image: any RasterTexture, previous: (any RasterTexture)?, fade: Double, corners: ImageCorners,
                    placement: ImagePlacement, light: Color, pixelAligned: Bool = false, gridStep: Double = 1, runs: ImageRuns? = nil,
                    aliased: Bool = false) {
            self.gridStep = gridStep
            self.image = image; self.previous = previous; self.fade = fade; self.corners = corners
            self.placement = placement; self.light = light; self.pixelAligned = pixelAligned; self.runs = runs
            self.aliased = aliased
        }

        public static func == (a: ImageDraw, b: ImageDraw) -> Bool {
            a.image === b.image && a.previous === b.previous && a.fade == b.fade && a.corners == b.corners
                && a.placement == b.placement && a.light == b.light && a.pixelAligned == b.pixelAligned && a.gridStep == b.gridStep && a.aliased == b.aliased
        }
    }

    /// An axis-aligned box on screen, in pixels.
    public struct ScreenBox: Equatable, Sendable {
        public var minX: Double, minY: Double, maxX: Double, maxY: Double
        public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
            self.minX = minX; self.minY = minY; self.maxX = maxX; self.maxY = maxY
        }
        public func intersects(_ o: ScreenBox) -> Bool { minX < o.maxX && o.minX < maxX && minY < o.maxY && o.minY < maxY }
    }

    /// One layer ready to draw: paint evaluated for the instant, colours already lit, lengths
    /// in device pixels. What it draws is typed by the layer's kind.
    public struct DrawLayer: Equatable, Sendable {
        public let id: String
        public var content: LayerDraw

        public init(id: String, _ content: LayerDraw) { self.id = id; self.content = content }

        /// A symbol layer's symbols (nil for other kinds): the frame's symbol layers are placed
        /// together, so the model and the placement look at them across layers.
        public var symbols: SymbolDraw? {
            get { if case let .symbol(s) = content { return s } else { return nil } }
            set { if let s = newValue, case .symbol = content { content = .symbol(s) } }
        }
    }

    /// An arrow just inside the window's edge pointing towards a place while it is out of sight
    /// (its world copy nearest the window's centre is outside the window).
    public struct OffscreenMarker: Equatable, Sendable {
        public var target: LngLat
        /// Already lit.
        public var color: Color
        /// Device pixels per CSS pixel (the arrow is 14 CSS pixels long).
        public var scale: Double
        public init(target: LngLat, color: Color, scale: Double = 1) { self.target = target; self.color = color; self.scale = scale }
    }

    public let view: ViewTransform
    public let layers: [DrawLayer]
    /// Drawn over the layers, under the overlay.
    public let markers: [OffscreenMarker]
    /// Screen-space text and marks over the map (nil: none).
    public let overlay: Overlay?
    /// The symbols' clock: the model's time (seconds) and how long symbols take to fade in or
    /// out (`fadeDuration`, MapLibre's map option; 0 places them at once). The placement
    /// reads them; a frame is the same picture whatever its clock says (equality ignores it:
    /// a renderer still fading asks to be called again, see `SymbolPlacement.isAnimating`).
    public var symbolTime: Double = 0
    public var symbolFadeDuration: Double = 0
    /// The sky above the horizon of a pitched view (nil: none; what is under shows there).
    public var sky: SkyDraw?
    /// Paths through space over the globe (the ISS's orbit), drawn over the layers, under the
    /// markers; none in Web Mercator.
    public var spacePaths: [SpacePath] = []
    /// The glow of the air about the globe (nil: none, or not on the globe).
    public var atmosphere: GlobeAtmosphere.Draw?
    /// The mesh the globe's surface is drawn on, which shapes its edge (nil: the layers' own).
    public var surfaceMesh: SurfaceMesh?
    /// Draw each placed point label's collision box over its layer (MapLibre's
    /// `showCollisionBoxes`, a developer's view of the placement).
    public var showsCollisionBoxes = false

    public init(view: ViewTransform, layers: [DrawLayer], markers: [OffscreenMarker] = [], overlay: Overlay? = nil) {
        self.view = view; self.layers = layers; self.markers = markers; self.overlay = overlay
    }

    /// The same picture: everything but the symbols' clock.
    public static func == (a: FrameDescription, b: FrameDescription) -> Bool {
        a.view == b.view && a.layers == b.layers && a.markers == b.markers && a.overlay == b.overlay
            && a.symbolFadeDuration == b.symbolFadeDuration && a.sky == b.sky && a.spacePaths == b.spacePaths
            && a.atmosphere == b.atmosphere && a.surfaceMesh == b.surfaceMesh && a.showsCollisionBoxes == b.showsCollisionBoxes
    }
}
