import Courtside
import CourtsideTestSupport
import CourtsideViewModels
import Foundation
import Testing

@Suite("Spectators and the lobby", .ownThread)
struct SpectatorTests {
    @Test(
        "spectators are read-only: what they send is answered with an error and changes nothing",
        arguments: SocketTransport.allCases)
    func readOnly(over transport: SocketTransport) throws {
        let app = try TestApp()
        let game = try app.createGame()
        let spectator = try app.webSocket("/ws/games/\(game.id)", over: transport)
        #expect(try spectator.readJSON()["type"] == "snapshot")
        try spectator.send(json: command("c1"))
        let answer = try spectator.readJSON()
        #expect(answer["type"] == "error")
        #expect(answer["code"] == "read_only")
        #expect(try app.snapshot(game.id)["seq"] == 0)
        #expect(try app.snapshot(game.id)["state"]?["homeScore"] == 0)
    }

    @Test(
        "spectators joining while the scorer plays see every patch after their snapshot, without a gap",
        arguments: SocketTransport.allCases)
    func gapFreeJoin(over transport: SocketTransport) throws {
        let app = try TestApp()
        let game = try app.createGame([
            "homeTeam": "A", "homePlayers": ["a", "b", "c"], "awayTeam": "B", "awayPlayers": ["d", "e", "f"],
            "rules": ["preset": "custom", "targetScore": 999],
        ])
        let scorer = try app.scorer(game, over: transport)
        var spectators: [(WebSocketClient, DocumentMirror)] = []
        let total = 40
        for index in 0..<total {
            try scorer.send(
                json: command(
                    "c\(index)", move: index % 2 == 0 ? "rebound" : "onePoint",
                    player: index % 3 == 0 ? "away-1" : "home-2"))
            if index % 4 == 0 {
                spectators.append((try app.webSocket("/ws/games/\(game.id)", over: transport), DocumentMirror()))
            }
        }
        var acks = 0
        while acks < total { if try scorer.readJSON()["type"] == "ack" { acks += 1 } }
        let snapshot = try app.snapshot(game.id)
        #expect(snapshot["seq"]?.intValue == total)
        for index in spectators.indices {
            while spectators[index].1.seq < total { try spectators[index].1.take(try spectators[index].0.readJSON()) }
            #expect(spectators[index].1.snapshots == 1)
            #expect(spectators[index].1.state == snapshot["state"])
        }
    }

    @Test(
        "since=N resumes with just the missed patches; beyond the window or ahead, a snapshot",
        arguments: SocketTransport.allCases)
    func resumeWithSince(over transport: SocketTransport) throws {
        let app = try TestApp(configure: { $0.resumeWindow = 4 })
        let game = try app.createGame()
        let scorer = try app.scorer(game, over: transport)
        _ = try scorer.readJSON()
        for index in 0..<6 { try scorer.send(json: command("c\(index)", move: "assist")) }
        var acks = 0
        while acks < 6 { if try scorer.readJSON()["type"] == "ack" { acks += 1 } }
        let resumed = try app.webSocket("/ws/games/\(game.id)?since=3", over: transport)
        #expect(try (0..<3).map { _ in try resumed.readJSON()["seq"] } == [4, 5, 6])
        let current = try app.webSocket("/ws/games/\(game.id)?since=6", over: transport)
        try scorer.send(json: command("c9"))
        #expect(try current.readJSON()["seq"] == 7)
        let old = try app.webSocket("/ws/games/\(game.id)?since=1", over: transport)
        let message = try old.readJSON()
        #expect(message["type"] == "snapshot")
        #expect(message["seq"] == 7)
        let ahead = try app.webSocket("/ws/games/\(game.id)?since=50", over: transport)
        #expect(try ahead.readJSON()["type"] == "snapshot")
    }

    @Test("server-sent events carry id: seq and resume from Last-Event-ID", arguments: SocketTransport.allCases)
    func serverSentEvents(over transport: SocketTransport) throws {
        let app = try TestApp()
        let game = try app.createGame()
        for index in 0..<3 {
            _ = try app.request(
                "POST", "/api/games/\(game.id)/commands", headers: ["Authorization": "Bearer \(game.token)"],
                json: command("c\(index)"))
        }
        let stream = try app.connect(over: transport)
        let head = try stream.request("GET", "/api/games/\(game.id)/events", readBody: false)
        #expect(head.status == 200)
        #expect(head.header("Content-Type")?.hasPrefix("text/event-stream") == true)
        let first = try EventReader(stream).next()
        #expect(first.id == "3")
        #expect(try JSONValue(parsing: first.data)["type"] == "snapshot")
        let resumed = try app.connect(over: transport)
        _ = try resumed.request(
            "GET", "/api/games/\(game.id)/events", headers: ["Last-Event-ID": "3"], readBody: false)
        _ = try app.request(
            "POST", "/api/games/\(game.id)/commands", headers: ["Authorization": "Bearer \(game.token)"],
            json: command("c9"))
        let event = try EventReader(resumed).next()
        #expect(event.id == "4")
        #expect(try JSONValue(parsing: event.data)["type"] == "patch")
        let next = try EventReader(stream).next()
        #expect(next.id == "4")
    }

    @Test(
        "the lobby socket gets a snapshot, then a patch when a game is created or scores",
        arguments: SocketTransport.allCases)
    func lobby(over transport: SocketTransport) throws {
        let app = try TestApp()
        let first = try app.createGame()
        let lobby = try app.webSocket("/ws/games", over: transport)
        var mirror = DocumentMirror()
        try mirror.take(try lobby.readJSON())
        #expect(mirror.state["games"]?[first.id]?["homeTeam"] == "Lakers")
        let second = try app.createGame()
        try mirror.take(try lobby.readJSON())
        #expect(mirror.state["games"]?[second.id] != nil)
        _ = try app.request(
            "POST", "/api/games/\(first.id)/commands", headers: ["Authorization": "Bearer \(first.token)"],
            json: command("c1"))
        try mirror.take(try lobby.readJSON())
        #expect(mirror.state["games"]?[first.id]?["homeScore"] == 2)
        try lobby.send(text: "hello")
        #expect(try lobby.readJSON()["code"] == "read_only")
    }

    @Test("connections per client address are capped, plain ones included: past the cap every connection gets 503")
    func perAddressCap() throws {
        let app = try TestApp(configure: { $0.maxConnectionsPerAddress = 2 })
        let game = try app.createGame()
        // The creating request's connection counts until the server has seen it close (bounded wait).
        #expect(eventually { app.app.metrics.render().contains("courtside_connections 0\n") })
        let a = try WebSocketClient(port: app.port, path: "/ws/games/\(game.id)")
        let b = try WebSocketClient(port: app.port, path: "/ws/games")
        _ = try a.readJSON()
        _ = try b.readJSON()
        let refused = try WebSocketClient.upgrade(app.connect(), path: "/ws/games/\(game.id)")
        #expect(refused.status == 503)
        #expect(try app.request("GET", "/api/games/\(game.id)/events").status == 503)
        #expect(try app.request("GET", "/healthz").status == 503, "plain requests count too, not only WebSockets")
        // Read in process: a GET /metrics from this address would be refused too.
        let metrics = app.app.metrics.render()
        #expect(metrics.contains("courtside_connections_refused_total{cap=\"per_address\"} 3\n"), "\(metrics)")
        #expect(metrics.contains("courtside_connections 2\n"))
        a.close()
        var reopened: WebSocketClient?
        #expect(
            eventually {
                reopened = try? WebSocketClient(port: app.port, path: "/ws/games/\(game.id)")
                return reopened != nil
            })
    }
}

/// Reads server-sent events from a chunked stream.
struct EventReader {
    let socket: LoopbackSocket

    init(_ socket: LoopbackSocket) { self.socket = socket }

    /// The next event (skipping keep-alive comments), with its id, its name (`event:`, nil for a plain message)
    /// and data.
    func next() throws -> (id: String?, event: String?, data: String) {
        while true {
            let sizeLine = String(decoding: try socket.take(through: Array("\r\n".utf8), "chunk size"), as: UTF8.self)
            guard let size = Int(sizeLine.trimmingCharacters(in: .whitespacesAndNewlines), radix: 16) else {
                throw ClientError("chunk size \(sizeLine)")
            }
            let chunk = String(decoding: try socket.take(size + 2, "chunk"), as: UTF8.self)
            var id: String?
            var event: String?
            var data: [String] = []
            for line in chunk.split(separator: "\n") {
                if line.hasPrefix("id: ") { id = String(line.dropFirst(4)) }
                if line.hasPrefix("event: ") { event = String(line.dropFirst(7)) }
                if line.hasPrefix("data: ") { data.append(String(line.dropFirst(6))) }
            }
            if !data.isEmpty { return (id, event, data.joined(separator: "\n")) }
        }
    }
}
