import CourtsideModel

/// One player's row of the scoreboard editor, as in the tutorial: the name, the five counts as strings, and a
/// button method per move. Owned by its ``GameScoreboardEditorViewModel``, which applies the moves to the game.
public final class PlayerScoreboardMoveEditorViewModel {
    /// The player's stable id (`home-0` … `away-2`).
    public let playerID: PlayerID
    public let playerName: String
    /// The shirt number, when the roster gave one.
    public let number: String?

    public var onePointMoveCount: Dynamic<String> { counts[.onePoint]! }
    public var twoPointMoveCount: Dynamic<String> { counts[.twoPoints]! }
    public var assistMoveCount: Dynamic<String> { counts[.assist]! }
    public var reboundMoveCount: Dynamic<String> { counts[.rebound]! }
    public var foulMoveCount: Dynamic<String> { counts[.foul]! }
    /// The points this player scored (a numeric field the tutorial did not have).
    public var points: Dynamic<Int> { mutablePoints }

    private let counts: [PlayerMove: MutableDynamic<String>]
    private let mutablePoints: MutableDynamic<Int>
    /// The owner; weak because the owner holds this row, and a view may keep a row longer than its game.
    private weak var game: GameScoreboardEditorViewModel?

    init(player: Player, counts moveCounts: MoveCounts, game: GameScoreboardEditorViewModel) {
        self.playerID = player.id
        self.playerName = player.name
        self.number = player.number
        var counts: [PlayerMove: MutableDynamic<String>] = [:]
        for move in PlayerMove.allCases {
            counts[move] = MutableDynamic(String(moveCounts[move]))
        }
        self.counts = counts
        self.mutablePoints = MutableDynamic(moveCounts.points)
        self.game = game
    }

    /// The count label for `move`.
    public func moveCount(_ move: PlayerMove) -> Dynamic<String> {
        counts[move]!
    }

    public func onePointMove() { makeMove(.onePoint) }
    public func twoPointsMove() { makeMove(.twoPoints) }
    public func assistMove() { makeMove(.assist) }
    public func reboundMove() { makeMove(.rebound) }
    public func foulMove() { makeMove(.foul) }

    /// Records `move` for this player now (the owner's clock) and returns the reply; a finished game refuses it.
    @discardableResult
    public func makeMove(_ move: PlayerMove) -> CommandReply? {
        game?.makeMove(move, for: playerID)
    }

    /// Updates the labels from `counts`; returns whether any changed.
    func refresh(from moveCounts: MoveCounts) -> Bool {
        var changed = false
        for move in PlayerMove.allCases {
            changed = counts[move]!.update(String(moveCounts[move])) || changed
        }
        changed = mutablePoints.update(moveCounts.points) || changed
        return changed
    }
}

@available(*, unavailable)
extension PlayerScoreboardMoveEditorViewModel: Sendable {}

extension MutableDynamic where T: Equatable {
    /// Sets the value and says whether it changed (and so whether observers heard of it).
    func update(_ newValue: T) -> Bool {
        guard value != newValue else { return false }
        value = newValue
        return true
    }
}
