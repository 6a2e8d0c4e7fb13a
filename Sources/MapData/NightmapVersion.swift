/// nightmap's version, for `--version` and the User-Agent of its requests.
public enum NightmapVersion {
    public static let text = "0.1.0"
}
