import Foundation

/// Work started on another thread now and waited for later (its error rethrown on the waiter).
final class BackgroundLoad<T>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<T, any Error>?
    init(_ work: @escaping @Sendable () throws -> T) {
        Thread { [self] in
            result = Result { try work() }
            done.signal()
        }.start()
    }
    func wait() throws -> T {
        done.wait()
        guard let result else { throw CancellationError() }
        return try result.get()
    }
}
