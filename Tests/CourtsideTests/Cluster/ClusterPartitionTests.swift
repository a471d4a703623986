import Courtside
import CourtsideJournal
import CourtsideRedis
import CourtsideRedisJournal
import CourtsideTestSupport
import CourtsideViewModels
import Foundation
import Testing

/// Games partitioned over two Redis servers (docs/cluster.md, "Past one Redis"): games land on both and
/// keep their ids over a restart; a node started with the list in another order is refused; a killed Redis stops
/// only its own games, and no node's `/healthz` fails for it.
@Suite(
    "Cluster: games partitioned over two Redis servers", .serialized, .ownThread,
    .enabled(if: RedisServer.enabled, Comment(rawValue: RedisServer.skipReason)))
struct ClusterPartitionTests {
    /// A node on `servers`, in that order (request timeout 1 s, so a lost Redis is noticed quickly).
    static func node(_ name: String, on servers: [RedisServer]) throws -> TestApp {
        var configuration = RedisJournal.Configuration()
        configuration.nodeID = name
        configuration.client.requestTimeout = .seconds(1)
        configuration.startsWhileUnreachable = true
        let partitions = try servers.map { server in
            try RedisJournal(url: RedisURL(parsing: server.url()), configuration: configuration)
        }
        return try TestApp(journal: try PartitionedRedisJournal(partitions: partitions))
    }

    /// A node A on `servers` makes a game on each partition (`game-1`, `game-1-1`), then `more` with them, and stops.
    static func seed(
        _ servers: [RedisServer], more: (TestApp, [(id: String, token: String)]) throws -> Void
    ) throws -> [(id: String, token: String)] {
        let first = try node("A", on: servers)
        let games = [try first.createGame(), try first.createGame()]
        #expect(games.map(\.id) == ["game-1", "game-1-1"])
        try more(first, games)
        return games
    }

    @Test("games land on both partitions, every node serves them, malformed ids are 404, ids survive a restart")
    func gamesOnBothPartitions() throws {
        let servers = [try RedisServer(), try RedisServer()]
        var nodeA: TestApp? = try Self.node("A", on: servers)
        let nodeB = try Self.node("B", on: servers)
        var games: [(id: String, token: String)] = []
        for index in 0..<4 { games.append(try (index % 2 == 0 ? nodeA! : nodeB).createGame()) }
        let ids = games.map(\.id)
        #expect(Set(ids) == ["game-1", "game-1-1", "game-2", "game-1-2"])
        for id in ids { _ = try nodeB.waitForGame(id) }
        _ = try nodeA!.waitForGame(ids[1])
        let scorer = try nodeA!.scorer(games[1])
        try scorer.send(json: command("c1"))
        #expect(try scorer.nextAnswer()["seq"] == 1)
        _ = try nodeB.waitForGame(ids[1], seq: 1)
        for id in ["game-2-1", "game-0-1", "game-01", "nonsense"] {
            #expect(try nodeA!.request("GET", "/api/games/\(id)").status == 404, "\(id)")
        }
        let lobby = try nodeB.request("GET", "/api/games").json
        #expect(Set(lobby["games"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []) == Set(ids))

        nodeA = nil
        let restarted = try Self.node("A", on: servers)
        for id in ids { #expect(try restarted.request("GET", "/api/games/\(id)").status == 200, "\(id)") }
        #expect(try restarted.snapshot(ids[1])["seq"] == 1)
        #expect(try restarted.createGame().id == "game-3")

        // The list reversed: refused at start, naming the server out of place.
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.dataDirectory = TestApp.makeTemporaryDirectory()
        configuration.redisURLs = try servers.reversed().map { try RedisURL(parsing: $0.url()) }
        let refusal = #expect(throws: ApplicationError.self) {
            try CourtsideApplication(
                configuration: configuration, adminToken: TestApp.adminToken,
                logger: Logger(format: .text, level: .error))
        }
        #expect(
            refusal?.description.contains("is listed as partition 0 but stores partition 1 of 2") == true,
            "\(String(describing: refusal))")
    }

    @Test(
        "kill -9 of one Redis: its games answer unavailable, the other's keep being acked, every /healthz is 200",
        arguments: [1, 0])
    func oneRedisKilled(killed: Int) throws {
        let servers = [try RedisServer(), try RedisServer()]
        let nodeA = try Self.node("A", on: servers)
        let nodeB = try Self.node("B", on: servers)
        let games = [try nodeA.createGame(), try nodeA.createGame()]
        #expect(games.map(\.id) == ["game-1", "game-1-1"])
        let (victim, survivor) = (games[killed], games[1 - killed])
        // Each partition has its own feed, read by its own tailer: B loading one game says nothing of the other.
        for game in games { _ = try nodeB.waitForGame(game.id) }
        let onSurvivor = try nodeA.scorer(survivor)
        let onVictim = try nodeB.scorer(victim)
        try onSurvivor.send(json: command("s1"))
        #expect(try onSurvivor.nextAnswer()["seq"] == 1)

        servers[killed].kill9()
        let sent = ContinuousClock.now
        try onVictim.send(json: command("v1"))
        let refused = try onVictim.nextAnswer()
        #expect(refused["type"] == "error" && refused["code"] == "unavailable", "\(refused)")
        #expect(ContinuousClock.now - sent < .seconds(5), "the answer took \(ContinuousClock.now - sent)")
        // Past the health threshold (2 s) and a few exchanges: the other partition's game goes on, nobody is drained.
        let until = ContinuousClock.now + .seconds(4)
        var number = 2
        while ContinuousClock.now < until {
            try onSurvivor.send(json: command("s\(number)", move: "rebound"))
            #expect(try onSurvivor.nextAnswer()["seq"]?.intValue == number)
            number += 1
            for node in [nodeA, nodeB] {
                let health = try node.request("GET", "/healthz")
                #expect(health.status == 200, "\(String(decoding: health.body, as: UTF8.self))")
            }
            usleep(200_000)
        }
        _ = try nodeB.waitForGame(survivor.id, seq: number - 1)

        try servers[killed].restart()
        var ack: JSONValue = .null
        #expect(
            try eventually(within: .seconds(10)) {
                try onVictim.send(json: command("v1"))
                ack = try onVictim.nextAnswer()
                return ack["type"] == "ack"
            })
        #expect(ack["seq"] == 1)
        #expect(try nodeA.waitForGame(victim.id, seq: 1) == (try nodeB.snapshot(victim.id)))
    }

    @Test(
        "a node started while partition 1 is down serves partition 0; partition 1's games answer unavailable, then load"
    )
    func startWithPartitionDown() throws {
        let servers = [try RedisServer(), try RedisServer()]
        let games = try Self.seed(servers) { first, games in
            let scorer = try first.scorer(games[1])
            try scorer.send(json: command("c1"))
            #expect(try scorer.nextAnswer()["seq"] == 1)
        }
        servers[1].kill9()
        let node = try Self.node("B", on: servers)
        #expect(try node.request("GET", "/api/games/game-1").status == 200)
        let waiting = try node.request("GET", "/api/games/game-1-1")
        #expect(waiting.status == 503)
        #expect(try waiting.json["code"] == "unavailable", "\(waiting.text)")
        let refused = try node.request(
            "POST", "/api/games/game-1-1/commands", headers: ["Authorization": "Bearer \(games[1].token)"],
            json: command("c2"))
        #expect(try refused.json["code"] == "unavailable", "\(refused.text)")
        #expect(try node.request("GET", "/api/games/game-1-9").status == 503, "any id of the partition waits")
        #expect(try node.request("GET", "/api/games/game-2-1").status == 404, "no such partition")
        // New games go to the partition that answers.
        #expect(try node.createGame().id == "game-2")
        #expect(try node.request("GET", "/healthz").status == 200)

        try servers[1].restart()
        let loaded = try node.waitForGame("game-1-1", seq: 1)
        #expect(loaded["state"]?["homeScore"] == 2)
        let scorer = try node.scorer(games[1])
        try scorer.send(json: command("c2"))
        #expect(try scorer.nextAnswer()["seq"] == 2)
        #expect(try node.request("GET", "/api/games/game-1-9").status == 404, "loaded: an unknown id is unknown again")
    }

    @Test(
        "a node started while partition 0 is down serves partition 1's games; the courts answer unavailable, then load")
    func startWithCourtsPartitionDown() throws {
        let servers = [try RedisServer(), try RedisServer()]
        _ = try Self.seed(servers) { first, _ in _ = try first.createCourt("Park") }
        servers[0].kill9()
        let node = try Self.node("B", on: servers)
        #expect(try node.request("GET", "/api/games/game-1-1").status == 200)
        #expect(try node.request("GET", "/api/games/game-1").json["code"] == "unavailable")
        for path in ["/api/courts", "/api/courts/court-1"] {
            let waiting = try node.request("GET", path)
            #expect(waiting.status == 503, "\(path)")
            #expect(try waiting.json["code"] == "unavailable", "\(path): \(waiting.text)")
        }
        #expect(try node.createGame().id == "game-1-2", "new games go to the partition that answers")

        try servers[0].restart()
        #expect(
            try eventually {
                try node.request("GET", "/api/courts/court-1").status == 200
            })
        #expect(try node.request("GET", "/api/courts/court-1").json["name"] == "Park")
        _ = try node.waitForGame("game-1")
        #expect(try node.createCourt("Hall").id == "court-2")
    }
}
