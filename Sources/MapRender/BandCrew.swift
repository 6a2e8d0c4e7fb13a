import Dispatch
import Foundation

/// Threads kept for the life of a `ParallelRenderer`, one per band after the first, each
/// waiting on its own semaphore for the next frame. Dispatch's asynchronous blocks and groups
/// allocate on every frame; semaphores and a job stored in place do not, so a warm frame drawn on
/// several threads allocates nothing either.
final class BandCrew<Job>: @unchecked Sendable {
    /// What worker k runs for each job (set once, so a frame stores only its job).
    private let work: (Int, Job) -> Void
    /// The frame's job while the workers run it.
    private var job: Job?
    private let starts: [DispatchSemaphore]
    private let finished = DispatchSemaphore(value: 0)
    private var stopping = false

    /// `bands` bands: the caller draws band 0, worker k - 1 band k with `work(k, job)`.
    init(bands: Int, work: @escaping (Int, Job) -> Void) {
        self.work = work
        starts = (1..<max(1, bands)).map { _ in DispatchSemaphore(value: 0) }
        for k in 1..<max(1, bands) {
            // The thread holds the crew (not its owner) until `stop`.
            let thread = Thread { [self] in self.serve(k) }
            thread.name = "nightmap band \(k)"
            thread.start()
        }
    }

    private func serve(_ k: Int) {
        while true {
            starts[k - 1].wait()
            if stopping { return }
            if let job { work(k, job) }
            finished.signal()
        }
    }

    /// Runs `job` on every worker while the caller runs `first()`, and returns when all are done.
    func run(_ job: Job, first: () -> Void) {
        self.job = job
        for s in starts { s.signal() }
        first()
        for _ in starts { finished.wait() }
        self.job = nil
    }

    /// Ends the worker threads (after the frame in progress, if any).
    func stop() {
        stopping = true
        for s in starts { s.signal() }
    }
}
