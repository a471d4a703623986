import CourtsideJournal
import CourtsideModel
import CourtsideNet
import CourtsideViewModels

/// What every game owner shares: storage, metrics, the log, the wall clock and the limits. Sendable, made once by
/// the application.
struct GameServices: Sendable {
    let journal: any GameJournal
    /// The same journal when several nodes share it (Redis): games then take the shared write path
    /// (`GameOwnerStateMachine`'s shared mode) and apply other nodes' stored batches. Nil for SQLite.
    let shared: (any SharedGameJournal)?
    let metrics: ServerMetrics
    let logger: Logger
    /// Unix milliseconds: `asOf` in the documents is an instant on this clock (docs/protocol.md).
    let clock: @Sendable () -> Timestamp
    let limits: GameLimits
    /// Called on the game's loop whenever its lobby line changes.
    let reportSummary: @Sendable (GameSummary) -> Void
    /// Called when a game's journal write failed, with the error (the application then reports it in `/healthz`
    /// and claims no clean shutdown while it lasts).
    let reportFailure: @Sendable (GameID, String) -> Void
    /// Called when a failed game's writes were all stored by retries.
    let reportRecovery: @Sendable (GameID) -> Void
    /// The server's loops, for the feeds.
    let group: EventLoopGroup
}

/// Per-game limits. Each bounds memory or the gap a crash can leave between what spectators saw and what is stored.
struct GameLimits: Sendable {
    /// Patch messages kept for `since=N` resumes (ServerConfiguration.resumeWindow).
    var resumeWindow: Int
    /// Journal writes a game may have submitted and not yet confirmed. Further commands wait (the scorer's acks
    /// wait for the disk anyway; spectators never do). 256 keeps a group commit of every busy game full while
    /// bounding how many published messages a crash can leave unstored, which is the margin a restart after a
    /// crash skips in the sequence numbers (docs/server.md, "Sequence numbers after a restart").
    var maxUnconfirmedWrites: Int = 256
    /// Commands queued behind those writes. 1,024 is ten seconds of a scorer at the sustained rate limit; past it
    /// the game answers `unavailable` rather than buffer without bound.
    var maxWaitingCommands: Int = 1_024
    /// How often a game whose write failed tries it again (`ServerConfiguration.storageRetryInterval`).
    var storageRetryInterval: Duration = .seconds(1)
    /// The period of the wait of a joiner resuming from a `seq` this node has not reached yet (`AheadJoiners`: it
    /// waits one to two periods for the catch-up). 750 ms: a catch-up is one read of the game's stream, and a
    /// spectator whose node was killed is back within 1.5 s even when the store does not answer.
    var aheadJoinPeriod: Duration = .milliseconds(750)

    /// How far a restart after a crash moves each game's numbering: every message that may have been published
    /// without reaching the disk (at most the unconfirmed writes, plus one for a time-limit tick) is below it.
    var restartMargin: Int { maxUnconfirmedWrites + 2 }
}
