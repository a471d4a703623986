/// What a team did with no player to credit: the raw values are the wire's `teamMove` names.
///
/// Team rebounds and team turnovers are the FIBA box score's team line (a ball out of bounds, a shot-clock
/// violation). Coach and bench technical fouls and a coach's disqualifying foul are charged to the head coach
/// (FIBA art. 36 and 38; the score sheet's "C", "B" and "D"); they are not team fouls (art. 41.1.1 counts the
/// players' fouls only).
public enum TeamMove: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case rebound
    case offensiveRebound
    case defensiveRebound
    case turnover
    case coachTechnical
    case benchTechnical
    case coachDisqualifying

    /// Whether the move is charged to the head coach.
    public var isCoachFoul: Bool {
        switch self {
        case .coachTechnical, .benchTechnical, .coachDisqualifying: return true
        case .rebound, .offensiveRebound, .defensiveRebound, .turnover: return false
        }
    }

    /// Whether the move is a team rebound of any kind.
    public var isRebound: Bool {
        self == .rebound || self == .offensiveRebound || self == .defensiveRebound
    }

    public var description: String { rawValue }
}

/// How many times one team made each team move (moves undone are not counted).
public struct TeamMoveCounts: Sendable, Hashable {
    private var counts = [Int](repeating: 0, count: TeamMove.allCases.count)

    public init() {}

    /// The count for `move`.
    public subscript(move: TeamMove) -> Int {
        get { counts[Self.index(move)] }
        set { counts[Self.index(move)] = newValue }
    }

    /// Team rebounds of every kind.
    public var rebounds: Int { self[.rebound] + self[.offensiveRebound] + self[.defensiveRebound] }

    private static func index(_ move: TeamMove) -> Int {
        // `allCases` lists every case: the index exists.
        TeamMove.allCases.firstIndex(of: move)!
    }
}
