/// One recorded team move (a team rebound or turnover, a coach's or bench's foul).
public struct TeamAction: Sendable, Hashable {
    /// The sequence of the event that recorded it.
    public let sequence: Int
    /// The period it happened in (1 for untimed games).
    public let period: Int
    /// Game-clock milliseconds run in the period when it happened.
    public let elapsedMs: Int64
    public let team: TeamSide
    public let move: TeamMove
    /// Whether it was undone: it no longer counts.
    public internal(set) var isDeleted = false
}

extension Game {
    /// A move an undo can revert: a play (by number) or a team move (by index in `teamActions`).
    enum Undoable: Sendable, Hashable {
        case play(Int)
        case teamAction(Int)
    }

    /// The sequence of the event that recorded `undoable`.
    func sequence(of undoable: Undoable) -> Int {
        switch undoable {
        case .play(let number): plays[number - 1].sequence
        case .teamAction(let index): teamActions[index].sequence
        }
    }
}
