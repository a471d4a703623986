import CourtsideModel

/// Decides which viewer counts go out (docs/protocol.md): a counted figure per game, sent at most once per tick (the
/// server ticks every 5 s), never per join or leave. A game's figure goes out when it changed since it was last
/// announced, and again every `refreshTicks` ticks while anyone watches, so a page that joined between two
/// unchanged counts learns the figure soon. A value type: the server feeds it the counts and performs the sends.
public struct ViewerAnnouncements: Sendable {
    /// Ticks between two announcements of an unchanged figure (6 × 5 s: half a minute).
    public var refreshTicks: Int
    private var announced: [GameID: (count: Int, tick: Int)] = [:]
    private var tick = 0

    public init(refreshTicks: Int = 6) {
        self.refreshTicks = refreshTicks
    }

    /// The figures to announce now, given every game's open spectator connections (games absent have none).
    public mutating func tick(counts: [GameID: Int]) -> [(game: GameID, viewers: Int)] {
        tick += 1
        var due: [(game: GameID, viewers: Int)] = []
        for id in Set(counts.keys).union(announced.keys).sorted() {
            let count = counts[id] ?? 0
            let last = announced[id]
            let stale = last.map { count > 0 && tick - $0.tick >= refreshTicks } ?? false
            guard last?.count != count || stale else { continue }
            due.append((id, count))
            announced[id] = count == 0 ? nil : (count, tick)
        }
        return due
    }

    /// `{"v":1,"type":"viewers","game":ID,"viewers":N}`: not a patch (no `seq`), so it never touches the document;
    /// encoded once per game and tick, and sent to the game's spectators.
    public static func message(game: GameID, viewers: Int) -> [UInt8] {
        JSONValue.object([
            "v": .int(WireFormat.version), "type": "viewers", "game": .string(game.rawValue), "viewers": .int(viewers),
        ]).canonicalBytes
    }
}
