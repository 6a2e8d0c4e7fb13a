import MapCore

/// How the street map's buildings are drawn: flat footprints (the style's `building` fill) or
/// raised to their heights (its `building-3d` fill-extrusion layer).
public enum BuildingsMode: String, CaseIterable, Sendable {
    case flat
    case threeD = "3d"
}

/// The street map's buildings, flat or in 3D (`b`, `--buildings`): one of the style's two
/// building layers is shown, the other hidden. A style without a `building-3d` layer has
/// nothing to switch.
extension MapApp {
    /// The flat footprints and the extruded buildings (`Resources/style/streets.json`).
    public static let buildingID = "building", buildings3DID = "building-3d"

    /// Whether the style has buildings to raise.
    public var hasBuildings3D: Bool { model.style.layers.contains { $0.id == Self.buildings3DID } }

    /// How the buildings are drawn now.
    public var buildings: BuildingsMode { isShown(Self.buildings3DID) ? .threeD : .flat }

    /// Draws the buildings flat or in 3D (nothing without a `building-3d` layer).
    public mutating func setBuildings(_ mode: BuildingsMode) {
        guard hasBuildings3D else { return }
        model.setVisibility(layer: Self.buildings3DID, mode == .threeD)
        model.setVisibility(layer: Self.buildingID, mode == .flat)
    }

    /// Flat to 3D and back (`b`).
    mutating func toggleBuildings() {
        setBuildings(buildings == .flat ? .threeD : .flat)
    }
}
