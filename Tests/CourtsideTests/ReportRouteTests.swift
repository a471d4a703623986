import Courtside
import CourtsideTestSupport
import CourtsideViewModels
import Foundation
import Testing

/// The routes of a real game: the play-by-play and the box score (JSON and CSV), final and the admin's reopen.
@Suite("HTTP routes: plays, box score, final and reopen", .ownThread)
struct ReportRouteTests {
    static let fibaGame: JSONValue = [
        "homeTeam": "Lakers",
        "homePlayers": [["name": "=HYPERLINK(\"x\")", "number": "7"], "Bo, Jr.", "Cy"],
        "awayTeam": "Celtics", "awayPlayers": ["Di", "Ed", "Flo \"The Flash\""], "rules": ["preset": "fiba3x3"],
    ]

    static func post(_ app: TestApp, _ game: (id: String, token: String), _ command: JSONValue) throws -> JSONValue {
        try app.routed(
            "POST", "/api/games/\(game.id)/commands", headers: ["Authorization": "Bearer \(game.token)"], json: command
        ).json
    }

    @Test("plays and box score as JSON: every play with its seq, the totals equal the score")
    func reportsAsJSON() throws {
        let app = try TestApp()
        let game = try app.createGame(Self.fibaGame)
        for (index, (player, move)) in [("home-0", "twoPoints"), ("away-2", "onePoint"), ("home-1", "foul")]
            .enumerated()
        {
            let ack = try Self.post(
                app, game,
                ["type": "move", "id": .string("m\(index)"), "player": .string(player), "move": .string(move)])
            #expect(ack["seq"] == .int(index + 1))
        }
        let edit = try Self.post(
            app, game, ["type": "editPlay", "id": "e1", "play": 1, "player": "home-1", "move": "onePoint"])
        #expect(edit["type"] == "ack")
        let plays = try app.routed("GET", "/api/games/\(game.id)/plays")
        #expect(plays.status == 200)
        let list = try #require(try plays.json["plays"]?.arrayValue)
        #expect(list.count == 3)
        #expect(list[0]["seq"] == 1)
        #expect(list[0]["edited"] == true)
        #expect(list[0]["player"] == "home-1")
        #expect(list[0]["playerName"] == "Bo, Jr.")
        #expect(list[0]["period"] == 1)
        #expect(list[2]["move"] == "foul")
        let box = try app.routed("GET", "/api/games/\(game.id)/boxscore").json
        #expect(box["score"] == "1 - 1")
        #expect(box["homeTeam"]?["totals"]?["points"] == 1)
        #expect(box["awayTeam"]?["totals"]?["points"] == 1)
        #expect(box["homeTeam"]?["teamFouls"] == 1)
        #expect(box["homeTeam"]?["players"]?.arrayValue?[0]["number"] == "7")
        #expect(box["homeTeam"]?["players"]?.arrayValue?[1]["points"] == 1)
        #expect(box["homeTeam"]?["players"]?.arrayValue?[1]["fieldGoalsAttempted"] == 1)
        #expect(box["homeTeam"]?["players"]?.arrayValue?[1]["fouls"] == 1)
        #expect(box["homeTeam"]?["players"]?.arrayValue?[1]["minutes"] == "00:00")
        #expect(box["periodScores"] == [[1, 1]])
        #expect(list[0]["homeScore"] == 1 && list[0]["awayScore"] == 0, "the score after the play")
        #expect(list[1]["homeScore"] == 1 && list[1]["awayScore"] == 1)
        #expect(try app.routed("POST", "/api/games/\(game.id)/boxscore").status == 405)
        #expect(try app.routed("GET", "/api/games/nope/plays").status == 404)
    }

    @Test("the CSVs are RFC 4180 with CRLF and every text quoted, and formulas are defused")
    func reportsAsCSV() throws {
        let app = try TestApp()
        let game = try app.createGame(Self.fibaGame)
        _ = try Self.post(app, game, ["type": "move", "id": "m1", "player": "home-0", "move": "twoPoints"])
        _ = try Self.post(app, game, ["type": "move", "id": "m2", "player": "away-2", "move": "onePoint"])
        let box = try app.routed("GET", "/api/games/\(game.id)/boxscore.csv")
        #expect(box.status == 200)
        #expect(box.header("Content-Type") == "text/csv; charset=utf-8; header=present")
        #expect(box.header("Content-Disposition") == "attachment; filename=\"\(game.id)-boxscore.csv\"")
        let text = box.text
        #expect(
            text.hasPrefix(
                "\u{FEFF}\"Team\",\"Number\",\"Player\",\"MIN\",\"PTS\",\"FGM-A\",\"FG%\",\"2PM-A\",\"3PM-A\",\"FTM-A\",\"OREB\",\"DREB\",\"REB\",\"AST\",\"TOV\",\"STL\",\"BLK\",\"PF\",\"'+/-\",\"EFF\"\r\n"
            ))
        // A 3x3 game: 3 on court all the time, so everybody's plus-minus follows the score (2 - 1). Every text cell
        // is quoted, numbers and empty cells are bare.
        #expect(
            text.contains(
                "\r\n\"Lakers\",\"7\",\"'=HYPERLINK(\"\"x\"\")\",\"00:00\",2,\"1-1\",\"100.0\",\"1-1\",\"0-0\",\"0-0\",0,0,0,0,0,0,0,0,1,2\r\n"
            ))
        #expect(
            text.contains(
                "\r\n\"Lakers\",,\"Bo, Jr.\",\"00:00\",0,\"0-0\",\"\",\"0-0\",\"0-0\",\"0-0\",0,0,0,0,0,0,0,0,1,0\r\n"))
        #expect(
            text.contains(
                "\r\n\"Celtics\",,\"Flo \"\"The Flash\"\"\",\"00:00\",1,\"1-1\",\"100.0\",\"0-0\",\"0-0\",\"0-0\",0,0,0,0,0,0,0,0,-1,1\r\n"
            ))
        #expect(text.contains("\r\n\"Lakers\",,\"TEAM\",,,,,,,,,,0,,0,,,0,,\r\n"))
        #expect(
            text.contains(
                "\r\n\"Lakers\",,\"TOTAL\",\"00:00\",2,\"1-1\",\"100.0\",\"1-1\",\"0-0\",\"0-0\",0,0,0,0,0,0,0,0,3,2\r\n"
            ))
        #expect(
            text.contains(
                "\r\n\"Celtics\",,\"TOTAL\",\"00:00\",1,\"1-1\",\"100.0\",\"0-0\",\"0-0\",\"0-0\",0,0,0,0,0,0,0,0,-3,1\r\n"
            ))
        #expect(text.contains("\r\n\"Lakers\",,\"PERIOD 1\",,2,,,,,,,,,,,,,,,\r\n"))
        let plays = try app.routed("GET", "/api/games/\(game.id)/plays.csv").text
        let lines = plays.components(separatedBy: "\r\n")
        #expect(
            lines[0]
                == "\u{FEFF}\"Play\",\"Seq\",\"Period\",\"Clock\",\"Time (Unix ms)\",\"Team\",\"Number\",\"Player\",\"Move\",\"Edited\",\"Deleted\",\"Score\""
        )
        #expect(lines[1].hasPrefix("1,1,1,\"00:00.0\","))
        #expect(
            lines[1].hasSuffix(
                ",\"Lakers\",\"7\",\"'=HYPERLINK(\"\"x\"\")\",\"twoPoints\",\"no\",\"no\",\"2 - 0\""))
        #expect(lines[2].hasSuffix(",\"onePoint\",\"no\",\"no\",\"2 - 1\""))
        #expect(lines.count == 4)
    }

    @Test("final locks the game (game_locked, 409); the admin token reopens it; reopening an open game is 409")
    func finalAndReopen() throws {
        let app = try TestApp()
        let game = try app.createGame(Self.fibaGame)
        #expect(try Self.post(app, game, ["type": "final", "id": "f"])["seq"] == 1)
        let locked = try app.routed(
            "POST", "/api/games/\(game.id)/commands", headers: ["Authorization": "Bearer \(game.token)"],
            json: ["type": "move", "id": "m", "player": "home-0", "move": "onePoint"])
        #expect(locked.status == 409)
        #expect(try locked.json["code"] == "game_locked")
        #expect(try app.snapshot(game.id)["state"]?["isLocked"] == true)
        #expect(try app.routed("POST", "/api/games/\(game.id)/reopen").status == 401)
        let scorer = try app.routed(
            "POST", "/api/games/\(game.id)/reopen", headers: ["Authorization": "Bearer \(game.token)"])
        #expect(scorer.status == 403, "the scorer token does not reopen")
        let admin = ["Authorization": "Bearer \(TestApp.adminToken)"]
        let reopened = try app.routed("POST", "/api/games/\(game.id)/reopen", headers: admin)
        #expect(reopened.status == 200)
        #expect(try reopened.json == ["v": 1, "type": "reopened", "game": .string(game.id), "seq": 2])
        #expect(try app.snapshot(game.id)["state"]?["isLocked"] == false)
        let again = try app.routed("POST", "/api/games/\(game.id)/reopen", headers: admin)
        #expect(again.status == 409)
        #expect(try again.json["code"] == "not_locked")
        // The refused id keeps its answer (a refusal is remembered); a new command is applied.
        let retry = try Self.post(app, game, ["type": "move", "id": "m", "player": "home-0", "move": "onePoint"])
        #expect(retry["code"] == "game_locked")
        #expect(
            try Self.post(app, game, ["type": "move", "id": "m2", "player": "home-0", "move": "onePoint"])["seq"] == 3)
        #expect(try app.routed("GET", "/api/games/\(game.id)/reopen").status == 405)
    }

    @Test("a restart serves the same document: plays keep their seq, the reopened lock and the 5x5 state replay")
    func restartKeepsTheDocument() throws {
        let directory = TestApp.makeTemporaryDirectory()
        var before: JSONValue = .null
        var id = ""
        do {
            let app = try TestApp(dataDirectory: directory)
            let names: [JSONValue] = (1...6).map { .string("P\($0)") }
            let game = try app.createGame([
                "homeTeam": "A", "homePlayers": .array(names), "awayTeam": "B", "awayPlayers": .array(names),
                "rules": ["preset": "fiba5x5"],
            ])
            id = game.id
            let commands: [JSONValue] = [
                ["type": "clock", "id": "c1", "action": "start"],
                ["type": "move", "id": "c2", "player": "home-5", "move": "foul"],
                ["type": "substitute", "id": "c3", "team": "home", "out": "home-0", "in": "home-5"],
                ["type": "timeout", "id": "c4", "team": "away"],
                ["type": "shotClock", "id": "c5", "action": "reset", "ms": 14000],
                ["type": "move", "id": "c6", "player": "away-1", "move": "twoPoints"],
                ["type": "deletePlay", "id": "c7", "play": 1],
                ["type": "final", "id": "c8"],
            ]
            for command in commands { #expect(try Self.post(app, game, command)["type"] == "ack") }
            #expect(
                try app.routed(
                    "POST", "/api/games/\(game.id)/reopen",
                    headers: ["Authorization": "Bearer \(TestApp.adminToken)"]
                ).status == 200)
            before = try app.snapshot(game.id)
            app.app.shutdown()
        }
        let restarted = try TestApp(dataDirectory: directory)
        let after = try restarted.snapshot(id)
        #expect(after == before)
        #expect(after["state"]?["plays"]?.arrayValue?.map { $0["seq"] } == [2, 6])
        #expect(after["state"]?["homePlayers"]?.arrayValue?[5]["onCourt"] == true)
    }
}
