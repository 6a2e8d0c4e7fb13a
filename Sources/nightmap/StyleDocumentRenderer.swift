import Foundation
import MapCore
import NightmapApp
import MapData
import MapRender
import Raster

/// Maps described by a style document: the model for `--style` and for the render tests.
enum StyleDocumentMap {
    /// The scene a document's camera gives: its centre and zoom, the whole world as bounds (for
    /// one device pixel per CSS pixel; `MapModel.setPixelRatio` shifts it).
    /// `maxPitch`: the steepest pitch allowed (MapLibre's map option, 60 by default).
    static func scene(_ document: StyleDocument, maxPitch: Double = 60) -> Scene {
        Scene(name: "style", camera: CameraState(center: document.center ?? LngLat(lng: 0, lat: 0), zoom: document.zoom ?? 0,
                                                 bearing: document.bearing, pitch: document.pitch),
              bounds: CameraBounds(minZoom: StyleDocument.zoomRange.lowerBound, maxZoom: StyleDocument.zoomRange.upperBound,
                                   maxPitch: maxPitch), timerStartsPlaying: false)
    }

    /// A model showing `document` (resources loaded into `style`), unlit as MapLibre draws.
    static func model(_ document: StyleDocument, style: Style, size: ViewportSize, pixelRatio: Double,
                      light: LightPreset? = nil, maxPitch: Double = 60) -> MapModel {
        let s = scene(document, maxPitch: maxPitch)
        var model = MapModel(style: style, size: size, camera: s.startCamera(size: size), bounds: s.bounds, light: light ?? .day)
        model.lighting = light != nil
        model.setPixelRatio(pixelRatio)
        return model
    }
}

/// What the render tests draw glyphs from where their ranges fail (as MapLibre draws them with
/// TinySDF from the browser's fonts): local fonts, nightmap's own first, made once per process.
enum RenderTestFonts {
    static let local: LocalGlyphs? = (try? ResourceLocator.resourcesDirectory()).map { BundledAssets.localGlyphs(resources: $0) }
}

/// Renders a style document as the render-test harness asks: at width x height CSS pixels and
/// `pixelRatio`, `local://` URLs in `assets`, everything loaded before the one frame is drawn;
/// where nothing is drawn the image stays transparent.
///
/// The map's symbols fade over `metadata.test.fadeDuration` milliseconds (else 0: placed at
/// once). When they fade, the frames before the last matter: a frame is drawn (its symbols
/// placed, at the model's instant, its tiles and glyphs loaded first) after every `wait` and
/// `idle`, as MapLibre's harness renders on each, and the last image is drawn through the same
/// placement, so placements come on MapLibre's cadence and fades are as far along as there.
func renderStyleDocument(_ data: Data, _ styleURL: URL, _ width: Int, _ height: Int, _ pixelRatio: Double,
                         _ assets: URL) throws -> Pixmap {
    let json: JSON
    let document: StyleDocument
    do {
        json = try JSON.parse(data, name: styleURL.path)
        document = try StyleDocument(json: json)
    } catch let e as StyleDocumentError {
        throw RenderTestError(e.problems.joined(separator: "; "))
    } catch let e as StyleError {
        throw RenderTestError(e.description)
    }
    let metadata = try RenderTestMetadata.parse(json)
    let fadeDuration = metadata.fadeDuration / 1000
    let resolver = ResourceResolver(styleDirectory: styleURL.deletingLastPathComponent(), assets: assets)
    let w = Int((Double(width) * pixelRatio).rounded(.down)), h = Int((Double(height) * pixelRatio).rounded(.down))
    let load = { (document: StyleDocument) throws -> MapModel in
        let style = try StyleLoader.style(for: document, resolver: resolver, pixelRatio: pixelRatio, localGlyphs: RenderTestFonts.local)
        var model = StyleDocumentMap.model(document, style: style, size: ViewportSize(width: w, height: h), pixelRatio: pixelRatio,
                                           maxPitch: metadata.maxPitch)
        model.symbolFadeDuration = fadeDuration
        model.showsCollisionBoxes = metadata.collisionDebug
        return model
    }
    var model: MapModel
    do { model = try load(document) } catch let e as StyleDocumentError {
        throw RenderTestError(e.problems.joined(separator: "; "))
    }
    var now = 0.0
    model.advance(to: now)
    let renderer = FrameRenderer()
    renderer.clearColor = PremultipliedColor(packed: 0)
    // Fading symbols are placed by one placement, frame after frame (with fadeDuration 0 every
    // placement is made afresh and shows at once: only the last frame counts).
    let placement: SymbolPlacement? = fadeDuration > 0 ? SymbolPlacement() : nil
    if let placement { renderer.usePlacement(placement) }
    var operations = RenderTestOperations(load: load, resolver: resolver, pixelRatio: pixelRatio)
    if let placement {
        operations.frame = { model in
            model.loadWantedTiles(now: model.now)
            model.loadWantedGlyphs()
            placement.place(model.frame())
        }
    }
    try operations.apply(try RenderTestOperations.list(json), to: &model, document: document, now: &now)
    model.loadWantedTiles(now: now)
    model.loadWantedGlyphs()
    let pixmap = Pixmap(width: w, height: h)
    let frame = model.frame()
    placement?.place(frame)
    renderer.render(frame, into: pixmap)
    return pixmap
}
