import Foundation
import MapCore

/// The ISS tracker as a client of the engine: its position goes into the `iss` GeoJSON source
/// (a Point with its `bearing`, which the symbol layer turns the rocket by), its ground track
/// into the track sources once a minute; an off-screen marker points to it when it is out of
/// sight, labels keep clear of its icon, and follow mode eases the camera to it once a second.
extension MapApp {
    /// A fix from the live feed (delivered by the run loop from the feed's inbox).
    public mutating func receiveIss(_ fix: IssFix) { iss?.receive(fix) }

    /// A failed request of the live feed, with a one-line reason.
    public mutating func issFeedFailed(at time: Double, reason: String) { iss?.failed(at: time, reason: reason) }

    /// A newer element set (downloaded while the map shows): the orbit, its track and the
    /// position follow it from the next frame.
    public mutating func useElements(_ orbit: IssOrbit, origin: ElementsOrigin) {
        guard iss != nil else { return }
        iss?.use(orbit, origin: origin)
        trackComputedAt = -.infinity
        issShown = nil
    }

    /// The orbit's element set epoch (Unix seconds), when the ISS has one.
    public var issOrbitEpoch: Double? { iss?.orbitEpoch }

    /// The ISS as shown now: position, heading, source and data age.
    public var issNow: (fix: IssFix, bearing: Double, ageSeconds: Double)? { iss?.position(at: clockOrigin + model.now) }

    mutating func advanceIss() {
        guard let tracker = iss else { return }
        let now = model.now, utc = clockOrigin + now
        if let p = tracker.position(at: utc) {
            // A new source only when the icon has moved a quarter of a pixel or turned half a
            // degree (out of sight: once a second), so frames in between allocate nothing.
            let world = model.camera.view.worldSize
            let moved = issShown.map { old in
                if issUpdateInterval == 1 && now - old.time < 1 && now >= old.time { return false }
                let a = WebMercator.project(old.position), b = WebMercator.project(p.fix.position)
                var dx = abs(a.x - b.x)
                dx = min(dx, 1 - dx)
                return (dx * dx + (a.y - b.y) * (a.y - b.y)).squareRoot() * world >= 0.25 || abs(old.bearing - p.bearing) >= 0.5
            } ?? true
            if moved, model.style.geojson(Self.issSourceID) != nil {
                issShown = (p.fix.position, p.bearing, now)
                try? model.updateGeoJSONSource(Self.issSourceID, GeoJSONData.point(p.fix.position, properties: ["bearing": .number(p.bearing)]))
                showFootprint(at: p.fix.position, altitudeKm: p.fix.altitudeKm)
            }
            markIss(at: p.fix.position)
        }
        // Follow mode: once a second, a 1 s ease to where the ISS is then (as the example's timer
        // does). Each ease starts at its own whole second, so a snapshot at any instant shows what
        // the window shows; only the last few matter, as each ease starts from the previous one.
        if followsIss {
            // `lastFollow` is the last ease (or when follow mode began): eases fall 1 s apart after it.
            if now - lastFollow > 6 { lastFollow += ((now - lastFollow) - 5).rounded(.down) }
            while lastFollow + 1 <= now {
                let t = lastFollow + 1
                lastFollow = t
                guard let q = tracker.position(at: clockOrigin + t) else { break }
                let zoom = scene.followZoom ?? model.camera.target.zoom
                model.ease(to: model.camera.target.moved(center: q.fix.position, zoom: zoom), duration: 1,
                           curve: .easeOut, now: t)
            }
            model.advance(to: now)
        }
        // The ground track: the last 45 minutes and the next 90, redrawn once a minute and when
        // the orbit's fit to the live fixes changes.
        if tracker.drawnOrbit != nil && (now - trackComputedAt >= 60 || now < trackComputedAt || tracker.fitGeneration != trackFitGeneration) {
            trackComputedAt = now
            trackFitGeneration = tracker.fitGeneration
            orbitPoints = Self.orbitPath(tracker, from: utc - 45 * 60, to: utc + 90 * 60)
            let past = tracker.groundTrack(from: utc - 45 * 60, to: utc), future = tracker.groundTrack(from: utc, to: utc + 90 * 60)
            trackLines = past + future
            if model.style.geojson(Self.trackSeenID) != nil {
                try? model.updateGeoJSONSource(Self.trackSeenID, GeoJSONData.lines(seenTrack(tracker, from: utc - 45 * 60, to: utc + 90 * 60)))
            }
            if model.style.geojson(Self.trackPastID) != nil {
                try? model.updateGeoJSONSource(Self.trackPastID, GeoJSONData.lines(past))
            }
            if model.style.geojson(Self.trackFutureID) != nil {
                try? model.updateGeoJSONSource(Self.trackFutureID, GeoJSONData.lines(future))
            }
        }
        showOrbit(station: issShown == nil ? nil : tracker.position(at: utc)?.fix, utc: utc)
    }

    /// How far the position shown is from the ground track drawn, in km; nil with no track drawn.
    public var issTrackOffsetKm: Double? {
        guard let p = issNow?.fix.position, trackLines.contains(where: { $0.count > 1 }) else { return nil }
        return trackLines.map { p.distanceKm(toLine: $0) }.min()
    }

    /// The arrow at the window's edge towards the ISS (the colour of its icon's first shape,
    /// lit) and the disc around its icon that labels keep clear of; both changed in place.
    private mutating func markIss(at position: LngLat) {
        guard let (icon, scale, emissive) = model.vectorIcon(layer: Self.issLayerID), let first = icon.shapes.first?.color else {
            model.offscreenMarkers.removeAll(); model.labelObstacles.removeAll(); return
        }
        let light = Color.white.lit(by: model.groundRadiance, emissive: emissive)
        let marker = FrameDescription.OffscreenMarker(target: position, color: Color(r: first.r * light.r, g: first.g * light.g,
                                                                                     b: first.b * light.b, a: 0.9), scale: model.pixelRatio)
        if model.offscreenMarkers.count != 1 { model.offscreenMarkers = [marker] } else if model.offscreenMarkers[0] != marker { model.offscreenMarkers[0] = marker }
        let obstacle = MapModel.LabelObstacle(center: WebMercator.project(position),
                                              radius: (icon.width * icon.width + icon.height * icon.height).squareRoot() * scale / 2)
        if model.labelObstacles.count != 1 { model.labelObstacles = [obstacle] } else if model.labelObstacles[0] != obstacle { model.labelObstacles[0] = obstacle }
    }

    /// Seconds until the ISS has moved a quarter of a pixel on screen (it moves continuously,
    /// slowly: about 3 px/s at zoom 5); once a second while out of sight. Nil without a position.
    var issUpdateInterval: Double? {
        guard let p = issNow else { return nil }
        let view = model.camera.view
        let metresPerPixel = 40_075_016.686 * cos(p.fix.position.lat * Double.pi / 180) / view.worldSize
        let pixelsPerSecond = 7_660 / max(metresPerPixel, 1e-6)
        let s = view.nearestScreen(p.fix.position)
        if s.x < -60 || s.x > Double(view.size.width) + 60 || s.y < -60 || s.y > Double(view.size.height) + 60 { return 1 }
        return min(1, max(1.0 / 60, 0.25 / pixelsPerSecond))
    }
}
