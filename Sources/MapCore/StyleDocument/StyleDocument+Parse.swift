import Foundation

extension StyleDocument {
    /// Reads a style document from its JSON text; `name` (the file or URL) starts syntax errors.
    public init(data: Data, name: String) throws {
        let json: JSON
        do { json = try JSON.parse(data, name: name) } catch let e as StyleError { throw StyleDocumentError([e.description]) }
        try self.init(json: json)
    }

    /// Reads a style document as MapLibre Native does: only a document that is not an object or
    /// not version 8 is refused (a `StyleDocumentError`). Anything else that is wrong or not drawn
    /// is named once in `warnings` (with its JSON path) and skipped: a layer of an unknown type,
    /// with a bad filter or on a skipped source is left out; a bad property value leaves the
    /// property at its default; a source of an unknown type is left out with its layers.
    public init(json: JSON) throws {
        var reader = StyleDocumentReader()
        self = reader.read(json)
        if !reader.fatal.isEmpty { throw StyleDocumentError(reader.fatal) }
        warnings.append(contentsOf: reader.problems)
    }
}

/// Walks a document's JSON once, building the document and noting problems.
struct StyleDocumentReader {
    /// What is wrong with the document, one line each: for a document, each names what was
    /// skipped; the style API's single layers, sources and transitions refuse any.
    var problems: [String] = []
    /// What refuses a whole document: not an object, no version 8.
    var fatal: [String] = []

    /// `body`'s result, or nil with its error among the problems (followed by `consequence`,
    /// what becomes of the part that failed, when one is given).
    mutating func attempt<T>(_ consequence: String? = nil, _ body: () throws -> T) -> T? {
        let tail = consequence.map { "; \($0)" } ?? ""
        do { return try body() } catch let e as StyleError {
            problems.append(e.description + tail); return nil
        } catch {
            problems.append("\(error)" + tail); return nil
        }
    }

    mutating func read(_ json: JSON) -> StyleDocument {
        var doc = StyleDocument()
        guard case let .object(root) = json else {
            fatal.append("style: expected object, found \(json.typeName)")
            return doc
        }
        switch root["version"] {
        case .number(8)?: break
        case nil: fatal.append("version: missing (expected 8)")
        case let v?: fatal.append("version: expected 8, found \(v.compactText)")
        }
        guard fatal.isEmpty else { return doc }
        rootMembers(root)
        if let n = root["name"] {
            if case let .string(s) = n { doc.name = s } else { problems.append("name: expected string, found \(n.typeName)") }
        }
        if let c = root["center"] {
            if case let .array(a) = c, a.count == 2, case let .number(lng) = a[0], case let .number(lat) = a[1],
               lng.isFinite, lat >= -90, lat <= 90 {
                doc.center = LngLat(lng: lng, lat: lat)
            } else {
                problems.append("center: expected [longitude, latitude], found \(c.compactText)")
            }
        }
        doc.zoom = number(root["zoom"], "zoom", range: StyleDocument.zoomRange)
        if let b = number(root["bearing"], "bearing", range: -.infinity ... .infinity) { doc.bearing = CameraState.normalized(b) }
        if let p = number(root["pitch"], "pitch", range: 0...CameraState.steepestPitch) { doc.pitch = p }
        if let s = root["sprite"] { doc.sprites = sprites(s) }
        if let l = root["light"] { doc.light = StyleLight(json: l, problems: &problems) }
        // A glyphs template of the wrong type, or one without its tokens, does not refuse the
        // document (MapLibre Native logs it and goes on; its labels are set in local fonts).
        if let g = root["glyphs"] {
            if case let .string(url) = g {
                doc.glyphs = url
                for token in ["{fontstack}", "{range}"] where !url.contains(token) {
                    doc.warnings.append("glyphs: \"\(token)\" token required, found \"\(url)\"")
                }
            } else {
                doc.warnings.append("glyphs: expected string, found \(g.typeName)")
            }
        }
        if let f = root["font-faces"] { doc.fontFaces = fontFaces(f, warnings: &doc.warnings) }
        if let t = root["transition"] { doc.transition = transition(t, "transition") ?? .default }
        if let s = root["sky"] { doc.sky = Sky.read(s, problems: &problems) }
        if let p = root["projection"] { doc.projection = Projection.read(p, problems: &problems) }
        if case let .object(t)? = root["terrain"], case let .string(id)? = t["source"] { doc.terrainSource = id }
        doc.metadata = root["metadata"]
        var skippedSources = Set<String>()
        if case let .object(sources)? = root["sources"] {
            for (id, s) in sources.entries {
                if let def = source(s, "sources.\(id)") { doc.sources[id] = def } else { skippedSources.insert(id) }
                if case .geojson? = doc.sources[id], case let .object(o) = s { doc.geojsonOptions[id] = GeoJSONSourceOptions.read(o, path: "sources.\(id)", problems: &doc.warnings) }
            }
        } else if let s = root["sources"] {
            problems.append("sources: expected object, found \(s.typeName); no sources")
        } else {
            problems.append("sources: missing; no sources")
        }
        readState(root, into: &doc)
        if case let .array(layers)? = root["layers"] {
            var seen = Set<String>()
            let resolved = LegacyLayerRefs.resolve(layers, problems: &problems)
            for (i, l) in resolved.enumerated() {
                guard let l else { continue }
                let path = "layers[\(i)]"
                if case let .object(o) = l, case let .string(s)? = o["source"], skippedSources.contains(s) {
                    problems.append("\(path)\(LegacyLayerRefs.idText(l)): skipped with its source \"\(s)\"")
                    continue
                }
                guard let layer = layer(l, path, sources: doc.sources) else { continue }
                if !seen.insert(layer.id).inserted { problems.append("\(path).id: duplicate layer id \"\(layer.id)\"; skipped"); continue }
                doc.layers.append(layer)
            }
        } else if let l = root["layers"] {
            problems.append("layers: expected array, found \(l.typeName); no layers")
        } else {
            problems.append("layers: missing; no layers")
        }
        return doc
    }

    mutating func number(_ json: JSON?, _ path: String, range: ClosedRange<Double>) -> Double? {
        guard let json else { return nil }
        guard case let .number(v) = json else { problems.append("\(path): expected number, found \(json.compactText)"); return nil }
        guard range.contains(v) else { problems.append("\(path): \(v) is out of range \(range.lowerBound)...\(range.upperBound)"); return nil }
        return v
    }

    mutating func string(_ json: JSON?, _ path: String) -> String? {
        guard let json else { return nil }
        guard case let .string(s) = json else { problems.append("\(path): expected string, found \(json.compactText)"); return nil }
        return s
    }

    /// The `font-faces` member. A bad entry (of the wrong type, or a unicode-range that is not
    /// one) is a warning and left out, never a problem: MapLibre ignores fonts it cannot use, and
    /// the text falls back to the `glyphs` ranges or local fonts.
    func fontFaces(_ json: JSON, warnings: inout [String]) -> [String: [FontFaceSource]] {
        guard case let .object(o) = json else {
            warnings.append("font-faces: expected object, found \(json.typeName)")
            return [:]
        }
        var faces: [String: [FontFaceSource]] = [:]
        for (name, value) in o.entries {
            let path = "font-faces.\(name)"
            switch value {
            case let .string(url):
                faces[name] = [FontFaceSource(url: url)]
            case let .array(items):
                var sources: [FontFaceSource] = []
                for (i, item) in items.enumerated() {
                    if let source = fontFace(item, "\(path)[\(i)]", warnings: &warnings) { sources.append(source) }
                }
                if !sources.isEmpty { faces[name] = sources }
            default:
                warnings.append("\(path): expected a URL or an array of {url, unicode-range}, found \(value.typeName)")
            }
        }
        return faces
    }

    /// One `{"url": ..., "unicode-range": [...]}` of a name's array; a bad range (each is
    /// reported) leaves the file out: drawing it for code points it was not meant for would be
    /// worse than falling back.
    private func fontFace(_ json: JSON, _ path: String, warnings: inout [String]) -> FontFaceSource? {
        guard case let .object(o) = json else {
            warnings.append("\(path): expected object, found \(json.typeName)")
            return nil
        }
        guard case let .string(url)? = o["url"] else {
            warnings.append("\(path).url: expected string, found \(o["url"]?.typeName ?? "nothing")")
            return nil
        }
        guard let r = o["unicode-range"] else { return FontFaceSource(url: url) }
        guard case let .array(items) = r else {
            warnings.append("\(path).unicode-range: expected array, found \(r.typeName)")
            return nil
        }
        var ranges: [ClosedRange<UInt32>] = []
        var bad = false
        for (i, item) in items.enumerated() {
            if case let .string(text) = item, let range = FontFaceSource.unicodeRange(text) {
                ranges.append(range)
            } else {
                warnings.append("\(path).unicode-range[\(i)]: expected a range within U+0-10FFFF (\"U+41-5A\"), found \(item.compactText)")
                bad = true
            }
        }
        return bad ? nil : FontFaceSource(url: url, unicodeRanges: ranges)
    }

    mutating func transition(_ json: JSON, _ path: String) -> TransitionOptions? {
        guard case let .object(o) = json else { problems.append("\(path): expected object, found \(json.typeName)"); return nil }
        for k in o.keys where k != "duration" && k != "delay" { problems.append("\(path).\(k): unknown member") }
        let d = number(o["duration"], "\(path).duration", range: 0 ... .infinity) ?? 300
        let delay = number(o["delay"], "\(path).delay", range: 0 ... .infinity) ?? 0
        return TransitionOptions(duration: d / 1000, delay: delay / 1000)
    }

    mutating func source(_ json: JSON, _ path: String) -> SourceDefinition? {
        guard case let .object(o) = json else { problems.append("\(path): expected object, found \(json.typeName)"); return nil }
        guard let type = string(o["type"], "\(path).type") else {
            if o["type"] == nil { problems.append("\(path).type: missing") }
            return nil
        }
        switch type {
        case "geojson":
            guard let data = o["data"] else { problems.append("\(path).data: missing"); return nil }
            if case let .string(url) = data { return .geojson(.url(url)) }
            return attempt { .geojson(.inline(try GeoJSONData(json: data, path: "\(path).data"))) }
        case "image":
            let url = string(o["url"], "\(path).url")
            if o["url"] == nil { problems.append("\(path).url: missing") }
            guard case let .array(c)? = o["coordinates"], c.count == 4 else {
                problems.append("\(path).coordinates: expected 4 [longitude, latitude] corners"); return nil
            }
            var corners: [LngLat] = []
            for (i, p) in c.enumerated() {
                if case let .array(a) = p, a.count == 2, case let .number(lng) = a[0], case let .number(lat) = a[1],
                   ImageCorners.accepts(LngLat(lng: lng, lat: lat)) {
                    corners.append(LngLat(lng: lng, lat: lat))
                } else {
                    problems.append("\(path).coordinates[\(i)]: expected [longitude, latitude] (longitude within -540...540, latitude within -90...90), found \(p.compactText)")
                }
            }
            guard let url, corners.count == 4 else { return nil }
            return .image(url: url, corners: ImageCorners(topLeft: corners[0], topRight: corners[1],
                                                          bottomRight: corners[2], bottomLeft: corners[3]))
        case "vector", "raster":
            var d = TiledSourceDefinition(tileSize: 512)
            d.url = string(o["url"], "\(path).url")
            if type == "raster", let t = o["tileSize"] {
                if case let .number(n) = t, n >= 1, n <= 4096, n == n.rounded() { d.tileSize = Int(n) } else {
                    problems.append("\(path).tileSize: expected a whole number of pixels within 1...4096, found \(t.compactText)")
                }
            }
            d.read(o, path: path, problems: &problems)
            if o["tiles"] == nil, o["url"] == nil { problems.append("\(path): a \(type) source needs tiles or a url"); return nil }
            return type == "vector" ? .vector(d) : .raster(d)
        case "raster-dem": return rasterDEMSource(o, path)
        case "video":
            problems.append("\(path).type: \"\(type)\" sources are not drawn yet; skipped with their layers")
            return nil
        default:
            problems.append("\(path).type: unknown source type \"\(type)\"; skipped with its layers")
            return nil
        }
    }

    /// One layer, or nil (with the reason among the problems) when it cannot be drawn at all:
    /// not an object, no id or type, a type nightmap does not draw, no source it can draw, or a
    /// filter that is not one (drawing every feature instead would show what the style hides).
    /// A bad property is named and left at its default.
    mutating func layer(_ json: JSON, _ path: String, sources: [String: SourceDefinition]) -> LayerDefinition? {
        guard case let .object(o) = json else { problems.append("\(path): expected object, found \(json.typeName); skipped"); return nil }
        guard let id = string(o["id"], "\(path).id") else {
            if o["id"] == nil { problems.append("\(path).id: missing; layer skipped") }
            return nil
        }
        let skipped = "layer \"\(id)\" skipped"
        guard let typeName = string(o["type"], "\(path).type") else {
            if o["type"] == nil { problems.append("\(path).type: missing; \(skipped)") }
            return nil
        }
        guard let type = LayerType(rawValue: typeName) else {
            if let why = LayerType.notDrawnYet[typeName] {
                problems.append("\(path).type: \"\(typeName)\" layers are not drawn yet (\(why)); \(skipped)")
            } else {
                problems.append("\(path).type: unknown layer type \"\(typeName)\"; \(skipped)")
            }
            return nil
        }
        var layer = LayerDefinition(id: id, type: type)
        if type != .background {
            guard let s = string(o["source"], "\(path).source") else {
                if o["source"] == nil { problems.append("\(path).source: missing; \(skipped)") }
                return nil
            }
            guard let def = sources[s] else { problems.append("\(path).source: no source \"\(s)\" in sources; \(skipped)"); return nil }
            layer.source = s
            let fits: Bool
            switch (type, def) {
            case let (t, s) where t.drawsDEM || s.isDEM: fits = t.drawsDEM && s.isDEM
            case (.raster, .image), (.raster, .raster): fits = true
            case (.raster, _), (_, .image), (_, .raster): fits = false
            default: fits = true
            }
            guard fits else {
                problems.append("\(path).source: a \(type.rawValue) layer cannot draw the \(def.typeName) source \"\(s)\"; \(skipped)")
                return nil
            }
        }
        layer.sourceLayer = string(o["source-layer"], "\(path).source-layer")
        layer.minZoom = number(o["minzoom"], "\(path).minzoom", range: 0...24) ?? 0
        layer.maxZoom = number(o["maxzoom"], "\(path).maxzoom", range: 0...24) ?? .infinity
        if let f = o["filter"] {
            do { layer.filter = try Filter(json: f, path: "\(path).filter") } catch {
                problems.append("\(error); \(skipped)")
                return nil
            }
        }
        if let l = o["layout"] {
            if case let .object(lo) = l {
                for (name, value) in lo.entries {
                    attempt("left at its default") { try layer.setLayout(name, value, path: "\(path).layout.\(name)") }
                }
            } else { problems.append("\(path).layout: expected object, found \(l.typeName)") }
        }
        if let p = o["paint"] {
            if case let .object(po) = p {
                let specs = StyleProperties.paint(type).byName
                for (name, value) in po.entries {
                    let ppath = "\(path).paint.\(name)"
                    if name.hasSuffix("-transition"), specs[String(name.dropLast(11))] != nil {
                        if let t = transition(value, ppath) { layer.transitions[String(name.dropLast(11))] = t }
                        continue
                    }
                    guard let spec = specs[name] else { problems.append("\(ppath): unknown property for a \(type.rawValue) layer; ignored"); continue }
                    if let v = attempt("left at its default", { try PropertyValue(json: value, spec: spec, path: ppath) }) { layer.paint[name] = v }
                }
            } else { problems.append("\(path).paint: expected object, found \(p.typeName)") }
        }
        return layer
    }
}

extension ImageCorners {
    /// Whether an image source may have a corner at `p`: latitudes beyond the poles are errors in
    /// the reference engines too, and longitudes are kept within one world on either side of
    /// [-180, 180] (enough for an image across the antimeridian): the renderer draws an image
    /// in every world copy its corners span, and a corner at 1e300 is no place.
    public static func accepts(_ p: LngLat) -> Bool { p.lng >= -540 && p.lng <= 540 && p.lat >= -90 && p.lat <= 90 }
}

extension LayerDefinition {
    /// A layer from its JSON (the style API's `addLayer`), checked as a document's layers are:
    /// every problem, each with its path, in one error. `sources`: the sources it may name.
    public init(json: JSON, sources: [String: SourceDefinition]) throws {
        var reader = StyleDocumentReader()
        let path: String
        if case let .object(o) = json, case let .string(id)? = o["id"] { path = "layers.\(id)" } else { path = "layer" }
        let layer = reader.layer(json, path, sources: sources)
        guard let layer, reader.problems.isEmpty else { throw StyleDocumentError(reader.problems) }
        self = layer
    }
}

extension SourceDefinition {
    /// A source from its JSON (the style API's `addSource`), checked as a document's are.
    public init(json: JSON, id: String) throws {
        var reader = StyleDocumentReader()
        let source = reader.source(json, "sources.\(id)")
        guard let source, reader.problems.isEmpty else { throw StyleDocumentError(reader.problems) }
        self = source
    }
}

extension TransitionOptions {
    /// A `transition` object (`duration` and `delay` in milliseconds), checked as a document's are.
    public init(json: JSON, path: String) throws {
        var reader = StyleDocumentReader()
        let options = reader.transition(json, path)
        guard let options, reader.problems.isEmpty else { throw StyleDocumentError(reader.problems) }
        self = options
    }
}
