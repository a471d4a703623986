import CourtsideJournal

/// A game's journal writes as its owner must track them (docs/server.md, "Durability"): how many were submitted
/// and completed (replies wait on those numbers), and, after a write fails, which writes must be stored again before
/// the game's memory and disk agree (docs/server.md, "Durability: acks after the disk", a failed write).
///
/// A value type: `GameOwner` tells it each event (a write submitted, a completion, the retry timer firing, a
/// retry's completion) and performs the action it returns (log and report a failure, arm the retry timer, submit a
/// write again, report the recovery). Completions arrive in submission order (one submitting thread per game).
///
/// States: `storing`; `failed(at:, toRetry:, retrying:)` from the first failed completion: every write that fails
/// from then on joins `toRetry` (a later success is stored already); once nothing is in flight the owner arms the
/// timer, and each firing submits the first of `toRetry` (one at a time, so their order holds); the last success
/// returns to `storing`. The owner submits nothing new while failed (commands are refused, ticks wait).
struct GameWriteLedger {
    enum State {
        case storing
        /// `at`: the number of the first failed write; `toRetry`: the failed writes, oldest first; `retrying`:
        /// whether the first of them is submitted again and not yet answered.
        case failed(at: Int, toRetry: [JournalWrite], retrying: Bool)
    }

    enum CompletionAction: Equatable {
        case none
        /// The first failure: log it, report it, refuse commands.
        case failed(JournalError)
        /// Failed, and nothing is in flight any more: arm the retry timer.
        case armRetry
        /// Both: the first failure, with nothing else in flight.
        case failedAndArmRetry(JournalError)
    }

    enum RetryAction: Equatable {
        /// Submit this write again (`retryCompleted` gets its answer).
        case submit(JournalWrite)
        /// It failed again: arm the timer.
        case armRetry
        /// Every failed write is stored: report the recovery, take commands again.
        case recovered
        /// The journal is closed (the server stops): do nothing more.
        case stop
    }

    private(set) var state: State = .storing
    /// Writes submitted so far (replies wait for `confirmed` to reach the count at their command).
    private(set) var submitted = 0
    /// Writes completed so far, stored or not.
    private(set) var confirmed = 0
    /// The writes in flight, oldest first (a failed one is kept for the retry).
    private var inFlight: [JournalWrite] = []

    /// The number of the first failed write while failed, else nil.
    var failedAtWrite: Int? {
        if case .failed(let at, _, _) = state { return at }
        return nil
    }

    /// Writes submitted and not yet completed.
    var unconfirmed: Int { submitted - confirmed }

    mutating func submitting(_ write: JournalWrite) {
        submitted += 1
        inFlight.append(write)
    }

    mutating func completed(_ result: Result<Void, JournalError>) -> CompletionAction {
        // Completions come in submission order, one per submitted write.
        guard !inFlight.isEmpty else { preconditionFailure("Invalid state: a completion with no write in flight") }
        confirmed += 1
        let write = inFlight.removeFirst()
        var firstFailure: JournalError?
        switch (state, result) {
        case (.storing, .success), (.failed, .success):
            break
        case (.storing, .failure(let error)):
            state = .failed(at: confirmed, toRetry: [write], retrying: false)
            firstFailure = error
        case (.failed(let at, var toRetry, let retrying), .failure):
            toRetry.append(write)
            state = .failed(at: at, toRetry: toRetry, retrying: retrying)
        }
        let arm = failedAtWrite != nil && inFlight.isEmpty
        switch (firstFailure, arm) {
        case (let error?, true): return .failedAndArmRetry(error)
        case (let error?, false): return .failed(error)
        case (nil, true): return .armRetry
        case (nil, false): return .none
        }
    }

    /// The retry timer fired: the write to submit again, or nil (nothing to retry, or one already out).
    mutating func retryTimerFired() -> JournalWrite? {
        guard case .failed(let at, let toRetry, false) = state, let first = toRetry.first, inFlight.isEmpty else {
            return nil
        }
        state = .failed(at: at, toRetry: toRetry, retrying: true)
        return first
    }

    mutating func retryCompleted(_ result: Result<Void, JournalError>) -> RetryAction {
        guard case .failed(let at, var toRetry, true) = state else {
            preconditionFailure("Invalid state: a retry completed while \(state)")
        }
        switch result {
        case .failure(.closed):
            state = .failed(at: at, toRetry: toRetry, retrying: false)
            return .stop
        case .failure:
            state = .failed(at: at, toRetry: toRetry, retrying: false)
            return .armRetry
        case .success:
            toRetry.removeFirst()
            guard let next = toRetry.first else {
                state = .storing
                return .recovered
            }
            state = .failed(at: at, toRetry: toRetry, retrying: true)
            return .submit(next)
        }
    }
}
