import CourtsideModel
import CourtsideTestSupport
import CourtsideViewModels
import Testing

/// The promise several nodes rely on (docs/redis.md, "Applying stored batches"): view models that apply the same
/// stored batches with `applyStored` publish the same patch bytes under the same numbers, and a view model rebuilt
/// from the stored events (a node that starts later) holds the same document.
@Suite("Stored batches: every replica publishes the same bytes")
struct StoredBatchPropertyTests {
    /// Games of 24 random steps each (a few seconds in a debug build).
    static let gameCount = 60

    @Test("random command sequences, applied as stored batches on two replicas and rebuilt on a third")
    func replicasAgree() throws {
        var random = SeededGenerator(seed: 0x5EED_0010)
        let generator = PatchStreamPropertyTests()
        var batches = 0
        for number in 0..<Self.gameCount {
            let rules: Rules =
                switch number % 4 {
                case 0: .pickup
                case 1: .fiba3x3
                case 2: .fiba5x5
                default: try .custom(targetScore: 5, winBy: 2, timeLimitMs: 4_000)
                }
            let created = Timestamp(milliseconds: 1_700_000_000_000)
            let setup = Fixtures.setup(id: GameID("game-\(number)"), rules: rules, playersPerTeam: 6)
            let replicas = (0..<2).map { _ in
                GameScoreboardEditorViewModel(game: Game(setup: setup), now: created, clock: { created })
            }
            let presenters = replicas.map { GamePresenter(viewModel: $0) }
            let recorders = presenters.map(PresenterRecorder.init)
            var stored: [(events: [GameEvent], seq: Int)] = []
            var now = created
            var commands: [GameCommand] = []
            for step in 0..<24 {
                now = now.advanced(byMilliseconds: Int64.random(in: 0...1_500, using: &random))
                // The originating node: the command on a copy of the model, its events stored, then applied.
                var game = replicas[0].game
                let events: [GameEvent]
                if step % 6 == 5 {
                    events = game.advance(to: now).map { [$0] } ?? []
                } else {
                    let command = generator.randomCommand(step: step, previous: commands, random: &random)
                    commands.append(command)
                    events = (try? game.apply(command, at: now).newEvents) ?? []
                }
                guard !events.isEmpty else { continue }
                let seq = presenters[0].seq + 1
                stored.append((events, seq))
                for recorder in recorders { try recorder.applyStored(events, revision: seq) }
                batches += 1
            }
            #expect(recorders[0].messages.map(\.bytes) == recorders[1].messages.map(\.bytes))
            #expect(recorders[0].messages.map(\.seq) == stored.map(\.seq))
            #expect(stored.map(\.seq) == Array(stored.indices.map { $0 + 1 }), "numbered without a gap")
            #expect(presenters[0].document == presenters[1].document)
            // A replica that saw a batch twice (a catch-up overlapping the feed) changes nothing the second time.
            if let last = stored.last {
                try recorders[1].applyStored(last.events, revision: last.seq)
                #expect(recorders[1].messages.count == stored.count)
            }
            // A node starting now rebuilds from the log: the same document at the same number.
            let all = stored.flatMap(\.events)
            let rebuilt = try Game(setup: setup, replaying: all)
            var acks: [CommandID: Int] = [:]
            for batch in stored {
                for event in batch.events { if let id = event.commandID { acks[id] = batch.seq } }
            }
            let instant = rebuilt.isClockRunning ? (all.last?.at ?? created) : created
            let late = GameScoreboardEditorViewModel(
                game: rebuilt, now: instant, clock: { created }, revision: presenters[0].seq, acceptedRevisions: acks)
            let latePresenter = GamePresenter(viewModel: late)
            #expect(latePresenter.document == presenters[0].document, "game \(number): a late node differs")
            #expect(latePresenter.seq == presenters[0].seq)
        }
        #expect(batches > Self.gameCount * 5, "the generator stored too few batches to mean anything")
    }
}
