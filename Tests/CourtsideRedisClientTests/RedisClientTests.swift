import CourtsideNet
import CourtsideRedis
import CourtsideRedisClient
import CourtsideTestSupport
import Foundation
import Synchronization
import Testing

/// Collects completions from the loop and lets the test thread wait for them with a deadline.
final class Replies: Sendable {
    private let results = Mutex<[Int: Result<RESPValue, RedisError>]>([:])
    private let signal = DispatchSemaphore(value: 0)

    func completion(_ index: Int) -> RedisClient.Completion {
        { result in
            self.results.withLock { $0[index] = result }
            self.signal.signal()
        }
    }

    /// Waits for `count` completions; false if the deadline passed first.
    func wait(for count: Int, within timeout: Duration) -> Bool {
        let deadline = DispatchTime.now() + .nanoseconds(Int(timeout / .nanoseconds(1)))
        for _ in 0..<count where signal.wait(timeout: deadline) == .timedOut { return false }
        return true
    }

    subscript(index: Int) -> Result<RESPValue, RedisError>? { results.withLock { $0[index] } }
}

@Suite(
    "Redis client against a real redis-server", .serialized, .ownThread,
    .enabled(if: RedisServer.enabled, Comment(rawValue: RedisServer.skipReason)))
struct RedisClientTests {
    static let group = try! EventLoopGroup(threadCount: 1)

    func client(_ url: String, requestTimeout: Duration = .seconds(2), name: String? = "courtside-test") throws
        -> RedisClient
    {
        var configuration = RedisClient.Configuration(clientName: name)
        configuration.requestTimeout = requestTimeout
        configuration.connectTimeout = .seconds(1)
        return try RedisClient(url: RedisURL(parsing: url), loop: Self.group.loops[0], configuration: configuration)
    }

    @Test("HELLO 3 with AUTH and SETNAME, SELECT, then 2,000 pipelined commands answered in order")
    func handshakeAndPipelining() throws {
        let server = try RedisServer(password: "p@ss word")
        let url = "redis://:p%40ss%20word@127.0.0.1:\(server.port)/3"
        let redis = try client(url)
        defer { redis.close() }
        #expect(try redis.sendAndWait(RESPCommand("CLIENT", "GETNAME")) == .bulkString(Array("courtside-test".utf8)))
        let info = try redis.sendAndWait(RESPCommand("CLIENT", "INFO")).string ?? ""
        #expect(info.contains(" db=3 "), "SELECT 3 took effect: \(info)")
        #expect(info.contains(" resp=3"), "HELLO 3 took effect: \(info)")

        let replies = Replies()
        let count = 1_000
        for index in 0..<count {
            redis.send(
                RESPCommand("SET", .string("k\(index)"), .integer(index)), completion: replies.completion(2 * index))
            redis.send(RESPCommand("INCR", .string("k\(index)")), completion: replies.completion(2 * index + 1))
        }
        #expect(replies.wait(for: 2 * count, within: .seconds(20)))
        for index in 0..<count {
            #expect(replies[2 * index] == .success(.simpleString("OK")))
            #expect(replies[2 * index + 1] == .success(.integer(Int64(index + 1))))
        }
        // An error reply fails its request only.
        #expect(throws: RedisError.server("ERR value is not an integer or out of range")) {
            try redis.sendAndWait(RESPCommand("INCRBY", "k1", "x"))
        }
        #expect(try redis.sendAndWait(RESPCommand("GET", "k1")) == .bulkString(Array("2".utf8)))
    }

    @Test("a wrong password fails requests with the server's WRONGPASS, quickly")
    func wrongPassword() throws {
        let server = try RedisServer(password: "right")
        let redis = try client("redis://:wrong@127.0.0.1:\(server.port)")
        defer { redis.close() }
        let start = ContinuousClock.now
        #expect {
            _ = try redis.sendAndWait(RESPCommand("PING"))
        } throws: { error in
            guard case .handshakeFailed(let command, let message) = error as? RedisError else { return false }
            return command == "HELLO" && message.hasPrefix("WRONGPASS")
        }
        #expect(ContinuousClock.now - start < .seconds(2))
    }

    @Test("nothing listening: a request fails with .unavailable by its deadline, naming the refusal")
    func refused() throws {
        let port = try RedisServer.freePort()
        let redis = try client("redis://127.0.0.1:\(port)", requestTimeout: .milliseconds(800))
        defer { redis.close() }
        let start = ContinuousClock.now
        #expect {
            _ = try redis.sendAndWait(RESPCommand("PING"))
        } throws: { error in
            guard case .unavailable(let command, let reason) = error as? RedisError else { return false }
            return command == "PING" && reason.contains("refused")
        }
        let elapsed = ContinuousClock.now - start
        #expect(elapsed >= .milliseconds(700) && elapsed < .seconds(3), "\(elapsed)")
    }

    @Test("a server that accepts and never answers: the request fails by its deadline, never hangs")
    func silentServer() throws {
        let silent = try SilentListener()
        let redis = try client("redis://127.0.0.1:\(silent.port)", requestTimeout: .milliseconds(800))
        defer { redis.close() }
        let start = ContinuousClock.now
        #expect(throws: RedisError.self) { _ = try redis.sendAndWait(RESPCommand("PING")) }
        #expect(ContinuousClock.now - start < .seconds(3))
    }

    @Test("kill -9 of Redis: requests fail within seconds while it is down, then succeed once it is back")
    func killAndRestart() throws {
        let server = try RedisServer()
        let redis = try client(server.url())
        defer { redis.close() }
        #expect(try redis.sendAndWait(RESPCommand("SET", "before", "1")) == .simpleString("OK"))
        server.kill9()
        let start = ContinuousClock.now
        for _ in 0..<3 {
            #expect(throws: RedisError.self) { _ = try redis.sendAndWait(RESPCommand("GET", "before")) }
        }
        #expect(ContinuousClock.now - start < .seconds(8), "three failures take at most three deadlines")
        try server.restart()
        // The client reconnects on its own (backoff capped at 2 s); the AOF brought the key back.
        let deadline = ContinuousClock.now + .seconds(10)
        var value: RESPValue?
        while value == nil && ContinuousClock.now < deadline {
            value = try? redis.sendAndWait(RESPCommand("GET", "before"))
        }
        #expect(value == .bulkString(Array("1".utf8)))
    }

    @Test("rediss://: the TLS handshake with the server's certificate verified, then HELLO, AUTH and pipelining")
    func tls() throws {
        let server = try RedisServer(password: "pw", tls: true)
        var configuration = RedisClient.Configuration(clientName: "courtside-tls")
        configuration.tlsCAFile = server.certificatePath
        let redis = try RedisClient(
            url: RedisURL(parsing: "rediss://:pw@127.0.0.1:\(server.port)/2"), loop: Self.group.loops[0],
            configuration: configuration)
        defer { redis.close() }
        #expect(try redis.sendAndWait(RESPCommand("CLIENT", "GETNAME")) == .bulkString(Array("courtside-tls".utf8)))
        let replies = Replies()
        for index in 0..<200 {
            redis.send(RESPCommand("INCR", "counter"), completion: replies.completion(index))
        }
        #expect(replies.wait(for: 200, within: .seconds(10)))
        #expect(replies[199] == .success(.integer(200)))
    }

    @Test("rediss:// to a server whose certificate is not trusted fails by the deadline, naming the verification")
    func tlsUntrusted() throws {
        let server = try RedisServer(tls: true)
        let redis = try client("rediss://127.0.0.1:\(server.port)", requestTimeout: .milliseconds(800))
        defer { redis.close() }
        #expect {
            _ = try redis.sendAndWait(RESPCommand("PING"))
        } throws: { error in
            guard case .unavailable(_, let reason) = error as? RedisError else { return false }
            return reason.contains("TLS handshake") && reason.contains("certificate verif")
        }
    }

    @Test("Redis stops answering mid-stream (CLIENT PAUSE): in-flight requests time out, then the client recovers")
    func pausedServer() throws {
        let server = try RedisServer()
        let redis = try client(server.url(), requestTimeout: .milliseconds(500))
        defer { redis.close() }
        let probe = try client(server.url(), name: "probe")
        defer { probe.close() }
        #expect(try redis.sendAndWait(RESPCommand("PING")) == .simpleString("PONG"))
        #expect(try probe.sendAndWait(RESPCommand("CLIENT", "PAUSE", 1500, "ALL")) == .simpleString("OK"))
        let start = ContinuousClock.now
        #expect {
            _ = try redis.sendAndWait(RESPCommand("PING"))
        } throws: { error in
            guard case .timedOut(let command, _) = error as? RedisError else { return false }
            return command == "PING"
        }
        #expect(ContinuousClock.now - start < .seconds(1), "failed by its deadline, not when the pause ended")
        // Once the pause is over, the client (reconnected after its backoff) answers again.
        let deadline = ContinuousClock.now + .seconds(10)
        var answer: RESPValue?
        while answer == nil && ContinuousClock.now < deadline {
            answer = try? redis.sendAndWait(RESPCommand("PING"))
        }
        #expect(answer == .simpleString("PONG"))
    }

    @Test("after close, requests fail with .closed at once")
    func closed() throws {
        let server = try RedisServer()
        let redis = try client(server.url())
        #expect(try redis.sendAndWait(RESPCommand("PING")) == .simpleString("PONG"))
        redis.close()
        #expect(throws: RedisError.closed) { _ = try redis.sendAndWait(RESPCommand("PING")) }
    }
}
