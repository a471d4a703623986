import CourtsideJournal
import CourtsideModel
import Testing

@testable import Courtside

/// `GameWriteLedger` as protocol traces: one expectation per event, no journal, no loop.
@Suite("Game write ledger: failure and retry")
struct GameWriteLedgerTests {
    private static func write(_ seq: Int) -> JournalWrite { .recordPresentationSequence(seq, forGame: "g1") }
    private static let diskFull = JournalError.cannotCreate(path: "/data", operation: "write", errno: 28)

    @Test("stored writes: counts only")
    func storing() {
        var ledger = GameWriteLedger()
        ledger.submitting(Self.write(1))
        ledger.submitting(Self.write(2))
        #expect(ledger.unconfirmed == 2)
        #expect(ledger.completed(.success(())) == .none)
        #expect(ledger.completed(.success(())) == .none)
        #expect(ledger.unconfirmed == 0 && ledger.confirmed == 2 && ledger.failedAtWrite == nil)
        #expect(ledger.retryTimerFired() == nil)
    }

    @Test("a failure with writes still in flight arms the retry once they are done; a retry that fails re-arms")
    func failThenRecover() {
        var ledger = GameWriteLedger()
        for seq in 1...3 { ledger.submitting(Self.write(seq)) }
        #expect(ledger.completed(.success(())) == .none)
        #expect(ledger.completed(.failure(Self.diskFull)) == .failed(Self.diskFull))
        #expect(ledger.failedAtWrite == 2)
        #expect(ledger.retryTimerFired() == nil, "not while write 3 is in flight")
        #expect(ledger.completed(.success(())) == .armRetry)
        #expect(ledger.retryTimerFired() == Self.write(2))
        #expect(ledger.retryTimerFired() == nil, "one retry at a time")
        #expect(ledger.retryCompleted(.failure(Self.diskFull)) == .armRetry)
        #expect(ledger.retryTimerFired() == Self.write(2))
        #expect(ledger.retryCompleted(.success(())) == .recovered)
        #expect(ledger.failedAtWrite == nil)
    }

    @Test("every write that fails after the first is retried too, in order")
    func severalFailures() {
        var ledger = GameWriteLedger()
        for seq in 1...2 { ledger.submitting(Self.write(seq)) }
        #expect(ledger.completed(.failure(Self.diskFull)) == .failed(Self.diskFull))
        #expect(ledger.completed(.failure(Self.diskFull)) == .armRetry)
        #expect(ledger.retryTimerFired() == Self.write(1))
        #expect(ledger.retryCompleted(.success(())) == .submit(Self.write(2)))
        #expect(ledger.failedAtWrite == 1)
        #expect(ledger.retryCompleted(.success(())) == .recovered)
    }

    @Test("the only write failing arms at once; a closed journal stops the retries")
    func closed() {
        var ledger = GameWriteLedger()
        ledger.submitting(Self.write(1))
        #expect(ledger.completed(.failure(Self.diskFull)) == .failedAndArmRetry(Self.diskFull))
        #expect(ledger.retryTimerFired() == Self.write(1))
        #expect(ledger.retryCompleted(.failure(.closed)) == .stop)
        #expect(ledger.failedAtWrite == 1)
    }
}
