import Foundation
import MapCore
import Orbit

/// Day and night over the map, and the ground the ISS is seen from, as GeoJSON sources of the
/// style: `night` holds four bands around the point opposite the Sun, between caps of 90, 84, 78
/// and 72 degrees (where the Sun is below 0, -6, -12 and -18 degrees: civil, nautical and
/// astronomical twilight, then night), each darker than the one outside it; `subsolar` the point under the Sun;
/// `iss-footprint` the disc the station is above the horizon from and `iss-footprint-edge` its
/// edge. The sky is worked out at the map's instant and again a minute later (a still camera
/// keeps the layers it drew); the footprint moves with the station's source.
extension MapApp {
    public static let nightID = "night", subsolarID = "subsolar"
    public static let footprintID = "iss-footprint", footprintEdgeID = "iss-footprint-edge"
    /// How far below the horizon the Sun is at each band's outer edge, degrees, and how dark
    /// the band is (the style's `night` layer reads it as `["get", "shade"]`).
    public static let twilightDepths: [Double] = [0, 6, 12, 18]
    public static let twilightShades: [Double] = [0.16, 0.29, 0.40, 0.50]

    /// The Sun at the map's instant.
    public var sun: Sun { Sun(unixSeconds: clockOrigin + model.now) }

    /// The point under the Sun at the map's instant.
    public var subsolarPoint: LngLat { let p = sun.subsolarPoint; return LngLat(lng: p.longitude, lat: p.latitude) }

    /// The radius along the ground of the ISS's footprint as shown (nil without a position).
    public var issFootprintRadiusKm: Double? { issNow.map { Footprint.radiusKm(altitudeKm: $0.fix.altitudeKm) } }

    /// Whether the night shading and the subsolar point are shown (`t`).
    public var showsDaylight: Bool { isShown(Self.nightID) }
    /// Whether the ISS's footprint is shown (`v`).
    public var showsFootprint: Bool { isShown(Self.footprintID) }

    func isShown(_ id: String) -> Bool { model.style.layers.first { $0.id == id }?.visible ?? false }

    mutating func advanceSky() {
        let now = model.now
        guard now - skyComputedAt >= 60 || now < skyComputedAt else { return }
        skyComputedAt = now
        let sun = self.sun
        let (lat, lon) = sun.subsolarPoint
        if model.style.geojson(Self.nightID) != nil {
            // Four bands, each its cap less the next one in (the next cap's rings reversed), so
            // that a pixel is shaded once, by its band's `shade`.
            let opposite = LngLat(lng: lon + 180, lat: -lat)
            let caps = Self.twilightDepths.map { SmallCircle(center: opposite, radius: 90 - $0).polygons() }
            let bands = caps.indices.compactMap { k -> GeoFeature? in
                var rings = caps[k]
                if k + 1 < caps.count { rings += caps[k + 1].map { $0.map { Array($0.reversed()) } } }
                return GeoJSONData.polygonFeature(rings, properties: ["sunBelow": .number(Self.twilightDepths[k]),
                                                                      "shade": .number(Self.twilightShades[k])])
            }
            try? model.updateGeoJSONSource(Self.nightID, GeoJSONData(features: bands))
        }
        if model.style.geojson(Self.subsolarID) != nil {
            try? model.updateGeoJSONSource(Self.subsolarID, GeoJSONData.point(LngLat(lng: lon, lat: lat)))
        }
    }

    /// The footprint of the station at `position` and `altitudeKm` into its two sources.
    mutating func showFootprint(at position: LngLat, altitudeKm: Double) {
        let circle = SmallCircle(center: position, radius: Footprint.halfAngle(altitudeKm: altitudeKm))
        if model.style.geojson(Self.footprintID) != nil {
            try? model.updateGeoJSONSource(Self.footprintID, GeoJSONData.polygons(circle.polygons()))
        }
        if model.style.geojson(Self.footprintEdgeID) != nil {
            try? model.updateGeoJSONSource(Self.footprintEdgeID, GeoJSONData.lines(circle.outline()))
        }
    }

    /// Shows or hides a group of layers that are in the style.
    mutating func toggleLayers(_ ids: [String]) {
        let present = ids.filter { id in model.style.layers.contains { $0.id == id } }
        guard let first = present.first else { return }
        let visible = !isShown(first)
        for id in present { model.setVisibility(layer: id, visible) }
    }
}
