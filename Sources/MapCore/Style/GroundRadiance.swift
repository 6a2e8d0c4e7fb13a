/// The ground radiance as a colour property value, so that ``MapModel`` eases it between light
/// presets with the style layers' transition engine (``PaintTransition``) rather than one of
/// its own: the same curve, the same retargeting mid-way, the same colour interpolation.
extension PropertyValue {
    /// The value `color` of the ground radiance.
    static func groundRadiance(_ color: Color) -> PropertyValue {
        PropertyValue(spec: groundRadianceSpec, storage: .constant(.color(color)))
    }

    /// A colour that transitions; white (unlit) by default. Not a property of the
    /// specification: MapModel computes it from the light preset.
    private static let groundRadianceSpec = PropertySpec(
        name: "ground-radiance", type: .color, defaultValue: .color(.white), interpolated: true, transition: true)
}
