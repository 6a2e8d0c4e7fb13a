import Foundation
import MapCore
import MapData
@testable import MapRender
import Raster
import Testing

/// Symbols and circles on a pitched map, as MapLibre's shaders and collision index size them:
/// a label facing the viewer grows by 0.5 + 0.5 ctc / w about its projected anchor, one in the
/// map's plane by 0.5 + 0.5 w / ctc there and is projected, anchors deeper than 5 ctc are never
/// placed; a circle's radius is r ctc / w (pitch-scale map) or r (viewport).
@Suite struct PitchedSymbolTests {
    static let size = ViewportSize(width: 400, height: 300)
    static let center = LngLat(lng: 0, lat: 0)

    /// The view at `pitch` (degrees) over the test's centre at zoom 4.
    static func view(pitch: Double) -> ViewTransform {
        ViewTransform(camera: CameraState(center: center, zoom: 4, pitch: pitch), size: size)
    }

    /// The labels of one symbol layer (`layout` JSON) over `points`, placed for `view`.
    static func labels(_ layout: String, _ points: [LngLat], view: ViewTransform) throws -> [PlacedText] {
        let layer = SymbolPlacementTests.layer("a", #""text-field": ["get", "name"], "text-size": 20, \#(layout)"#)
        let m = try SymbolPlacementTests.model("[\(layer)]", points.enumerated().map { ($1, ["name": .string("Label\($0)")]) }, size: size)
        let frame = m.frame()
        let pitched = FrameDescription(view: view, layers: frame.layers)
        let placement = SymbolPlacement()
        placement.place(pitched)
        let i = try #require(pitched.layers.firstIndex { $0.symbols != nil })
        return placement.symbols(layer: i).compactMap(\.text)
    }

    /// A point of the map north of the centre whose anchor is deeper than the centre at pitch 60.
    static let far = LngLat(lng: 3, lat: 6)

    /// The anchor's screen place and clip w at pitch 60.
    static func projected(_ p: LngLat) throws -> (x: Double, y: Double, w: Double, ctc: Double) {
        let perspective = try #require(view(pitch: 60).perspective)
        let q = perspective.project(WebMercator.project(p))
        return (q.x, q.y, q.w, perspective.cameraToCenterDistance)
    }

    @Test func aViewportPitchedLabelGrowsByThePerspectiveRatioAboutItsProjectedAnchor() throws {
        let a = try Self.projected(Self.far)
        #expect(a.w > 1.2 * a.ctc, "the anchor is not deep: w \(a.w), ctc \(a.ctc)")
        let layout = #""text-pitch-alignment": "viewport""#
        let flat = try #require(try Self.labels(layout, [Self.far], view: Self.view(pitch: 0)).first)
        let pitched = try #require(try Self.labels(layout, [Self.far], view: Self.view(pitch: 60)).first)
        let ratio = 0.5 + 0.5 * a.ctc / a.w
        #expect(abs(pitched.sizeScale - ratio) < 1e-9, "size x \(pitched.sizeScale), not \(ratio)")
        #expect(pitched.plane == nil)
        // The box (text and padding) is the flat one scaled by the ratio, centred where it was
        // relative to the projected anchor.
        let fw = flat.box.maxX - flat.box.minX, fh = flat.box.maxY - flat.box.minY
        #expect(abs((pitched.box.maxX - pitched.box.minX) - fw * ratio) < 1e-6)
        #expect(abs((pitched.box.maxY - pitched.box.minY) - fh * ratio) < 1e-6)
        #expect(abs(pitched.origin.x - a.x) < 1e-6 && abs(pitched.origin.y - a.y) < 1e-6, "origin \(pitched.origin), anchor \(a)")
        let flatAnchor = Self.view(pitch: 0).screen(Self.far)
        #expect(abs((pitched.box.minX - a.x) - (flat.box.minX - flatAnchor.x) * ratio) < 1e-6)
    }

    @Test func aMapPitchedLabelLiesInTheMapsPlane() throws {
        let a = try Self.projected(Self.far)
        let layout = #""text-pitch-alignment": "map""#
        let flat = try #require(try Self.labels(layout, [Self.far], view: Self.view(pitch: 0)).first)
        let pitched = try #require(try Self.labels(layout, [Self.far], view: Self.view(pitch: 60)).first)
        // Drawn at 0.5 + 0.5 w / ctc in the plane, about the projected anchor.
        #expect(abs(pitched.sizeScale - (0.5 + 0.5 * a.w / a.ctc)) < 1e-9)
        #expect(abs(pitched.origin.x - a.x) < 1e-6 && abs(pitched.origin.y - a.y) < 1e-6)
        // The plane foreshortens: its box is flatter than the flat label's, and smaller by depth.
        let m = try #require(pitched.plane)
        #expect(abs(m[0] - a.ctc / a.w) < 0.05 * a.ctc / a.w && m[3] < 0.6 * m[0], "plane \(m)")
        let fw = flat.box.maxX - flat.box.minX, fh = flat.box.maxY - flat.box.minY
        let pw = pitched.box.maxX - pitched.box.minX, ph = pitched.box.maxY - pitched.box.minY
        #expect(ph / pw < 0.6 * fh / fw, "box \(pitched.box) vs flat \(flat.box)")
        #expect(pw < fw, "box \(pitched.box) vs flat \(flat.box)")
    }

    @Test func aLabelDeeperThanFiveCameraDistancesIsNotPlaced() throws {
        // At pitch 80 the ground reaches past 5 ctc below the horizon.
        let view = ViewTransform(camera: CameraState(center: Self.center, zoom: 4, pitch: 80), size: Self.size)
        let perspective = try #require(view.perspective)
        let ctc = perspective.cameraToCenterDistance
        // Points straight ahead (screen x at the centre), on the ground at 3 and 6 ctc.
        var near: LngLat?, deep: LngLat?
        var y = Double(Self.size.height) / 2
        while y > perspective.groundTopY + 1 {
            if let m = perspective.unproject(x: 200, y: y) {
                let w = perspective.project(m).w
                if near == nil && w > 3 * ctc { near = WebMercator.unproject(m) }
                if deep == nil && w > 6 * ctc { deep = WebMercator.unproject(m) }
            }
            y -= 0.25
        }
        let n = try #require(near), d = try #require(deep)
        let layout = #""text-allow-overlap": true, "text-ignore-placement": true"#
        let placed = try Self.labels(layout, [n, d], view: view).map(\.string)
        #expect(placed == ["Label0"], "placed: \(placed)")
    }

    /// The icon of one symbol layer with `layout` at `point`, placed for `view`.
    static func icon(_ layout: String, at point: LngLat, view: ViewTransform) throws -> PlacedSymbol {
        let layer = #"{ "id": "a", "type": "symbol", "source": "points", "layout": { "icon-image": "square", \#(layout) } }"#
        let m = try SymbolPlacementTests.model("[\(layer)]", [(point, [:])], size: size)
        let pitched = FrameDescription(view: view, layers: m.frame().layers)
        let placement = SymbolPlacement()
        placement.place(pitched)
        let i = try #require(pitched.layers.firstIndex { $0.symbols != nil })
        return try #require(placement.symbols(layer: i).first)
    }

    @Test func anIconGrowsWithTheRatioAndOneInTheMapsPlaneIsForeshortened() throws {
        let a = try Self.projected(Self.far)
        func scale(_ s: PlacedSymbol) -> Double? { if case let .vector(p)? = s.icon { return p.scale } else { return nil } }
        let flat = try #require(scale(try Self.icon(#""icon-pitch-alignment": "viewport""#, at: Self.far, view: Self.view(pitch: 0))))
        let facing = try Self.icon(#""icon-pitch-alignment": "viewport""#, at: Self.far, view: Self.view(pitch: 60))
        #expect(abs((scale(facing) ?? 0) - flat * (0.5 + 0.5 * a.ctc / a.w)) < 1e-9 && facing.iconPlane == nil)
        #expect(abs(facing.point.x - a.x) < 1e-6 && abs(facing.point.y - a.y) < 1e-6)
        let lying = try Self.icon(#""icon-pitch-alignment": "map""#, at: Self.far, view: Self.view(pitch: 60))
        #expect(abs((scale(lying) ?? 0) - flat * (0.5 + 0.5 * a.w / a.ctc)) < 1e-9)
        let m = try #require(lying.iconPlane)
        #expect(m[3] < 0.6 * m[0], "plane \(m)")
    }

    /// A white circle of radius 10 px at `point` on black, at pitch 60: the pixels it covers.
    static func circle(_ paint: (inout CirclePaint) -> Void, at point: LngLat) -> Pixmap {
        var p = CirclePaint()
        p.radius = 10; p.color = .white
        paint(&p)
        let geometry = FeatureGeometry(kind: .points, parts: [[WebMercator.project(point)]])
        let layers = [FrameDescription.DrawLayer(id: "bg", .background(color: .black, opacity: 1)),
                      FrameDescription.DrawLayer(id: "c", .circle(FeatureDraw(items: [.init(paint: p, geometry: geometry)])))]
        let pm = Pixmap(width: size.width, height: size.height)
        FrameRenderer().render(FrameDescription(view: view(pitch: 60), layers: layers), into: pm)
        return pm
    }

    /// The lit run's length along the row and the column through (x, y).
    static func extent(_ pm: Pixmap, _ x: Double, _ y: Double) -> (across: Int, down: Int) {
        let cx = Int(x), cy = Int(y)
        let across = (0..<pm.width).filter { pm.color(atX: $0, y: cy).r > 127 }.count
        let down = (0..<pm.height).filter { pm.color(atX: cx, y: $0).r > 127 }.count
        return (across, down)
    }

    /// A circle's centre on the flat screen inside the view, deeper than the centre when pitched.
    static var circlePoint: LngLat { view(pitch: 0).lngLat(x: 230, y: 30) }

    @Test func aCircleShrinksWithDepthUnlessItsPitchScaleIsTheViewport() throws {
        let a = try Self.projected(Self.circlePoint)
        #expect(a.w > 1.15 * a.ctc, "w \(a.w), ctc \(a.ctc)")
        let scaled = Self.extent(Self.circle({ _ in }, at: Self.circlePoint), a.x, a.y)
        let expected = 20 * a.ctc / a.w
        #expect(abs(Double(scaled.across) - expected) <= 1.5 && abs(Double(scaled.down) - expected) <= 1.5, "\(scaled) vs \(expected)")
        let constant = Self.extent(Self.circle({ $0.scalesWithMap = false }, at: Self.circlePoint), a.x, a.y)
        #expect(abs(constant.across - 20) <= 1 && abs(constant.down - 20) <= 1, "\(constant)")
    }

    @Test func aCircleAlignedToTheMapIsAnEllipse() throws {
        let a = try Self.projected(Self.circlePoint)
        let plane = Self.extent(Self.circle({ $0.pitchesWithMap = true }, at: Self.circlePoint), a.x, a.y)
        let across = 20 * a.ctc / a.w
        #expect(abs(Double(plane.across) - across) <= 1.5, "\(plane) vs \(across)")
        #expect(Double(plane.down) < 0.65 * across, "\(plane)")
        // With the viewport's scale it keeps its width on screen.
        let wide = Self.extent(Self.circle({ $0.pitchesWithMap = true; $0.scalesWithMap = false }, at: Self.circlePoint), a.x, a.y)
        #expect(abs(wide.across - 20) <= 1, "\(wide)")
    }
}

/// While a pitched view moves, every label's size (and a line label's glyphs) drift a little
/// with each step; a label then draws from the mask last shaded for it while the drift stays
/// small, and is shaded anew past it, or when the view settles.
@Suite struct MovingPitchedLabelTests {
    /// A pitched view's label drawn by one `LabelSprites`, its size scaled, counting the glyphs
    /// each draw shades.
    struct Drawn {
        let label: PlacedText
        let sprites = LabelSprites()
        let target = RenderTarget(pixmap: Pixmap(width: 400, height: 300), rows: 0..<300)

        init() throws {
            let layout = #""text-pitch-alignment": "viewport""#
            label = try #require(try PitchedSymbolTests.labels(layout, [PitchedSymbolTests.far], view: PitchedSymbolTests.view(pitch: 60)).first)
        }

        func draw(symbol: Int = 1, scale: Double, exact: Bool = false, frame: Int) -> Int {
            var l = label
            l.sizeScale = label.sizeScale * scale
            let before = sprites.glyphsDrawn
            sprites.draw(l, symbol: symbol, exact: exact, frame: frame, target)
            return sprites.glyphsDrawn - before
        }
    }

    @Test func aLabelWhoseSizeDriftsLittleIsNotShadedAgainWhileTheViewMoves() throws {
        let label = try Drawn()
        #expect(label.draw(scale: 1, exact: false, frame: 1) > 0)
        // 1 % and 2 % larger: the first mask serves.
        #expect(label.draw(scale: 1.01, exact: false, frame: 2) == 0)
        #expect(label.draw(scale: 1.02, exact: false, frame: 3) == 0)
        // 5 % larger: shaded anew, and that mask serves the next small step.
        #expect(label.draw(scale: 1.05, exact: false, frame: 4) > 0)
        #expect(label.draw(scale: 1.06, exact: false, frame: 5) == 0)
        // The view settles: shaded at its exact size.
        #expect(label.draw(scale: 1.06, exact: true, frame: 6) > 0)
    }

    /// A street's name along two of its pieces: two labels of one text, each at its own size
    /// (one nearer the camera); each keeps to the mask last shaded for it.
    @Test func labelsOfOneTextEachDrawFromTheirOwnMaskWhileTheViewMoves() throws {
        let label = try Drawn()
        #expect(label.draw(symbol: 1, scale: 1, frame: 1) > 0)
        #expect(label.draw(symbol: 2, scale: 1.3, frame: 1) > 0)
        // Both drift a little with the next steps: neither is shaded again.
        for frame in 2...4 {
            let drift = 1 + 0.005 * Double(frame)
            #expect(label.draw(symbol: 1, scale: drift, frame: frame) == 0, "frame \(frame)")
            #expect(label.draw(symbol: 2, scale: 1.3 * drift, frame: frame) == 0, "frame \(frame)")
        }
    }

    @Test func keysAreNearOnlyWithinTheirTolerances() {
        let shading = SDFLabelMasks.Shading(size: 20, haloWidth: 1, haloBlur: 0, rotation: 0)
        func key(size: Double = 20, rotation: Double = 0, halo: Double = 1, poses: [Int32] = [0, 0, 0, 640, 0, 10]) -> LabelSprites.Key {
            var s = shading
            s.size = size; s.rotation = rotation; s.haloWidth = halo
            return LabelSprites.Key(key: "a", shading: s, colors: [1], opacity: 1, poses: poses)
        }
        let a = key()
        #expect(LabelSprites.near(a, key(size: 20.5)))
        #expect(!LabelSprites.near(a, key(size: 21)))
        #expect(LabelSprites.near(a, key(rotation: 0.009)) && !LabelSprites.near(a, key(rotation: 0.02)))
        #expect(!LabelSprites.near(a, key(halo: 2)))
        // A glyph 0.5 px off, or turned 0.01 rad, is near; 0.6 px or 0.02 rad is not.
        #expect(LabelSprites.near(a, key(poses: [0, 0, 0, 672, 0, 51])))
        #expect(!LabelSprites.near(a, key(poses: [0, 0, 0, 680, 0, 10])) && !LabelSprites.near(a, key(poses: [0, 0, 0, 640, 0, 92])))
        #expect(!LabelSprites.near(a, key(poses: [0, 0, 0])))
    }

    /// A label in the map's plane moving away: its plane shrinks on screen as its size grows.
    /// What counts is its shape on screen (and the shader's gamma over its size), not each factor.
    @Test func aLabelInTheMapsPlaneIsNearByItsShapeOnScreen() {
        func key(size: Double, plane: SIMD4<Double>?, gammaScale: Double = 1) -> LabelSprites.Key {
            var s = SDFLabelMasks.Shading(size: size, haloWidth: 1, haloBlur: 0, rotation: 0)
            s.plane = plane; s.gammaScale = gammaScale
            return LabelSprites.Key(key: "a", shading: s, colors: [1], opacity: 1, poses: [])
        }
        let plane = SIMD4<Double>(1, 0.2, 0, 0.5)
        let a = key(size: 20, plane: plane)
        // 4 % larger through a plane 4 % smaller: the same shape within 0.2 % (gamma kept over the size).
        #expect(LabelSprites.near(a, key(size: 20.8, plane: plane * 0.96, gammaScale: 1.04)))
        // Either alone changes the shape by 4 %.
        #expect(!LabelSprites.near(a, key(size: 20, plane: plane * 0.96)))
        #expect(!LabelSprites.near(a, key(size: 20.8, plane: plane, gammaScale: 1.04)))
        // The same shape with its edges 4 % softer is not near; nor is a label facing the viewer.
        #expect(!LabelSprites.near(a, key(size: 20.8, plane: plane * 0.96)))
        #expect(!LabelSprites.near(a, key(size: 20, plane: nil)))
    }
}
