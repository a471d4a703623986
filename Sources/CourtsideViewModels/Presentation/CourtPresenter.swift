import CourtsideBytes
import CourtsideModel

/// Keeps one court's document (COURT in docs/protocol.md) and turns each new value of the court into one
/// `courtPatch`, with the same machinery as the game and lobby presenters: a page on `display.html?court=ID`
/// follows the court's `game` and shows its queue without a reload.
///
/// Loop-confined.
public final class CourtPresenter {
    public private(set) var court: Court
    private let publisher: DocumentPublisher
    private let clock: () -> Timestamp
    private static let members = ["name", "game", "next", "queue", "streak", "joining"]

    /// A presenter of `court` numbered from `seq`; `clock` dates the patches (`at`, Unix milliseconds).
    public init(court: Court, seq: Int = 0, clock: @escaping () -> Timestamp) {
        self.court = court
        self.clock = clock
        publisher = DocumentPublisher(stream: .court(id: court.id.rawValue), document: Self.json(court), seq: seq)
    }

    public var seq: Int { publisher.seq }
    public var document: JSONValue { publisher.published }

    /// A `courtSnapshot` message, encoded once per `seq`.
    public func snapshot() -> EncodedMessage {
        publisher.snapshot()
    }

    /// Shows `court` (the same court, changed): one patch message, or nil when nothing a page shows changed.
    public func update(_ court: Court) -> EncodedMessage? {
        precondition(
            court.id == self.court.id, "Invalid state: court \(court.id) given to \(self.court.id)'s presenter")
        self.court = court
        let document = Self.json(court)
        for member in Self.members {
            publisher.set(document[member] ?? .null, at: JSONPointer(tokens: [member]))
        }
        guard !publisher.pendingOperations().isEmpty else {
            publisher.adoptLiveDocument()
            return nil
        }
        return publisher.commit(seq: publisher.seq + 1, at: clock())
    }

    /// COURT: `{"id","name","game","next","queue","streak","joining"}`. Never the display key's digest: the document
    /// is public, and the join code is derived from it.
    public static func json(_ court: Court) -> JSONValue {
        [
            "id": .string(court.id.rawValue), "name": .string(court.name), "joining": .string(court.joining.rawValue),
            "game": court.game.map { .string($0.rawValue) } ?? .null,
            "next": court.queue.first.map(teamJSON) ?? .null,
            "queue": .array(court.queue.map(teamJSON)),
            "streak": court.streak.map { streak in
                ["team": teamJSON(streak.team), "wins": .int(streak.wins)]
            } ?? .null,
        ]
    }

    /// `{"name","players"}`.
    static func teamJSON(_ team: QueuedTeam) -> JSONValue {
        ["name": .string(team.name), "players": .array(team.players.map { .string($0) })]
    }
}

@available(*, unavailable)
extension CourtPresenter: Sendable {}
