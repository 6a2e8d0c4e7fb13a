import Foundation
import NightmapApp
import Testing

@Suite struct RepeatingWorkerTests {
    final class Runs: @unchecked Sendable {
        private let lock = NSLock()
        private var running = 0
        private(set) var overlapped = false
        let each = DispatchSemaphore(value: 0)
        func run() {
            lock.lock(); running += 1; overlapped = overlapped || running > 1; lock.unlock()
            usleep(2000)                     // long enough for a second run to overlap, were they allowed to
            lock.lock(); running -= 1; lock.unlock()
            each.signal()
        }
    }

    /// The first run comes at once, the next ones every interval, one at a time.
    @Test func runsAtOnceThenRepeatsOneAtATime() {
        let runs = Runs()
        let worker = RepeatingWorker(name: "test.worker", interval: 0.001)
        worker.start { runs.run() }
        defer { worker.stop() }
        for i in 0..<5 {
            #expect(runs.each.wait(timeout: .now() + 5) == .success, "run \(i) never came")
        }
        #expect(!runs.overlapped)
    }

    /// A long interval: the first run still comes at once.
    @Test func theFirstRunDoesNotWaitForTheInterval() {
        let runs = Runs()
        let worker = RepeatingWorker(name: "test.worker", interval: 3600)
        worker.start { runs.run() }
        defer { worker.stop() }
        #expect(runs.each.wait(timeout: .now() + 5) == .success)
    }
}
