import Foundation
import MapCore
import MapData

/// Where the ISS element set is cached (`ElementsRefresh` keeps it current), so a later start
/// without a network still has the newest one.
public enum TLECache {
    /// `$XDG_CACHE_HOME/nightmap/iss.tle`, or `~/.cache/nightmap/iss.tle`.
    public static func cacheFile(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        XDGDirectory.cache(environment).appendingPathComponent("nightmap/iss.tle")
    }

    /// Of the given TLE files that load, the one whose set's epoch is nearest `instant` (Unix
    /// seconds): for the present the newest, for a map of the past the set of its day. Missing
    /// files are skipped; a bad file is reported through `report` and skipped.
    public static func nearest(_ paths: [String], to instant: Double, report: (String) -> Void) -> (orbit: IssOrbit, path: String)? {
        var best: (orbit: IssOrbit, path: String)?
        for path in paths where FileManager.default.fileExists(atPath: path) {
            do {
                let o = try IssOrbit.load(path: path)
                if best.map({ abs(o.epoch - instant) < abs($0.orbit.epoch - instant) }) ?? true { best = (o, path) }
            } catch {
                report("\(error)")
            }
        }
        return best
    }
}
