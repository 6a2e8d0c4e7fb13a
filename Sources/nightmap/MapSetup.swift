import Foundation
import MapCore
import MapData

/// Builds the map the options ask for: the embedded basemap, the pulsing route (the bundled
/// one or `--route`), the scenes, camera overrides, and the instant `--elapsed`.
enum MapSetup {
    static func model(_ o: Options) throws -> MapModel {
        let resources = try ResourceLocator.resourcesDirectory()
        var style = try Basemap.load(resources: resources)
        let routePath = o.route ?? resources.appendingPathComponent("routes/default.geojson").path
        let steps = try RouteFile.read(path: routePath)
        let route = RouteLayers.make(steps)
        style.sources.merge(route.sources) { a, _ in a }
        style.layers += route.layers
        let scenes = [Scene.radar, Scene.route(fitting: RouteFile.bounds(steps))]
        let scene = scenes.first { $0.name == o.scene } ?? .radar
        var model = MapModel(scene: scene, style: style, size: o.size, scenes: scenes,
                             routeLayerIDs: route.layers.map(\.id))
        if o.center != nil || o.zoom != nil {
            let start = model.camera.state
            model.jump(to: CameraState(center: o.center ?? start.center, zoom: o.zoom ?? start.zoom))
        }
        model.advance(to: o.elapsed)
        return model
    }
}
