import CourtsideRedis
import CourtsideRedisClient
import CourtsideTestSupport
import Foundation
import Testing

@testable import CourtsideNet

@Suite(
    "courtside serve --redis, run as a process", .serialized, .ownThread,
    .enabled(if: RedisServer.enabled, Comment(rawValue: RedisServer.skipReason)))
struct RedisServeProcessTests {
    @Test("the demo game's events go to Redis, and a restarted server (another data directory) serves them from there")
    func demoThroughRedis() throws {
        let redis = try RedisServer(password: "s3cret")
        let first = CLITemporaryDirectory()
        let second = CLITemporaryDirectory()
        defer {
            first.cleanUp()
            second.cleanUp()
        }
        let (server, port) = try startServe(["--demo", "--data", first.path, "--redis", redis.url(database: 1)])
        #expect(server.waitForOutput(containing: "Demo game"))
        // The demo plays: its events reach the game's stream in Redis.
        let group = try EventLoopGroup(threadCount: 1)
        defer { group.shutdown() }
        let client = try RedisClient(url: RedisURL(parsing: redis.url(database: 1)), loop: group.loops[0])
        defer { client.close() }
        let played = eventually(within: .seconds(15), every: .milliseconds(100)) {
            ((try? client.sendAndWait(RESPCommand("XLEN", "courtside:events:{game-1}")).integer) ?? 0) >= 2
        }
        #expect(played, "the demo's events are not in Redis")
        #expect(
            try client.sendAndWait(RESPCommand("LRANGE", "courtside:games", 0, -1)).elements?.first?.string == "game-1")
        let before = httpGet(port: port, path: "/api/games/game-1")
        #expect(before != nil)
        #expect(server.stop() == 0)

        // Nothing of the game is in the first data directory: a second server with an empty one serves it from Redis.
        #expect(!FileManager.default.fileExists(atPath: first.path + "/courtside.sqlite3"))
        let (again, againPort) = try startServe(["--data", second.path, "--redis", redis.url(database: 1)])
        let restored = httpGet(port: againPort, path: "/api/games/game-1")
        #expect(restored != nil, "the restarted server does not know game-1")
        #expect(again.stop() == 0)
    }

    @Test("rediss:// with --redis-ca: the server starts on a TLS-only Redis and stores a game there")
    func tls() throws {
        let redis = try RedisServer(tls: true)
        let certificate = try #require(redis.certificatePath)
        let data = CLITemporaryDirectory()
        defer { data.cleanUp() }
        let url = "rediss://127.0.0.1:\(redis.port)/0"
        let (server, port) = try startServe(["--demo", "--data", data.path, "--redis", url, "--redis-ca", certificate])
        #expect(server.waitForOutput(containing: "Demo game"))
        #expect(httpGet(port: port, path: "/api/games/game-1") != nil)
        #expect(server.stop() == 0)
        // Without the CA the certificate is not trusted: the start fails, naming Redis.
        let refused = try ServeProcess(["--data", data.path, "--port", "\(try RedisServer.freePort())", "--redis", url])
        #expect(refused.waitForExit(seconds: 15) == 1)
        #expect(refused.errors.contains("cannot use Redis at rediss://127.0.0.1:\(redis.port)/0"), "\(refused.errors)")
    }

    @Test("an unreachable Redis exits 1 within seconds, naming Redis and hiding the password")
    func unreachable() throws {
        let data = CLITemporaryDirectory()
        defer { data.cleanUp() }
        let port = try RedisServer.freePort()
        let httpPort = try RedisServer.freePort()
        let server = try ServeProcess([
            "--data", data.path, "--port", "\(httpPort)", "--redis", "redis://:topsecret@127.0.0.1:\(port)",
        ])
        let status = server.waitForExit(seconds: 15)
        #expect(status == 1)
        #expect(server.errors.contains("cannot use Redis at redis://:***@127.0.0.1:\(port)/0"), "\(server.errors)")
        #expect(!server.errors.contains("topsecret"))
    }
}
