import Testing
import MapCore
@testable import NightmapApp

/// The radar loop's clock at exact instants: the example's untimed loop, and the time-stamped
/// loop's dwell, speed, pause, steps and jumps.
@Suite struct RadarLoopTests {
    @Test func untimedFramesChangeOncePerSecond() {
        let l = RadarLoop(count: 5, timed: false, playing: true, start: 0)
        #expect(l.frame(at: 0) == 0)
        #expect(l.frame(at: 0.999) == 0)
        #expect(l.frame(at: 1) == 1)
        #expect(l.frame(at: 4.5) == 4)
        #expect(l.frame(at: 5) == 0)                    // 4 -> 0
        #expect(l.nextChange(after: 4.5) == 5)
        #expect(l.lastChange(at: 4.5) == .init(time: 4, from: 3))
        #expect(l.lastChange(at: 0.5) == nil)
    }

    @Test func pauseFreezesAndResumeRestartsTheFramesTime() {
        var l = RadarLoop(count: 5, timed: false, playing: true, start: 0)
        l.toggle(at: 2.5)
        #expect(!l.isPlaying && l.stateName == "paused")
        #expect(l.frame(at: 100) == 2)
        #expect(l.nextChange(after: 3) == nil)
        l.toggle(at: 10.2)
        #expect(l.stateName == "playing")
        #expect(l.frame(at: 11.1) == 2)
        #expect(l.frame(at: 11.2) == 3)
        #expect(l.nextChange(after: 11.5) == 12.2)
    }

    /// N = 12, s = 1, d = 2: the cycle is 13 s; [0, 2) newest, [2 + i, 3 + i) frame i.
    @Test func timedLoopOpensOnTheNewestHoldsItThenPlaysOldestToNewest() {
        let l = RadarLoop(count: 12, timed: true, frameSeconds: 1, dwell: 2, playing: true, start: 0)
        #expect(l.frame(at: 0) == 11)
        #expect(l.frame(at: 1.999) == 11)
        #expect(l.frame(at: 2) == 0)
        #expect(l.frame(at: 2.999) == 0)
        #expect(l.frame(at: 3) == 1)
        #expect(l.frame(at: 12.5) == 10)
        #expect(l.frame(at: 13) == 11)                  // the next cycle's dwell
        #expect(l.frame(at: 15) == 0)
        #expect(l.nextChange(after: 0.5) == 2)
        #expect(l.nextChange(after: 12.5) == 13)
        #expect(l.lastChange(at: 13.5) == .init(time: 13, from: 10))
        #expect(l.lastChange(at: 2.5) == .init(time: 2, from: 11))
    }

    @Test func speedKeepsTheFrameAndItsProgress() {
        var l = RadarLoop(count: 12, timed: true, frameSeconds: 1, dwell: 2, playing: true, start: 0)
        // At 5.5 frame 3 shows, half through. Halving the frame time: half through 0.5 s.
        l.setFrameSeconds(0.5, at: 5.5)
        #expect(l.frameSeconds == 0.5)
        #expect(l.frame(at: 5.5) == 3)
        #expect(l.frame(at: 5.74) == 3)
        #expect(l.frame(at: 5.76) == 4)
        // Clamped to 0.25...4 s.
        l.setFrameSeconds(0.1, at: 6)
        #expect(l.frameSeconds == 0.25)
        l.setFrameSeconds(100, at: 6)
        #expect(l.frameSeconds == 4)
        // The dwell keeps its length whatever the speed: at 4 s a frame, the cycle is 11 x 4 + 2.
        let m = RadarLoop(count: 12, timed: true, frameSeconds: 4, dwell: 2, playing: true, start: 0)
        #expect(m.frame(at: 1.9) == 11 && m.frame(at: 2) == 0 && m.frame(at: 5.9) == 0 && m.frame(at: 6) == 1)
        #expect(m.frame(at: 46) == 11)
    }

    @Test func stepsWhilePausedAndJumpsAlways() {
        var l = RadarLoop(count: 12, timed: true, frameSeconds: 1, dwell: 2, playing: true, start: 0)
        l.step(1, at: 0.5)                              // playing: no effect
        #expect(l.frame(at: 0.5) == 11)
        l.toggle(at: 4.5)                               // paused on frame 2
        #expect(l.frame(at: 4.5) == 2)
        l.step(-1, at: 5)
        #expect(l.frame(at: 50) == 1)
        #expect(l.lastChange(at: 50) == .init(time: 5, from: 2))
        l.step(-2, at: 6)                               // wraps: 1 -> 11
        #expect(l.frame(at: 6) == 11)
        l.jump(to: 0, at: 7)                            // Home
        #expect(l.frame(at: 7) == 0)
        l.toggle(at: 8)                                 // resume: frame 0's full second
        #expect(l.frame(at: 8.99) == 0)
        #expect(l.frame(at: 9) == 1)
        l.jump(to: 11, at: 9.5)                         // End, while playing: the dwell again
        #expect(l.frame(at: 11.49) == 11)
        #expect(l.frame(at: 11.5) == 0)
    }

    @Test func newFramesKeepTheOneShown() {
        var l = RadarLoop(count: 12, timed: true, frameSeconds: 1, dwell: 2, playing: true, start: 0)
        // At 5.25 frame 3 shows; a refresh drops the oldest and adds a newest: it is now frame 2.
        l.setFrames(count: 12, timed: true, keeping: 2, at: 5.25)
        #expect(l.frame(at: 5.25) == 2)
        #expect(l.frame(at: 5.99) == 2)
        #expect(l.frame(at: 6) == 3)
        // A loop that gets its first frames opens on its newest.
        var e = RadarLoop(count: 0, timed: false, playing: true, start: 0)
        #expect(e.frame(at: 3) == nil)
        e.setFrames(count: 1, timed: true, keeping: nil, at: 3)
        #expect(e.frame(at: 3) == 0)
        e.setFrames(count: 2, timed: true, keeping: 1, at: 3.5)    // an older frame arrives
        #expect(e.frame(at: 3.5) == 1)                  // still the newest, in its dwell
        #expect(e.frame(at: 4.99) == 1)
        #expect(e.frame(at: 5) == 0)
        // The demo's five untimed frames giving way to twelve live ones: the newest first.
        var d = RadarLoop(count: 5, timed: false, playing: true, start: 0)
        #expect(d.frame(at: 3.5) == 3)
        d.setFrames(count: 12, timed: true, keeping: nil, at: 3.5)
        #expect(d.frame(at: 3.5) == 11 && d.frame(at: 5.49) == 11 && d.frame(at: 5.5) == 0)
    }

    @Test func clickTogglesTheMapsLoop() {
        var m = MapApp(style: Style(), size: ViewportSize(width: 1280, height: 800), scene: .radar)
        #expect(m.loop.isPlaying)
        m.apply(.toggleTimer, now: 0.5)
        #expect(!m.loop.isPlaying)
    }
}
