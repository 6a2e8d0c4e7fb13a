import Foundation
import MapCore
import MapData

/// Builds the map the options ask for: scene, embedded basemap, camera overrides.
enum MapSetup {
    static func model(_ o: Options) throws -> MapModel {
        let resources = try ResourceLocator.resourcesDirectory()
        let style = try Basemap.load(resources: resources)
        var model = MapModel(scene: o.scene, style: style, size: o.size)
        if o.center != nil || o.zoom != nil {
            model.jump(to: CameraState(center: o.center ?? o.scene.camera.center, zoom: o.zoom ?? o.scene.camera.zoom))
        }
        model.advance(to: o.elapsed)
        return model
    }
}
