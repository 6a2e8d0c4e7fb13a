import Foundation
import MapCore
import NightmapApp
import MapData

/// The render-test harness's `metadata.test.operations`, applied in order through the style API
/// after the style loads, as MapLibre's harness applies them: `wait` (with milliseconds: that much
/// time passes), `sleep`, `idle`, `setPaintProperty`, `setLayoutProperty`, `setFilter`,
/// `addLayer`, `removeLayer`, `addSource`, `removeSource`, `addImage` (a PNG under the assets
/// folder), `removeImage`, `setZoom`, `setCenter`, `setBearing`, `setLayerZoomRange`,
/// `setStyle` and the state operations (`+State`). Anything else, or an operation the engine refuses, is a one-line error naming
/// the operation.
struct RenderTestOperations {
    /// Builds the model for a document (the harness's map, and `setStyle`'s new style).
    let load: (StyleDocument) throws -> MapModel
    let resolver: ResourceResolver
    let pixelRatio: Double
    /// Draws a frame of the model at its instant (nil: none), called after every `wait` (with
    /// or without milliseconds) and `idle`, as MapLibre's harness renders on each: what a
    /// placement with fading symbols has decided by the last frame depends on the frames before.
    var frame: ((inout MapModel) throws -> Void)? = nil

    /// The operations of a style.json's `metadata.test`, or none.
    static func list(_ root: JSON) throws -> [JSON] {
        guard case let .object(o) = root, case let .object(m)? = o["metadata"], case let .object(t)? = m["test"],
              let ops = t["operations"] else { return [] }
        guard case let .array(list) = ops else { throw RenderTestError("metadata.test.operations: expected an array") }
        return list
    }

    /// Applies `operations` to `model`, starting at instant `now` (seconds), which moves on with
    /// each `wait N`; the model is advanced to it after every operation, and `frame` draws it
    /// after each `wait` and `idle`.
    func apply(_ operations: [JSON], to model: inout MapModel, document: StyleDocument, now: inout Double) throws {
        var sources = document.sources
        for (i, op) in operations.enumerated() {
            guard case let .array(a) = op, case let .string(name)? = a.first else {
                throw RenderTestError("operations[\(i)]: expected [name, arguments...]")
            }
            let args = Array(a.dropFirst())
            do {
                try apply(name, args, to: &model, sources: &sources, now: &now)
            } catch let e as RenderTestError {
                throw RenderTestError("operations[\(i)] (\(name)): \(e.description)")
            } catch let e as StyleDocumentError {
                throw RenderTestError("operations[\(i)] (\(name)): \(e.problems.joined(separator: "; "))")
            } catch {
                throw RenderTestError("operations[\(i)] (\(name)): \(error)")
            }
            model.advance(to: now)
            if name == "wait" || name == "idle", let frame { try frame(&model) }
        }
    }

    private func apply(_ name: String, _ args: [JSON], to model: inout MapModel, sources: inout [String: SourceDefinition],
                       now: inout Double) throws {
        func string(_ k: Int) throws -> String {
            guard k < args.count, case let .string(s) = args[k] else { throw RenderTestError("argument \(k + 1): expected a string") }
            return s
        }
        func number(_ k: Int) throws -> Double {
            guard k < args.count, case let .number(n) = args[k], n.isFinite else { throw RenderTestError("argument \(k + 1): expected a number") }
            return n
        }
        func value(_ k: Int) throws -> JSON {
            guard k < args.count else { throw RenderTestError("argument \(k + 1): missing") }
            return args[k]
        }
        switch name {
        case "wait", "sleep":
            if !args.isEmpty { now += max(0, try number(0)) / 1000 }
        case "idle":
            break
        case "setPaintProperty":
            try model.setPaintProperty(layer: try string(0), try string(1), json: try value(2))
        case "setLayoutProperty":
            try model.setLayoutProperty(layer: try string(0), try string(1), json: try value(2))
        case "setFilter":
            try model.setFilter(layer: try string(0), json: args.count > 1 ? args[1] : .null)
        case "addLayer":
            let layer = try LayerDefinition(json: try value(0), sources: sources)
            let below: String? = args.count > 1 ? (args[1] == .null ? nil : try string(1)) : nil
            try model.addLayer(layer, below: below)
        case "removeLayer":
            try model.removeLayer(try string(0))
        case "addSource":
            let id = try string(0)
            let definition = try SourceDefinition(json: try value(1), id: id)
            switch try StyleLoader.load(definition, id: id, resolver: resolver, pixelRatio: pixelRatio) {
            case let .geojson(data):
                try model.addSource(id, geojson: data.with(try GeoJSONSourceOptions(json: try value(1), path: "sources.\(id)")),
                                    promoteId: try PromoteId(sourceJSON: try value(1), path: "sources.\(id)"))
            case let .tiles(set): try model.addSource(id, tiles: set, promoteId: try PromoteId(sourceJSON: try value(1), path: "sources.\(id)"))
            case let .image(image): try model.addSource(id, image: image)
            }
            sources[id] = definition
        case "removeSource":
            let id = try string(0)
            try model.removeSource(id)
            sources[id] = nil
        case "addImage":
            let id = try string(0), path = try string(1)
            var ratio = 1.0, sdf = false
            if args.count > 2, case let .object(o) = args[2] {
                if case let .number(r)? = o["pixelRatio"] {
                    guard r > 0, r.isFinite else { throw RenderTestError("pixelRatio: expected a number > 0") }
                    ratio = r
                }
                sdf = o["sdf"] == .bool(true)
            }
            let local = "local://" + (path.hasPrefix("./") ? String(path.dropFirst(2)) : path)
            try model.addImage(SpriteIcon(name: id, image: try resolver.image(local), pixelRatio: ratio, sdf: sdf))
        case "removeImage":
            try model.removeImage(try string(0))
        case "setZoom":
            let c = model.camera.state
            model.jump(to: c.moved(center: c.center, zoom: try number(0) + log2(pixelRatio)))
        case "setCenter":
            guard case let .array(p) = try value(0), p.count == 2, case let .number(lng) = p[0], case let .number(lat) = p[1] else {
                throw RenderTestError("argument 1: expected [longitude, latitude]")
            }
            model.jump(to: model.camera.state.moved(center: LngLat(lng: lng, lat: lat), zoom: model.camera.state.zoom))
        case "setBearing":
            var c = model.camera.state
            c.bearing = try number(0)
            model.jump(to: c)
        case "setPitch":
            var c = model.camera.state
            c.pitch = try number(0)
            model.jump(to: c)
        case "setVerticalFieldOfView":
            var c = model.camera.state
            c.fieldOfView = try number(0)
            model.jump(to: c)
        case "setLayerZoomRange":
            try model.setLayerZoomRange(layer: try string(0), minZoom: try number(1), maxZoom: try number(2))
        case "setStyle":
            // (A style given by its URL is read as the document's other resources are.)
            let json: JSON
            if case let .string(url)? = args.first {
                json = try JSON.parse(try resolver.data(url, limit: 64 << 20), name: url)
            } else {
                json = try value(0)
            }
            let document = try StyleDocument(json: json)
            let camera = model.camera.state
            var next = try load(document)
            // The camera stays where it was unless the new style names one.
            if document.center == nil && document.zoom == nil { next.jump(to: camera) }
            model = next
            sources = document.sources
        case "setFeatureState", "removeFeatureState", "setGlobalStateProperty":
            try applyState(name, args, to: &model)
        case "setLight":
            try model.setStyleLight(try value(0))
        default:
            throw RenderTestError("not supported")
        }
    }
}
