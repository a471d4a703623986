import Courtside
import CourtsideJournal
import CourtsideModel
import CourtsideRedis
import CourtsideRedisClient
import CourtsideRedisJournal
import CourtsideTestSupport
import CourtsideViewModels
import Foundation

@testable import CourtsideNet

/// Nodes of one cluster in one test process: each a `CourtsideApplication` on its own loopback port, all on one
/// `redis-server`.
enum ClusterNode {
    /// A node named `name` on `redis` (request timeout 1 s, so a lost Redis is noticed quickly).
    static func start(
        _ name: String, on redis: RedisServer, clock: (@Sendable () -> Timestamp)? = nil,
        configure: (inout ServerConfiguration) -> Void = { _ in }
    ) throws -> TestApp {
        var configuration = RedisJournal.Configuration()
        configuration.nodeID = name
        configuration.client.requestTimeout = .seconds(1)
        let journal = try RedisJournal(url: RedisURL(parsing: redis.url()), configuration: configuration)
        return try TestApp(journal: journal, clock: clock, configure: configure)
    }
}

extension TestApp {
    /// Waits until this node serves `game` (another node created it: this one loads it from the feed).
    func waitForGame(_ id: String, seq: Int? = nil, within limit: Duration = .seconds(10)) throws -> JSONValue {
        var last: ClientResponse?
        var served: JSONValue?
        let found = try eventually(within: limit) {
            let response = try request("GET", "/api/games/\(id)")
            last = response
            guard response.status == 200, let json = try? response.json else { return false }
            served = json
            return seq == nil || json["seq"]?.intValue == seq
        }
        if found, let served { return served }
        throw ClientError("game \(id) not served at seq \(seq.map(String.init) ?? "any"): \(last?.status ?? 0)")
    }
}

extension WebSocketClient {
    /// The next answer to a command (ack or error), skipping snapshots and patches.
    func nextAnswer() throws -> JSONValue {
        while true {
            let message = try readJSON()
            if message["type"] == "ack" || message["type"] == "error" { return message }
        }
    }
}

/// One command's reply from `redis`, on a client of its own (to look at what the nodes stored).
func redisReply(_ redis: RedisServer, _ command: RESPCommand) throws -> RESPValue {
    let group = try EventLoopGroup(threadCount: 1)
    defer { group.shutdown() }
    let client = try RedisClient(url: RedisURL(parsing: redis.url()), loop: group.loops[0])
    defer { client.close() }
    return try client.sendAndWait(command)
}
