import CourtsideBytes
import CourtsideModel

/// A game's presentation document (STATE in docs/protocol.md) at one `seq`, as a value, with the frame it shows.
///
/// The next document is a pure function of this one and a batch (``next(_:)``): the fields the batch's frame changed
/// are written in one fixed order (the order the view model's `Dynamic`s take their values in, so a page bound to
/// them and a spectator of the patches see the same steps), then the document is diffed under the written paths
/// only and the operations become one patch message, encoded once. The initial document is made by the same
/// writes (over no previous frame), so a snapshot and the patches cannot disagree about a field.
public struct GameDocumentState: Sendable {
    /// The sequence number of ``document``: the revision of the latest batch shown.
    public let seq: Int
    /// The document as of ``seq``.
    public let document: JSONValue
    /// What ``document`` shows.
    public let frame: GameFrame
    private let players: [PlayerSlot]
    private let encoder: PatchMessageEncoder

    /// One player's place in the document: `/homePlayers/<index>` or `/awayPlayers/<index>`.
    private struct PlayerSlot: Sendable {
        let id: PlayerID
        let path: JSONPointer
    }

    /// The document of `viewModel` as it shows now, numbered by its revision.
    public init(of viewModel: GameScoreboardEditorViewModel) {
        let stream = DocumentStream.game(id: viewModel.gameID.rawValue)
        let players =
            viewModel.homePlayers.enumerated().map {
                PlayerSlot(id: $1.playerID, path: JSONPointer(tokens: ["homePlayers", String($0)]))
            }
            + viewModel.awayPlayers.enumerated().map {
                PlayerSlot(id: $1.playerID, path: JSONPointer(tokens: ["awayPlayers", String($0)]))
            }
        var draft = DocumentDraft(published: GameDocument.skeleton(of: viewModel))
        Self.write(viewModel.frame, over: nil, plays: viewModel.plays, players: players, into: &draft)
        _ = draft.commit()
        self.init(
            seq: viewModel.revision.value, document: draft.published, frame: viewModel.frame, players: players,
            encoder: PatchMessageEncoder(stream: stream))
    }

    private init(
        seq: Int, document: JSONValue, frame: GameFrame, players: [PlayerSlot], encoder: PatchMessageEncoder
    ) {
        self.seq = seq
        self.document = document
        self.frame = frame
        self.players = players
        self.encoder = encoder
    }

    /// The document after `batch` and the patch message from this one to it, numbered by the batch's revision and
    /// dated (`"at"`) by its instant; nil when the batch is not newer than this document (it changed nothing shown,
    /// or was shown already). Pure: the same state and batch give the same bytes on every node.
    public func next(_ batch: ScoreboardBatch) -> (state: GameDocumentState, patch: EncodedMessage)? {
        guard batch.revision > seq else { return nil }
        var draft = DocumentDraft(published: document)
        Self.write(batch.frame, over: frame, plays: batch.changedPlays, players: players, into: &draft)
        // The view models number only batches that changed a value shown, so the operations are never empty in
        // practice; if they were, the message would still go out to keep the numbering gapless.
        let operations = draft.commit()
        let bytes = encoder.encode(
            seq: batch.revision, at: Int(batch.instant.milliseconds), operations: operations)
        let state = GameDocumentState(
            seq: batch.revision, document: draft.published, frame: batch.frame, players: players, encoder: encoder)
        return (state, EncodedMessage(kind: .patch, seq: batch.revision, bytes: bytes))
    }

    /// Writes the members of `frame` that differ from `previous` (all of them without one), then `plays` at their
    /// indexes (a new one appends): a long game's play-by-play costs one write per play a batch touched.
    private static func write(
        _ frame: GameFrame, over previous: GameFrame?, plays: [PlayRow], players: [PlayerSlot],
        into draft: inout DocumentDraft
    ) {
        func set(_ value: JSONValue?, at path: JSONPointer) {
            guard draft.set(value, at: path) else {
                // The writes only reach paths of the skeleton; a miss is a presenter bug.
                preconditionFailure("Invalid state: no parent for \(path) in a game document")
            }
        }
        func changed<T: Equatable>(_ field: KeyPath<GameFrame, T>) -> Bool {
            previous.map { $0[keyPath: field] != frame[keyPath: field] } ?? true
        }
        if changed(\.time) { set(.string(frame.time), at: GameDocument.time) }
        if changed(\.score) { set(.string(frame.score), at: GameDocument.score) }
        if changed(\.homeScore) { set(.int(frame.homeScore), at: GameDocument.homeScore) }
        if changed(\.awayScore) { set(.int(frame.awayScore), at: GameDocument.awayScore) }
        if changed(\.isFinished) { set(.bool(frame.isFinished), at: GameDocument.isFinished) }
        if changed(\.isPaused) { set(.bool(frame.isPaused), at: GameDocument.isPaused) }
        if changed(\.winner) { set(frame.winner.map { .string($0.rawValue) } ?? .null, at: GameDocument.winner) }
        if changed(\.clock) { set(GameDocument.clockJSON(frame.clock), at: GameDocument.clock) }
        if changed(\.status) {
            let status = frame.status
            for (key, value) in GameDocument.statusMembers(status) { set(value, at: JSONPointer(tokens: [key])) }
            // Present only while true, so a game that never has a review keeps the document it always had.
            set(status.isUnderReview ? .bool(true) : nil, at: JSONPointer(tokens: ["underReview"]))
            for player in players {
                set(status.onCourt?[player.id].map { .bool($0) } ?? .null, at: player.path.appending("onCourt"))
            }
        }
        if changed(\.stats) {
            let stats = frame.stats
            for player in players {
                guard let line = stats.players[player.id] else { continue }
                set(GameDocument.statsJSON(line), at: player.path.appending("stats"))
                set(.int(Int(line.playedMs)), at: player.path.appending("playedMs"))
            }
            set(GameDocument.teamStatsJSON(stats.teams.home), at: GameDocument.homeStats)
            set(GameDocument.teamStatsJSON(stats.teams.away), at: GameDocument.awayStats)
            set(GameDocument.periodScoresJSON(stats.periodScores), at: GameDocument.periodScores)
        }
        for row in plays { set(GameDocument.playJSON(row), at: GameDocument.plays.appending(row.play.number - 1)) }
        for (index, player) in players.enumerated() {
            let counts = frame.moveCounts[index]
            guard previous.map({ $0.moveCounts[index] != counts }) ?? true else { continue }
            for (field, move) in GameDocument.countFields {
                set(.string(String(counts[move])), at: player.path.appending(field))
            }
            set(.int(counts.points), at: player.path.appending("points"))
        }
        // Last, as the view model shows them: a resolution first recounts the plays, then clears its conflict.
        if let conflicts = frame.conflicts, changed(\.conflicts) {
            set(.array(conflicts.map(GameDocument.conflictJSON)), at: GameDocument.conflicts)
        }
    }
}
