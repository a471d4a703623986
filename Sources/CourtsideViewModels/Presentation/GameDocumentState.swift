import CourtsideBytes
import CourtsideModel

/// A game's presentation document (STATE in docs/protocol.md) at one `seq`, as a value, with the frame it shows.
///
/// The next document is a pure function of this one and a batch (``next(_:)``): the fields the batch's frame changed
/// are written in one fixed order (the order the view model's `Dynamic`s take their values in, so a page bound to
/// them and a spectator of the patches see the same steps), each diffed against the value it replaces, and the
/// operations become one patch message, encoded once. The whole document (``document``) is made by the same writes
/// over no previous frame, so a snapshot and the patches cannot disagree about a field.
///
/// **Held compact.** Every field of the document is a function of one member of the frame it shows (or of one play
/// row), and a batch rewrites every field whose member changed; so the document is exactly the writes of its frame
/// and its play rows over the skeleton, and the state keeps only those (the frame and rows are the view model's own
/// values, shared) instead of a tree of dictionaries: a game nobody reads costs no document in memory
/// (docs/benchmarks.md, "Memory at league scale"). The value a write replaces is the same function of the previous
/// frame, so the operations are those a diff of the two whole documents under the written paths would give.
public struct GameDocumentState: Sendable {
    /// The sequence number of ``document``: the revision of the latest batch shown.
    public let seq: Int
    /// What ``document`` shows.
    public let frame: GameFrame
    /// The play-by-play as the document shows it: row `i` is `/plays/i`.
    private let plays: [PlayRow]
    private let layout: Layout

    /// What never changes in a game's document: the skeleton's sources, the players' places, the patch envelope.
    private struct Layout: Sendable {
        let id: GameID
        let home: Team
        let away: Team
        let rules: Rules
        let players: [PlayerSlot]
        let encoder: PatchMessageEncoder
    }

    /// One player's place in the document: `/homePlayers/<index>` or `/awayPlayers/<index>`.
    private struct PlayerSlot: Sendable {
        let id: PlayerID
        let path: JSONPointer
    }

    /// One write of a batch: the value at `path` before (nil: absent) and after (nil: removed).
    private struct Write {
        let path: JSONPointer
        let old: JSONValue?
        var new: JSONValue?
    }

    /// The document of `viewModel` as it shows now, numbered by its revision.
    public init(of viewModel: GameScoreboardEditorViewModel) {
        let game = viewModel.game
        func slots(_ team: Team, _ member: String) -> [PlayerSlot] {
            team.players.enumerated().map { PlayerSlot(id: $1.id, path: JSONPointer(tokens: [member, String($0)])) }
        }
        let layout = Layout(
            id: viewModel.gameID, home: game.homeTeam, away: game.awayTeam, rules: viewModel.rules,
            players: slots(game.homeTeam, "homePlayers") + slots(game.awayTeam, "awayPlayers"),
            encoder: PatchMessageEncoder(stream: DocumentStream.game(id: viewModel.gameID.rawValue)))
        self.init(seq: viewModel.revisionNumber, frame: viewModel.frame, plays: viewModel.plays, layout: layout)
    }

    private init(seq: Int, frame: GameFrame, plays: [PlayRow], layout: Layout) {
        self.seq = seq
        self.frame = frame
        self.plays = plays
        self.layout = layout
    }

    /// The document as of ``seq``, made on each call (a snapshot is encoded once per `seq` by its presenter).
    public var document: JSONValue {
        var document = GameDocument.skeleton(
            id: layout.id, home: layout.home, away: layout.away, rules: layout.rules)
        Self.writes(frame, over: nil, plays: plays, shown: [], players: layout.players) { write in
            guard document.setValue(write.new, at: write.path) else {
                // The writes only reach paths of the skeleton; a miss is a presenter bug.
                preconditionFailure("Invalid state: no parent for \(write.path) in a game document")
            }
        }
        return document
    }

    /// The document after `batch` and the patch message from this one to it, numbered by the batch's revision and
    /// dated (`"at"`) by its instant; nil when the batch is not newer than this document (it changed nothing shown,
    /// or was shown already). Pure: the same state and batch give the same bytes on every node.
    public func next(_ batch: ScoreboardBatch) -> (state: GameDocumentState, patch: EncodedMessage)? {
        guard batch.revision > seq else { return nil }
        // A path written twice in a batch (a play added, then changed) is one write at its first place, from the
        // value before the batch to the last one written.
        var writes: [Write] = []
        var playWrites: [JSONPointer: Int] = [:]
        Self.writes(batch.frame, over: frame, plays: batch.changedPlays, shown: plays, players: layout.players) {
            write in
            if write.path.tokens.first == GameDocument.plays.tokens[0] {
                if let index = playWrites[write.path] {
                    writes[index].new = write.new
                    return
                }
                playWrites[write.path] = writes.count
            }
            writes.append(write)
        }
        // The view models number only batches that changed a value shown, so the operations are never empty in
        // practice; if they were, the message would still go out to keep the numbering gapless.
        let operations = writes.flatMap { JSONDiff.operations(from: $0.old, to: $0.new, at: $0.path) }
        let bytes = layout.encoder.encode(
            seq: batch.revision, at: Int(batch.instant.milliseconds), operations: operations)
        var plays = self.plays
        for row in batch.changedPlays {
            let index = row.play.number - 1
            if index < plays.count {
                plays[index] = row
            } else {
                // A play is added at the play-by-play's end (RFC 6902 §4.1: `add` at the array's length).
                precondition(index == plays.count, "Invalid state: play \(row.play.number) after \(plays.count)")
                plays.append(row)
            }
        }
        let state = GameDocumentState(seq: batch.revision, frame: batch.frame, plays: plays, layout: layout)
        return (state, EncodedMessage(kind: .patch, seq: batch.revision, bytes: bytes))
    }

    /// The writes that take the document of `previous` (and its `shown` play rows) to the document of `frame`: the
    /// members of `frame` that differ from `previous` (all of them without one), then `plays` at their indexes (a
    /// new one appends), in the order the view model's `Dynamic`s take their values. A long game's play-by-play
    /// costs one write per play a batch touched; a player's statistics line that did not change costs none (its
    /// write would make no operation).
    private static func writes(
        _ frame: GameFrame, over previous: GameFrame?, plays: [PlayRow], shown: [PlayRow], players: [PlayerSlot],
        _ write: (Write) -> Void
    ) {
        func set(_ path: JSONPointer, _ value: (GameFrame) -> JSONValue?) {
            write(Write(path: path, old: previous.flatMap(value), new: value(frame)))
        }
        func changed<T: Equatable>(_ field: KeyPath<GameFrame, T>) -> Bool {
            previous.map { $0[keyPath: field] != frame[keyPath: field] } ?? true
        }
        if changed(\.time) { set(GameDocument.time) { .string($0.time) } }
        if changed(\.score) { set(GameDocument.score) { .string($0.score) } }
        if changed(\.homeScore) { set(GameDocument.homeScore) { .int($0.homeScore) } }
        if changed(\.awayScore) { set(GameDocument.awayScore) { .int($0.awayScore) } }
        if changed(\.isFinished) { set(GameDocument.isFinished) { .bool($0.isFinished) } }
        if changed(\.isPaused) { set(GameDocument.isPaused) { .bool($0.isPaused) } }
        if changed(\.winner) { set(GameDocument.winner) { $0.winner.map { .string($0.rawValue) } ?? .null } }
        if changed(\.clock) { set(GameDocument.clock) { GameDocument.clockJSON($0.clock) } }
        if changed(\.status) {
            let old = previous.map { GameDocument.statusMembers($0.status) }
            for (index, (key, value)) in GameDocument.statusMembers(frame.status).enumerated() {
                write(Write(path: JSONPointer(tokens: [key]), old: old?[index].1, new: value))
            }
            // Present only while true, so a game that never has a review keeps the document it always had.
            set(JSONPointer(tokens: ["underReview"])) { $0.status.isUnderReview ? .bool(true) : JSONValue?.none }
            for player in players {
                set(player.path.appending("onCourt")) { $0.status.onCourt?[player.id].map { .bool($0) } ?? .null }
            }
        }
        if changed(\.stats) {
            for player in players {
                guard let line = frame.stats.players[player.id] else { continue }
                let old = previous?.stats.players[player.id]
                guard old != line else { continue }
                write(
                    Write(
                        path: player.path.appending("stats"), old: old.map(GameDocument.statsJSON),
                        new: GameDocument.statsJSON(line)))
                write(
                    Write(
                        path: player.path.appending("playedMs"), old: old.map { .int(Int($0.playedMs)) },
                        new: .int(Int(line.playedMs))))
            }
            set(GameDocument.homeStats) { GameDocument.teamStatsJSON($0.stats.teams.home) }
            set(GameDocument.awayStats) { GameDocument.teamStatsJSON($0.stats.teams.away) }
            set(GameDocument.periodScores) { GameDocument.periodScoresJSON($0.stats.periodScores) }
        }
        for row in plays {
            let index = row.play.number - 1
            // `.none`, not `nil`: a `nil` literal here would be `JSONValue.null` (the type takes nil literals).
            let old = shown.indices.contains(index) ? GameDocument.playJSON(shown[index]) : JSONValue?.none
            write(Write(path: GameDocument.plays.appending(index), old: old, new: GameDocument.playJSON(row)))
        }
        for (index, player) in players.enumerated() {
            let counts = frame.moveCounts[index]
            let old = previous?.moveCounts[index]
            guard old != counts else { continue }
            for (field, move) in GameDocument.countFields {
                write(
                    Write(
                        path: player.path.appending(field), old: old.map { .string(String($0[move])) },
                        new: .string(String(counts[move]))))
            }
            write(
                Write(path: player.path.appending("points"), old: old.map { .int($0.points) }, new: .int(counts.points))
            )
        }
        // Last, as the view model shows them: a resolution first recounts the plays, then clears its conflict.
        if frame.conflicts != nil, changed(\.conflicts) {
            set(GameDocument.conflicts) { $0.conflicts.map { .array($0.map(GameDocument.conflictJSON)) } }
        }
    }
}
