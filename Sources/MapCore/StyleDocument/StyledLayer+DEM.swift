import Foundation

/// Hillshade and color-relief layers: their paint evaluated for the frame, over the frame's
/// tiles of their raster-dem source.
extension StyledLayer {
    func hillshadeLayer(_ e: StyleEvaluation) -> FrameDescription.DrawLayer? {
        guard let tiles = e.tiles?.demTiles(definition.source), !tiles.isEmpty else { return nil }
        let zc = EvaluationContext(zoom: e.zoom, time: e.now)
        typealias P = HillshadePaintProperty
        let turn = string(P.anchor, zc) != "map" ? e.bearing : 0
        // One light per highlight colour; shorter lists repeat their last value.
        let directions = numbers(P.direction, zc), altitudes = numbers(P.altitude, zc)
        let shadows = colors(P.shadowColor, zc), highlights = colors(P.highlightColor, zc)
        func shade(_ c: Color) -> PremultipliedRGBA { PremultipliedRGBA(c.lit(by: e.light, emissive: 0)) }
        let lights = highlights.indices.map { i in
            HillshadeLight(azimuth: Float((directions[min(i, directions.count - 1)] + turn) * .pi / 180),
                           altitude: Float(altitudes[min(i, altitudes.count - 1)] * .pi / 180),
                           shadow: shade(shadows[min(i, shadows.count - 1)]), highlight: shade(highlights[i]))
        }
        var draw = HillshadeDraw(tiles: tiles, method: HillshadeMethod(rawValue: string(P.method, zc)) ?? .standard,
                                 lights: lights, exaggeration: Float(number(P.exaggeration, zc)), accent: shade(color(P.accentColor, zc)))
        draw.gridStep = e.still ? e.pixelRatio : nil
        return .init(id: definition.id, .hillshade(draw))
    }

    /// A per-light property's values (at least one: the default when none fits).
    private func numbers(_ p: HillshadePaintProperty, _ zc: EvaluationContext) -> [Double] {
        let v = paint(p, zc)
        if case let .number(n) = v { return [n] }
        if case let .array(items) = v {
            let out = items.compactMap(\.asNumber)
            if !out.isEmpty { return out }
        }
        return [p.spec.defaultValue.asNumber ?? 0]
    }

    private func colors(_ p: HillshadePaintProperty, _ zc: EvaluationContext) -> [Color] {
        let v = paint(p, zc)
        if case let .color(c) = v { return [c] }
        if case let .array(items) = v {
            let out = items.compactMap(\.asColor)
            if !out.isEmpty { return out }
        }
        return [p.spec.defaultValue.asColor ?? .black]
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
