import Foundation
import MapData
import MapRender
import Raster

extension Headless {
    static func snapshot(_ o: Options) throws {
        var model = try MapSetup.model(o, report: warn)
        loadRadarOnce(&model, o)
        loadWarningsOnce(&model, o)
        refreshElementsOnce(&model, o)
        if o.issMode == .live { fetchIssOnce(&model, o) }     // auto draws from the orbit: one picture needs no feed
        model.model.loadWantedTiles(now: model.model.now)
        model.model.loadWantedGlyphs()
        for r in model.model.tileRequests() { if let e = r.tiles.lastError { warn("\(e.message)\(e.count > 1 ? " (and \(e.count - 1) more tiles)" : "")") } }
        model.status = StatusLine.compose(model, framesPerSecond: nil)
        model.overlay.enabled = o.overlay != .none
        model.overlay.attributionOnly = o.overlay == .attribution
        let pixmap = Pixmap(width: model.camera.size.width, height: model.camera.size.height)
        FrameRenderer().render(model.frame(), into: pixmap)
        try PNGCodec.write(pixmap, to: o.output ?? "snapshot.png")
    }
}
