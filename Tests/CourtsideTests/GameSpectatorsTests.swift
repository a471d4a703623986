import CourtsideModel
import CourtsideNet
import CourtsideTestSupport
import CourtsideViewModels
import Foundation
import Synchronization
import Testing

@testable import Courtside

/// `GameSpectators`: one handler serves every spectator of a game on a loop, so what each spectator used to keep in
/// its own handler (its address, its `since`, its drain wait) is derived from its socket or kept out of line.
@Suite("Spectators share a handler per game per loop", .ownThread)
struct GameSpectatorsTests {
    @Test("one handler per game per loop; a client a proxy named gets a wrapper carrying its address")
    func oneHandlerPerGamePerLoop() throws {
        let group = try EventLoopGroup(threadCount: 2)
        defer { group.shutdown() }
        let environment = SocketEnvironment(
            metrics: ServerMetrics(), limiter: ConnectionLimiter(limit: 10), address: "10.0.0.1", budget: 4096,
            scheduler: ManualScheduler())
        func game(_ id: String) -> GameHandle {
            GameHandle(
                id: GameID(id), loop: group.loops[0], scorerTokenSHA256: [], registryKey: ObjectIdentifier(group))
        }
        let (first, second) = (game("game-1"), game("game-2"))
        let plain = ClientAddress(address: "10.0.0.1", peer: "10.0.0.1")
        let forwarded = ClientAddress(address: "203.0.113.9", peer: "10.0.0.1")
        // Each loop's handlers, made on that loop as the router makes them.
        let made = try group.loops.map { loop in
            try onLoop(loop) { context in
                let make = { (game: GameHandle, client: ClientAddress) in
                    GameSpectators.handler(for: game, client: client, environment: environment, context: context)
                }
                let (one, two) = (make(first, plain), make(first, plain))
                return Made(
                    shared: ObjectIdentifier(one), sameForTwo: one === two,
                    ownForAnotherGame: make(second, plain) !== one, isShared: one is GameSpectators,
                    forwardedWrapped: make(first, forwarded) is ForwardedSpectator)
            }
        }
        for handlers in made {
            #expect(handlers.sameForTwo, "two spectators of a game on one loop share its handler")
            #expect(handlers.ownForAnotherGame, "another game has its own")
            #expect(handlers.isShared)
            #expect(handlers.forwardedWrapped, "a forwarded client's slot is released under its address")
        }
        #expect(made[0].shared != made[1].shared, "each loop has its own: the handler is loop-confined")
    }

    private struct Made: Sendable {
        let shared: ObjectIdentifier
        let sameForTwo, ownForAnotherGame, isShared, forwardedWrapped: Bool
    }

    @Test("open spectators are counted per game; each closed one releases its address's slot exactly once")
    func slotsAndViewerCounts() throws {
        let app = try TestApp(configure: { $0.maxConnectionsPerAddress = 4 })
        let game = try app.createGame()
        let id = GameID(game.id)
        let limiter = app.app.core.limiter
        // The creating request's connection counts until the server has seen it close.
        #expect(eventually { app.app.metrics.render().contains("courtside_connections 0\n") })
        var spectators = try (0..<3).map { _ in try WebSocketClient(port: app.port, path: "/ws/games/\(game.id)") }
        for spectator in spectators { #expect(try spectator.readJSON()["type"] == "snapshot") }
        #expect(limiter.count(for: "127.0.0.1") == 3)
        #expect(app.app.metrics.spectatorCounts[id] == 3)
        #expect(app.app.metrics.openConnections(.spectator) == 3)
        spectators.removeFirst().close()
        // Released once: a second release would leave 1 where 2 are open.
        #expect(eventually { app.app.metrics.openConnections(.spectator) == 2 })
        #expect(limiter.count(for: "127.0.0.1") == 2)
        #expect(app.app.metrics.spectatorCounts[id] == 2)
        // The shared handler still answers each socket on its own.
        try spectators[0].send(text: "hello")
        #expect(try spectators[0].readJSON()["code"] == "read_only")
        for spectator in spectators { spectator.close() }
        #expect(eventually { app.app.metrics.openConnections(.spectator) == 0 })
        #expect(limiter.count(for: "127.0.0.1") == 0)
        #expect(app.app.metrics.spectatorCounts[id] == nil)
    }

    @Test("a spectator's socket does not carry its request path; since=N is still read from its query")
    func pathNotKeptQueryRead() throws {
        let app = try TestApp()
        let game = try app.createGame()
        let scorer = try app.scorer(game)
        _ = try scorer.readJSON()
        for index in 0..<3 { try scorer.send(json: command("c\(index)", move: "assist")) }
        var acks = 0
        while acks < 3 { if try scorer.readJSON()["type"] == "ack" { acks += 1 } }
        let resumed = try WebSocketClient(port: app.port, path: "/ws/games/\(game.id)?since=1")
        let first = try resumed.readJSON()
        #expect(first["type"] == "patch")
        #expect(first["seq"] == 2)
    }

    /// A 2 KiB send budget per connection, and commands that never run out.
    static func smallBudget(_ configuration: inout ServerConfiguration) {
        configuration.maxQueuedBytesPerConnection = 2048
        configuration.commandBurst = 10_000
    }

    /// A game (no target score) with `played` acked rebounds, and its scorer.
    static func game(on app: TestApp, played: Int) throws -> (
        game: (id: String, token: String), scorer: WebSocketClient
    ) {
        let game = try app.createGame([
            "homeTeam": "A", "homePlayers": ["a", "b", "c"], "awayTeam": "B", "awayPlayers": ["d", "e", "f"],
            "rules": ["preset": "custom", "targetScore": 999],
        ])
        let scorer = try app.scorer(game, timeout: .seconds(30))
        for index in 0..<played { try scorer.send(json: command("c\(index)", move: "rebound", player: "home-1")) }
        var acks = 0
        while acks < played { if try scorer.readJSON()["type"] == "ack" { acks += 1 } }
        return (game, scorer)
    }

    @Test("a spectator whose catch-up passes its budget waits for its queue to drain, then gets a fresh snapshot")
    func catchUpPastBudgetWaitsThenResyncs() throws {
        let app = try TestApp(configure: Self.smallBudget)
        let total = 60
        let (game, scorer) = try Self.game(on: app, played: total)
        // 60 patches queued in one join are several budgets: they go out, and the socket, not subscribed meanwhile,
        // waits for its queue to drain, then asks again (it may have missed patches published while it waited).
        let spectator = try WebSocketClient(port: app.port, path: "/ws/games/\(game.id)?since=0", timeout: .seconds(30))
        var kinds: [String] = []
        var snapshotSeq: Int?
        while snapshotSeq == nil, kinds.count <= total + 1 {
            let message = try spectator.readJSON()
            let type = message["type"]?.stringValue ?? "?"
            kinds.append(type)
            if type == "snapshot" { snapshotSeq = message["seq"]?.intValue }
        }
        #expect(kinds.first == "patch", "the catch-up began: \(kinds)")
        #expect(snapshotSeq == total, "once drained it re-joined with a snapshot: \(kinds)")
        #expect(kinds.dropLast().allSatisfy { $0 == "patch" }, "what was queued went out first: \(kinds)")
        // Subscribed again: the next patch reaches it.
        try scorer.send(json: command("next", move: "rebound", player: "home-1"))
        var next: JSONValue
        repeat { next = try spectator.readJSON() } while next["type"] != "patch"
        #expect(next["seq"]?.intValue == total + 1)
        #expect(app.app.metrics.render().contains("courtside_slow_consumers_total{action=\"resynced\"}"))
    }

    @Test("a spectator behind after its join, whose queue drains with no drain callback, is re-joined by its poll")
    func drainPollRejoins() throws {
        // 60 patches are several budgets of 2 KiB but fit the kernel's buffers: the queue empties in one go, the
        // kernel never pushes back, and no drain callback comes. Only the poll (its time moved by hand) notices.
        let time = try SocketTimeByHand(configure: Self.smallBudget)
        let app = time.app
        let total = 60
        let (game, scorer) = try Self.game(on: app, played: total)
        // The scorer reads the same patches: on a busy machine its own queue may have armed a poll. Run it out, so
        // the one timer left to watch is the spectator's.
        try time.advance(by: .milliseconds(50))
        try #require(
            eventually { time.scheduler.scheduledTimerCount == 0 },
            "the scorer's authentication deadline was cancelled and no poll of its own is left")
        let spectator = try WebSocketClient(port: app.port, path: "/ws/games/\(game.id)?since=0", timeout: .seconds(30))
        try #require(eventually { time.scheduler.scheduledTimerCount == 1 }, "the spectator never armed its poll")
        #expect(time.scheduler.nextDeadline == time.scheduler.now + .milliseconds(50))
        for _ in 0..<total { #expect(try spectator.readJSON()["type"] == "patch") }
        #expect(time.scheduler.scheduledTimerCount == 1, "still waiting for its poll")
        try time.advance(by: .milliseconds(50))
        let snapshot = try spectator.readJSON()
        #expect(snapshot["type"] == "snapshot")
        #expect(snapshot["seq"]?.intValue == total)
        #expect(time.scheduler.scheduledTimerCount == 0, "re-joined: no poll left")
        scorer.close()
    }

    @Test("behind a trusted proxy a spectator's slot is the forwarded client's, released when it closes")
    func forwardedSlotReleased() throws {
        let app = try TestApp(configure: {
            $0.maxConnectionsPerAddress = 1
            $0.trustedProxies = [IPAddressRange("127.0.0.1")!]
        })
        let game = try app.createGame()
        let limiter = app.app.core.limiter
        let headers = ["X-Forwarded-For": "203.0.113.1"]
        let first = try WebSocketClient(port: app.port, path: "/ws/games/\(game.id)", headers: headers)
        #expect(try first.readJSON()["type"] == "snapshot")
        #expect(limiter.count(for: "203.0.113.1") == 1)
        #expect(limiter.count(for: "127.0.0.1") == 0)
        let refused = try WebSocketClient.upgrade(app.connect(), path: "/ws/games/\(game.id)", headers: headers)
        #expect(refused.status == 429)
        first.close()
        #expect(eventually { limiter.count(for: "203.0.113.1") == 0 })
        let again = try WebSocketClient(port: app.port, path: "/ws/games/\(game.id)", headers: headers)
        #expect(try again.readJSON()["type"] == "snapshot")
        #expect(limiter.count(for: "203.0.113.1") == 1)
    }

    @Test("a socket refused after its route took a slot (503 while shutting down) gives the slot back, once")
    func refusedSocketsReleaseTheirSlot() throws {
        let group = try EventLoopGroup(threadCount: 1)
        defer { group.shutdown() }
        let limiter = ConnectionLimiter(limit: 10)
        let game = GameHandle(
            id: GameID("game-1"), loop: group.loops[0], scorerTokenSHA256: [], registryKey: ObjectIdentifier(group))
        let peer = SocketAddress.v4(host: "10.0.0.1", port: 40000)
        let counts = try onLoop(group.loops[0]) { context in
            func environment(_ address: String) -> SocketEnvironment {
                _ = limiter.acquire(address)  // the router's admit
                return SocketEnvironment(
                    metrics: ServerMetrics(), limiter: limiter, address: address, budget: 4096,
                    scheduler: EventLoopScheduler(context: context))
            }
            func handler(_ client: ClientAddress) -> any WebSocketHandler {
                GameSpectators.handler(
                    for: game, client: client, environment: environment(client.address), context: context)
            }
            let addresses = ["10.0.0.1", "203.0.113.9", "10.0.0.2", "10.0.0.3"]
            // A spectator straight from its peer (the shared handler), one named by a proxy (its wrapper), a
            // scorer or lobby socket (`FeedSocket`), and an event stream.
            let direct = handler(ClientAddress(address: "10.0.0.1", peer: "10.0.0.1"))
            let forwarded = handler(ClientAddress(address: "203.0.113.9", peer: "10.0.0.1"))
            let feed = FeedSocket(kind: .scorer, environment: environment("10.0.0.2"))
            let stream = GameEventStream(game: game, since: nil, environment: environment("10.0.0.3"))
            let taken = addresses.map { limiter.count(for: $0) }
            direct.webSocketWasRefused(remoteAddress: peer)
            forwarded.webSocketWasRefused(remoteAddress: peer)
            feed.webSocketWasRefused(remoteAddress: nil)
            stream.eventStreamWasRefused()
            return (taken, addresses.map { limiter.count(for: $0) })
        }
        #expect(counts.0 == [1, 1, 1, 1], "the router's admit took a slot for each")
        #expect(counts.1 == [0, 0, 0, 0], "each slot is released by the refusal")
    }
}
