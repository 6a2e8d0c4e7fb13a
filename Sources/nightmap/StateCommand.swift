import Foundation
import MapCore
import MapRender
import NightmapApp
import Raster

extension Headless {
    static func state(_ o: Options) throws -> String {
        var model = try MapSetup.model(o, report: warn)
        loadRadarOnce(&model, o)
        loadWarningsOnce(&model, o)
        refreshElementsOnce(&model, o)
        fetchIssOnce(&model, o)
        // The status line as the window shows it with nothing moving.
        model.status = StatusLine.compose(model, framesPerSecond: 0)
        return stateJSON(model, options: o)
    }

    /// Where the overlay's parts are: [x, y, width, height] each, or null when not shown.
    static func overlayJSON(_ model: MapApp) -> [String: Any] {
        let layout = model.overlayLayout
        func box(_ b: FrameDescription.ScreenBox?) -> Any {
            guard let b else { return NSNull() }
            return [b.minX, b.minY, b.maxX - b.minX, b.maxY - b.minY].map { ($0 * 10).rounded() / 10 }
        }
        var out: [String: Any] = ["status": box(layout?.text.status?.box), "attribution": box(layout?.attributionBox),
                                  "scale": box(layout?.scale?.box), "statusText": layout?.text.status?.text ?? NSNull(),
                                  "attributionLines": layout?.text.attribution.map(\.text) ?? [],
                                  "timeline": box(layout?.timeline?.box), "legend": box(layout?.legend?.panel)]
        // The compass, while the map is not north up or is tilted.
        if let c = model.model.compassArea {
            out["compass"] = box(.init(minX: c.x - c.radius, minY: c.y - c.radius, maxX: c.x + c.radius, maxY: c.y + c.radius))
        }
        return out
    }

    /// The labels placed at this camera: text, layer and screen box [x, y, width, height].
    static func labelsJSON(_ model: MapApp) -> [[String: Any]] {
        placedLabels(model).map { l in
            ["text": l.text, "layer": l.layer,
             "box": [l.box.minX, l.box.minY, l.box.maxX - l.box.minX, l.box.maxY - l.box.minY].map { ($0 * 10).rounded() / 10 }]
        }
    }

    /// A label placed: its text, its layer, its box and, when it has an icon (a dot), where that is.
    struct PlacedLabel: Equatable {
        let text: String, layer: String
        let box: FrameDescription.ScreenBox
        let dot: Point?
    }

    /// Every symbol layer's labels placed for the model's frame, in draw order.
    static func placedLabels(_ model: MapApp) -> [PlacedLabel] {
        let frame = model.frame()
        let placement = SymbolPlacement()
        placement.place(frame)
        return frame.layers.indices.flatMap { i in
            placement.symbols(layer: i).compactMap { s in
                s.text.map { PlacedLabel(text: $0.string, layer: frame.layers[i].id, box: $0.box, dot: s.icon == nil ? nil : s.point) }
            }
        }
    }

    static func issJSON(_ model: MapApp) -> [String: Any] {
        guard let tracker = model.iss else { return [:] }
        var out: [String: Any] = ["mode": tracker.mode.rawValue]
        if let p = model.issNow {
            out["lat"] = p.fix.position.lat; out["lon"] = p.fix.position.lng
            out["altitudeKm"] = p.fix.altitudeKm; out["source"] = p.fix.source.rawValue
            out["ageSeconds"] = p.ageSeconds; out["bearing"] = p.bearing
            out["footprintRadiusKm"] = model.issFootprintRadiusKm ?? NSNull()
            out["trackOffsetKm"] = model.issTrackOffsetKm ?? NSNull()
        } else {
            out["source"] = "none"
        }
        if let f = tracker.lastFailure { out["lastError"] = f.reason }
        // The elements against the live feed: how far off they put the station, and the shift fitted.
        out["orbitOffsetKm"] = tracker.orbitOffsetKm ?? NSNull()
        out["elementsStale"] = tracker.elementsStale
        out["orbitFit"] = tracker.fit.map { ["seconds": $0.dt, "degrees": $0.dLng] } ?? NSNull()
        if let epoch = model.issOrbitEpoch {
            out["tleEpoch"] = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: epoch))
            out["tleAgeDays"] = (model.clockOrigin + model.now - epoch) / 86400
            out["tleOrigin"] = tracker.orbitOrigin?.rawValue ?? NSNull()
        }
        out["tleRefresh"] = model.elementsRefresh ?? "off"
        out["following"] = model.followsIss
        return out
    }

    /// The point under the Sun at the map's instant, and whether the night shading shows.
    static func sunJSON(_ model: MapApp) -> [String: Any] {
        let p = model.subsolarPoint
        return ["lat": p.lat, "lon": p.lng, "shown": model.showsDaylight]
    }

    /// The projection's name at globeness `g`.
    static func projectionName(_ g: Double) -> String { g == 0 ? "mercator" : g == 1 ? "globe" : "globe blending into mercator" }

    /// What the map shows, as one JSON object.
    static func stateJSON(_ model: MapApp, options o: Options) -> String {
        let cam = model.camera.state
        let b = model.camera.bounds
        let instant = (o.time ?? Date().timeIntervalSince1970) + o.elapsed
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let object: [String: Any] = [
            // Zooms are the style's (the camera's less log2 of the pixel ratio); the size is in
            // device pixels, as the overlay's and the labels' boxes are.
            "camera": ["lat": cam.center.lat, "lon": cam.center.lng, "zoom": cam.zoom - log2(model.model.pixelRatio), "bearing": cam.bearing,
                       "pitch": cam.pitch,
                       // How much of the globe shows: 0 Web Mercator, 1 the globe, between blending.
                       "projection": projectionName(model.camera.view.globeness), "globeness": model.camera.view.globeness],
            "bounds": ["west": b.bounds.west, "south": b.bounds.south, "east": b.bounds.east, "north": b.bounds.north,
                       "minZoom": b.minZoom - log2(model.model.pixelRatio), "maxZoom": b.maxZoom - log2(model.model.pixelRatio),
                       "maxPitch": b.maxPitch],
            "size": [model.camera.size.width, model.camera.size.height],
            "pixelRatio": model.model.pixelRatio,
            "timer": model.loop.stateName,
            "layers": model.model.visibleLayerIDs,
            // What the style document could not give (named once each on stderr as well).
            "skipped": model.model.style.skipped,
            "scene": model.scene.name,
            "light": model.lightPreset.rawValue,
            "buildings": model.buildings.rawValue,
            "radar": radarJSON(model),
            "clouds": cloudsJSON(model),
            "warnings": warningsJSON(model, o),
            "iss": issJSON(model),
            "sun": sunJSON(model),
            "labels": labelsJSON(model),
            "overlay": overlayJSON(model),
            "pulse": model.pulse.map { p -> [String: Any] in
                ["running": p.isRunning, "period": p.period, "steps": p.stepCount]
            } ?? ["running": false, "period": 0, "steps": 0],
            "time": f.string(from: Date(timeIntervalSince1970: instant)),
            "elapsed": o.elapsed,
        ]
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// The clouds (empty without a clouds layer): whether shown, where the frames come from, each
    /// frame (by the first radar time it serves) with its status, the one shown, the newest
    /// clouds' time, the last problem.
    static func cloudsJSON(_ model: MapApp) -> [String: Any] {
        guard model.hasClouds else { return [:] }
        let series = model.clouds
        let frames: [[String: Any]] = (series?.slots ?? []).map { ["time": $0.time.map(RadarTime.iso) ?? NSNull(), "status": $0.status.rawValue] }
        return ["shown": model.cloudsShown, "source": series?.origin.rawValue ?? NSNull(), "provider": series?.provider ?? NSNull(),
                "frames": frames, "frame": model.cloudsFrame ?? NSNull(), "newest": model.cloudsNewest.map(RadarTime.iso) ?? NSNull(),
                "lastError": series?.lastError ?? NSNull()]
    }

    /// The radar: where its frames come from, every slot (oldest first) with its time and
    /// status, the slot shown, whether the loop plays, the last problem, the placement, and who
    /// makes the frames with the live choice (`--radar-provider`, `r`; null when not live).
    static func radarJSON(_ model: MapApp) -> [String: Any] {
        guard let id = model.radarLayerID, let layer = model.style.layers.first(where: { $0.id == id }),
              let source = model.style.image(layer.source), let series = model.radar else { return [:] }
        let c = source.corners
        let emissive = model.model.rasterPaint(layer: id)?.emissiveStrength ?? 0
        let shown = model.radarFrame
        let frames: [[String: Any]] = series.slots.map { slot in
            ["time": slot.time.map(RadarTime.iso) ?? NSNull(), "status": slot.status.rawValue]
        }
        return ["source": series.origin.rawValue, "frames": frames, "frame": shown.map { $0.slot } ?? NSNull(),
                "playing": model.loop.isPlaying, "lastError": series.lastError ?? NSNull(),
                "file": shown?.name ?? NSNull(), "frameSeconds": model.loop.frameSeconds,
                "placement": source.placement.rawValue, "emissiveStrength": emissive,
                "corners": [c.topLeft, c.topRight, c.bottomRight, c.bottomLeft].map { [$0.lng, $0.lat] },
                "provider": series.provider, "providerChoice": model.radarChoice?.rawValue ?? NSNull()]
    }
}
