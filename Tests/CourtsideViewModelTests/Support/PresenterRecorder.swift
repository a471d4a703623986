import CourtsideBytes
import CourtsideModel
import CourtsideViewModels

/// Drives a game presenter as the owner does (every change through its `apply…` methods) and keeps the patches it
/// returns, in order: the tests' stand-in for the broadcaster.
final class PresenterRecorder {
    let presenter: GamePresenter
    private(set) var messages: [EncodedMessage] = []

    init(_ presenter: GamePresenter) {
        self.presenter = presenter
    }

    /// Applies `command` at `now` and returns its reply.
    @discardableResult
    func handle(_ command: GameCommand, by member: CrewMemberID? = nil, now: Timestamp) -> CommandReply {
        reply(record(presenter.apply(command, by: member, now: now)))
    }

    /// Decodes and applies a scorer's command at `now` and returns its reply.
    @discardableResult
    func handle(commandBytes bytes: some Collection<UInt8>, now: Timestamp) -> CommandReply {
        reply(record(presenter.apply(commandBytes: bytes, now: now)))
    }

    /// Lets time pass up to `now`.
    func tick(now: Timestamp) {
        record(presenter.applyTick(now: now))
    }

    /// Applies a stored batch numbered `revision`.
    func applyStored(_ events: [GameEvent], revision: Int) throws(GameReplayError) {
        record(try presenter.applyStored(events, revision: revision))
    }

    /// Records a change that is not a command (a crew change), acknowledged as `acknowledging`; throws what the
    /// change threw.
    @discardableResult
    func record(
        now: Timestamp, acknowledging replyID: (GameEvent) -> CommandID,
        _ change: (inout Game) throws(GameError) -> CommandOutcome
    ) throws(GameError) -> CommandReply {
        var failure: GameError?
        let effects = presenter.applyChange(now: now, acknowledging: replyID) { (game: inout Game) throws(GameError) in
            do throws(GameError) { return try change(&game) } catch {
                failure = error
                throw error
            }
        }
        if let failure { throw failure }
        return reply(record(effects))
    }

    /// Reopens a game confirmed final.
    func reopen(now: Timestamp) throws(GameError) {
        let reopen = { (game: inout Game) throws(GameError) in
            let event = try game.reopen(at: now)
            return CommandOutcome(event: event, newEvents: [event])
        }
        try record(now: now, acknowledging: { _ in "#reopen" }, reopen)
    }

    @discardableResult
    private func record(_ effects: GameEffects) -> GameEffects {
        if let patch = effects.patch { messages.append(patch) }
        return effects
    }

    private func reply(_ effects: GameEffects) -> CommandReply {
        guard let reply = effects.reply else { preconditionFailure("Invalid state: a command without an answer") }
        return reply
    }
}

extension PresenterRecorder {
    /// The operations of the latest patch.
    func lastOps() throws -> [JSONValue] {
        guard let last = messages.last else { return [] }
        return try JSONValue(parsing: last.bytes)["ops"]?.arrayValue ?? []
    }
}
