import CourtsideBytes
import CourtsideModel

/// Keeps the lobby document (LOBBY in docs/protocol.md) up to date from a ``GameListViewModel``, with the same
/// machinery as ``GamePresenter``: one batch of the list is one `lobbyPatch` message numbered by its revision.
///
/// The document keys games by id (`{"games":{"game-1":{…}}}`), so a new game is one `add`, an archived one one
/// `remove`, and a score change a few `replace`s inside one game, whatever the list's order.
public final class LobbyPresenter {
    public let viewModel: GameListViewModel
    /// The latest patch message (nil until the first); bind to it to broadcast each one.
    public var latestPatch: Dynamic<EncodedMessage?> { mutableLatestPatch }

    private let publisher: DocumentPublisher
    private let mutableLatestPatch = MutableDynamic<EncodedMessage?>(nil)
    private let bindings = DynamicBindingBag()
    private static let gamesPath = JSONPointer(tokens: ["games"])

    public init(viewModel: GameListViewModel) {
        self.viewModel = viewModel
        self.publisher = DocumentPublisher(stream: .lobby, document: ["games": [:]], seq: viewModel.revision.value)
        publisher.set(Self.gamesJSON(viewModel.games.value), at: Self.gamesPath)
        publisher.adoptLiveDocument()
        // One row per batch: a score change in a lobby of a thousand games touches one game's JSON, not all of them.
        viewModel.lastChange.bind { [unowned self] change in
            switch change {
            case .upserted(let entry):
                publisher.set(Self.rowJSON(entry), at: Self.gamesPath.appending(entry.summary.id.rawValue))
            case .removed(let id):
                publisher.set(nil, at: Self.gamesPath.appending(id.rawValue))
            case nil:
                break
            }
        }.store(in: bindings)
        viewModel.revision.bind { [unowned self] revision in
            mutableLatestPatch.value = publisher.commit(seq: revision)
        }.store(in: bindings)
    }

    public var seq: Int { publisher.seq }
    public var document: JSONValue { publisher.published }

    /// A `lobbySnapshot` message of the published document, encoded once per `seq`.
    public func snapshot() -> EncodedMessage {
        publisher.snapshot()
    }

    /// Stops observing the list.
    public func detach() {
        bindings.removeAll()
    }

    static func gamesJSON(_ entries: [GameListViewModel.Entry]) -> JSONValue {
        var games: [String: JSONValue] = [:]
        for entry in entries {
            games[entry.summary.id.rawValue] = rowJSON(entry)
        }
        return .object(games)
    }

    /// An archived game's line (`GET /api/games?status=archived`): GAME with `"status":"archived"`, no viewers.
    public static func archivedRowJSON(_ summary: GameSummary, order: Int) -> JSONValue {
        var members = rowJSON(GameListViewModel.Entry(summary: summary, order: order)).objectValue ?? [:]
        members["status"] = "archived"
        return .object(members)
    }

    static func rowJSON(_ entry: GameListViewModel.Entry) -> JSONValue {
        let summary = entry.summary
        let row: JSONValue = [
            "id": .string(summary.id.rawValue), "order": .int(entry.order),
            "homeTeam": .string(summary.homeTeam), "awayTeam": .string(summary.awayTeam),
            "homeColor": .string(summary.homeColor), "awayColor": .string(summary.awayColor),
            "homeShort": .string(summary.homeShort), "awayShort": .string(summary.awayShort),
            "score": .string(summary.score), "homeScore": .int(summary.homeScore),
            "awayScore": .int(summary.awayScore), "isFinished": .bool(summary.isFinished),
            "isLive": .bool(summary.isLive), "winner": summary.winner.map { .string($0.rawValue) } ?? .null,
            "viewers": .int(entry.viewers), "status": .string(summary.isFinished ? "final" : "live"),
        ]
        // Only a relayed game's row names its venue, so the rows of a node without venues are unchanged.
        guard let venue = summary.venue, var members = row.objectValue else { return row }
        members["venue"] = .string(venue)
        return .object(members)
    }
}

@available(*, unavailable)
extension LobbyPresenter: Sendable {}
