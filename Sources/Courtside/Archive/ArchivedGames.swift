import CourtsideModel
import CourtsideViewModels
import Synchronization

/// The archived games' lobby lines, in the order they were archived (`--archive-after`): what
/// `GET /api/games?status=archived` lists. Archived games take no commands, so a line never changes once here.
final class ArchivedGames: Sendable {
    private let summaries = Mutex<[GameSummary]>([])

    func add(_ summary: GameSummary) {
        summaries.withLock { list in
            if !list.contains(where: { $0.id == summary.id }) { list.append(summary) }
        }
    }

    /// Whether `id` is archived (a linear scan: for rare questions, such as a relayed game seen again).
    func contains(_ id: GameID) -> Bool {
        summaries.withLock { list in list.contains { $0.id == id } }
    }

    /// `[GAME,…]` with `"status":"archived"`.
    func rowsJSON() -> [JSONValue] {
        summaries.withLock { $0 }.enumerated().map { order, summary in
            LobbyPresenter.archivedRowJSON(summary, order: order)
        }
    }
}
