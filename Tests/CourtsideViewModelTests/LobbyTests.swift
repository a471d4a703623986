import CourtsideBytes
import CourtsideModel
import CourtsideViewModels
import Testing

@Suite("Game list view model and the lobby document")
struct LobbyTests {
    final class Recorder {
        var messages: [EncodedMessage] = []
    }

    private func makeLobby(_ viewModel: GameListViewModel) -> (LobbyPresenter, Recorder) {
        let presenter = LobbyPresenter(viewModel: viewModel)
        let recorder = Recorder()
        presenter.latestPatch.bind { if let message = $0 { recorder.messages.append(message) } }
        return (presenter, recorder)
    }

    /// A pickup game numbered `number` between teams named `home` and `away`.
    static func game(_ number: Int, _ home: String, _ away: String) throws -> Game {
        Game(
            setup: try GameSetup(
                id: GameID("game-\(number)"), homeTeam: home, homePlayers: ["1", "2", "3"], awayTeam: away,
                awayPlayers: ["4", "5", "6"], rules: .pickup))
    }

    @Test("the lobby lists its games in the order given, each once")
    func fromSummaries() throws {
        let first = try Self.game(1, "A", "B")
        let second = try Self.game(2, "C", "D")
        let lobby = GameListViewModel(summaries: [first, second, first].map(GameSummary.init(game:)))
        #expect(lobby.games.value.map(\.summary.id) == [first.id, second.id])
        #expect(lobby.games.value.map(\.order) == [0, 1])
        let (presenter, _) = makeLobby(lobby)
        #expect(
            presenter.snapshot().text
                == ##"{"seq":0,"state":{"games":{"game-1":{"awayColor":"#B42318","awayScore":0,"awayShort":"AWAY","##
                + ##""awayTeam":"B","homeColor":"#1F4E9C","homeScore":0,"homeShort":"HOME","homeTeam":"A","##
                + ##""id":"game-1","isFinished":false,"isLive":false,"order":0,"score":"0 - 0","status":"live","viewers":0,"##
                + ##""winner":null},"##
                + ##""game-2":{"awayColor":"#B42318","awayScore":0,"awayShort":"AWAY","awayTeam":"D","##
                + ##""homeColor":"#1F4E9C","homeScore":0,"homeShort":"HOME","homeTeam":"C","id":"game-2","##
                + ##""isFinished":false,"isLive":false,"order":1,"score":"0 - 0","status":"live","viewers":0,"##
                + ##""winner":null}}},"##
                + #""type":"lobbySnapshot","v":1}"#)
    }

    @Test("a viewer count changes one row's viewers in one patch; the same count again publishes nothing")
    func viewers() throws {
        let game = try Self.game(1, "A", "B")
        let lobby = GameListViewModel(summaries: [GameSummary(game: game)])
        let (presenter, recorder) = makeLobby(lobby)
        lobby.setViewers(7, of: game.id)
        lobby.setViewers(7, of: game.id)
        lobby.setViewers(3, of: "game-99")
        #expect(recorder.messages.count == 1)
        #expect(
            try JSONValue(parsing: try #require(recorder.messages.first).bytes)["ops"]
                == [["op": "replace", "path": "/games/game-1/viewers", "value": 7]])
        // A new summary from the game keeps the counted figure.
        var summary = GameSummary(game: game)
        summary.homeScore = 2
        summary.score = "2 - 0"
        lobby.upsert(summary)
        #expect(presenter.document["games"]?["game-1"]?["homeScore"] == 2)
        #expect(presenter.document["games"]?["game-1"]?["viewers"] == 7)
    }

    @Test("a tracked game's score change is one lobby patch of replaces inside that game")
    func trackedGame() throws {
        let lobby = GameListViewModel()
        let (presenter, recorder) = makeLobby(lobby)
        let game = Fixtures.viewModel()
        lobby.track(game)
        #expect(recorder.messages.count == 1)
        #expect(try JSONValue(parsing: recorder.messages[0].bytes)["ops"]?.arrayValue?.first?["op"] == "add")
        game.homePlayers[0].twoPointsMove()
        #expect(recorder.messages.count == 2)
        #expect(
            recorder.messages[1].text
                == #"{"ops":[{"op":"replace","path":"/games/g1/homeScore","value":2},"#
                + #"{"op":"replace","path":"/games/g1/isLive","value":true},"#
                + #"{"op":"replace","path":"/games/g1/score","value":"2 - 0"}],"seq":2,"type":"lobbyPatch","v":1}"#)
        game.homePlayers[0].foulMove()  // not shown in the lobby: no lobby message
        #expect(recorder.messages.count == 2)
        #expect(presenter.seq == 2)
    }

    @Test("in a lobby of many games, one game's change is a patch inside that game only, and the document stays whole")
    func largeLobbyTouchesOneRow() throws {
        let summaries = (0..<500).map { index in
            GameSummary(game: Game(setup: Fixtures.setup(id: GameID("game-\(index)"))))
        }
        let lobby = GameListViewModel(summaries: summaries)
        let (presenter, recorder) = makeLobby(lobby)
        var changed = summaries[250]
        changed.homeScore = 2
        changed.score = "2 - 0"
        lobby.upsert(changed)
        lobby.remove("game-3")
        #expect(recorder.messages.count == 2)
        let paths = try recorder.messages.flatMap { message in
            try JSONValue(parsing: message.bytes)["ops"]?.arrayValue?.compactMap { $0["path"]?.stringValue } ?? []
        }
        #expect(paths == ["/games/game-250/homeScore", "/games/game-250/score", "/games/game-3"])
        let games = presenter.document["games"]?.objectValue
        #expect(games?.count == 499)
        #expect(games?["game-250"]?["homeScore"] == .int(2))
        #expect(lobby.games.value.map(\.summary.id).contains("game-3") == false)
        // The position index survives a removal: later rows still update in place.
        var later = summaries[499]
        later.awayScore = 1
        lobby.upsert(later)
        #expect(lobby.games.value.last?.summary.awayScore == 1)
        #expect(lobby.games.value.count == 499)
    }

    @Test("removing a game is one remove operation with an escaped pointer; removing it again changes nothing")
    func removal() throws {
        var summary = GameSummary(game: Game(setup: Fixtures.setup(id: "cup/final~1")))
        let lobby = GameListViewModel(summaries: [summary])
        let (presenter, recorder) = makeLobby(lobby)
        summary.isLive = true
        lobby.upsert(summary)
        lobby.upsert(summary)
        lobby.remove("cup/final~1")
        lobby.remove("cup/final~1")
        #expect(recorder.messages.map(\.seq) == [1, 2])
        #expect(recorder.messages[1].text.contains(#"{"op":"remove","path":"/games/cup~1final~01"}"#))
        #expect(presenter.document == ["games": [:]])
    }

    @Test("lobby patches carry each snapshot to the next")
    func patchesReproduceSnapshots() throws {
        let lobby = GameListViewModel()
        let (presenter, recorder) = makeLobby(lobby)
        var state = try #require(try JSONValue(parsing: presenter.snapshot().bytes)["state"])
        let games = (0..<3).map { index in
            GameScoreboardEditorViewModel(
                game: Game(setup: Fixtures.setup(id: GameID("g\(index)"))), now: Timestamp(milliseconds: 0),
                clock: { Timestamp(milliseconds: 0) })
        }
        for game in games { lobby.track(game) }
        for round in 0..<8 { games[round % 3].awayPlayers[round % 3].twoPointsMove() }
        lobby.remove("g1")
        for message in recorder.messages {
            state = try JSONPatchApplier.apply(try #require(try JSONValue(parsing: message.bytes)["ops"]), to: state)
        }
        let final = try JSONValue(parsing: presenter.snapshot().bytes)
        #expect(state.canonicalBytes == final["state"]?.canonicalBytes)
        #expect(final["seq"] == .int(recorder.messages.count))
        #expect(final["state"]?["games"]?["g2"]?["score"] == "0 - 4")
    }
}
