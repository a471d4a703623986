import Courtside
import CourtsideTestSupport
import CourtsideViewModels
import Foundation
import Testing

/// Two scorers who confirm each other, over real sockets (docs/protocol.md, "Two scorers who confirm each other"):
/// the game's scorer token and a crew member with the role `scorer`, each on a socket of its own, each keeping the
/// document from the snapshot and the patches as a page does.
@Suite("Two scorers on two sockets: pending, conflicts shown to both, resolutions, nothing counted twice", .ownThread)
struct DualConfirmationSocketTests {
    /// One scorer's socket and its copy of the document.
    final class Table {
        let client: WebSocketClient
        var mirror = DocumentMirror()

        init(_ client: WebSocketClient) {
            self.client = client
        }

        /// Sends `command` and reads until its answer (ack or error), keeping the document; returns the answer.
        @discardableResult
        func send(_ command: JSONValue) throws -> JSONValue {
            try client.send(json: command)
            for _ in 0..<200 {
                let message = try client.readJSON()
                if message["id"] == command["id"], message["type"] != "patch" { return message }
                try mirror.take(message)
            }
            throw ClientError("no answer to \(command)")
        }

        /// Reads (each read with the client's deadline) until the document satisfies `condition`.
        func waitUntil(_ what: String, _ condition: (JSONValue) -> Bool) throws {
            for _ in 0..<200 {
                if mirror.seq >= 0, condition(mirror.state) { return }
                do {
                    try mirror.take(try client.readJSON())
                } catch {
                    throw ClientError("waiting for \(what): \(error); the document: \(mirror.state)")
                }
            }
            throw ClientError("the document never showed \(what)")
        }
    }

    static func conflicts(_ state: JSONValue) -> [JSONValue] { state["conflicts"]?.arrayValue ?? [] }

    @Test("a disagreement reaches both scorers at once, a closed window too; resolutions count once")
    func twoScorers() throws {
        let app = try TestApp()
        let game = try app.createGame([
            "homeTeam": "Lakers", "homePlayers": ["Ann", "Bo", "Cy"], "awayTeam": "Celtics",
            "awayPlayers": ["Di", "Ed", "Flo"],
            "rules": ["preset": "pickup", "confirmation": "dual", "confirmWindowMs": 1000],
        ])
        let member = try CrewSocketTests.addMember(app, game, role: "scorer", label: "Check sheet")
        let first = Table(try app.scorer(game))
        let second = Table(try app.scorer((game.id, member.token)))
        for table in [first, second] { try table.waitUntil("the snapshot") { $0["rules"]?["confirmation"] == "dual" } }

        // Agreement: pending for both, then confirmed, counted once.
        #expect(try first.send(command("a1", move: "onePoint", player: "home-0"))["type"] == "ack")
        try second.waitUntil("the pending play") { $0["plays"]?.arrayValue?.first?["pending"] == true }
        #expect(second.mirror.state["homeScore"] == 0)
        #expect(try second.send(command("b1", move: "onePoint", player: "home-0"))["type"] == "ack")
        for table in [first, second] { try table.waitUntil("the confirmed point") { $0["homeScore"] == 1 } }
        #expect(first.mirror.state["plays"]?.arrayValue?.first?["pending"] == nil)

        // Disagreement: Bo for one scorer, Cy for the other; both see the conflict with both versions.
        try first.send(command("a2", move: "twoPoints", player: "home-1"))
        try second.send(command("b2", move: "twoPoints", player: "home-2"))
        for table in [first, second] {
            try table.waitUntil("the conflict") { !Self.conflicts($0).isEmpty }
            #expect(
                Self.conflicts(table.mirror.state) == [
                    [
                        "play": 2, "first": ["team": "home", "player": "home-1", "move": "twoPoints"],
                        "second": ["team": "home", "player": "home-2", "move": "twoPoints"],
                    ]
                ])
            #expect(table.mirror.state["homeScore"] == 1)
        }
        // The judge-less crew: a resolve by the second scorer; a second resolve of the same play is refused.
        #expect(try second.send(["type": "resolve", "id": "b3", "play": 2, "keep": "first"])["type"] == "ack")
        let again = try first.send(["type": "resolve", "id": "a3", "play": 2, "keep": "second"])
        #expect(again["code"] == "not_in_conflict")
        for table in [first, second] {
            try table.waitUntil("the resolution") { Self.conflicts($0).isEmpty && $0["homeScore"] == 3 }
        }

        // No answer: the window closes on the server's own timer, and both scorers see a conflict with no second.
        #expect(try first.send(command("a4", move: "twoPoints", player: "away-0"))["type"] == "ack")
        for table in [first, second] {
            try table.waitUntil("the closed window") { Self.conflicts($0).first?["second"] == .null }
            #expect(Self.conflicts(table.mirror.state).first?["play"] == 3)
        }
        try first.send(["type": "resolve", "id": "a5", "play": 3, "keep": "neither"])
        for table in [first, second] { try table.waitUntil("no conflict") { Self.conflicts($0).isEmpty } }

        let snapshot = try app.snapshot(game.id)
        #expect(snapshot["state"]?["score"] == "3 - 0")
        #expect(first.mirror.state == snapshot["state"])
        #expect(second.mirror.state == snapshot["state"])
        // The plays report: who entered and who confirmed or resolved each play.
        let plays = try app.request("GET", "/api/games/\(game.id)/plays").json["plays"]?.arrayValue ?? []
        #expect(plays.map { $0["enteredBy"] } == ["scorer", "scorer", "scorer"])
        #expect(plays.map { $0["confirmedBy"] } == ["m1", nil, nil])
        #expect(plays.map { $0["resolvedBy"] } == [nil, "m1", "scorer"])
        #expect(plays.map { $0["kept"] } == [nil, "first", "neither"])
        #expect(plays.map { $0["awayScore"] } == [0, 0, 0])
    }

    @Test("POST commands takes a crew member's token with its role: a second scorer confirms over HTTP")
    func memberCommandsOverHTTP() throws {
        let app = try TestApp()
        let game = try app.createGame([
            "homeTeam": "Lakers", "homePlayers": ["Ann", "Bo", "Cy"], "awayTeam": "Celtics",
            "awayPlayers": ["Di", "Ed", "Flo"], "rules": ["preset": "pickup", "confirmation": "dual"],
        ])
        let second = try CrewSocketTests.addMember(app, game, role: "scorer", label: "Check sheet")
        let stats = try CrewSocketTests.addMember(app, game, role: "stats", label: "Stats")
        func post(_ token: String, _ body: JSONValue) throws -> ClientResponse {
            try app.request(
                "POST", "/api/games/\(game.id)/commands", headers: ["Authorization": "Bearer \(token)"], json: body)
        }
        #expect(try post(game.token, command("h1", move: "onePoint")).status == 200)
        let confirmed = try post(second.token, command("h2", move: "onePoint"))
        #expect(confirmed.status == 200)
        #expect(try confirmed.json["type"] == "ack")
        #expect(try app.snapshot(game.id)["state"]?["homeScore"] == 1)
        let refused = try post(stats.token, command("h3", move: "twoPoints"))
        #expect(refused.status == 403)
        #expect(try refused.json["code"] == "not_allowed_for_role")
        #expect(try post(stats.token, command("h4", move: "rebound")).status == 200)
        #expect(try post("0123456789abcdef0123456789abcdef", command("h5")).status == 403)
        let plays = try app.request("GET", "/api/games/\(game.id)/plays").json["plays"]?.arrayValue ?? []
        #expect(plays.map { $0["confirmedBy"] } == ["m1", nil])
        #expect(plays.map { $0["enteredBy"] } == ["scorer", "m2"])
    }

    @Test("a game without dual confirmation counts a crew scorer's move at once, as before")
    func singleByDefault() throws {
        let app = try TestApp()
        let game = try app.createGame()
        let member = try CrewSocketTests.addMember(app, game, role: "scorer")
        let table = Table(try app.scorer((game.id, member.token)))
        try table.send(command("m1"))
        try table.waitUntil("the basket") { $0["homeScore"] == 2 }
        #expect(table.mirror.state["conflicts"] == nil)
        #expect(table.mirror.state["plays"]?.arrayValue?.first?["pending"] == nil)
    }

    @Test("bad confirmation rules are refused with invalid_game naming the field")
    func badRules() throws {
        let app = try TestApp()
        func body(rules: JSONValue) -> JSONValue {
            [
                "homeTeam": "Lakers", "homePlayers": ["Ann", "Bo", "Cy"], "awayTeam": "Celtics",
                "awayPlayers": ["Di", "Ed", "Flo"], "rules": rules,
            ]
        }
        let response = try app.request(
            "POST", "/api/games", headers: ["Authorization": "Bearer \(TestApp.adminToken)"],
            json: body(rules: ["preset": "pickup", "confirmation": "dual", "confirmWindowMs": 10]))
        #expect(response.status == 400)
        #expect(try response.json["fields"]?["confirmWindowMs"] != nil)
        let unknown = try app.request(
            "POST", "/api/games", headers: ["Authorization": "Bearer \(TestApp.adminToken)"],
            json: body(rules: ["preset": "pickup", "confirmation": "triple"]))
        #expect(try unknown.json["fields"]?["confirmation"] != nil)
    }
}
