import MapCore
import Testing
@testable import NightmapApp

/// Which radar provider a view gets as the camera moves.
@Suite struct RadarProviderChoiceTests {
    static func view(_ lng: Double, _ lat: Double, _ w: Double = 10, _ h: Double = 6) -> LngLatBounds {
        LngLatBounds(west: lng - w / 2, south: lat - h / 2, east: lng + w / 2, north: lat + h / 2)
    }

    /// Panning from Kansas east over the Atlantic to Europe and back: IEM while the view is in
    /// its box, RainViewer from where half the view has left it, IEM again only once three
    /// quarters of the view are back inside.
    @Test func autoSwitchesAsTheCameraPansWithAHold() {
        let auto = RadarProviderChoice.auto
        var current: RadarProvider? = nil
        var seen: [(Double, RadarProvider)] = []
        for lng in stride(from: -98.0, through: 10.0, by: 1) {
            let p = auto.provider(for: Self.view(lng, 38), current: current)
            if p != current { seen.append((lng, p)) }
            current = p
        }
        for lng in stride(from: 10.0, through: -98.0, by: -1) {
            let p = auto.provider(for: Self.view(lng, 38), current: current)
            if p != current { seen.append((lng, p)) }
            current = p
        }
        // The box's east edge is -66: the view (10 degrees wide) has (-61 - lng) / 10 of itself
        // inside: 0.5 at -66 (below the hold, 0.55), 0.8 at -69 (above the entry, 0.75).
        #expect(seen.map(\.1) == [.iem, .rainviewer, .iem])
        #expect(seen.map(\.0) == [-98, -66, -69])
    }

    @Test func sharesAndFixedChoices() {
        let box = RadarProviderChoice.iemBox
        #expect(RadarProviderChoice.share(of: Self.view(-98, 38), in: box) == 1)
        #expect(RadarProviderChoice.share(of: Self.view(13, 52), in: box) == 0)          // Berlin
        #expect(abs(RadarProviderChoice.share(of: Self.view(-66, 38, 10, 6), in: box) - 0.5) < 1e-9)
        #expect(RadarProviderChoice.share(of: LngLatBounds(west: 0, south: 0, east: .nan, north: 1), in: box) == 0)
        #expect(RadarProviderChoice.share(of: LngLatBounds(west: 5, south: 0, east: 5, north: 1), in: box) == 0)
        #expect(RadarProviderChoice.iem.provider(for: Self.view(13, 52), current: nil) == .iem)
        #expect(RadarProviderChoice.rainviewer.provider(for: Self.view(-98, 38), current: .iem) == .rainviewer)
        #expect(RadarProviderChoice.auto.provider(for: Self.view(139.7, 35.7), current: nil).name == "RainViewer")  // Tokyo
        #expect(RadarProvider.iem.name == "IEM NEXRAD")
    }
}
