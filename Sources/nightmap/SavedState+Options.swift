import MapCore
import NightmapApp
import MapData

extension SavedState {
    /// Puts what was saved into options the command line did not set (`given`: the option names
    /// it used). The camera comes back only with its scene, and neither for another style.
    func restore(into o: inout Options, given: Set<String>) {
        if !given.contains("--scene") && !given.contains("--style") {
            o.scene = scene
            if !given.contains("--center") { o.center = LngLat(lng: camera.lon, lat: camera.lat) }
            if !given.contains("--zoom") { o.zoom = camera.zoom }
            if !given.contains("--bearing"), let b = camera.bearing { o.bearing = b }
            if !given.contains("--pitch"), let p = camera.pitch { o.pitch = p }
        }
        if !given.contains("--light"), let l = LightPreset(rawValue: light) { o.light = l }
        if !given.contains("--buildings") && !given.contains("--style"), let b = buildings.flatMap(BuildingsMode.init(rawValue:)) { o.buildings = b }
        if !given.contains("--size") { o.size = ViewportSize(width: window.width, height: window.height) }
    }
}
