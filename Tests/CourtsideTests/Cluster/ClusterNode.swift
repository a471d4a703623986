import Courtside
import CourtsideJournal
import CourtsideModel
import CourtsideRedis
import CourtsideRedisJournal
import CourtsideTestSupport
import CourtsideViewModels
import Foundation

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
        let deadline = ContinuousClock.now + limit
        var last: ClientResponse?
        while ContinuousClock.now < deadline {
            let response = try request("GET", "/api/games/\(id)")
            last = response
            if response.status == 200, let json = try? response.json {
                if seq == nil || json["seq"]?.intValue == seq { return json }
            }
            usleep(20_000)
        }
        throw ClientError("game \(id) not served at seq \(seq.map(String.init) ?? "any"): \(last?.status ?? 0)")
    }
}
