import Courtside
import CourtsideModel
import CourtsideTestSupport
import CourtsideViewModels
import Testing

/// The three ways a command reaches a game: the application's API (the demo scorer's path), `POST …/commands`, and
/// the scorer socket.
enum CommandTransport: String, CaseIterable, CustomTestStringConvertible {
    case api
    case post
    case socket

    var testDescription: String { rawValue }

    /// A sender of command JSON returning the answer, for one game of `app`.
    func sender(app: TestApp, game: (id: String, token: String)) throws -> (JSONValue) throws -> JSONValue {
        switch self {
        case .api:
            return { command in
                let answer = Answer()
                app.app.submit(command: command.canonicalBytes, toGame: GameID(game.id)) { answer.set($0) }
                return try JSONValue(parsing: answer.wait())
            }
        case .post:
            return { command in
                try app.request(
                    "POST", "/api/games/\(game.id)/commands", headers: ["Authorization": "Bearer \(game.token)"],
                    json: command
                ).json
            }
        case .socket:
            let scorer = try app.scorer(game)
            _ = try scorer.readJSON()
            return { command in
                try scorer.send(json: command)
                while true {
                    let message = try scorer.readJSON()
                    if message["type"] == "ack" || message["type"] == "error" { return message }
                }
            }
        }
    }
}

@Suite("One scenario, every transport", .ownThread)
struct TransportTests {
    @Test(
        "acks, retries with the original seq, refusals and a reused id answer the same on every path",
        arguments: CommandTransport.allCases)
    func scenario(transport: CommandTransport) throws {
        let app = try TestApp()
        let game = try app.createGame()
        let send = try transport.sender(app: app, game: game)
        #expect(try send(command("a")) == ["v": 1, "type": "ack", "id": "a", "seq": 1])
        #expect(
            try send(["type": "clock", "id": "b", "action": "start"]) == ["v": 1, "type": "ack", "id": "b", "seq": 2])
        // Paused again, so refusals below cannot refresh a running clock's `time` (which would publish a message).
        #expect(
            try send(["type": "clock", "id": "p", "action": "pause"]) == ["v": 1, "type": "ack", "id": "p", "seq": 3])
        #expect(try send(command("a")) == ["v": 1, "type": "ack", "id": "a", "seq": 1])
        #expect(try send(command("c", player: "home-5"))["code"] == "unknown_player")
        #expect(try send(command("a", move: "foul"))["code"] == "command_id_reused")
        #expect(try send(["type": "undo", "id": "d"]) == ["v": 1, "type": "ack", "id": "d", "seq": 4])
        #expect(try send(["type": "undo", "id": "e"])["code"] == "nothing_to_undo")
        let state = try app.snapshot(game.id)
        #expect(state["seq"] == 4)
        #expect(state["state"]?["homeScore"] == 0)
        #expect(state["state"]?["isPaused"] == true)
    }
}
