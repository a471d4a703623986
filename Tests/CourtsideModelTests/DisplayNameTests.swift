import CourtsideModel
import Foundation
import Testing

@Suite("Names: one rule for teams, players and courts, counted in scalars and bytes")
struct DisplayNameTests {
    @Test(
        "real names in many scripts pass, trimmed",
        arguments: [
            ("  Zoë ", "Zoë"), ("Jose\u{301}", "Jose\u{301}"), ("Nguyễn Thị Minh Khai", "Nguyễn Thị Minh Khai"),
            ("क्षत्रिय", "क्षत्रिय"), ("می\u{200C}خواهم", "می\u{200C}خواهم"), ("👨\u{200D}👩\u{200D}👧", "👨\u{200D}👩\u{200D}👧"),
            ("❤\u{FE0F} Hearts", "❤\u{FE0F} Hearts"),
            (String(repeating: "漢", count: 40), String(repeating: "漢", count: 40)),
            (String(repeating: "𝒜", count: 40), String(repeating: "𝒜", count: 40)),
        ])
    func accepted(raw: String, expected: String) throws {
        #expect(try DisplayName.validated(raw) == expected)
    }

    @Test(
        "bombs, controls, bidi overrides and invisible names are refused, each naming its problem",
        arguments: [
            ("", DisplayNameError.empty),
            (" \t ", .empty),
            ("A" + String(repeating: "\u{301}", count: 5_000), .tooManyBytes(limit: 160)),
            ("A" + String(repeating: "\u{301}", count: 5), .tooManyMarks(limit: 4)),
            (String(repeating: "e\u{301}", count: 21), .tooLong(limit: 40)),
            ("Ha\u{0}wks", .controlCharacter(0)),
            ("Line\nbreak", .controlCharacter(0x0A)),
            ("Tab\there", .controlCharacter(0x09)),
            ("Para\u{2029}graph", .controlCharacter(0x2029)),
            ("\u{202E}skwaH", .formatCharacter(0x202E)),
            ("Isolate\u{2066}x", .formatCharacter(0x2066)),
            ("zero\u{200B}width", .formatCharacter(0x200B)),
            ("\u{200D}\u{200D}\u{200C}", .invisible),
            ("\u{3164}\u{3164}", .invisible),
            ("\u{2800}", .invisible),
            ("\u{E000}private", .unassigned(0xE000)),
        ] as [(String, DisplayNameError)])
    func refused(raw: String, expected: DisplayNameError) {
        #expect(throws: expected) { try DisplayName.validated(raw) }
        #expect(!expected.sentence.isEmpty)
    }

    @Test("every name goes through it: teams and players of a game, a queued team, a court")
    func everyName() {
        let bomb = "A" + String(repeating: "\u{301}", count: 1_000)
        #expect(throws: GameSetupError.invalidTeamName(.home, .tooManyBytes(limit: 160))) {
            try GameSetup(
                id: "g", homeTeam: bomb, homePlayers: ["a", "b", "c"], awayTeam: "B", awayPlayers: ["d", "e", "f"])
        }
        #expect(throws: GameSetupError.invalidPlayerName(.away, index: 2, .formatCharacter(0x202E))) {
            try GameSetup(
                id: "g", homeTeam: "A", homePlayers: ["a", "b", "c"], awayTeam: "B",
                awayPlayers: ["d", "e", "\u{202E}f"])
        }
        #expect(GameSetupError.invalidPlayerName(.away, index: 2, .invisible).field == "awayPlayers[2]")
        #expect(throws: GameSetupError.invalidTeamName(.home, .controlCharacter(0))) {
            try QueuedTeam(name: "Owls\u{0}", players: ["a", "b", "c"])
        }
        #expect(throws: CourtError.invalidName(.invisible)) { try Court(id: "court-1", name: "\u{200D}") }
        #expect(throws: CourtError.invalidName(.formatCharacter(0x200B))) {
            try Court(id: "court-1", name: "C\u{200B}")
        }
    }

    @Test("a stored court drops queued teams whose names the rules now refuse")
    func storedBombsDropped() throws {
        let bomb = "A" + String(repeating: "\u{301}", count: 50)
        let stored = """
            {"id":"court-1","name":"Park","queue":[{"name":"\(bomb)","players":["a","b","c"]},\
            {"name":"Owls","players":["a","b","c"]}],"streak":{"team":{"name":"\(bomb)","players":["a","b","c"]},"wins":2}}
            """
        let court = try JSONDecoder().decode(Court.self, from: Data(stored.utf8))
        #expect(court.queue.map(\.name) == ["Owls"])
        #expect(court.streak == nil)
        #expect(court.joining == .admin)
    }
}
