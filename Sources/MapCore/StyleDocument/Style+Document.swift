extension Layer {
    /// The map-style layer for a document layer.
    public init(_ definition: LayerDefinition) {
        self.init(id: definition.id, source: definition.source, minZoom: definition.minZoom, maxZoom: definition.maxZoom,
                  visible: definition.visible, paint: .styled(StyledLayer(definition)))
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
