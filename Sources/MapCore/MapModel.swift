import Foundation
import Raster

import Foundation

/// The map engine's state: the style (the one map model: document layers and their sources),
/// the camera, the light and paint transitions. An app drives it through
/// its public API (the style API, the camera, `advance(to:)`); `frame()` describes what to draw
/// at the instant the model was advanced to. It never reads a clock: every instant is passed in
/// (seconds on the map's clock), and it knows nothing of what the app shows with it.
public struct MapModel: Sendable {
    public private(set) var style: Style
    public private(set) var camera: Camera
    /// The instant the model was last advanced to.
    public private(set) var now: Double
    /// The attribution line (sources of the data shown), for the app to show.
    public var attribution = ""
    /// Document layers drawn feature by feature, kept between frames that do not change them.
    private let featureDrawCache = FeatureDrawCache()
    private let symbolContexts = SymbolContextCache()
    private let viewMotion = ViewMotion()
    /// What the last frame drew of the tiled sources.
    private let tileFrames = TileFrameCache()
    /// Light the layers by the light preset (Mapbox Standard); off (the default), colours show
    /// as written, as MapLibre draws (its styles have no light).
    public var lighting = false
    /// Device pixels per CSS pixel: every length in pixels (lines, text, icons, the overlay) is
    /// scaled by it, and the camera's zoom is the style's zoom plus log2 of it (`setPixelRatio`).
    public private(set) var pixelRatio = 1.0
    /// The light preset, and the ground radiance easing between presets.
    public private(set) var lightPreset: LightPreset
    private var radiance: PaintTransition
    /// Arrows at the window's edge towards places out of sight (an app's tracked object).
    public var offscreenMarkers: [FrameDescription.OffscreenMarker] = []
    /// Paths through space drawn over the globe (the ISS's orbit; not in Web Mercator).
    public var spacePaths: [SpacePath] = []
    /// Places symbols keep clear of, besides the overlay's boxes (an app's moving icon).
    public var labelObstacles: [LabelObstacle] = []

    /// A disc of `radius` device pixels around a place (in the world copy nearest the window's
    /// centre) that symbols keep clear of.
    public struct LabelObstacle: Equatable, Sendable {
        public var center: MercatorPoint
        public var radius: Double
        public init(center: MercatorPoint, radius: Double) { self.center = center; self.radius = radius }
    }
    /// The frame each image source shows, and the one it replaced (cross-fades), by source id.
    private var imageFrames: [String: ImageFrame] = [:]

    /// What an image source shows: frame `index`, since `changed`, after `previous`.
    struct ImageFrame: Sendable {
        var index: Int
        var previous: Int?
        var changed: Double
    }

    /// A map of `style` in a viewport of `size` device pixels, the camera at `camera` within
    /// `bounds`, at instant `start`, lit by `light`.
    public init(style: Style, size: ViewportSize, camera: CameraState = CameraState(center: LngLat(lng: 0, lat: 0), zoom: 0),
                bounds: CameraBounds = CameraBounds(), start: Double = 0, light: LightPreset = .night) {
        lightPreset = light
        radiance = PaintTransition(constant: .groundRadiance(light.groundRadiance(zoom: camera.zoom)))
        self.style = style
        self.style.bindGlobalState()
        now = start
        self.camera = Camera(state: camera, bounds: bounds, size: size, projection: style.projection ?? .mercator)
    }

    /// Sees the map through `projection` (nil: the style's, else Web Mercator).
    public mutating func setProjection(_ projection: Projection?) {
        camera.projection = projection ?? style.projection ?? .mercator
    }

    // MARK: Camera

    /// Jumps the camera (clamped like every gesture).
    public mutating func jump(to state: CameraState) { camera.jump(to: state) }

    /// Replaces the camera bounds (the camera is clamped into them at once).
    public mutating func setCameraBounds(_ bounds: CameraBounds) { camera.setBounds(bounds) }

    /// Eases the camera to `state` over `duration` seconds from instant `now`.
    public mutating func ease(to state: CameraState, duration: Double, curve: Easing = .easeOut, now: Double) {
        camera.advance(to: now)
        camera.ease(to: state, duration: duration, curve: curve, now: now)
    }

    /// Turns the map by `degrees` at once (a rotating drag).
    public mutating func turn(by degrees: Double) { camera.turn(by: degrees) }

    /// Turns the map by the angle the pointer swept about the viewport's centre, at once.
    public mutating func turn(from a: (x: Double, y: Double), to b: (x: Double, y: Double)) { camera.turn(from: a, to: b) }

    /// Turns the map by `degrees`, eased over 300 ms from where the running ease ends.
    public mutating func ease(turningBy degrees: Double, now: Double) { camera.ease(turningBy: degrees, now: now) }

    /// Eases back to north up and level over 300 ms.
    public mutating func easeToNorth(now: Double) { camera.easeToNorth(now: now) }

    /// Tilts by `degrees`, eased over 300 ms from where the running ease ends (Shift+Up, Shift+Down).
    public mutating func ease(tiltingBy degrees: Double, now: Double) { camera.ease(tiltingBy: degrees, now: now) }

    /// A right-drag: turns by its sideways move and tilts by its move up or down, at once.
    public mutating func turnAndTilt(from a: (x: Double, y: Double), to b: (x: Double, y: Double)) { camera.turnAndTilt(from: a, to: b) }

    /// A drag: the ground under `a` comes under `b` at once (the content follows the pointer, tilted too).
    public mutating func pan(from a: (x: Double, y: Double), to b: (x: Double, y: Double)) { camera.pan(from: a, to: b) }

    /// Moves the content by a screen offset at once (dragging).
    public mutating func pan(dx: Double, dy: Double) { camera.pan(dx: dx, dy: dy) }

    /// Moves the content by a screen offset over `duration`, decelerating (a flung map's glide).
    public mutating func glide(dx: Double, dy: Double, duration: Double, now: Double) {
        camera.ease(to: camera.shifted(camera.state, dx: dx, dy: dy), duration: duration, curve: .cubicBezier(0, 0, 0.3, 1), now: now)
    }

    /// Moves the content by a screen offset from where the running ease ends, eased.
    public mutating func panEased(dx: Double, dy: Double, duration: Double, now: Double) {
        camera.advance(to: now)
        let base = camera.target
        camera.ease(to: camera.shifted(base, dx: dx, dy: dy), duration: duration, curve: .quadraticOut, now: now)
    }

    /// Zooms by `delta` keeping the point under (x, y) fixed, eased over `duration`; successive
    /// steps accumulate on the running target, so fast wheel turns are not lost.
    public mutating func zoom(by delta: Double, around point: (x: Double, y: Double), duration: Double, now: Double) {
        camera.advance(to: now)
        let base = camera.animation?.anchor != nil ? camera.target.zoom : camera.state.zoom
        camera.ease(zoom: base + delta, around: point, duration: duration, curve: .easeOut, now: now)
    }

    /// Zooms by `delta` around the viewport's centre, from where the running ease ends.
    public mutating func zoomCentered(by delta: Double, duration: Double, now: Double) {
        camera.advance(to: now)
        let t = camera.target
        camera.ease(to: t.moved(center: t.center, zoom: t.zoom + delta), duration: duration, curve: .quadraticOut, now: now)
    }

    /// The viewport's new size in device pixels (the camera is clamped again).
    public mutating func resize(width: Int, height: Int) { camera.resize(ViewportSize(width: width, height: height)) }

    /// Sets the device pixels per CSS pixel (a HiDPI window: drawable / window size): the
    /// camera and its bounds shift by log2 of the change, so the same ground shows, in more
    /// pixels. (An app scales its own start cameras and bounds likewise.)
    public mutating func setPixelRatio(_ ratio: Double) {
        guard ratio > 0, ratio.isFinite, ratio != pixelRatio else { return }
        let factor = ratio / pixelRatio, shift = log2(factor)
        pixelRatio = ratio
        camera.styleZoomShift = log2(ratio)
        let b = camera.bounds
        let target = camera.target
        camera.setBounds(CameraBounds(bounds: b.bounds, minZoom: b.minZoom + shift, maxZoom: b.maxZoom + shift, maxPitch: b.maxPitch))
        camera.jump(to: target.moved(center: target.center, zoom: target.zoom + shift))
    }

    // MARK: Style changes

    /// Applies a change to the style (the style API's extension uses this).
    mutating func mutateStyle(_ change: (inout Style) -> Void) {
        change(&style)
        style.bindGlobalState()
    }

    /// What symbols keep clear of: the app's obstacles, and the boxes its overlay names.
    private func symbolAvoidBoxes(_ overlay: Overlay?, into boxes: inout [FrameDescription.ScreenBox]) {
        let view = camera.view
        let w = Double(view.size.width), h = Double(view.size.height)
        for o in labelObstacles {
            let s = view.nearestScreen(o.center)
            // Out of the window it cannot overlap a symbol (and symbols need not be placed again).
            let r = o.radius
            guard s.x + r > 0, s.x - r < w, s.y + r > 0, s.y - r < h else { continue }
            boxes.append(.init(minX: s.x - r, minY: s.y - r, maxX: s.x + r, maxY: s.y + r))
        }
        if let overlay { boxes += overlay.keepClear }
    }

    /// A symbol layer's vector icon, its scale (device pixels per icon unit) and its emissive
    /// strength now, for a feature without properties (nil: not a symbol layer with a vector image).
    public func vectorIcon(layer id: String) -> (icon: VectorIcon, scale: Double, emissive: Double)? {
        guard let s = style.layers.first(where: { $0.id == id })?.styled, s.definition.type == .symbol else { return nil }
        let c = EvaluationContext(zoom: camera.state.zoom - log2(pixelRatio), time: now)
        guard let name = s.layout(SymbolLayoutProperty.iconImage, c).asString, let icon = style.icons[name] else { return nil }
        return (icon, (s.layout(SymbolLayoutProperty.iconSize, c).asNumber ?? 1) * pixelRatio, s.paint(SymbolPaintProperty.iconEmissiveStrength, c).asNumber ?? 0)
    }

    /// Shows or hides a layer (`layout.visibility`).
    public mutating func setVisibility(layer id: String, _ visible: Bool) {
        guard let i = style.layerIndex(id) else { return }
        style.layers[i].visible = visible
    }

    /// The value a paint property shows at the model's current instant (its specification
    /// default when unset); nil when there is no layer `id`.
    public func paintValue(layer id: String, _ name: String) -> StyleValue? {
        guard let s = style.layers.first(where: { $0.id == id })?.styled else { return nil }
        return s.paintValue(name, zoom: camera.state.zoom - log2(pixelRatio), now: now)
    }

    /// Changes the light preset at `time`, the ground radiance easing over 300 ms.
    public mutating func setLight(_ preset: LightPreset, at time: Double) {
        lightPreset = preset
        radiance = radiance.retargeted(to: .groundRadiance(preset.groundRadiance(zoom: camera.state.zoom)),
                                       options: TransitionOptions(duration: 0.3), now: time)
    }

    /// The ground radiance now.
    public var groundRadiance: Color {
        guard lighting else { return .white }
        return radiance.evaluate(EvaluationContext(zoom: camera.state.zoom, time: now), fallback: .color(.white)).asColor ?? .white
    }

    // MARK: Image sources

    /// Shows frame `index` of image source `id` from instant `time` (a frame sequence's player
    /// calls this at each of its steps); with a positive `raster-fade-duration` its raster layers
    /// cross-fade from the frame shown before. An unknown source is an error.
    public mutating func setImageFrame(source id: String, index: Int, at time: Double) throws {
        guard style.image(id) != nil else { throw StyleError("sources.\(id): no image source with this id") }
        let current = imageFrames[id]?.index ?? 0
        guard current != index else { return }
        imageFrames[id] = ImageFrame(index: index, previous: current, changed: time)
    }

    /// The frame an image source shows (0 until one is set).
    public func imageFrame(source id: String) -> Int { imageFrames[id]?.index ?? 0 }

    // MARK: Time

    /// Moves every animation to `now`: camera eases, transitions.
    public mutating func advance(to now: Double) {
        camera.advance(to: now)
        self.now = max(self.now, now)
    }

    /// True while something changes from instant to instant: the loop keeps drawing, even when
    /// a transitioning layer is fully transparent at this moment.
    public var isAnimating: Bool {
        camera.isAnimating || radiance.isRunning(at: now) || isFading
            || style.layers.contains { $0.styled.isTransitioning(at: now) }
    }

    /// True while a raster layer cross-fades between two frames of its image source.
    private var isFading: Bool {
        for layer in style.layers {
            guard let id = layer.source, let f = imageFrames[id], f.previous != f.index, let p = rasterPaint(layer: layer.id),
                  p.fadeDuration > 0 else { continue }
            if now - f.changed < p.fadeDuration { return true }
        }
        return false
    }

    /// A raster layer's paint as drawn now, evaluated at the current zoom and instant.
    public func rasterPaint(layer id: String) -> RasterPaint? {
        guard let s = style.layers.first(where: { $0.id == id })?.styled, s.definition.type == .raster else { return nil }
        return s.rasterPaint(zoom: camera.state.zoom - log2(pixelRatio), now: now)
    }


    // MARK: Frames

    /// The layers drawn at the current zoom, in draw order.
    public var visibleLayerIDs: [String] {
        style.layers.filter { $0.isShown(atZoom: camera.state.zoom) }.map(\.id)
    }

    /// What to draw at the instant the model was advanced to.
    /// The tiles the view wants from each tiled source a shown layer draws (for the loaders).
    public func tileRequests() -> [TileRequest] {
        let v = camera.view.visibleMercator
        return TileFrameCache.requests(style, zoom: camera.state.zoom - log2(pixelRatio),
                                       visible: MercatorBox(minX: v.minX, minY: v.minY, maxX: v.maxX, maxY: v.maxY),
                                       cover: camera.view.tileCover)
    }

    /// What to draw now, with an app's `overlay` over it (its boxes kept clear of symbols).
    public func frame(overlay: Overlay? = nil) -> FrameDescription {
        var none: FrameDescription? = nil
        return frame(overlay: overlay, recycling: &none)
    }

    /// The same, in the storage of `spare`, a description the caller no longer needs (taken, and
    /// left nil). A run loop that hands back the frame before the last one (the renderer keeps
    /// the last) describes a warm frame without allocating; storage still shared elsewhere is
    /// copied first, as any array is.
    public func frame(overlay: Overlay? = nil, recycling spare: inout FrameDescription?) -> FrameDescription {
        let zoom = camera.state.zoom
        var out: [FrameDescription.DrawLayer] = []
        if let old = spare {
            spare = nil
            out = old.layers
        }
        out.removeAll(keepingCapacity: true)
        out.reserveCapacity(style.layers.count)
        let light = groundRadiance
        let styleZoom = zoom - log2(pixelRatio)
        let v = camera.view.visibleMercator
        let visible = MercatorBox(minX: v.minX, minY: v.minY, maxX: v.maxX, maxY: v.maxY)
        let tiles = tileFrames.frame(style, zoom: styleZoom, visible: visible, cover: camera.view.tileCover)
        let e = StyleEvaluation(zoom: styleZoom, pixelRatio: pixelRatio, light: light, worldSize: camera.view.worldSize,
                                now: now, visible: visible, bearing: camera.state.bearing, tiles: tiles,
                                still: !camera.isAnimating)
        for layer in style.layers where layer.isShown(atZoom: styleZoom) {
            let s = layer.styled
            if let draw = s.drawLayer(style, e, cache: featureDrawCache, image: { imageDraw($0, id: s.definition.source, $1, light: light) }) {
                out.append(draw)
            }
        }
        // Every symbol layer is placed against the others and the boxes to keep clear.
        // Labels of a settled view are drawn exactly, those of a moving one at whole pixels.
        if out.contains(where: { $0.symbols != nil }) {
            let context = symbolContexts.context(layers: out) { symbolAvoidBoxes(overlay, into: &$0) }
            let settled = viewMotion.isSettled(camera.view, now: now)
            for i in out.indices where out[i].symbols != nil {
                out[i].symbols?.context = context
                out[i].symbols?.settled = settled
            }
        }
        var frame = FrameDescription(view: camera.view, layers: out, markers: offscreenMarkers, overlay: overlay)
        frame.symbolTime = now
        frame.symbolFadeDuration = symbolFadeDuration
        frame.showsCollisionBoxes = showsCollisionBoxes
        if camera.view.isPitched { frame.sky = style.sky?.draw(zoom: styleZoom) }
        if camera.view.globe != nil {
            frame.spacePaths = spacePaths
            frame.surfaceMesh = style.terrainMesh(zoom: styleZoom)
            // (MapLibre draws the atmosphere by default: `atmosphere-blend` 0.8.)
            let blend = (style.sky?.atmosphereBlend(zoom: styleZoom) ?? 0.8) * camera.view.globeness
            if blend > 0 {
                let sun = GlobeAtmosphere.sun(lightPosition: style.light.lightPosition(zoom: styleZoom),
                                              mapAnchored: style.light.isAnchoredToMap(zoom: styleZoom) ? camera.state : nil)
                frame.atmosphere = .init(blend: blend, sun: sun)
            }
        }
        return frame
    }

    /// How long symbols take to fade in and out as the placement changes, seconds (MapLibre's
    /// `fadeDuration`: a window uses 0.3; snapshots and render tests 0, placing at once).
    public var symbolFadeDuration: Double = 0

    /// Whether frames draw the placed labels' collision boxes (`FrameDescription.showsCollisionBoxes`).
    public var showsCollisionBoxes = false

    /// When the view last described settles and its labels are drawn exactly (nil: settled).
    public var labelsSettleAt: Double? { viewMotion.settlesAt(now: now) }

    /// Metres on the ground per device pixel at the camera's centre (for a scale bar).
    public var metresPerPixel: Double {
        40_075_016.686 * cos(camera.state.center.lat * Double.pi / 180) / camera.view.worldSize
    }

    /// Whether some of `area` is in view (in any world copy); nil counts as in view.
    public func isInView(_ area: LngLatBounds?) -> Bool {
        guard let a = area else { return true }
        let v = camera.view.visibleMercator
        let x0 = WebMercator.x(lng: a.west), east = WebMercator.x(lng: a.east)
        let x1 = east < x0 ? east + 1 : east        // (a box across the antimeridian)
        let y0 = WebMercator.y(lat: a.north), y1 = WebMercator.y(lat: a.south)
        guard y1 >= v.minY, y0 <= v.maxY else { return false }
        // The world copies the view spans (a few at most: the zoom is bounded).
        let first = (v.minX - x1).rounded(.up), last = (v.maxX - x0).rounded(.down)
        return first <= last
    }

    /// The frame the image source shows (or the last good one before it) and, during a
    /// cross-fade, the one it replaces.
    private func imageDraw(_ source: ImageSource, id: String?, _ paint: RasterPaint, light: Color) -> FrameDescription.ImageDraw? {
        let shown = id.flatMap { imageFrames[$0] }
        guard let image = source.image(at: shown?.index ?? 0) else { return nil }
        var previous: (any RasterTexture)? = nil
        var fade = 1.0
        if paint.fadeDuration > 0, let f = shown, let from = f.previous, now - f.changed < paint.fadeDuration,
           let before = source.image(at: from), before !== image {
            previous = before
            fade = max(0, (now - f.changed) / paint.fadeDuration)
        }
        let multiplier = Color.white.lit(by: light, emissive: paint.emissiveStrength)
        return .init(image: image, previous: previous, fade: fade, corners: source.corners,
                     placement: source.placement, light: multiplier, pixelAligned: !camera.isAnimating, gridStep: pixelRatio,
                     runs: source.runs(of: image))
    }
}
