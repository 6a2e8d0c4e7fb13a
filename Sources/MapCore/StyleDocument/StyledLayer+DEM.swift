import Foundation

/// Hillshade and color-relief layers: their paint evaluated for the frame, over the frame's
/// tiles of their raster-dem source.
extension StyledLayer {
    func hillshadeLayer(_ e: StyleEvaluation) -> FrameDescription.DrawLayer? {
        guard let tiles = e.tiles?.demTiles(definition.source), !tiles.isEmpty else { return nil }
        let zc = EvaluationContext(zoom: e.zoom, time: e.now)
        typealias P = HillshadePaintProperty
        var azimuth = number(P.direction, zc) * .pi / 180
        if string(P.anchor, zc) != "map" { azimuth += e.bearing * .pi / 180 }
        func shade(_ p: P) -> PremultipliedRGBA { PremultipliedRGBA(color(p, zc).lit(by: e.light, emissive: 0)) }
        var draw = HillshadeDraw(tiles: tiles, method: HillshadeMethod(rawValue: string(P.method, zc)) ?? .standard,
                                 azimuth: Float(azimuth), altitude: Float(number(P.altitude, zc) * .pi / 180),
                                 exaggeration: Float(number(P.exaggeration, zc)),
                                 shadow: shade(.shadowColor), highlight: shade(.highlightColor), accent: shade(.accentColor))
        draw.gridStep = e.still ? e.pixelRatio : nil
        return .init(id: definition.id, .hillshade(draw))
    }

    func colorReliefLayer(_ e: StyleEvaluation) -> FrameDescription.DrawLayer? {
        guard let tiles = e.tiles?.demTiles(definition.source), let first = tiles.first,
              let stops = definition.paint[ColorReliefPaintProperty.color.spec.name]?.expression?.elevationStops(),
              !stops.isEmpty else { return nil }
        let zc = EvaluationContext(zoom: e.zoom, time: e.now)
        let opacity = Float(number(ColorReliefPaintProperty.opacity, zc))
        guard opacity > 0 else { return nil }
        let encoding = first.dem.encoding
        let elevations = stops.map { Float(encoding.quantized($0.elevation)) }
        let colors = stops.map { s -> PremultipliedRGBA in
            let c = PremultipliedRGBA(s.color.lit(by: e.light, emissive: 0))
            return PremultipliedRGBA(r: c.r * opacity, g: c.g * opacity, b: c.b * opacity, a: c.a * opacity)
        }
        var draw = ColorReliefDraw(tiles: tiles, elevations: elevations, colors: colors)
        draw.gridStep = e.still ? e.pixelRatio : nil
        return .init(id: definition.id, .colorRelief(draw))
    }
}
