import CourtsideBytes
import CourtsideModel
import CourtsideViewModels
import Testing

/// The scenario the examples of docs/protocol.md come from: the code produces each server message, and
/// ProtocolDocumentTests checks that the document shows exactly that.
enum ProtocolExamples {
    static let start = Timestamp(milliseconds: 1_700_000_000_000)

    /// Every example the code can produce, by the name its fenced block carries in the document.
    static func generated() throws -> [String: JSONValue] {
        var examples: [String: JSONValue] = [:]
        func message(_ bytes: [UInt8]) throws -> JSONValue { try JSONValue(parsing: bytes) }

        let game = Game(
            setup: try GameSetup(
                id: "game-1", homeTeam: "Lakers", homePlayers: ["Ann", "Bo", "Cy"], awayTeam: "Celtics",
                awayPlayers: ["Di", "Ed", "Flo"], rules: .fiba3x3))
        let lobby = GameListViewModel()
        let lobbyPresenter = LobbyPresenter(viewModel: lobby)
        var lobbyPatches: [EncodedMessage] = []
        lobbyPresenter.latestPatch.bind { if let patch = $0 { lobbyPatches.append(patch) } }

        let viewModel = GameScoreboardEditorViewModel(game: game, now: start, clock: { start })
        lobby.track(viewModel)
        // Patches are dated (`at`) by their batch's instant: the `now` of the command or tick that made each.
        var now = start
        let presenter = GamePresenter(viewModel: viewModel)
        let recorder = PresenterRecorder(presenter)
        @discardableResult
        func handle(_ command: String, atMs offset: Int64) -> CommandReply {
            now = start.advanced(byMilliseconds: offset)
            return recorder.handle(commandBytes: Array(command.utf8), now: now)
        }
        examples["snapshot-new"] = try message(presenter.snapshot().bytes)

        let startReply = handle(#"{"type":"clock","id":"c1","action":"start"}"#, atMs: 2_000)
        examples["patch-start"] = try message(recorder.messages[0].bytes)
        let moveReply = handle(#"{"type":"move","id":"c2","player":"home-1","move":"twoPoints"}"#, atMs: 12_345)
        examples["patch-move"] = try message(recorder.messages[1].bytes)
        examples["ack"] = moveReply.json
        examples["ack-retry"] =
            handle(#"{"type":"move","id":"c2","player":"home-1","move":"twoPoints"}"#, atMs: 13_000).json
        precondition(startReply == .accepted(id: "c1", seq: 1), "Invalid state: \(startReply)")
        now = start.advanced(byMilliseconds: 13_000)
        recorder.tick(now: now)
        examples["patch-tick"] = try message(recorder.messages[2].bytes)
        examples["snapshot"] = try message(presenter.snapshot().bytes)
        handle(#"{"type":"undo","id":"c3"}"#, atMs: 14_000)
        handle(#"{"type":"clock","id":"c4","action":"pause"}"#, atMs: 15_250)
        examples["patch-pause"] = try message(recorder.messages[4].bytes)
        examples["error-game"] =
            handle(#"{"type":"move","id":"c5","player":"home-7","move":"foul"}"#, atMs: 16_000).json
        examples["error-command"] =
            handle(#"{"type":"clock","id":"c6","action":"stop"}"#, atMs: 16_000).json
        examples["error-json"] =
            handle(#"{"type":"undo","#, atMs: 16_000).json

        examples["lobby-snapshot"] = try message(lobbyPresenter.snapshot().bytes)
        let second = Game(
            setup: try GameSetup(
                id: "game-2", homeTeam: "Bulls", homePlayers: ["Gus", "Hal", "Ida"], awayTeam: "Knicks",
                awayPlayers: ["Jo", "Kai", "Lu"], rules: .pickup))
        lobby.upsert(GameSummary(game: second))
        examples["lobby-patch-add"] = try message(lobbyPatches.last!.bytes)
        now = start.advanced(byMilliseconds: 17_000)
        recorder.handle(.move("away-0", .onePoint, id: "c7"), now: now)
        examples["lobby-patch-score"] = try message(lobbyPatches.last!.bytes)
        // A correction, then the other commands of a real game, each one patch.
        let laterCommands = [
            ("patch-edit", #"{"type":"editPlay","id":"c8","play":2,"player":"away-1","move":"twoPoints"}"#),
            ("patch-timeout", #"{"type":"timeout","id":"c9","team":"home"}"#),
            ("patch-shot-clock", #"{"type":"shotClock","id":"c10","action":"set","ms":7000}"#),
            ("patch-possession", #"{"type":"possession","id":"c11","team":"away"}"#),
            ("patch-final", #"{"type":"final","id":"c12"}"#),
        ]
        for (offset, (name, command)) in laterCommands.enumerated() {
            let reply = handle(command, atMs: 18_000 + Int64(offset) * 1_000)
            precondition(reply.json["type"] == "ack", "Invalid state: \(reply)")
            examples[name] = try message(recorder.messages.last!.bytes)
        }
        examples["error-locked"] =
            handle(#"{"type":"move","id":"c17","player":"home-0","move":"onePoint"}"#, atMs: 30_000).json
        examples["snapshot-final"] = try message(presenter.snapshot().bytes)
        lobby.remove(second.id)
        examples["lobby-patch-remove"] = try message(lobbyPatches.last!.bytes)

        // A court (docs/protocol.md, "Courts"): created empty, then game-1 goes on it while a team joins the queue.
        var court = try Court(
            id: "court-1", name: "Court 2", joining: .code, displayKeySHA256: String(repeating: "0", count: 64))
        let courtPresenter = CourtPresenter(court: court, clock: { start.advanced(byMilliseconds: 40_000) })
        examples["court-snapshot"] = try message(courtPresenter.snapshot().bytes)
        court.put("game-1")
        try court.enqueue(QueuedTeam(name: "Hawks", players: ["Gus", "Hal", "Ida"]))
        examples["court-patch"] = try message(try #require(courtPresenter.update(court)).bytes)

        examples["viewers"] = try message(ViewerAnnouncements.message(game: "game-1", viewers: 42))

        let creator = GameCreatorViewModel()
        creator.fill(
            from: try JSONValue(
                parsing: #"{"homeTeam":"Lakers","homePlayers":["Ann","","Cy"],"awayTeam":"","#
                    + #""awayPlayers":["Di","Ed","Flo"],"homeColor":"blue","awayShort":"C","#
                    + #""rules":{"preset":"custom","targetScore":0,"winBy":2}}"#))
        let createErrors = GameCreatorErrors(problems: creator.problems.value)
        examples["create-errors"] = createErrors.json
        examples["create-error-codes"] = createErrors.answerMembers.fieldCodes
        try statisticsExamples(into: &examples)
        try dualConfirmationExamples(into: &examples)
        return examples
    }

    /// Two scorers who confirm each other (the scorer token and crew member m1): a pending play, a conflict, and
    /// its resolution.
    static func dualConfirmationExamples(into examples: inout [String: JSONValue]) throws {
        var game = Game(
            setup: try GameSetup(
                id: "game-3", homeTeam: "Lakers", homePlayers: ["Ann", "Bo", "Cy"], awayTeam: "Celtics",
                awayPlayers: ["Di", "Ed", "Flo"], rules: try Rules.pickup.confirmedByTwoScorers()))
        try game.addCrewMember(
            role: .scorer, label: "Check sheet", tokenSHA256: String(repeating: "0", count: 64), at: start)
        let viewModel = GameScoreboardEditorViewModel(game: game, now: start, clock: { start })
        let recorder = PresenterRecorder(GamePresenter(viewModel: viewModel))
        func handle(_ command: String, by member: CrewMemberID?, atMs offset: Int64) throws {
            guard case .success(let decoded) = CommandDecoder().decode(Array(command.utf8)) else {
                preconditionFailure("Invalid state: \(command) does not decode")
            }
            let reply = recorder.handle(decoded, by: member, now: start.advanced(byMilliseconds: offset))
            precondition(reply.json["type"] == "ack", "Invalid state: \(reply)")
        }
        try handle(#"{"type":"move","id":"d1","player":"home-1","move":"twoPoints"}"#, by: nil, atMs: 1_000)
        examples["patch-pending"] = try JSONValue(parsing: recorder.messages.last!.bytes)
        try handle(#"{"type":"move","id":"d2","player":"home-2","move":"twoPoints"}"#, by: "m1", atMs: 3_000)
        examples["patch-conflict"] = try JSONValue(parsing: recorder.messages.last!.bytes)
        try handle(#"{"type":"resolve","id":"d3","play":1,"keep":"first"}"#, by: "m1", atMs: 4_000)
        examples["patch-resolve"] = try JSONValue(parsing: recorder.messages.last!.bytes)
    }

    /// A FIBA 5x5 game with starters: a three-pointer, a team rebound, a foul-out and a period ended by hand.
    static func statisticsExamples(into examples: inout [String: JSONValue]) throws {
        let names = ["Ann", "Bo", "Cy", "Dee", "Eve", "Fay"]
        let setup = try GameSetup(
            id: "game-5", homeTeam: "Lakers", homeRoster: names.map { RosterEntry(name: $0) }, awayTeam: "Celtics",
            awayRoster: names.map { RosterEntry(name: $0) }, rules: .fiba5x5, awayStarters: [1, 2, 3, 4, 5])
        let viewModel = GameScoreboardEditorViewModel(game: Game(setup: setup), now: start, clock: { start })
        let presenter = GamePresenter(viewModel: viewModel)
        let recorder = PresenterRecorder(presenter)
        @discardableResult
        func handle(_ command: String, atMs offset: Int64) -> CommandReply {
            recorder.handle(commandBytes: Array(command.utf8), now: start.advanced(byMilliseconds: offset))
        }
        handle(#"{"type":"clock","id":"f1","action":"start"}"#, atMs: 0)
        handle(#"{"type":"clock","id":"f2","action":"pause"}"#, atMs: 65_000)
        handle(#"{"type":"move","id":"f3","player":"home-2","move":"threePoints"}"#, atMs: 66_000)
        examples["patch-three"] = try JSONValue(parsing: recorder.messages.last!.bytes)
        handle(#"{"type":"teamMove","id":"f4","team":"away","move":"defensiveRebound"}"#, atMs: 67_000)
        examples["patch-team-move"] = try JSONValue(parsing: recorder.messages.last!.bytes)
        examples["error-move-not-in-rules"] =
            handle(#"{"type":"move","id":"f5","player":"home-0","move":"onePoint"}"#, atMs: 68_000).json
        handle(#"{"type":"endPeriod","id":"f6"}"#, atMs: 70_000)
        examples["patch-end-period"] = try JSONValue(parsing: recorder.messages.last!.bytes)
        for index in 1...5 {
            handle(#"{"type":"move","id":"p\#(index)","player":"away-3","move":"foul"}"#, atMs: 71_000)
        }
        examples["error-not-eligible"] =
            handle(#"{"type":"move","id":"f7","player":"away-3","move":"steal"}"#, atMs: 72_000).json
    }
}
