import CourtsideModel
import CourtsideViewModels
import Testing

@Suite("GameCreatorViewModel: one error per field")
struct GameCreatorTests {
    private func filled() -> GameCreatorViewModel {
        let creator = GameCreatorViewModel()
        creator.homeTeamName.value = "Lakers"
        creator.awayTeamName.value = "Celtics"
        for (index, name) in ["Ann", "Bo", "Cy"].enumerated() { creator.homePlayerNames[index].value = name }
        for (index, name) in ["Di", "Ed", "Flo"].enumerated() { creator.awayPlayerNames[index].value = name }
        return creator
    }

    @Test("an empty form has an error on each name field and cannot create")
    func emptyForm() {
        let creator = GameCreatorViewModel()
        #expect(
            Set(creator.errors.value.keys)
                == [
                    .homeTeam, .awayTeam, .player(.home, 0), .player(.home, 1), .player(.home, 2), .player(.away, 0),
                    .player(.away, 1), .player(.away, 2),
                ])
        #expect(creator.errors.value[.homeTeam] == "Enter the team's name")
        #expect(creator.errors.value[.player(.away, 2)] == "Enter the player's name")
        #expect(!creator.canCreate.value)
    }

    @Test("errors follow the inputs as they change, each on its own field")
    func liveValidation() {
        let creator = filled()
        #expect(creator.errors.value == [:])
        #expect(creator.canCreate.value)
        creator.homePlayerNames[1].value = "   "
        creator.awayTeamName.value = String(repeating: "x", count: GameSetup.maxNameLength + 1)
        #expect(
            creator.errors.value
                == [.player(.home, 1): "Enter the player's name", .awayTeam: "Use at most 40 characters"])
        #expect(!creator.canCreate.value)
        #expect(GameCreatorErrors(problems: creator.problems.value).json["homePlayers[1]"] == "Enter the player's name")
    }

    @Test("custom rules check each number on its own field; presets ignore them")
    func customRules() throws {
        let creator = filled()
        creator.targetScore.value = "abc"
        #expect(creator.errors.value == [:])
        creator.preset.value = .custom
        creator.winBy.value = "0"
        creator.timeLimit.value = "7:75"
        #expect(
            creator.errors.value
                == [
                    .targetScore: "Enter a whole number", .winBy: "Enter a margin from 1 to 999",
                    .timeLimit: "Enter minutes (10) or minutes:seconds (7:30)",
                ])
        creator.targetScore.value = "1000"
        creator.winBy.value = ""
        creator.timeLimit.value = "0"
        #expect(
            creator.errors.value
                == [
                    .targetScore: "Enter a target from 1 to 999",
                    .timeLimit: "Enter a limit above 0:00 and at most 24 hours",
                ])
        creator.targetScore.value = "11"
        creator.timeLimit.value = "7:30"
        #expect(creator.errors.value == [:])
        #expect(
            try creator.makeSetup(id: "x").get().rules
                == (try Rules.custom(targetScore: 11, winBy: 1, timeLimitMs: 450_000)))
    }

    @Test("a filled form makes the setup of a game with the given id; a form with errors makes none")
    func makeSetupOfGame() throws {
        let creator = filled()
        creator.preset.value = .fiba3x3
        let game = Game(setup: try creator.makeSetup(id: "game-1").get())
        #expect(game.id == "game-1")
        #expect(game.rules == .fiba3x3)
        #expect(game.awayTeam.players.map(\.name) == ["Di", "Ed", "Flo"])
        creator.homeTeamName.value = ""
        #expect(
            throws: GameCreatorErrors(problems: [
                .homeTeam: FieldProblem("team_name_empty", sentence: "Enter the team's name")
            ])
        ) {
            try creator.makeSetup(id: "game-2").get()
        }
    }

    @Test("colours and short names are validated field by field and reach the setup")
    func branding() throws {
        let creator = GameCreatorViewModel()
        creator.fill(
            from: try JSONValue(
                parsing: #"{"homeTeam":"Hawks","homePlayers":["A","B","C"],"awayTeam":"Owls","#
                    + ##""awayPlayers":["D","E","F"],"homeColor":"#FF0000","homeShort":"toolong","##
                    + #""awayColor":"green","awayShort":"OWL"}"#))
        #expect(
            creator.errors.value == [
                .short(.home): "Use 2 to 4 letters A-Z",
                .color(.away): "Use a colour as #RRGGBB (six hexadecimal digits)",
            ])
        creator.homeShort.value = "HWK"
        creator.awayColor.value = "#00aa00"
        #expect(creator.errors.value == [:])
        let setup = try creator.makeSetup(id: "g").get()
        #expect(setup.homeTeam.branding == (try TeamBranding(color: "#FF0000", short: "HWK", side: .home)))
        #expect(setup.awayTeam.color == "#00AA00")
    }

    @Test("a JSON request fills the form, and wrong or missing members become field errors")
    func fromJSON() throws {
        let creator = GameCreatorViewModel()
        creator.fill(
            from: try JSONValue(
                parsing: #"{"homeTeam":"Lakers","homePlayers":["Ann","Bo","Cy"],"awayTeam":7,"awayPlayers":["Di"],"#
                    + #""rules":{"preset":"custom","targetScore":11,"timeLimitMs":600000}}"#))
        #expect(creator.preset.value == .custom)
        #expect(creator.timeLimit.value == "10")
        #expect(creator.awayTeamName.value == "7")
        #expect(
            creator.errors.value == [
                .player(.away, 1): "Enter the player's name", .player(.away, 2): "Enter the player's name",
            ])
    }
}

@Suite("Game creator: rosters of a real game")
struct GameCreatorRosterTests {
    static func request(_ home: JSONValue, preset: String = "fiba5x5") -> JSONValue {
        [
            "homeTeam": "Bulls", "homePlayers": home, "awayTeam": "Knicks",
            "awayPlayers": ["a", "b", "c", "d", "e"], "rules": ["preset": .string(preset)],
        ]
    }

    @Test("a 5x5 roster of names and numbered players makes the setup, numbers kept")
    func numberedRoster() throws {
        let creator = GameCreatorViewModel()
        creator.fill(
            from: Self.request([
                "Ann", ["name": "Bo", "number": "7"], "Cy", "Di", ["name": "Ed", "number": "00"], "Flo",
            ]))
        #expect(creator.errors.value == [:])
        let setup = try creator.makeSetup(id: "g").get()
        #expect(setup.rules == .fiba5x5)
        #expect(setup.homeTeam.players.map(\.number) == [nil, "7", nil, nil, "00", nil])
        #expect(setup.homeTeam.players.count == 6)
    }

    @Test("too few players for the rules, a bad number and a number worn twice are each named by their field")
    func rosterErrors() {
        let creator = GameCreatorViewModel()
        creator.fill(from: Self.request(["Ann", "Bo", "Cy"]))
        #expect(creator.errors.value == [.roster(.home): "A team has 5 to 12 players"])
        creator.fill(from: Self.request(["Ann", ["name": "Bo", "number": "7x"], "Cy", "Di", "Ed"]))
        #expect(creator.errors.value == [.player(.home, 1): "Use a number of one or two digits"])
        creator.fill(
            from: Self.request(["Ann", ["name": "Bo", "number": "7"], ["name": "Cy", "number": "7"], "Di", "Ed"]))
        #expect(creator.errors.value == [.player(.home, 2): "Number 7 is taken"])
        #expect(GameCreatorErrors(problems: creator.problems.value).json == ["homePlayers[2]": "Number 7 is taken"])
        creator.fill(from: Self.request(.array((1...13).map { .string("P\($0)") }), preset: "pickup"))
        #expect(creator.errors.value[.roster(.home)] == "A team has 3 to 12 players")
    }
}
