extension LngLat {
    /// A polyline whose longitudes are in -180...180, cut where it crosses the antimeridian (a
    /// step of more than 180 degrees): each piece ends, and the next starts, exactly on +/-180 at
    /// the latitude interpolated there. Pieces of fewer than two points are left out.
    public static func cutAtAntimeridian(_ points: [LngLat]) -> [[LngLat]] {
        var lines: [[LngLat]] = [], current: [LngLat] = []
        var previous: LngLat?
        for p in points {
            if let q = previous, abs(p.lng - q.lng) > 180 {
                let east = q.lng > 0                     // going east across +180
                let span = east ? (180 - q.lng) + (p.lng + 180) : (q.lng + 180) + (180 - p.lng)
                let k = span > 0 ? (east ? 180 - q.lng : q.lng + 180) / span : 0.5
                let lat = q.lat + (p.lat - q.lat) * k
                current.append(LngLat(lng: east ? 180 : -180, lat: lat))
                if current.count >= 2 { lines.append(current) }
                current = [LngLat(lng: east ? -180 : 180, lat: lat)]
            }
            current.append(p)
            previous = p
        }
        if current.count >= 2 { lines.append(current) }
        return lines
    }
}
