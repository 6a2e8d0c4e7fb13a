/// How a `raster-dem` source's tiles write elevations in their pixels: metres =
/// R·red + G·green + B·blue − baseShift, each channel 0...255 (MapLibre's DEMData).
public struct DEMEncoding: Equatable, Sendable {
    public var redFactor: Double, greenFactor: Double, blueFactor: Double, baseShift: Double

    public init(redFactor: Double, greenFactor: Double, blueFactor: Double, baseShift: Double) {
        self.redFactor = redFactor; self.greenFactor = greenFactor; self.blueFactor = blueFactor; self.baseShift = baseShift
    }

    /// Mapbox Terrain-RGB: −10000 + (R·65536 + G·256 + B)·0.1.
    public static let mapbox = DEMEncoding(redFactor: 6553.6, greenFactor: 25.6, blueFactor: 0.1, baseShift: 10000)
    /// Terrarium: R·256 + G + B/256 − 32768.
    public static let terrarium = DEMEncoding(redFactor: 256, greenFactor: 1, blueFactor: 1.0 / 256, baseShift: 32768)

    /// The elevation in metres of a pixel's channels.
    @inline(__always) public func elevation(r: UInt8, g: UInt8, b: UInt8) -> Float {
        Float(Double(r) * redFactor + Double(g) * greenFactor + Double(b) * blueFactor - baseShift)
    }

    /// `metres` as the encoding can write it (the nearest value of its smallest step, the blue
    /// channel's): the colour-relief ramp's stops are quantised so, as MapLibre packs them.
    public func quantized(_ metres: Double) -> Double {
        guard blueFactor > 0 else { return metres }
        return ((metres + baseShift) / blueFactor).rounded() * blueFactor - baseShift
    }
}
