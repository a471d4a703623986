import CourtsideModel

/// Why a relay connection was cut, or why one game's relay stopped (docs/relay.md). Each case names the game and the
/// numbers that disagreed, so a log line or a metric says what happened without a debugger.
public enum RelayError: Error, Sendable, Hashable {
    /// A relayed game id does not start with the connected venue's id and a dot: a venue token relays only the
    /// games created at that venue.
    case foreignGame(venue: String, game: GameID)
    /// A relayed court id does not start with the connected venue's id and a dot: a venue relays only its courts.
    case foreignCourt(venue: String, court: CourtID)
    /// A `courts` message with more courts than the public node shows of one venue.
    case tooManyCourts(count: Int, limit: Int)
    /// `hello` (at the public node) or `welcome` (at the venue) did not arrive within `helloDeadline`.
    case helloTimedOut(waitedMilliseconds: Int64)
    /// Nothing, not even a pong, was heard for `silenceLimit`: a blackholed path sends no reset.
    case silence(lastHeard: Timestamp, now: Timestamp)
    /// Entries of `game` stayed unacknowledged past `writeDeadline`.
    case writeDeadlineMissed(GameID, unackedSince: Timestamp)
    /// The public node acknowledged a `seq` the venue never sent on this connection.
    case ackBeyondSent(GameID, ack: Int, sent: Int?)
    /// The public node asked for a resend beyond what the venue sent on this connection.
    case resendBeyondSent(GameID, from: Int, sent: Int?)
    /// A message that has no meaning in the current state (a second `welcome`, entries before `hello`).
    case unexpectedMessage(String)
    /// The public node reports fewer entries than it once acknowledged (restored from a backup, a failover that
    /// lost writes): the venue resends from `stored + 1`. Reported, not fatal.
    case lostTail(GameID, acked: Int, stored: Int?)
    /// The public node holds more of `game` than the venue (the venue was restored from an older backup):
    /// relaying on would reuse `seq`s with other bytes, so the game's relay stops until an operator decides.
    case publicAheadOfVenue(GameID, stored: Int, head: Int?)
    /// The public node's journal could not store what was received; the venue resends after reconnecting.
    case journalWriteFailed(GameID, reason: String)
    /// A newer connection of the same venue replaced this one (a half-open connection after a venue restart).
    case replaced
    /// The venue's journal reported a `seq` that is not its head plus one (a bug in the caller).
    case appendOutOfOrder(GameID, head: Int?, got: Int)
}
