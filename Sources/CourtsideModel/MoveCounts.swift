/// How many times one player made each move (moves undone or deleted are not counted).
///
/// JSON shape: an object with one member per move name, e.g. `{"onePoint":1,"twoPoints":0,…}`.
public struct MoveCounts: Sendable, Hashable {
    /// One count per `PlayerMove.allCases`, in that order.
    private var counts = [Int](repeating: 0, count: PlayerMove.allCases.count)

    public init() {}

    /// The tutorial's five counts.
    public var onePoint: Int { self[.onePoint] }
    public var twoPoints: Int { self[.twoPoints] }
    public var assist: Int { self[.assist] }
    public var rebound: Int { self[.rebound] }
    public var foul: Int { self[.foul] }

    /// The count for `move`.
    public subscript(move: PlayerMove) -> Int {
        get { counts[Self.index(move)] }
        set { counts[Self.index(move)] = newValue }
    }

    /// The points these moves scored.
    public var points: Int {
        PlayerMove.allCases.reduce(0) { $0 + self[$1] * $1.points }
    }

    /// The sum of the counts of every move matching `predicate`.
    public func total(where predicate: (PlayerMove) -> Bool) -> Int {
        PlayerMove.allCases.reduce(0) { predicate($1) ? $0 + self[$1] : $0 }
    }

    /// Adds every count of `other` (a team's totals).
    public mutating func add(_ other: MoveCounts) {
        for index in counts.indices { counts[index] += other.counts[index] }
    }

    private static func index(_ move: PlayerMove) -> Int {
        // `allCases` lists every case: the index exists.
        PlayerMove.allCases.firstIndex(of: move)!
    }
}

extension MoveCounts: Codable {
    public init(from decoder: any Decoder) throws {
        let members = try decoder.singleValueContainer().decode([String: Int].self)
        self.init()
        for move in PlayerMove.allCases {
            self[move] = members[move.rawValue] ?? 0
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Dictionary(uniqueKeysWithValues: PlayerMove.allCases.map { ($0.rawValue, self[$0]) }))
    }
}
