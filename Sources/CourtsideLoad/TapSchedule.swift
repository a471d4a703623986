/// When a game's scorer sends each command of a `courtside-load taptoscreen` run, and which move it is: a play
/// every 1–3 s, and now and then a burst as a table crew types it after a made shot (a basket, an assist and a
/// foul within 300 ms). Seeded, so two runs send the same game; `speed` divides every gap, so a short run (CI)
/// plays the same pattern faster.
struct TapSchedule {
    /// One command: its offset from the game's start, in nanoseconds, and the move of a player.
    struct Entry: Equatable {
        var offset: UInt64
        var player: String
        var move: String
    }

    /// Seconds between plays, drawn uniformly: a real scorer's pace (one event every 1–3 s of play).
    static let gapSeconds = 1.0...3.0
    /// One play in this many is a burst of three commands.
    static let burstOneIn: UInt64 = 4
    /// A burst's three commands all fall within this window (the assist and the foul follow the basket).
    static let burstWindowNanoseconds: UInt64 = 300_000_000
    /// Fouls given to one player at most; past it the foul of a burst becomes a block, so no player fouls out
    /// (a disqualified player's moves are refused, `player_not_eligible`, and would not be patches).
    static let foulsPerPlayer = 4

    static let players = ["home-0", "home-1", "home-2", "away-0", "away-1", "away-2"]
    /// Single plays of the custom rules the run's games use (1 and 2 point field goals).
    static let singleMoves = ["rebound", "twoPointsMissed", "steal", "onePoint", "turnover", "onePointMissed"]

    private var random: MaskingKeySource
    private let speed: Double
    private var clock: UInt64
    private var queued: [Entry] = []
    private var fouls = [Int](repeating: 0, count: players.count)

    /// `speed` 1 is the real pace; the first play comes within the first gap, so games do not start in step.
    init(seed: UInt64, speed: Double) {
        random = MaskingKeySource(seed: seed)
        self.speed = speed
        clock = 0
        clock = scaled(seconds: unit() * Self.gapSeconds.upperBound)
    }

    mutating func next() -> Entry {
        if !queued.isEmpty { return queued.removeFirst() }
        let at = clock
        clock += scaled(
            seconds: Self.gapSeconds.lowerBound + unit() * (Self.gapSeconds.upperBound - Self.gapSeconds.lowerBound))
        let scorer = Int(random.next() % UInt64(Self.players.count))
        guard random.next() % Self.burstOneIn == 0 else {
            let move = Self.singleMoves[Int(random.next() % UInt64(Self.singleMoves.count))]
            return Entry(offset: at, player: Self.players[scorer], move: move)
        }
        // The assist from a team mate, then a foul by a player of the other team, both inside the window.
        let window = Double(Self.burstWindowNanoseconds) / 1e9
        let team = scorer / 3 * 3
        let assister = team + (scorer - team + 1 + Int(random.next() % 2)) % 3
        let fouler = (3 - team) + Int(random.next() % 3)
        let assistAt = at + scaled(seconds: window * (0.1 + 0.4 * unit()))
        let foulAt = at + scaled(seconds: window * (0.5 + 0.5 * unit()))
        let foulMove: String
        if fouls[fouler] < Self.foulsPerPlayer {
            fouls[fouler] += 1
            foulMove = "foul"
        } else {
            foulMove = "block"
        }
        queued = [
            Entry(offset: assistAt, player: Self.players[assister], move: "assist"),
            Entry(offset: foulAt, player: Self.players[fouler], move: foulMove),
        ]
        return Entry(offset: at, player: Self.players[scorer], move: "twoPoints")
    }

    /// A uniform draw in 0..<1.
    private mutating func unit() -> Double {
        Double(random.next() >> 11) / Double(UInt64(1) << 53)
    }

    private func scaled(seconds: Double) -> UInt64 {
        UInt64(seconds / speed * 1e9)
    }
}
