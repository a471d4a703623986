import CourtsideModel
import Foundation
import Testing

@Suite("Team branding: colours and short names")
struct TeamBrandingTests {
    @Test("a colour is # and six hex digits, a short name 2 to 4 letters; each error names its side and field")
    func validation() throws {
        #expect(
            try TeamBranding(color: "#a1B2c3", short: "laL", side: .home)
                == TeamBranding(color: "#A1B2C3", short: "LAL", side: .home))
        for bad in ["red", "#12345", "#1234567", "123456#", "#GG0000", "# 12345"] {
            #expect(throws: GameSetupError.invalidColor(.away, bad)) {
                try TeamBranding(color: bad, short: nil, side: .away)
            }
        }
        for bad in ["H", "HAWKS", "H4W", "HÄW", "HA W"] {
            #expect(throws: GameSetupError.invalidShortName(.home, bad)) {
                try TeamBranding(color: nil, short: bad, side: .home)
            }
        }
        #expect(GameSetupError.invalidColor(.away, "red").field == "awayColor")
        #expect(GameSetupError.invalidShortName(.home, "H").field == "homeShort")
        // Empty means not given.
        #expect(try TeamBranding(color: "", short: "", side: .home) == .none)
    }

    @Test("without branding a team shows its side's colour and the first letters of its name")
    func defaults() throws {
        let setup = try GameSetup(
            id: "g", homeTeam: "Lakers", homePlayers: ["A", "B", "C"], awayTeam: "7 B", awayPlayers: ["D", "E", "F"])
        #expect(setup.homeTeam.color == TeamBranding.defaultColor(.home))
        #expect(setup.homeTeam.shortName == "LAK")
        #expect(setup.awayTeam.shortName == "AWAY")
        #expect(TeamBranding.defaultColor(.home) != TeamBranding.defaultColor(.away))
    }

    @Test("the setup stores branding when given, and a setup stored without it still decodes")
    func codable() throws {
        let branded = try GameSetup(
            id: "g", homeTeam: "Hawks", homeRoster: ["A", "B", "C"], awayTeam: "Owls", awayRoster: ["D", "E", "F"],
            awayBranding: TeamBranding(color: "#00FF00", short: "OWL", side: .away))
        let data = try JSONEncoder().encode(branded)
        let decoded = try JSONDecoder().decode(GameSetup.self, from: data)
        #expect(decoded == branded)
        #expect(decoded.awayTeam.color == "#00FF00")
        #expect(decoded.homeTeam.branding == .none)
        let old =
            #"{"id":"g","homeTeam":"H","homePlayers":["A","B","C"],"awayTeam":"O","awayPlayers":["D","E","F"],"#
            + #""rules":{"preset":"pickup"}}"#
        #expect(try JSONDecoder().decode(GameSetup.self, from: Data(old.utf8)).homeTeam.branding == .none)
        let bad = old.replacingOccurrences(of: #""id":"g""#, with: #""id":"g","homeColor":"teal""#)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(GameSetup.self, from: Data(bad.utf8)) }
    }
}

@Suite("Archive policy: when a finished game is due for the archive")
struct ArchivePolicyTests {
    @Test("a game is due afterMs after its last event once finished or locked, never while played")
    func due() throws {
        var game = Game(
            setup: try GameSetup(
                id: "game-1", homeTeam: "A", homePlayers: ["a", "b", "c"], awayTeam: "B",
                awayPlayers: ["d", "e", "f"], rules: try Rules.custom(targetScore: 2)))
        let policy = ArchivePolicy(afterMs: 1_000)
        #expect(!policy.isDue(game, now: Timestamp(milliseconds: 1_000_000)))
        _ = try game.apply(.move("home-0", .twoPoints, id: "c1"), at: Timestamp(milliseconds: 5_000))
        #expect(ArchivePolicy.finishedAt(game) == Timestamp(milliseconds: 5_000))
        #expect(!policy.isDue(game, now: Timestamp(milliseconds: 5_999)))
        #expect(policy.isDue(game, now: Timestamp(milliseconds: 6_000)))
    }
}
