import CourtsideBytes
import CourtsideModel
import CourtsideTestSupport
import CourtsideViewModels
import Testing

/// The diff stream's central promise: a subscriber holding snapshot n who applies recorder.messages n+1…m (with an RFC 6902
/// applier written here, not the presenter's code) holds exactly snapshot m, byte for byte after canonical encoding.
@Suite("Patch stream property: snapshot n + recorder.messages n+1…m = snapshot m")
struct PatchStreamPropertyTests {
    static let sequenceCount = 1_000
    static let maxCommandsPerSequence = 24

    @Test("random command sequences: recorder.messages carry snapshots forward exactly, seq grows by 1 per message")
    func patchesReproduceSnapshots() throws {
        var random = SeededGenerator(seed: 0x00C0_FFEE)
        var totalMessages = 0
        var conflicts = 0
        for sequence in 0..<Self.sequenceCount {
            totalMessages += try runSequence(number: sequence, random: &random, conflicts: &conflicts)
        }
        #expect(conflicts == 0, "no conflicts without dual confirmation")
        // Guards against a generator so weak that nothing happens.
        #expect(totalMessages > Self.sequenceCount * 5)
    }

    @Test("with two scorers confirming each other: patches carry snapshots forward, replay gives the same document")
    func dualPatchesReproduceSnapshots() throws {
        var random = SeededGenerator(seed: 0x0D0A_1500)
        var totalMessages = 0
        var conflicts = 0
        for sequence in 0..<300 {
            totalMessages += try runSequence(number: sequence, random: &random, dual: true, conflicts: &conflicts)
        }
        #expect(totalMessages > 300 * 5)
        #expect(conflicts > 30, "the sequences reach conflicts")
    }

    /// Runs one random sequence and checks it; returns the number of patch messages. With `dual`, the rules have two
    /// scorers confirm each other (the scorer token and member m1), whose answers to pending plays and resolutions
    /// join the commands; `conflicts` counts the batches that showed a conflict.
    private func runSequence(
        number: Int, random: inout SeededGenerator, dual: Bool = false, conflicts: inout Int
    ) throws -> Int {
        var rules: Rules =
            switch Int.random(in: 0..<4, using: &random) {
            case 0: .pickup
            case 1: .fiba3x3
            case 2: .fiba5x5
            default: try .custom(targetScore: 5, winBy: 2, timeLimitMs: 4_000)
            }
        let created = Timestamp(milliseconds: 1_700_000_000_000)
        var now = created
        var lastBatch = now
        if dual { rules = try rules.confirmedByTwoScorers(windowMs: 2_000) }
        let setup = Fixtures.setup(id: GameID("game-\(number)"), rules: rules, playersPerTeam: 6)
        var game = Game(setup: setup)
        if dual {
            try game.addCrewMember(
                role: .scorer, label: "Check sheet", tokenSHA256: String(repeating: "e", count: 64), at: now)
        }
        let viewModel = GameScoreboardEditorViewModel(game: game, now: now, clock: { Timestamp(milliseconds: 0) })
        let presenter = GamePresenter(viewModel: viewModel)
        let recorder = PresenterRecorder(presenter)
        // The published document per seq (cheap: copy-on-write values); snapshots are checked against it below.
        var documents: [Int: JSONValue] = [0: presenter.document]
        var replies: [CommandID: CommandReply] = [:]
        var commands: [GameCommand] = []
        var issuers: [CommandID: CrewMemberID?] = [:]

        let steps = Int.random(in: 1...Self.maxCommandsPerSequence, using: &random)
        for step in 0..<steps {
            now = now.advanced(byMilliseconds: Int64.random(in: 0...1_500, using: &random))
            let before = recorder.messages.count
            let revisionBefore = viewModel.revision.value
            if Int.random(in: 0..<5, using: &random) == 0 {
                recorder.tick(now: now)
            } else if viewModel.game.isLocked, Int.random(in: 0..<3, using: &random) == 0 {
                try recorder.reopen(now: now)
            } else if Int.random(in: 0..<12, using: &random) == 0 {
                // A table-crew change: journaled like a command, shown nowhere in the document.
                let document = presenter.document
                let acknowledging: (GameEvent) -> CommandID = { _ in "#crew" }
                if let member = viewModel.game.activeCrew.first, Bool.random(using: &random) {
                    let revoke = { (game: inout Game) throws(GameError) in
                        try game.revokeCrewMember(member.id, at: now)
                    }
                    try recorder.record(now: now, acknowledging: acknowledging, revoke)
                } else if viewModel.game.crew.count < CrewMember.maxPerGame {
                    let role = CrewRole.allCases.randomElement(using: &random)!
                    let add = { (game: inout Game) throws(GameError) in
                        try game.addCrewMember(
                            role: role, label: "Table", tokenSHA256: String(repeating: "f", count: 64), at: now)
                    }
                    try recorder.record(now: now, acknowledging: acknowledging, add)
                }
                #expect(presenter.document["homeScore"] == document["homeScore"])
            } else {
                var command = randomCommand(step: step, previous: commands, random: &random, dual: dual)
                var answerer: CrewMemberID??
                if dual, let pending = viewModel.game.pendingPlays.randomElement(using: &random),
                    Bool.random(using: &random)
                {
                    // The other scorer answers a pending play: mostly the same entry, sometimes another player.
                    let player = Bool.random(using: &random) ? pending.player : PlayerID(side: pending.team, index: 1)
                    command = GameCommand(id: CommandID("a\(step)"), action: .move(player: player, move: pending.move))
                    answerer = .some(pending.enteredBy == nil ? "m1" : nil)
                }
                commands.append(command)
                // Some commands come from a crew member (its role may refuse them), the others from the scorer; a
                // retry comes from whoever sent the command first.
                let member =
                    issuers[command.id] ?? answerer
                    ?? (Bool.random(using: &random) ? viewModel.game.crew.randomElement(using: &random)?.id : nil)
                if issuers[command.id] == nil { issuers[command.id] = .some(member) }
                let reply = recorder.handle(command, by: member, now: now)
                if let earlier = replies[command.id], commands.dropLast().contains(command) {
                    #expect(reply == earlier, "a repeated id must get the same answer")
                    #expect(recorder.messages.count == before, "a repeated id must produce no message")
                }
                if replies[command.id] == nil { replies[command.id] = reply }
            }
            // One batch is at most one message, numbered by the revision.
            #expect(recorder.messages.count - before == viewModel.revision.value - revisionBefore)
            #expect(recorder.messages.count <= before + 1)
            // Read once: the presenter makes its document on each read (it holds the frame it shows, not a tree).
            let document = presenter.document
            documents[presenter.seq] = document
            if !(document["conflicts"]?.arrayValue ?? []).isEmpty { conflicts += 1 }
            // The box score's points always equal the score, and the periods' points add up to it.
            for side in ["home", "away"] {
                let score = document["\(side)Score"]?.intValue
                #expect(document["\(side)Stats"]?["points"]?.intValue == score)
                let periods = document["periodScores"]?.arrayValue ?? []
                let index = side == "home" ? 0 : 1
                #expect(periods.reduce(0) { $0 + ($1.arrayValue?[index].intValue ?? 0) } == score)
                let players = document["\(side)Players"]?.arrayValue ?? []
                #expect(players.reduce(0) { $0 + ($1["stats"]?["points"]?.intValue ?? 0) } == score)
            }
            if viewModel.revision.value != revisionBefore { lastBatch = now }
        }

        #expect(recorder.messages.map(\.seq) == Array(0..<recorder.messages.count).map { $0 + 1 })
        let last = presenter.seq
        let starts = Set([0, last / 2, max(0, last - 1), Int.random(in: 0...last, using: &random)])
        let finalSnapshot = try JSONValue(parsing: presenter.snapshot().bytes)
        #expect(finalSnapshot["seq"] == .int(last))
        #expect(finalSnapshot["state"] == documents[last])
        for start in starts {
            try expectPatches(recorder.messages, carry: start, to: last, documents: documents)
        }
        // A presenter built now from the same view model describes the same document.
        #expect(GamePresenter(viewModel: viewModel).snapshot().bytes == presenter.snapshot().bytes)
        // So does one over the game rebuilt from its events, as a restarted server makes it: shown as of the last
        // change (the creation while the clock was never operated), knowing the seq each command was acked with.
        let acks = replies.compactMapValues { reply -> Int? in
            if case .accepted(_, let seq) = reply { seq } else { nil }
        }
        let rebuilt = try Game(setup: setup, replaying: viewModel.game.events)
        #expect(rebuilt == viewModel.game)
        let replayed = GameScoreboardEditorViewModel(
            game: rebuilt, now: rebuilt.clock.stoppedAt == nil && !rebuilt.clock.isRunning ? created : lastBatch,
            clock: { created },
            revision: presenter.seq, acceptedRevisions: acks)
        #expect(
            GamePresenter(viewModel: replayed).snapshot().bytes == presenter.snapshot().bytes,
            "replay gives the same document")
        return recorder.messages.count
    }

    private func expectPatches(
        _ patches: [EncodedMessage], carry start: Int, to end: Int, documents: [Int: JSONValue]
    ) throws {
        var state = try #require(documents[start])
        for patch in patches where patch.seq > start && patch.seq <= end {
            let message = try JSONValue(parsing: patch.bytes)
            #expect(message["type"] == "patch")
            state = try JSONPatchApplier.apply(try #require(message["ops"]), to: state)
        }
        let expected = try #require(documents[end])
        #expect(
            state.canonicalBytes == expected.canonicalBytes, "snapshot \(start) + recorder.messages ≠ snapshot \(end)")
    }

    func randomCommand(
        step: Int, previous: [GameCommand], random: inout SeededGenerator, dual: Bool = false
    ) -> GameCommand {
        if dual, Int.random(in: 0..<6, using: &random) == 0 {
            let keep = ConflictResolution.allCases.randomElement(using: &random)!
            return GameCommand(
                id: CommandID("r\(step)"), action: .resolve(play: Int.random(in: 1...6, using: &random), keep: keep))
        }
        if !previous.isEmpty, Int.random(in: 0..<8, using: &random) == 0 {
            return previous.randomElement(using: &random)!  // a retry
        }
        let id = CommandID("c\(step)")
        let side = Bool.random(using: &random) ? TeamSide.home : .away
        let index = Int.random(in: 0..<(Int.random(in: 0..<20, using: &random) == 0 ? 8 : 6), using: &random)
        let player = PlayerID(side: side, index: index)
        let move = PlayerMove.allCases.randomElement(using: &random)!
        let action: GameCommand.Action
        switch Int.random(in: 0..<29, using: &random) {
        case 0, 1: action = .clock(.start)
        case 2: action = .clock(.pause)
        case 3: action = .undo
        case 4: action = .timeout(side)
        case 5:
            let ms = Int64.random(in: 0...24_000, using: &random)
            action = .shotClock(
                [.start, .pause, .reset(ms: nil), .set(ms: ms), .enable, .disable].randomElement(using: &random)!)
        case 6: action = .possession(side)
        case 7: action = .setClock(elapsedMs: Int64.random(in: 0...3_000, using: &random))
        case 8: action = .substitute(team: side, playerOut: player, playerIn: PlayerID(side: side, index: 5))
        case 9, 10: action = .editPlay(play: Int.random(in: 1...6, using: &random), player: player, move: move)
        case 11: action = .deletePlay(play: Int.random(in: 1...6, using: &random))
        case 12: action = .final
        case 13, 14: action = .teamMove(team: side, move: TeamMove.allCases.randomElement(using: &random)!)
        case 15: action = .endPeriod
        case 16, 17: action = .review(Bool.random(using: &random) ? .start : .end)
        default: action = .move(player: player, move: move)
        }
        return GameCommand(id: id, action: action)
    }
}
