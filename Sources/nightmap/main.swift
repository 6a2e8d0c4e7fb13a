import CAllocCount
import Foundation
import MapCore
import NightmapApp
import MapData

/// nightmap's entry point: parse the command line, then view, snapshot, state, bench or render-test.
let processStart = Clock.processStart() ?? Clock.now()
// Over a file size limit a write fails with "File too large" (reported, nothing partial left)
// instead of the signal killing the process.
signal(SIGXFSZ, SIG_IGN)
// At most two malloc arenas (unless MALLOC_ARENA_MAX says otherwise): the band renderers, the
// feed's request threads and Dispatch's pool each took arenas of their own, whose freed memory
// stayed fragmented; an hour's soak grew 2.2 MB after warm-up that way, 0.7 MB with two.
if ProcessInfo.processInfo.environment["MALLOC_ARENA_MAX"] == nil { _ = nightmap_limit_malloc_arenas(2) }

/// Prints a one-line warning on stderr.
func warn(_ message: String) {
    FileHandle.standardError.write(Data("nightmap: \(message)\n".utf8))
}

func fail(_ message: String, code: Int32) -> Never {
    FileHandle.standardError.write(Data("nightmap: \(message)\n".utf8))
    exit(code)
}

let arguments = Array(CommandLine.arguments.dropFirst())
let parsed: Options
do {
    parsed = try Options.parse(arguments)
} catch {
    // One line, not the whole usage: the mistake stays on the screen.
    fail("\(error) (nightmap --help lists the options)", code: 2)
}
if parsed.showHelp { print(Options.usage); exit(0) }
if parsed.showVersion { print("nightmap \(Options.version)"); exit(0) }
var options = parsed
// The window: the configuration file's options, then what the last window left, then the
// command line's.
var savedState: SavedState?
if options.command == .view {
    do {
        let configured = try Options.parse(["view"] + ConfigFile.arguments(path: ConfigFile.path()))
        var base = configured
        if !options.noRestore && !configured.noRestore {
            let path = SavedState.path()
            do { savedState = try SavedState.load(from: path) } catch { warn("\(error); starting from the defaults") }
            savedState?.restore(into: &base, given: options.given)
        }
        options = try Options.parse(arguments, base: base)
    } catch {
        fail("\(error)", code: 2)
    }
}
if let w = options.pitchWarning { warn(w) }

do {
    switch options.command {
    case .snapshot:
        try Headless.snapshot(options)
    case .state:
        print(try Headless.state(options))
    case .passes:
        // The observer, when not given, from the configuration file.
        if options.observer == nil {
            do { options.observer = try Options.parse(["view"] + ConfigFile.arguments(path: ConfigFile.path())).observer } catch { fail("\(error)", code: 2) }
        }
        print(try Passes.run(options))
    case .soak:
        let result = try Soak.run(options)
        print(result.report)
        exit(result.passed ? 0 : 1)
    case .bench:
        print(try Headless.bench(options, startedAt: processStart))
    case .renderTest:
        let result = RenderTestRunner().run(directories: options.renderTestDirectories, assets: options.assets,
                                            output: options.output, renderer: renderStyleDocument,
                                            print: { print($0); fflush(nil) })
        exit(result.failed == 0 ? 0 : 1)
    case .view:
        // The data loads on another thread while this one connects to the display; a bad style
        // still exits before any window opens.
        let viewOptions = options
        let loading = BackgroundLoad { try MapSetup.model(viewOptions, report: warn) }
        let videoReady = (try? Viewer.initialiseVideo()) != nil
        var model = try loading.wait()
        savedState?.restoreToggles(&model, now: model.now)
        if !videoReady { try Viewer.checkDisplay() }
        let viewer = Viewer(options: options, model: model, fullscreen: savedState?.window.fullscreen ?? false)
        viewer.processStart = processStart
        if options.verbose, let s = savedState {
            print(String(format: "nightmap: restored %@: scene %@ lat=%.5f lon=%.5f zoom=%.3f light %@ units %@ window %dx%d",
                         SavedState.path().path, s.scene, s.camera.lat, s.camera.lon, s.camera.zoom, s.light, s.units,
                         s.window.width, s.window.height))
        }
        try viewer.open()
        try viewer.run()
        // What the user leaves is what the next window shows.
        do { try viewer.savedState().save(to: SavedState.path()) } catch {
            warn("cannot save the window's state to \(SavedState.path().path): \(error.localizedDescription)")
        }
    }
} catch let e as StyleDocumentError {
    // One line per problem in the style document, before any window opens.
    for problem in e.problems { warn(problem) }
    exit(1)
} catch {
    fail("\(error)", code: 1)
}
