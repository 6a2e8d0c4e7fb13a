/// The ground under a screen point, or none over a tilted view's sky or past the globe's edge.
extension ViewTransform {
    /// The normalised Mercator point of the ground under (x, y); nil above where a pitched
    /// view's ground begins (the sky: the pointer's coordinates and what lies under it are none).
    public func ground(x: Double, y: Double) -> MercatorPoint? {
        if let g = globe { return g.unproject(x: x, y: y).map(WebMercator.project) }
        if let p = perspective, y < p.groundTopY + 1 { return nil }
        return mercator(x: x, y: y)
    }
}
