#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A Cartesian 3-vector (km or km/s in this module).
public struct Vector3: Sendable, Hashable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var z: Double

    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    public static let zero = Vector3(x: 0, y: 0, z: 0)

    /// Euclidean length.
    public var length: Double { sqrt(x * x + y * y + z * z) }

    public static func + (a: Vector3, b: Vector3) -> Vector3 { Vector3(x: a.x + b.x, y: a.y + b.y, z: a.z + b.z) }
    public static func - (a: Vector3, b: Vector3) -> Vector3 { Vector3(x: a.x - b.x, y: a.y - b.y, z: a.z - b.z) }
    public static func * (s: Double, v: Vector3) -> Vector3 { Vector3(x: s * v.x, y: s * v.y, z: s * v.z) }

    /// Dot product.
    public func dot(_ o: Vector3) -> Double { x * o.x + y * o.y + z * o.z }

    /// Cross product.
    public func cross(_ o: Vector3) -> Vector3 {
        Vector3(x: y * o.z - z * o.y, y: z * o.x - x * o.z, z: x * o.y - y * o.x)
    }

    public var description: String { "(\(x), \(y), \(z))" }
}
