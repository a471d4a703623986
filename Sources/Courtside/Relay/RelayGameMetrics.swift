import CourtsideModel
import Synchronization

/// The relay's figures per relayed game on the public node (docs/relay.md, "Metrics"): the venue's highest `seq`
/// this node knows, the highest it stored, the backlog between them, and the time since it last acked. Only games a
/// venue relayed through this node since it started are listed, and a game leaves the list when it is archived,
/// so the label set stays bounded by the live relayed games.
final class RelayGameMetrics: Sendable {
    struct Figures: Sendable, Hashable {
        var venue: String
        var venueSeq: Int
        var storedSeq: Int
        var lastAck: Timestamp?
    }

    private let games = Mutex<[GameID: Figures]>([:])
    private let clock = Mutex<@Sendable () -> Timestamp>(CourtsideApplication.wallClock)

    /// The clock the ack ages are read with (the application's, injected in tests).
    func use(clock: @escaping @Sendable () -> Timestamp) {
        self.clock.withLock { $0 = clock }
    }

    /// What the relay machine holds of `game` now; `acked` when this node has just acked it. `isRetired` is asked
    /// only for a game not listed yet (an archived game is not listed again).
    func update(
        _ game: GameID, venue: String, venueSeq: Int, storedSeq: Int, acked: Bool, isRetired: () -> Bool
    ) {
        let now = acked ? clock.withLock { $0 }() : nil
        let listed = games.withLock { $0[game] != nil }
        if !listed, isRetired() { return }
        games.withLock { games in
            var figures = games[game] ?? Figures(venue: venue, venueSeq: venueSeq, storedSeq: storedSeq)
            figures.venueSeq = venueSeq
            figures.storedSeq = storedSeq
            if let now { figures.lastAck = now }
            games[game] = figures
        }
    }

    /// `game` was archived: its lines go.
    func remove(_ game: GameID) {
        games.withLock { $0[game] = nil }
    }

    /// The figures of `game`, if listed (tests).
    func figures(of game: GameID) -> Figures? {
        games.withLock { $0[game] }
    }

    func lines() -> [String] {
        let all = games.withLock { $0 }.sorted { $0.key < $1.key }
        guard !all.isEmpty else { return [] }
        let now = clock.withLock { $0 }()
        var lines: [String] = []
        func family(_ name: String, _ help: String, _ value: (Figures) -> String?) {
            lines.append("# HELP \(name) \(help)")
            lines.append("# TYPE \(name) gauge")
            for (game, figures) in all {
                guard let value = value(figures) else { continue }
                lines.append("\(name){game=\"\(game.rawValue)\",venue=\"\(figures.venue)\"} \(value)")
            }
        }
        family("courtside_relay_venue_seq", "The venue's highest seq of a relayed game this node knows.") {
            "\($0.venueSeq)"
        }
        family("courtside_relay_stored_seq", "The highest seq of a relayed game this node stored and acked.") {
            "\($0.storedSeq)"
        }
        family("courtside_relay_backlog", "Entries of a relayed game the venue holds and this node does not yet.") {
            "\(max(0, $0.venueSeq - $0.storedSeq))"
        }
        family("courtside_relay_seconds_since_ack", "Seconds since this node last acked a relayed game.") {
            figures in
            figures.lastAck.map { "\(Double(max(0, now.milliseconds(since: $0))) / 1000)" }
        }
        return lines
    }
}
