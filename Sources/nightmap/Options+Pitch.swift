/// `--pitch` above `--max-pitch`: the camera takes the maximum (as MapLibre clamps a pitch to its
/// `maxPitch`), and the user is told once.
extension Options {
    /// The one-line warning for a `--pitch` (on the command line or in the configuration file)
    /// above `--max-pitch`; nil when there is nothing to say.
    var pitchWarning: String? {
        guard given.contains("--pitch"), let p = pitch, p > maxPitch else { return nil }
        return "--pitch \(p.degreesText) is above --max-pitch \(maxPitch.degreesText): the camera tilts to \(maxPitch.degreesText) (raise --max-pitch, up to 85)"
    }
}

private extension Double {
    /// 60 as "60", 62.5 as "62.5".
    var degreesText: String { rounded() == self ? String(Int(self)) : String(self) }
}
