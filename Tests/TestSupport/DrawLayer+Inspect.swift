import MapCore

extension FrameDescription.DrawLayer {
    /// A line layer drawn feature by feature: its features and their paints (nil: another kind,
    /// or one paint for a whole geometry set).
    public var lineFeatures: FeatureDraw<LinePaint>? {
        if case let .line(.features(f)) = content { return f }
        return nil
    }
}
