extension Layer {
    /// The map-style layer for a document layer.
    public init(_ definition: LayerDefinition) { self.init(StyledLayer(definition)) }

    /// The map-style layer for a document layer and its running transitions.
    public init(_ layer: StyledLayer) {
        let d = layer.definition
        id = d.id; source = d.source; minZoom = d.minZoom; maxZoom = d.maxZoom; visible = d.visible; styled = layer
    }
}

extension Style {
    /// The style of a document whose external resources are loaded: GeoJSON sources (inline or
    /// loaded), image sources, tiled sources and the sprite.
    public init(document: StyleDocument, features: [String: GeoJSONData], images: [String: ImageSource],
                tiles: [String: TileSet] = [:], sprite: SpriteSheet? = nil) {
        let sources = Dictionary(uniqueKeysWithValues: features.map { ($0.key, Source.geojson(document.geojsonOptions[$0.key].map($0.value.with) ?? $0.value)) })
            .merging(images.mapValues(Source.image)) { a, _ in a }
            .merging(tiles.mapValues(Source.tiles)) { a, _ in a }
        self.init(sources: sources, layers: document.layers.map(Layer.init), transition: document.transition)
        self.sprite = sprite
        self.sky = document.sky
        self.projection = document.projection
        self.terrainSource = document.terrainSource
        adoptState(of: document)
    }
}
