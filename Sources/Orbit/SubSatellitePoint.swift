extension SGP4 {
    /// Geodetic (WGS-84) point under the satellite and its height, at a UTC date: SGP4 in TEME,
    /// rotated into Earth-fixed by GMST (UT1 = UTC, no polar motion).
    public func geodetic(at date: JulianDate) throws(SGP4Error) -> Geodetic {
        let state = try propagate(to: date)
        return Geodetic(ecef: Frames.temeToECEF(state.position, at: date))
    }

    /// The same at a Unix time (seconds since 1970-01-01 0h UTC).
    public func geodetic(unixSeconds: Double) throws(SGP4Error) -> Geodetic {
        try geodetic(at: JulianDate(unixSeconds: unixSeconds))
    }
}

/// Latitude and longitude (degrees, WGS-84 geodetic, longitude in [-180, 180)) of the point
/// under the satellite described by `tle`, and its height above the ellipsoid (km), at a Unix time.
///
/// Builds the propagator each call; keep an `SGP4` to propagate one set many times.
public func subSatellitePoint(tle: TLE, at unixSeconds: Double) throws(SGP4Error)
    -> (latitude: Double, longitude: Double, altitudeKm: Double) {
    let g = try SGP4(tle: tle).geodetic(unixSeconds: unixSeconds)
    return (g.latitude, g.longitude, g.heightKm)
}
