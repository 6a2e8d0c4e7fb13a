/// The geostationary satellites whose infrared NASA GIBS serves (WORLD-DATA.md, section 2), and
/// which of them shows a longitude: the one whose sub-satellite point is nearest, if it lies
/// within `reach` degrees (farther, the disc is seen too slantwise to be of use). The gap between
/// GOES-East and Himawari (Europe, Africa, the Middle East) has none: EUMETSAT's Meteosat, by
/// template, is the only source there.
public struct GeostationarySatellite: Equatable, Sendable {
    public let name: String
    /// The GIBS layer of its band-13 (10.3 µm) clean infrared, 2 km, 10-minute frames.
    public let layer: String
    /// The sub-satellite point's longitude (degrees east).
    public let longitude: Double

    public static let goesEast = GeostationarySatellite(name: "GOES-East", layer: "GOES-East_ABI_Band13_Clean_Infrared", longitude: -75.2)
    public static let goesWest = GeostationarySatellite(name: "GOES-West", layer: "GOES-West_ABI_Band13_Clean_Infrared", longitude: -137.2)
    public static let himawari = GeostationarySatellite(name: "Himawari", layer: "Himawari_AHI_Band13_Clean_Infrared", longitude: 140.7)
    public static let gibs = [goesEast, goesWest, himawari]
    /// How far from its sub-satellite point (degrees of longitude) a satellite is used.
    public static let reach = 75.0

    /// Degrees of longitude between `a` and `b` the short way round (0...180).
    public static func separation(_ a: Double, _ b: Double) -> Double {
        let d = (a - b).truncatingRemainder(dividingBy: 360)
        let m = abs(d)
        return m > 180 ? 360 - m : m
    }

    /// The satellite of `satellites` that shows `longitude` (any value; wrapped), nil in a gap
    /// or for a longitude that is not finite.
    public static func covering(longitude: Double, among satellites: [GeostationarySatellite] = gibs) -> GeostationarySatellite? {
        guard longitude.isFinite else { return nil }
        let best = satellites.min { separation($0.longitude, longitude) < separation($1.longitude, longitude) }
        return best.flatMap { separation($0.longitude, longitude) <= reach ? $0 : nil }
    }
}
