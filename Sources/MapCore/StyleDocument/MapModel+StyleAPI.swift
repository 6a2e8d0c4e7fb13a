/// The style API over style-document layers and sources, as the Mapbox and MapLibre SDKs have it:
/// add and remove sources and layers, set paint and layout properties, update a GeoJSON or image
/// source in place. Every change takes effect in the next `frame()`.
extension MapModel {
    /// Adds a GeoJSON source (`promoteId`: the property feature state takes as the id); an
    /// existing id is an error.
    public mutating func addSource(_ id: String, geojson: GeoJSONData, promoteId: PromoteId? = nil) throws {
        guard style.sources[id] == nil else { throw StyleError("sources.\(id): a source with this id exists") }
        mutateStyle { $0.sources[id] = .geojson(geojson); $0.featureStates.promoteIds[id] = promoteId }
    }

    /// Adds an image source (its corners checked as a document's are).
    public mutating func addSource(_ id: String, image: ImageSource) throws {
        guard style.sources[id] == nil else { throw StyleError("sources.\(id): a source with this id exists") }
        try Self.checkCorners(id, image)
        mutateStyle { $0.sources[id] = .image(image) }
    }

    private static func checkCorners(_ id: String, _ image: ImageSource) throws {
        for (i, p) in image.corners.all.enumerated() where !ImageCorners.accepts(p) {
            throw StyleError("sources.\(id).coordinates[\(i)]: [\(p.lng), \(p.lat)] is out of range (longitude -540...540, latitude -90...90)")
        }
    }

    /// Adds a tiled (vector or raster) source (`promoteId` as for GeoJSON); an existing id is an error.
    public mutating func addSource(_ id: String, tiles: TileSet, promoteId: PromoteId? = nil) throws {
        guard style.sources[id] == nil else { throw StyleError("sources.\(id): a source with this id exists") }
        mutateStyle { $0.sources[id] = .tiles(tiles); $0.featureStates.promoteIds[id] = promoteId }
    }

    /// Asks each source's fetcher for the tiles the view wants that are not in yet, and returns
    /// without waiting (a window, after each frame): they arrive in the sources' inboxes. The
    /// requests tell whether all is in (`TileSet.isSettled`) and what failed.
    @discardableResult
    public func requestWantedTiles(now: Double) -> [TileRequest] {
        let requests = tileRequests()
        for r in requests {
            let missing = r.tiles.missing(r.ideal, now: now)
            // (Also when nothing is missing: the loader then stops transfers the view has left.)
            r.tiles.fetcher?.request(missing, into: r.tiles, now: now)
        }
        return requests
    }

    /// Loads every tile the view wants that is not in yet, before returning (each source's
    /// fetcher's `load`): a snapshot or a render test draws once everything is in.
    /// (Ancestors standing in for absent tiles are asked for in later rounds, a zoom at a time.)
    /// `localOnly`: only sources read from this machine's files (a window's first frame shows
    /// them at once and waits for no server).
    public func loadWantedTiles(now: Double, localOnly: Bool = false) {
        for r in tileRequests() {
            for _ in 0..<10 {
                let missing = r.tiles.missing(r.ideal, now: now)
                guard !missing.isEmpty, let fetcher = r.tiles.fetcher, !localOnly || fetcher.isLocal else { break }
                fetcher.load(missing, into: r.tiles, now: now)
            }
        }
    }

    /// Evaluates the view's labels, which asks for their glyphs, and waits at most `timeout`
    /// seconds for those to arrive: what a snapshot does before its one frame (the window
    /// instead shows each label when its glyphs are in). Whether everything arrived.
    @discardableResult
    public func loadWantedGlyphs(timeout: Double = 10) -> Bool {
        guard let glyphs = style.glyphs else { return true }
        // (A label shaped with what arrived may ask for more: a vertical shaping's forms.)
        for _ in 0..<3 {
            let before = glyphs.generation
            _ = frame()
            guard glyphs.waitUntilIdle(timeout: timeout) else { return false }
            if glyphs.generation == before { return true }
        }
        return !glyphs.isLoading
    }

    /// Replaces a GeoJSON source's data (`updateGeoJSONSource` / `setData`).
    public mutating func updateGeoJSONSource(_ id: String, _ data: GeoJSONData) throws {
        guard style.geojson(id) != nil else { throw StyleError("sources.\(id): no GeoJSON source with this id") }
        mutateStyle { $0.sources[id] = .geojson(data) }
    }

    /// Replaces an image source's image and corners (`updateImage` / `setCoordinates`).
    public mutating func updateImageSource(_ id: String, _ image: ImageSource) throws {
        guard style.image(id) != nil else { throw StyleError("sources.\(id): no image source with this id") }
        try Self.checkCorners(id, image)
        mutateStyle { $0.sources[id] = .image(image) }
    }

    /// Removes a source no layer uses.
    public mutating func removeSource(_ id: String) throws {
        if let user = style.layers.first(where: { $0.source == id }) {
            throw StyleError("sources.\(id): layer \"\(user.id)\" uses this source")
        }
        guard style.sources[id] != nil else { throw StyleError("sources.\(id): no such source") }
        mutateStyle { $0.sources[id] = nil; $0.featureStates.removeSource(id) }
    }

    /// Adds a document layer on top, or below the layer `below`.
    public mutating func addLayer(_ definition: LayerDefinition, below: String? = nil) throws {
        guard style.layerIndex(definition.id) == nil else { throw StyleError("layers.\(definition.id): a layer with this id exists") }
        if let s = definition.source, style.sources[s] == nil {
            throw StyleError("layers.\(definition.id).source: no source \"\(s)\"")
        }
        var index = style.layers.count
        if let below {
            guard let i = style.layerIndex(below) else { throw StyleError("layers.\(below): no such layer to insert below") }
            index = i
        }
        mutateStyle { $0.layers.insert(Layer(definition), at: index) }
    }

    /// Removes a layer.
    public mutating func removeLayer(_ id: String) throws {
        guard let i = style.layerIndex(id) else { throw StyleError("layers.\(id): no such layer") }
        mutateStyle { _ = $0.layers.remove(at: i) }
    }

    /// Sets a document layer's paint property from its JSON value (null resets it to the
    /// default) at instant `time` (default: the instant the model was advanced to). It animates
    /// from the value shown then, by the layer's `<name>-transition` or the style's
    /// `transition`; `<name>-transition` itself can be set too.
    public mutating func setPaintProperty(layer id: String, _ name: String, json: JSON, at time: Double? = nil) throws {
        let i = try styledIndex(id)
        let s = style.layers[i].styled
        let changed = try s.settingPaint(name, json, now: time ?? now, styleTransition: style.transition)
        mutateStyle { $0.layers[i] = Layer(changed) }
    }

    /// Sets a document layer's layout property from its JSON value (`visibility` included).
    public mutating func setLayoutProperty(layer id: String, _ name: String, json: JSON) throws {
        try changeDefinition(id) { try $0.setLayout(name, json) }
    }

    /// Sets a document layer's filter from its JSON (null: no filter).
    public mutating func setFilter(layer id: String, json: JSON) throws {
        try changeDefinition(id) { $0.filter = json == .null ? nil : try Filter(json: json, path: "layers.\(id).filter") }
    }

    /// Sets the zooms a document layer shows at, [minZoom, maxZoom).
    public mutating func setLayerZoomRange(layer id: String, minZoom: Double, maxZoom: Double) throws {
        guard (0...24).contains(minZoom), (0...24).contains(maxZoom), minZoom <= maxZoom else {
            throw StyleError("layers.\(id): zoom range [\(minZoom), \(maxZoom)) is not within 0...24")
        }
        try changeDefinition(id) { $0.minZoom = minZoom; $0.maxZoom = maxZoom }
    }

    /// Adds an icon that symbol layers can name in `icon-image` (an existing name is an error).
    public mutating func addImage(_ icon: SpriteIcon) throws {
        var icons = style.sprite?.icons ?? [:]
        guard icons[icon.name] == nil else { throw StyleError("images.\(icon.name): an image with this name exists") }
        icons[icon.name] = icon
        mutateStyle { $0.sprite = SpriteSheet(icons: icons) }
    }

    /// Adds a vector image (drawn from its paths at any size) that symbol layers can name in
    /// `icon-image`; a name the sprite or an added image has is an error.
    public mutating func addImage(_ icon: VectorIcon) throws {
        guard style.sprite?.icons[icon.name] == nil, style.icons[icon.name] == nil else {
            throw StyleError("images.\(icon.name): an image with this name exists")
        }
        mutateStyle { $0.icons[icon.name] = icon }
    }

    /// Removes an icon added by `addImage` or from the sprite.
    public mutating func removeImage(_ name: String) throws {
        if style.icons[name] != nil { mutateStyle { $0.icons[name] = nil }; return }
        var icons = style.sprite?.icons ?? [:]
        guard icons.removeValue(forKey: name) != nil else { throw StyleError("images.\(name): no such image") }
        mutateStyle { $0.sprite = SpriteSheet(icons: icons) }
    }

    /// The definition of a document layer.
    public func layerDefinition(_ id: String) -> LayerDefinition? {
        guard let s = style.layers.first(where: { $0.id == id })?.styled else { return nil }
        return s.definition
    }

    private func styledIndex(_ id: String) throws -> Int {
        guard let i = style.layerIndex(id) else { throw StyleError("layers.\(id): no such layer") }
        return i
    }

    private mutating func changeDefinition(_ id: String, _ change: (inout LayerDefinition) throws -> Void) throws {
        let i = try styledIndex(id)
        let s = style.layers[i].styled
        let changed = try s.with(change)
        mutateStyle { $0.layers[i] = Layer(changed) }
    }
}
