import Courtside
import CourtsideJournal
import CourtsideTestSupport
import CourtsideViewModels
import Testing

@Suite("Slow consumers", .ownThread)
struct SlowConsumerTests {
    @Test("a spectator that stops reading is resynced with a fresh snapshot and never blocks the game")
    func slowSpectatorIsResynced() throws {
        let app = try TestApp(
            journal: InMemoryJournal(),
            configure: {
                $0.maxQueuedBytesPerConnection = 4096
                $0.commandBurst = 10_000
                // The sleeper makes no write progress for the whole test, which on a busy machine can pass the
                // default 30 s write deadline (that deadline has its own tests); here only the resync is tested.
                $0.writeTimeout = .seconds(600)
                // Nor may it be taken for dead: it never answers the idle ping sent after 30 s of its silence, and
                // on a busy machine this test runs past the 30 + 20 s that closes such a client.
                $0.webSocketIdlePingInterval = nil
            })
        let game = try app.createGame([
            "homeTeam": "A", "homePlayers": ["a", "b", "c"], "awayTeam": "B", "awayPlayers": ["d", "e", "f"],
            "rules": ["preset": "custom", "targetScore": 999],
        ])
        let slow = try WebSocketClient(
            port: app.port, path: "/ws/games/\(game.id)", timeout: .seconds(10), receiveBufferBytes: 2048)
        // Reads wait up to 30 s: beside five compilers a burst's acks took over 5 s to come (a timeout, not a fault).
        let scorer = try app.scorer(game, timeout: .seconds(30))
        _ = try scorer.readJSON()
        let moves = ["rebound", "assist", "foul"]
        // In bursts of 200 (below the game's limit of writes waiting for the disk), each answered before the next,
        // until the server has resynced the sleeper. How many bytes the kernel absorbs first depends on how far it
        // grew the socket's send buffer (on loopback, up to megabytes), so the test waits for the condition, bounded
        // at 100 bursts (some 3 MB of patches), instead of assuming a count.
        var total = 0
        for _ in 0..<100 {
            for index in total..<(total + 200) {
                try scorer.send(json: command("c\(index)", move: moves[index % 3], player: "home-\(index % 3)"))
            }
            var acks = 0
            while acks < 200 {
                let message: JSONValue
                do { message = try scorer.readJSON() } catch {
                    Issue.record("the scorer, \(acks) acks into the burst after \(total) commands: \(error)")
                    throw error
                }
                #expect(message["type"] != "error")
                if message["type"] == "ack" { acks += 1 }
            }
            total += 200
            let metrics = try app.request("GET", "/metrics").text
            if total >= 4000 && !metrics.contains("courtside_slow_consumers_total{action=\"resynced\"} 0") { break }
        }
        // The game went on while the spectator slept: every command was acked.
        let final = try app.snapshot(game.id)
        #expect(final["seq"]?.intValue == total)
        var mirror = DocumentMirror()
        while mirror.seq < total {
            do { try mirror.take(try slow.readJSON()) } catch {
                Issue.record("the sleeper, at seq \(mirror.seq) of \(total): \(error)")
                throw error
            }
        }
        #expect(mirror.snapshots >= 2)
        #expect(mirror.state == final["state"])
        let metrics = try app.request("GET", "/metrics").text
        #expect(!metrics.contains("courtside_slow_consumers_total{action=\"resynced\"} 0"))
    }
}
