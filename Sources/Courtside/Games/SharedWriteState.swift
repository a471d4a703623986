/// The write path of a game whose log is shared by several nodes (docs/redis.md, "Several nodes on one store"), as
/// a value type: the owner tells it what happened and performs the actions it returns.
///
/// One piece of work (a command, a time-limit tick, a reopen) is in flight at a time. Its events are computed on a
/// copy of the game and appended; only a stored batch is applied to the view model (`applyStored`), the same way on
/// every node, so what a node shows is always a prefix of the shared log and no rollback is ever needed. Then:
/// - the append succeeded: the owner applies the batch, answers the work, and the next work starts;
/// - another node wrote first (a sequence conflict, or the command id stored through another node): the owner
///   reads the missing events from the game's stream and applies them (`catchUp`), then performs the same work again
///   against the new state, where it may be refused by the rules or be a repeat answered with its original `seq`.
///   A conflict never answers the work and never loses it;
/// - the store is unreachable: the work is answered `unavailable`, and since the append may have been stored
///   anyway, the owner catches up before its next append (`isBehind`).
///
/// Work that arrives meanwhile waits, up to `maxWaiting` (then it is refused `unavailable`). Generic over the work so
/// traces can use plain values.
struct SharedWriteState<Work> {
    enum Phase {
        case idle
        /// The work's append is in flight.
        case appending(Work)
        /// Reading the log; the work (if any) is performed again afterwards.
        case catchingUp(Work?)
    }

    enum Action {
        /// Compute the work's events on a copy of the game: append them (then `appended…`), or answer it at once
        /// (a refusal, a repeat, nothing to store) and call `finished()`.
        case perform(Work)
        /// Read the game's log after what this node holds and apply it; then `caughtUp()` or `catchUpFailed()`.
        case catchUp
        /// Answer the work `unavailable` without performing it, for `Refusal`.
        case refuse(Work, Refusal)
    }

    enum Refusal: Equatable {
        /// The store did not answer (the read or the append failed).
        case unreachable
        /// Too much work is waiting already.
        case queueFull
        /// The work kept meeting conflicts that catching up did not resolve, or other nodes kept writing first.
        case contended
    }

    private(set) var phase: Phase = .idle
    /// Whether this node may hold less than the log has (an append whose outcome is unknown, a gap in the feed):
    /// the next append is preceded by a catch-up.
    private(set) var isBehind = false
    private(set) var waiting: [Work] = []
    let maxWaiting: Int
    /// Conflicts one work may meet after a catch-up that found nothing new: the log refuses for a reason catching
    /// up cannot fix, so the work is refused rather than retried in a loop.
    let maxFruitlessConflicts: Int
    /// Conflicts one work may meet in all. Each catch-up brings this node level with the log, so another conflict
    /// means another node wrote again in between: a node that has a queue of its own is one round trip ahead of one
    /// that must catch up first, so a work may lose several times while the other node drains its queue (bounded by
    /// the scorers' rate limits). The bound keeps it from waiting forever.
    let maxConflicts: Int
    private var conflicts = 0
    private var fruitlessConflicts = 0
    /// Whether the last catch-up applied anything.
    private var lastCatchUpProgressed = true

    init(maxWaiting: Int, maxFruitlessConflicts: Int = 3, maxConflicts: Int = 1_000) {
        self.maxWaiting = maxWaiting
        self.maxFruitlessConflicts = maxFruitlessConflicts
        self.maxConflicts = maxConflicts
    }

    var isIdle: Bool {
        if case .idle = phase { return true }
        return false
    }

    /// New work: performed now when nothing is in flight, else queued (or refused when the queue is full).
    mutating func arrived(_ work: Work) -> [Action] {
        guard isIdle else {
            guard waiting.count < maxWaiting else { return [.refuse(work, .queueFull)] }
            waiting.append(work)
            return []
        }
        return start(work)
    }

    /// The work was answered without an append (refused, a repeat, or nothing changed).
    mutating func finished() -> [Action] {
        next()
    }

    /// The append is stored (the owner applied it and answered the work).
    mutating func appendSucceeded() -> [Action] {
        next()
    }

    /// Another node wrote first: catch up, then perform the same work again.
    mutating func appendConflicted() -> [Action] {
        guard case .appending(let work) = phase else { return invalid("a conflict") }
        conflicts += 1
        if !lastCatchUpProgressed { fruitlessConflicts += 1 }
        guard conflicts <= maxConflicts, fruitlessConflicts < maxFruitlessConflicts else {
            isBehind = true
            return [.refuse(work, .contended)] + next()
        }
        phase = .catchingUp(work)
        return [.catchUp]
    }

    /// The append failed (unreachable store, timeout): the owner answered the work `unavailable`; it may have been
    /// stored, so catch up before the next append.
    mutating func appendFailed() -> [Action] {
        guard case .appending = phase else { return invalid("a failed append") }
        isBehind = true
        return next()
    }

    /// A stored batch did not follow what this node holds (a gap in the feed): catch up now if nothing is in flight,
    /// else before the next append.
    mutating func gapSeen() -> [Action] {
        isBehind = true
        guard isIdle else { return [] }
        phase = .catchingUp(nil)
        return [.catchUp]
    }

    /// The catch-up read is applied (`progressed`: it held events this node lacked): perform the work again, or go on
    /// with the next.
    mutating func caughtUp(progressed: Bool) -> [Action] {
        guard case .catchingUp(let work) = phase else { return invalid("a catch-up") }
        isBehind = false
        lastCatchUpProgressed = progressed
        guard let work else { return next() }
        phase = .appending(work)
        return [.perform(work)]
    }

    /// The catch-up read failed: answer the work `unavailable` (the scorer retries), stay behind (the owner tries
    /// again with `gapSeen()` after a pause).
    mutating func catchUpFailed() -> [Action] {
        guard case .catchingUp(let work) = phase else { return invalid("a failed catch-up") }
        phase = .idle
        var actions: [Action] = work.map { [.refuse($0, .unreachable)] } ?? []
        // Queued work would meet the same unreachable store: it is answered the same way, not left waiting.
        actions += waiting.map { .refuse($0, .unreachable) }
        waiting = []
        return actions
    }

    private mutating func start(_ work: Work) -> [Action] {
        conflicts = 0
        fruitlessConflicts = 0
        lastCatchUpProgressed = true
        if isBehind {
            phase = .catchingUp(work)
            return [.catchUp]
        }
        phase = .appending(work)
        return [.perform(work)]
    }

    private mutating func next() -> [Action] {
        phase = .idle
        guard !waiting.isEmpty else {
            // Behind with nothing to do: catch up now, or other nodes' batches that arrived meanwhile (and were
            // held back as a gap) would wait for the next command.
            guard isBehind else { return [] }
            phase = .catchingUp(nil)
            return [.catchUp]
        }
        return start(waiting.removeFirst())
    }

    private func invalid(_ event: String) -> [Action] {
        preconditionFailure("Invalid state: \(event) while \(phase)")
    }
}
