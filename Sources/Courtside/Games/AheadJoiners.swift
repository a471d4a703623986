/// Joiners of a game on a shared log who resume from a `seq` above the one this node shows, as a value type: the
/// owner tells it what happened and performs the actions it returns (docs/redis.md, "Resuming on another node").
///
/// A spectator who saw `seq` N on another node and resumes here with `since=N` while this node still shows less
/// (its feed is behind) must not get this node's older snapshot: that takes the spectator back and replays numbers
/// it already saw. Every number a node publishes is stored first, so the game's stream has N: the owner catches up
/// from it and then answers from `since` (patches only). The wait is bounded: a node that cannot reach `since` in
/// time (its store is unreachable, or `since` was never published) answers with the snapshot it has, a complete
/// document the client replaces its own with (it then sees again numbers it saw on the other node; docs/redis.md).
///
/// The wait is counted in periods of a timer, not read from a clock: a joiner still ahead at the second firing
/// after it arrived gets the snapshot, so it waits between one and two periods (`GameLimits.aheadJoinPeriod`).
/// A `since` more than `maxAhead` (the resume window) above this node's `seq` is not worth the wait: no node
/// can be that far ahead of one that follows the log, so it is a client's mistake or a probe, and it gets the
/// snapshot at once, without a catch-up read.
struct AheadJoiners<Joiner> {
    struct Waiting {
        let joiner: Joiner
        let since: Int
        /// Timer firings seen while waiting.
        var firings = 0
    }

    enum Action {
        /// Bring the joiner in from `since` (patches after it, nothing when current), or with a snapshot when nil.
        case serve(Joiner, since: Int?)
        /// Bring the joiner in with this node's snapshot although it saw `since` elsewhere: the wait is over, or too
        /// many joiners wait already.
        case serveBehind(Joiner, since: Int)
        /// Read the game's stream after what this node holds and apply it.
        case catchUp
        /// Call `timerFired(current:)` after one period.
        case armTimer
    }

    private(set) var waiting: [Waiting] = []
    /// Joiners that may wait at once; past it a joiner is served at once from what this node has (no client can
    /// grow the list without bound).
    let maxWaiting: Int
    /// How far above this node's `seq` a `since` may be and still wait for the catch-up.
    let maxAhead: Int
    private var isArmed = false

    init(maxWaiting: Int = 1_024, maxAhead: Int) {
        self.maxWaiting = maxWaiting
        self.maxAhead = maxAhead
    }

    /// A joiner resuming from `since` (nil: wants a snapshot) while this node shows `current`.
    mutating func arrived(_ joiner: Joiner, since: Int?, current: Int) -> [Action] {
        guard let since, since > current else { return [.serve(joiner, since: since)] }
        guard waiting.count < maxWaiting, since - current <= maxAhead else {
            return [.serveBehind(joiner, since: since)]
        }
        waiting.append(Waiting(joiner: joiner, since: since))
        return [.catchUp] + armIfNeeded()
    }

    /// This node now shows `current`: serves every joiner it has reached.
    mutating func advanced(to current: Int) -> [Action] {
        var actions: [Action] = []
        waiting.removeAll { waiting in
            guard waiting.since <= current else { return false }
            actions.append(.serve(waiting.joiner, since: waiting.since))
            return true
        }
        return actions
    }

    /// A period passed: joiners still ahead at their second firing get the snapshot this node has; the others
    /// wait on (and catch-up is asked for again, since the last one may have failed).
    mutating func timerFired(current: Int) -> [Action] {
        isArmed = false
        var actions = advanced(to: current)
        for index in waiting.indices { waiting[index].firings += 1 }
        waiting.removeAll { waiting in
            guard waiting.firings >= 2 else { return false }
            actions.append(.serveBehind(waiting.joiner, since: waiting.since))
            return true
        }
        if !waiting.isEmpty { actions.append(.catchUp) }
        return actions + armIfNeeded()
    }

    private mutating func armIfNeeded() -> [Action] {
        guard !isArmed, !waiting.isEmpty else { return [] }
        isArmed = true
        return [.armTimer]
    }
}
