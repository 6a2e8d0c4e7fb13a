import MapCore

/// The route pulse: the Mapbox snippet's schedule of `line-opacity` changes on the route's step
/// layers, each made through `setPaintProperty` at its own instant.
extension MapApp {
    /// Pulses the line layers `ids` (the route's steps, in order) from instant `start`.
    public mutating func pulse(layers ids: [String], start: Double) {
        routeLayerIDs = ids
        pulse = ids.isEmpty ? nil : RoutePulse(stepCount: ids.count, start: start)
    }

    mutating func advancePulse(to now: Double) {
        guard var p = pulse else { return }
        var changes = pulseChanges
        pulseChanges = []
        let resetAll = p.advance(to: now, into: &changes)
        pulse = p
        if resetAll { for id in routeLayerIDs { setStepOpacity(id, 0, at: now, immediately: true) } }
        for c in changes where c.step < routeLayerIDs.count {
            setStepOpacity(routeLayerIDs[c.step], c.opacity, at: c.time, immediately: false)
        }
        pulseChanges = changes
    }

    /// A step's `line-opacity` set at `time`; `immediately`: set so that it has reached `v` by
    /// now (a cycle skipped whole: every step was back at 0 by then).
    private mutating func setStepOpacity(_ id: String, _ v: Double, at time: Double, immediately: Bool) {
        let when = immediately ? min(time, model.now) - 3600 : time
        try? model.setPaintProperty(layer: id, "line-opacity", json: .number(v), at: when)
    }

    /// Starts the pulse from a new cycle, or stops it and fades every step out.
    public mutating func togglePulse(at now: Double) {
        guard var p = pulse else { return }
        p.toggle(at: now)
        pulse = p
        if !p.isRunning { for id in routeLayerIDs { setStepOpacity(id, 0, at: now, immediately: false) } }
        advance(to: now)
    }
}
