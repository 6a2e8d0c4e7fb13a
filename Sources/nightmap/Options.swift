import Foundation
import MapCore
import MapData
import NightmapApp

/// What of the overlay a snapshot draws: everything the window shows, the attribution alone, or
/// nothing over the map.
enum OverlayParts: String { case all, attribution, none }

/// The parsed command line.
struct Options: Equatable {
    enum Command: String { case view, snapshot, state, passes, bench, soak, renderTest = "render-test" }

    var command: Command = .view
    var size = ViewportSize(width: 1280, height: 800)
    var center: LngLat?
    var zoom: Double?
    /// `--bearing`: degrees clockwise from north of the direction up on screen.
    var bearing: Double?
    /// `--pitch`: degrees the camera tilts from straight down (0...85), and `--max-pitch`: the steepest it may tilt.
    var pitch: Double?
    var maxPitch = 60.0
    /// `--projection`: the globe or Web Mercator whatever the style says (nil: the style's).
    var projection: String?
    var scene = "radar"
    var route: String?
    /// `--radar`: live (default), demo, or a folder or file of frames.
    var radar: String?
    /// The live radar providers a view may get: `--radar-provider`, else auto (IEM's mosaic in
    /// its box, RainViewer elsewhere), or the `--radar-url` service alone; never RainViewer with
    /// `--rainviewer-url none`.
    var radarProviders: RadarProviderChoice {
        if rainViewerURL == nil { return .iem }
        return radarProvider ?? (radarURL == nil ? .auto : .iem)
    }
    /// `--radar-url`: the live source's URL template (default: IEM's NEXRAD WMS).
    var radarURL: RadarURLTemplate?
    var radarStep = 5.0
    var radarCount = 12
    var radarDwell = 2.0
    var radarTimeout = 10.0
    var radarBounds: LngLatBounds?
    var radarPlacement: ImagePlacement = .lonlat
    /// `--radar-provider`: which live radar a view gets (nil: auto, or the `--radar-url` service alone).
    var radarProvider: RadarProviderChoice?
    /// `--rainviewer-url`: RainViewer's index, or a server speaking its API (nil: `none`).
    var rainViewerURL: URL? = URL(string: RainViewerSource.rainViewerIndex)
    /// `--clouds-url`: the WMTS base of NASA GIBS's geostationary infrared (nil: `none`).
    var cloudsURL: String? = CloudsSource.gibs
    /// `--clouds-gap-url`: a WMS-T template for the longitudes GIBS's satellites miss (off by default).
    var cloudsGapURL: String?
    var light: LightPreset = .night
    /// `--light` was given (a style document without `nightmap:lighting` is then lit too).
    var lightGiven = false
    /// `--style`: the style document to show instead of nightmap's own.
    var style: String?
    var issMode: IssMode = .auto
    var issURL: URL?
    var tle: String?
    /// `--observer`: where passes are predicted for, and the marker.
    var observer: LngLat?
    /// passes: days ahead, the lowest maximum elevation listed (degrees), JSON output.
    var days = 3.0
    var minElevation = 10.0
    var json = false
    /// `--alerts-url`: the NWS API's base (nil: `none`, no warnings); `--contact`: for its User-Agent.
    var alertsURL: String? = WarningsFeed.defaultBase
    var contact: String?
    /// Where the element set is kept current from (nil: `--tle-url none`).
    var tleURL: URL? = ElementsRefresh.celestrak
    /// The UTC instant the map shows at elapsed 0 (seconds since 1970).
    var time: Double?
    var elapsed: Double = 0
    var output: String?
    /// snapshot: what of nightmap's overlay is drawn over the map.
    var overlay: OverlayParts = .all
    var frames = 300
    /// soak: simulated minutes.
    var minutes = 60.0
    /// render-test: the tests folders, and where local:// URLs point.
    var renderTestDirectories: [String] = []
    var assets: String?
    var scenario: String?
    var verbose = false
    /// view: start from the defaults and the command line, not the saved state.
    var noRestore = false
    /// snapshot, state: device pixels per CSS pixel (the window takes drawable / window size).
    var pixelRatio = 1.0
    /// The option names given, as parsed (what the saved state must not override).
    var given: Set<String> = []
    var showHelp = false
    var showVersion = false
    /// `--buildings`: the street map's buildings flat or in 3D (nil: as the style has them).
    var buildings: BuildingsMode?

    static let version = NightmapVersion.text

    static let usage = """
    usage: nightmap [view] [options]
           nightmap snapshot -o FILE.png [options]
           nightmap state [options]
           nightmap passes [--observer LAT,LON] [--days D] [--min-elevation DEG] [--json] [options]
           nightmap bench [--frames N] [options]
           nightmap soak [--minutes M] [options]
           nightmap render-test DIR... [--assets DIR] [--output DIR]
    options (view, snapshot, state, passes, bench, soak):
      --size WxH         viewport in pixels (default 1280x800)
      --style FILE.json  a style document (MapLibre style spec v8) to show instead of nightmap's own
                         (Resources/style/nightmap.json); its layers "radar", "route" and "iss" animate
      --center LAT,LON   camera centre (clamped to the scene's camera bounds)
      --zoom Z           camera zoom (clamped likewise)
      --bearing DEG      camera bearing, -360...360 (the compass direction up on screen; default 0)
      --pitch DEG        camera pitch, 0...85 (degrees from looking straight down; default 0)
      --max-pitch DEG    the steepest pitch the camera may take, 0...85 (default 60, as MapLibre's; a
                         higher --pitch is lowered to it with a warning)
      --projection P     mercator or globe (the globe to zoom 11, blending into Mercator by 12),
                         whatever the style's projection (default: the style's)
      --scene NAME       scene: \(Scene.names.joined(separator: ", ")) (default radar)
      --route FILE       the pulsing route: GeoJSON LineString, MultiLineString or FeatureCollection
      --radar SOURCE     radar frames: live (default: the last hour of the IEM NEXRAD mosaic, else
                         the cache, else the demo frames), demo (the bundled synthetic frames), or a
                         directory of GIFs and PNGs (sorted by name) or one (animated) GIF or PNG
      --radar-url TEMPLATE  a time-enabled image service instead of IEM's (implies --radar live);
                         placeholders {time} {yyyy} {MM} {dd} {HH} {mm} {bbox} {width} {height}
      --radar-step MIN   minutes between live frames (default 5)
      --radar-count N    live frames in the loop (default 12)
      --radar-dwell S    seconds the newest frame is held in a time-stamped loop (default 2)
      --radar-timeout S  snapshot, state: seconds to wait for the live frames (default 10)
                         (bench and soak show the demo frames unless --radar says otherwise)
      --radar-bounds W,S,E,N  where the frames go (default: a world file beside them, else the example's box)
      --radar-placement lonlat|linear  rows at their true latitude (default) or linear in Mercator
      --radar-provider auto|iem|rainviewer  live radar: IEM's NEXRAD mosaic over the United States and
                         RainViewer elsewhere (auto, the default; r cycles), or one of them everywhere;
                         iem means the --radar-url service when one is given (then the default)
      --rainviewer-url URL  RainViewer's weather-maps.json index, or a server speaking its API
                         (LibreWXR); none: no global radar
      --clouds-url URL   the WMTS base of NASA GIBS's geostationary infrared (the clouds layer; c shows
                         or hides it); none: no clouds
      --clouds-gap-url TEMPLATE  a WMS-T GetMap for Europe and Africa, where GIBS has no satellite
                         (Meteosat, README); placeholders {bbox-epsg-3857} {time} {width} {height}
      --light PRESET     day, dusk, night (default) or dawn
      --buildings flat|3d  the street map's buildings: flat footprints (default) or raised to their
                         heights (b toggles; best seen with --pitch)
      --iss MODE         ISS position: auto (live, else orbit; default), live or tle
      --iss-url URL      the live feed (default https://api.wheretheiss.at/v1/satellites/25544)
      --tle FILE         the ISS orbit's two-line elements (default: of the bundled and the cached set,
                         the one nearer the instant shown)
      --tle-url URL      keep the element set current from this URL when it is over 12 h old, at most once
                         in 2 h (default CelesTrak's GP query for 25544; none: never)
      --alerts-url URL   the NWS API for the US warnings (default https://api.weather.gov; none: no warnings)
      --contact TEXT     an email address or URL added to the User-Agent, as the NWS asks of its users
      --observer LAT,LON where the ISS's passes are predicted for (marked on the map; o: the next pass)
      --days D           passes: days ahead from the instant shown (default 3, at most 30)
      --min-elevation DEG  passes: list passes whose highest elevation reaches this (default 10)
      --json             passes: a JSON array instead of a table
      --time ISO8601     UTC instant the map shows (default now)
      --elapsed SECONDS  animation time since start (default 0)
      -o, --output FILE  snapshot: PNG file to write
      --overlay PARTS    snapshot: all (as the window shows), attribution (the map and its attribution only) or none
      --frames N         bench: frames to render per scenario (default 300)
      --minutes M        soak: simulated minutes of the animated scene, camera wandering, ISS from a
                         local feed that fails half the time (default 60; exits 1 if memory grows
                         2 MB or more after warm-up or a frame takes over 50 ms)
      --scenario NAMES   bench: run only these scenarios, comma-separated (pulse, pan, pan-notext, pan-nosky, pan-mt, 1080p, world, world-notext, streets,
                         streets-3d, streets-notext, zoom-sweep, radar-live)
      --verbose          view: log camera and timer changes on stdout
      --no-restore       view: ignore the saved state (camera, scene, light, units, help, window size)
      --pixel-ratio R    snapshot, state: device pixels per CSS pixel, 1 to 4 (default 1)
    options (render-test: runs the MapLibre render tests, folders of style.json + expected*.png, under each DIR):
      --assets DIR       where local:// URLs point (default: the assets folder beside the tests folder, DIR/../assets)
      -o, --output DIR   also write <test id>/actual.png under DIR for every test (and diff.png for failures)
      --help, --version
    """

    struct UsageError: Error, CustomStringConvertible { let description: String }

    /// Parses arguments (without the program name). Accepts `--name value` and `--name=value`.
    /// Options go on top of `base` (a configuration file's, say).
    static func parse(_ args: [String], base: Options = Options()) throws -> Options {
        var o = base
        var rest = args[...]
        if let first = rest.first, !first.hasPrefix("-") {
            guard let c = Command(rawValue: first) else { throw UsageError(description: "unknown command '\(first)'") }
            o.command = c
            rest = rest.dropFirst()
        }
        while let arg = rest.popFirst() {
            var name = arg, inline: String? = nil
            if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
                name = String(arg[..<eq]); inline = String(arg[arg.index(after: eq)...])
            }
            if name.hasPrefix("-") { o.given.insert(name == "-o" ? "--output" : name) }
            func value() throws -> String {
                if let v = inline { return v }
                guard let v = rest.popFirst() else { throw UsageError(description: "option \(name) needs a value") }
                return v
            }
            func number(_ v: String) throws -> Double {
                guard let d = Double(v), d.isFinite else { throw UsageError(description: "option \(name): '\(v)' is not a number") }
                return d
            }
            switch name {
            case "--help", "-h": o.showHelp = true
            case "--version": o.showVersion = true
            case "--verbose": o.verbose = true
            case "--no-restore": o.noRestore = true
            case "--pixel-ratio":
                let r = try number(try value())
                guard (1...4).contains(r) else { throw UsageError(description: "option --pixel-ratio: \(r) is outside 1...4") }
                o.pixelRatio = r
            case "--size":
                let v = try value()
                let parts = v.lowercased().split(separator: "x", omittingEmptySubsequences: false)
                guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...16384).contains(w), (1...16384).contains(h) else {
                    throw UsageError(description: "option --size: '\(v)' is not WIDTHxHEIGHT with sides 1...16384")
                }
                o.size = ViewportSize(width: w, height: h)
            case "--center", "--observer":
                let v = try value()
                let parts = v.split(separator: ",", omittingEmptySubsequences: false)
                guard parts.count == 2, let lat = Double(parts[0].trimmingCharacters(in: .whitespaces)),
                      let lon = Double(parts[1].trimmingCharacters(in: .whitespaces)),
                      (-90...90).contains(lat), (-180...180).contains(lon) else {
                    throw UsageError(description: "option \(name): '\(v)' is not LAT,LON in degrees (lat -90...90, lon -180...180)")
                }
                if name == "--center" { o.center = LngLat(lng: lon, lat: lat) } else { o.observer = LngLat(lng: lon, lat: lat) }
            case "--days":
                let d = try number(try value())
                guard d > 0 && d <= 30 else { throw UsageError(description: "option --days: \(d) is outside 0...30 (more than 0)") }
                o.days = d
            case "--min-elevation":
                let d = try number(try value())
                guard (0...90).contains(d) else { throw UsageError(description: "option --min-elevation: \(d) is outside 0...90") }
                o.minElevation = d
            case "--json": o.json = true
            case "--zoom":
                let z = try number(try value())
                guard (0...24).contains(z) else { throw UsageError(description: "option --zoom: \(z) is outside 0...24") }
                o.zoom = z
            case "--bearing":
                let b = try number(try value())
                guard (-360...360).contains(b) else { throw UsageError(description: "option --bearing: \(b) is outside -360...360") }
                o.bearing = b
            case "--projection":
                let v = try value()
                guard v == "mercator" || v == "globe" else {
                    throw UsageError(description: "option --projection: unknown projection '\(v)' (known: mercator, globe)")
                }
                o.projection = v
            case "--pitch", "--max-pitch":
                let p = try number(try value())
                guard (0...CameraState.steepestPitch).contains(p) else { throw UsageError(description: "option \(name): \(p) is outside 0...85") }
                if name == "--pitch" { o.pitch = p } else { o.maxPitch = p }
            case "--scene":
                let v = try value()
                guard Scene.names.contains(v) else {
                    throw UsageError(description: "option --scene: unknown scene '\(v)' (known: \(Scene.names.joined(separator: ", ")))")
                }
                o.scene = v
            case "--route":
                o.route = try value()
            case "--radar":
                let v = try value()
                guard !v.isEmpty else { throw UsageError(description: "option --radar: give live, demo or a path") }
                o.radar = v
            case "--radar-url":
                let v = try value()
                do { o.radarURL = try RadarURLTemplate(v) } catch { throw UsageError(description: "option --radar-url: \(error)") }
                o.radar = "live"
            case "--radar-step":
                let m = try number(try value())
                guard m >= 0.01, m <= 1440 else { throw UsageError(description: "option --radar-step: \(m) is outside 0.01...1440 minutes") }
                o.radarStep = m
            case "--radar-count":
                let v = try value()
                guard let n = Int(v), (1...100).contains(n) else { throw UsageError(description: "option --radar-count: '\(v)' is not a count 1...100") }
                o.radarCount = n
            case "--radar-dwell":
                let d = try number(try value())
                guard (0...60).contains(d) else { throw UsageError(description: "option --radar-dwell: \(d) is outside 0...60 seconds") }
                o.radarDwell = d
            case "--radar-timeout":
                let t = try number(try value())
                guard t > 0, t <= 600 else { throw UsageError(description: "option --radar-timeout: \(t) is outside 0...600 seconds") }
                o.radarTimeout = t
            case "--radar-bounds":
                let v = try value()
                let n = v.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
                guard n.count == 4, let w = n[0], let so = n[1], let e = n[2], let no = n[3],
                      (-180...180).contains(w), (-180...180).contains(e), (-90...90).contains(so), (-90...90).contains(no),
                      w < e, so < no else {
                    throw UsageError(description: "option --radar-bounds: '\(v)' is not WEST,SOUTH,EAST,NORTH in degrees with west < east and south < north")
                }
                o.radarBounds = LngLatBounds(west: w, south: so, east: e, north: no)
            case "--radar-placement":
                let v = try value()
                guard let p = ImagePlacement(rawValue: v) else { throw UsageError(description: "option --radar-placement: '\(v)' is not lonlat or linear") }
                o.radarPlacement = p
            case "--iss":
                let v = try value()
                guard let m = IssMode(rawValue: v) else { throw UsageError(description: "option --iss: '\(v)' is not auto, live or tle") }
                o.issMode = m
            case "--iss-url":
                let v = try value()
                guard let u = URL(string: v), let scheme = u.scheme?.lowercased(), ["http", "https"].contains(scheme), u.host != nil else {
                    throw UsageError(description: "option --iss-url: '\(v)' is not an http or https URL")
                }
                o.issURL = u
            case "--radar-provider":
                let v = try value()
                guard let p = RadarProviderChoice(rawValue: v) else {
                    throw UsageError(description: "option --radar-provider: '\(v)' is not auto, iem or rainviewer")
                }
                o.radarProvider = p
            case "--clouds-gap-url":
                let v = try value()
                guard let u = URL(string: v.replacingOccurrences(of: "{", with: "").replacingOccurrences(of: "}", with: "")),
                      let scheme = u.scheme?.lowercased(), ["http", "https"].contains(scheme), u.host != nil, v.contains("{bbox-epsg-3857}") else {
                    throw UsageError(description: "option --clouds-gap-url: '\(v)' is not an http or https template with {bbox-epsg-3857}")
                }
                o.cloudsGapURL = v
            case "--clouds-url":
                let v = try value()
                if v == "none" { o.cloudsURL = nil; break }
                guard let u = URL(string: v), let scheme = u.scheme?.lowercased(), ["http", "https"].contains(scheme), u.host != nil else {
                    throw UsageError(description: "option --clouds-url: '\(v)' is not an http or https URL, nor none")
                }
                o.cloudsURL = v
            case "--rainviewer-url":
                let v = try value()
                if v == "none" { o.rainViewerURL = nil; break }
                guard let u = URL(string: v), let scheme = u.scheme?.lowercased(), ["http", "https"].contains(scheme), u.host != nil else {
                    throw UsageError(description: "option --rainviewer-url: '\(v)' is not an http or https URL, nor none")
                }
                o.rainViewerURL = u
            case "--tle":
                o.tle = try value()
            case "--tle-url":
                let v = try value()
                if v == "none" { o.tleURL = nil; break }
                guard let u = URL(string: v), let scheme = u.scheme?.lowercased(), ["http", "https"].contains(scheme), u.host != nil else {
                    throw UsageError(description: "option --tle-url: '\(v)' is not an http or https URL, nor none")
                }
                o.tleURL = u
            case "--alerts-url":
                let v = try value()
                if v == "none" { o.alertsURL = nil; break }
                guard let u = URL(string: v), let scheme = u.scheme?.lowercased(), ["http", "https"].contains(scheme), u.host != nil else {
                    throw UsageError(description: "option --alerts-url: '\(v)' is not an http or https URL, nor none")
                }
                o.alertsURL = v
            case "--contact":
                let v = try value()
                guard !v.isEmpty, v.count <= 200, !v.contains(where: { $0.isNewline || $0 == "(" || $0 == ")" }) else {
                    throw UsageError(description: "option --contact: give an email address or a URL on one line, without parentheses (at most 200 characters)")
                }
                o.contact = v
            case "--light":
                let v = try value()
                guard let l = LightPreset(rawValue: v) else {
                    throw UsageError(description: "option --light: '\(v)' is not one of \(LightPreset.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                o.light = l
                o.lightGiven = true
            case "--style":
                o.style = try value()
            case "--buildings":
                let v = try value()
                guard let b = BuildingsMode(rawValue: v) else { throw UsageError(description: "option --buildings: '\(v)' is not flat or 3d") }
                o.buildings = b
            case "--time":
                let v = try value()
                guard let t = parseISO8601(v) else { throw UsageError(description: "option --time: '\(v)' is not an ISO 8601 UTC time such as 2026-11-30T12:00:00Z") }
                o.time = t
            case "--elapsed":
                let e = try number(try value())
                guard e >= 0 else { throw UsageError(description: "option --elapsed: \(e) is negative") }
                o.elapsed = e
            case "-o", "--output": o.output = try value()
            case "--overlay":
                let v = try value()
                guard let parts = OverlayParts(rawValue: v) else { throw UsageError(description: "option --overlay: '\(v)' is not all, attribution or none") }
                o.overlay = parts
            case "--assets": o.assets = try value()
            case "--scenario":
                let v = try value()
                let known = Headless.scenarios.map(\.name)
                for name in v.split(separator: ",", omittingEmptySubsequences: false) where !known.contains(String(name)) {
                    throw UsageError(description: "option --scenario: unknown scenario '\(name)' (known: \(known.joined(separator: ", ")))")
                }
                o.scenario = v
            case "--minutes":
                let v = try value()
                guard let m = Double(v), m > 0, m <= 100_000 else { throw UsageError(description: "option --minutes: '\(v)' is not a number of minutes above 0 (at most 100000)") }
                o.minutes = m
            case "--frames":
                let v = try value()
                guard let n = Int(v), n >= 1, n <= 1_000_000 else { throw UsageError(description: "option --frames: '\(v)' is not a count 1...1000000") }
                o.frames = n
            default:
                if o.command == .renderTest && !arg.hasPrefix("-") {
                    o.renderTestDirectories.append(arg)
                    continue
                }
                throw UsageError(description: arg.hasPrefix("-") ? "unknown option '\(name)'" : "unexpected argument '\(arg)'")
            }
        }
        // The benchmarks and the soak measure drawing: their radar is the demo frames unless told.
        if (o.command == .bench || o.command == .soak) && o.radar == nil { o.radar = "demo" }
        if o.radarProvider == .rainviewer && o.rainViewerURL == nil {
            throw UsageError(description: "option --radar-provider rainviewer: --rainviewer-url is none")
        }
        if o.command == .snapshot && o.output == nil && !o.showHelp && !o.showVersion {
            throw UsageError(description: "snapshot needs -o FILE.png")
        }
        if o.command == .renderTest && o.renderTestDirectories.isEmpty && !o.showHelp && !o.showVersion {
            throw UsageError(description: "render-test needs at least one tests DIR")
        }
        return o
    }

    static func parseISO8601(_ s: String) -> Double? {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let d = f.date(from: s) { return d.timeIntervalSince1970 }
        f.formatOptions = [.withInternetDateTime]
        return f.date(from: s)?.timeIntervalSince1970
    }
}
