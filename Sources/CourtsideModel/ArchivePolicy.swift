/// When a finished game goes to the archive (`--archive-after`): `afterMs` after it finished, that is after its last
/// event (the winning move, the time limit or the scorer's "final"), on the caller's clock.
public struct ArchivePolicy: Sendable, Hashable {
    public let afterMs: Int64

    public init(afterMs: Int64) {
        self.afterMs = afterMs
    }

    /// When `game` finished (won, or confirmed final by a scorer), or nil while it is being played.
    public static func finishedAt(_ game: Game) -> Timestamp? {
        guard game.isFinished || game.isLocked else { return nil }
        return game.events.last?.at
    }

    /// Whether `game` should be archived at `now`.
    public func isDue(_ game: Game, now: Timestamp) -> Bool {
        guard let finished = Self.finishedAt(game) else { return false }
        return now.milliseconds(since: finished) >= afterMs
    }
}
