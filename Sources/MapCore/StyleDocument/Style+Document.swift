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
    /// loaded), image sources, basemap geometry by source-layer name, and the sprite.
    public init(document: StyleDocument, features: [String: GeoJSONData], images: [String: ImageSource],
                geometry: [String: GeometrySet] = [:], sprite: SpriteSheet? = nil) {
        self.init(sources: geometry, images: images, layers: document.layers.map(Layer.init), transition: document.transition)
        self.features = features
        self.sprite = sprite
    }
}
