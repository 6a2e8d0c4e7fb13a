import Testing
@testable import MapData

/// The request budget over simulated time.
@Suite struct RequestBudgetTests {
    /// A client asking eight times a second for an hour (a loop's backfill that never ends) gets
    /// 60 requests in any minute, one a second at most: 3,600 in the hour.
    @Test func anEagerClientIsHeldToTheBudgetOverAnHour() {
        var budget = RequestBudget(perMinute: 60, spacing: 1)
        var starts: [Double] = []
        for i in 0..<(3600 * 8) {
            let t = Double(i) * 0.125           // (exact in binary)
            if budget.take(now: t) { starts.append(t) }
        }
        #expect(starts.count == 3600 && budget.taken == 3600)
        #expect(zip(starts, starts.dropFirst()).allSatisfy { $1 - $0 >= 1 })
        // No window of 60 seconds holds more than 60.
        var k = 0
        for (i, s) in starts.enumerated() {
            while starts[k] <= s - 60 { k += 1 }
            #expect(i - k + 1 <= 60)
        }
    }

    /// Without spacing, a burst takes the minute's allowance at once and then waits for the
    /// oldest to leave the window.
    @Test func aBurstWaitsForTheWindow() {
        var budget = RequestBudget(perMinute: 100)
        var granted = 0
        for _ in 0..<100 where budget.take(now: 10) { granted += 1 }
        #expect(granted == 100)
        let early = budget.take(now: 69.9)
        #expect(!early && budget.nextAllowed(now: 20) == 70)
        // At 70 the first of the burst leaves the window, and so do the others (all at 10).
        var later = 0
        for _ in 0..<101 where budget.take(now: 70) { later += 1 }
        #expect(later == 100)
    }

    /// Errors in a row double the wait, up to the limit; a good answer ends it.
    @Test func errorsBackOffExponentially() {
        var budget = RequestBudget(perMinute: 60, backoffStart: 2, backoffLimit: 60)
        let first = budget.take(now: 0)
        #expect(first)
        budget.failed(now: 0)
        #expect(budget.nextAllowed(now: 0) == 2)
        budget.failed(now: 2)
        let tooSoon = budget.take(now: 5.9)
        #expect(budget.backoff == 4 && budget.nextAllowed(now: 2) == 6 && !tooSoon)
        for k in 0..<10 { budget.failed(now: 100 + Double(k)) }
        #expect(budget.backoff == 60 && budget.nextAllowed(now: 109) == 169)
        budget.succeeded()
        let again = budget.take(now: 109)
        #expect(budget.backoff == 0 && again)
    }
}
