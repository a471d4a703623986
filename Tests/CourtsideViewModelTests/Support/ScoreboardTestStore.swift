import CourtsideBytes
import CourtsideModel
import CourtsideViewModels
import Testing

/// An exhaustive harness for the scoreboard view model (the idea of TCA's TestStore, in a few lines): each step
/// states the reply and *every* document change it must cause; a change the step did not state fails the test, with
/// a diff of expected and actual changes. The changes are read from the presenter's patch, so the harness also
/// checks that a step makes exactly one message (or none when nothing changes).
///
/// The statistics (each player's `stats` and `playedMs`, `homeStats`, `awayStats`, `periodScores`) change with
/// almost every move; a store made with `includesStatistics: false` leaves them out of its comparison so that a
/// trace about the clock or the score states only those, and the statistics are traced exhaustively by their own
/// stores (StatisticsTraceTests).
final class ScoreboardTestStore {
    let viewModel: GameScoreboardEditorViewModel
    let presenter: GamePresenter
    private let recorder: PresenterRecorder
    let start = Timestamp(milliseconds: 1_000_000)
    let includesStatistics: Bool
    private var patches: [EncodedMessage] { recorder.messages }

    init(rules: Rules = .pickup, setup: GameSetup? = nil, includesStatistics: Bool = false) {
        self.includesStatistics = includesStatistics
        let start = self.start
        viewModel = GameScoreboardEditorViewModel(
            game: Game(setup: setup ?? Fixtures.setup(rules: rules)), now: start, clock: { start })
        presenter = GamePresenter(viewModel: viewModel)
        recorder = PresenterRecorder(presenter)
    }

    /// The PLAY a move makes (docs/protocol.md), for the `add` of `/plays/<number - 1>`.
    func play(
        _ number: Int, seq: Int, at ms: Int64, elapsedMs: Int64, player: String, move: PlayerMove,
        period: Int? = nil
    ) -> JSONValue {
        [
            "play": .int(number), "seq": .int(seq), "period": period.map { .int($0) } ?? .null,
            "elapsedMs": .int(Int(elapsedMs)), "at": .int(Int(start.milliseconds + ms)),
            "team": .string(String(player.prefix { $0 != "-" })), "player": .string(player),
            "move": .string(move.rawValue), "edited": false, "deleted": false,
        ]
    }

    /// Sends `command` at `ms` after the start and checks the reply and every change.
    func send(
        _ command: GameCommand, at ms: Int64, reply: CommandReply, changes: [String: JSONValue],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let before = patches.count
        let actualReply = recorder.handle(command, now: start.advanced(byMilliseconds: ms))
        #expect(actualReply == reply, sourceLocation: sourceLocation)
        expectChanges(changes, since: before, sourceLocation: sourceLocation)
    }

    /// Ticks at `ms` after the start and checks every change.
    func tick(at ms: Int64, changes: [String: JSONValue], sourceLocation: SourceLocation = #_sourceLocation) {
        let before = patches.count
        recorder.tick(now: start.advanced(byMilliseconds: ms))
        expectChanges(changes, since: before, sourceLocation: sourceLocation)
    }

    /// Whether `path` is in the statistics (see the type's documentation).
    static func isStatistic(_ path: String) -> Bool {
        let tokens = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard let first = tokens.first else { return false }
        if ["homeStats", "awayStats", "periodScores"].contains(first) { return true }
        return (first == "homePlayers" || first == "awayPlayers") && tokens.count >= 3
            && ["stats", "playedMs"].contains(tokens.dropFirst(2).first!)
    }

    private func expectChanges(_ expected: [String: JSONValue], since before: Int, sourceLocation: SourceLocation) {
        let new = patches[before...]
        guard !expected.isEmpty else {
            #expect(new.isEmpty, "unexpected message: \(new.map(\.text))", sourceLocation: sourceLocation)
            return
        }
        guard new.count == 1, let patch = new.first else {
            Issue.record("expected one message, got \(new.count)", sourceLocation: sourceLocation)
            return
        }
        #expect(patch.seq == presenter.seq && patch.seq == viewModel.revision.value, sourceLocation: sourceLocation)
        var actual: [String: JSONValue] = [:]
        for op in (try? JSONValue(parsing: patch.bytes))?["ops"]?.arrayValue ?? [] {
            // A new play is an `add` at the end of /plays; everything else is replaced in place.
            guard op["op"] == "replace" || op["op"] == "add", let path = op["path"]?.stringValue,
                let value = op["value"]
            else {
                Issue.record("unexpected operation \(op)", sourceLocation: sourceLocation)
                continue
            }
            if includesStatistics || !Self.isStatistic(path) { actual[path] = value }
        }
        if actual != expected {
            let keys = Set(actual.keys).union(expected.keys).sorted()
            let diff = keys.compactMap { key -> String? in
                let (want, got) = (expected[key], actual[key])
                return want == got
                    ? nil
                    : "  \(key): expected \(want.map(\.description) ?? "no change"), got \(got.map(\.description) ?? "no change")"
            }
            Issue.record("changes differ:\n\(diff.joined(separator: "\n"))", sourceLocation: sourceLocation)
        }
    }
}
