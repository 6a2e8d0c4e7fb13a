import Foundation

/// A clock a test moves, read by code under test from other threads.
public final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var t: Double
    public init(_ t: Double) { self.t = t }
    public var now: Double {
        get { lock.lock(); defer { lock.unlock() }; return t }
        set { lock.lock(); t = newValue; lock.unlock() }
    }
}

/// The lines code under test reports, in order, from any thread.
public final class ReportedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    public init() {}
    public func add(_ s: String) { lock.lock(); stored.append(s); lock.unlock() }
    public var all: [String] { lock.lock(); defer { lock.unlock() }; return stored }
}
