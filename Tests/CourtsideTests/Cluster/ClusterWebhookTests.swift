import Courtside
import CourtsideJournal
import CourtsideRedis
import CourtsideRedisJournal
import CourtsideTestSupport
import CourtsideViewModels
import Foundation
import Testing

/// Webhooks under `--redis`: every node sees the same webhooks, one node (the lease holder) delivers each event, and
/// another takes over when the holder stops or its lease lapses, from the stored cursor.
@Suite(
    "Cluster: webhooks", .serialized, .ownThread,
    .enabled(if: RedisServer.enabled, Comment(rawValue: RedisServer.skipReason)))
struct ClusterWebhookTests {
    static let admin = ["Authorization": "Bearer \(TestApp.adminToken)"]
    static let allEvents: JSONValue = ["game.created", "play", "period.ended", "game.final", "game.reopened"]

    /// A node whose webhook leases last 1 s (renewed every third), allowed to call the loopback receiver.
    static func node(_ name: String, on redis: RedisServer) throws -> TestApp {
        try ClusterNode.start(
            name, on: redis,
            configure: { configuration in
                configuration.webhookAllowPrivate = true
                configuration.webhookLease = .milliseconds(1_000)
            })
    }

    /// Creates a webhook for every event of every game on `node`; its id.
    static func createWebhook(on node: TestApp, url: String) throws -> String {
        let created = try node.request(
            "POST", "/api/webhooks", headers: admin, json: ["url": .string(url), "events": allEvents, "games": "*"])
        try #require(created.status == 201, "\(created.status)")
        return try #require(try created.json["id"]?.stringValue)
    }

    /// Sends `count` commands to `game` on `node` (which first serves it at `from`); each acked.
    static func play(_ count: Int, from: Int, on node: TestApp, game: (id: String, token: String)) throws {
        _ = try node.waitForGame(game.id, seq: from)
        for index in 0..<count {
            let answer = try node.request(
                "POST", "/api/games/\(game.id)/commands", headers: ["Authorization": "Bearer \(game.token)"],
                json: command("c\(from + index)", move: "rebound"))
            #expect(answer.status == 200, "command \(from + index): \(answer.status)")
        }
    }

    /// `game.created` then a `play` per command: the webhook ids of sequences 0 through `last`.
    static func expectedIDs(_ game: String, through last: Int) -> [String] {
        ["\(game):0:game.created"] + (1...last).map { "\(game):\($0):play" }
    }

    @Test("two nodes, one webhook: both list it, and every event is delivered once, in order")
    func deliveredOnce() throws {
        let redis = try RedisServer()
        let receiver = try WebhookReceiver()
        let nodeA = try Self.node("A", on: redis)
        let nodeB = try Self.node("B", on: redis)
        let id = try Self.createWebhook(on: nodeA, url: receiver.url)
        let seen = try nodeB.request("GET", "/api/webhooks/\(id)", headers: Self.admin)
        #expect(seen.status == 200)
        #expect(try seen.json["url"] == .string(receiver.url))
        #expect(try nodeB.request("GET", "/api/webhooks", headers: Self.admin).json["webhooks"]?.arrayValue?.count == 1)

        let game = try nodeA.createGame()
        try Self.play(10, from: 0, on: nodeA, game: game)
        try Self.play(10, from: 10, on: nodeB, game: game)
        let expected = Self.expectedIDs(game.id, through: 20)
        try #require(eventually(within: .seconds(15)) { receiver.deliveries.count >= expected.count })
        #expect(receiver.deliveries.map(\.id) == expected)
        // Every node answers the deliveries (they are stored in Redis): one acknowledged attempt per event. The
        // worker stores an attempt after its answer arrived, so the last one may follow the receiver's count.
        func attempts() throws -> [JSONValue] {
            try nodeB.request("GET", "/api/webhooks/\(id)/deliveries", headers: Self.admin).json["deliveries"]?
                .arrayValue ?? []
        }
        try #require(eventually(within: .seconds(10)) { (try? attempts().count) == expected.count })
        let attempts = try attempts()
        #expect(attempts.count == expected.count)
        #expect(attempts.allSatisfy { $0["ok"] == true })
        #expect(attempts.first?["webhookId"] == .string(expected.last!))
        // A change on one node is seen on the other.
        let paused = try nodeB.request("PATCH", "/api/webhooks/\(id)", headers: Self.admin, json: ["state": "paused"])
        #expect(paused.status == 200)
        #expect(try nodeA.request("GET", "/api/webhooks/\(id)", headers: Self.admin).json["state"] == "paused")
        #expect(try nodeA.request("DELETE", "/api/webhooks/\(id)", headers: Self.admin).status == 200)
        #expect(try nodeB.request("GET", "/api/webhooks/\(id)", headers: Self.admin).status == 404)
    }

    @Test("the lease holder stops: the other node takes over and delivers the rest from the stored cursor")
    func takeoverAfterStop() throws {
        let redis = try RedisServer()
        let receiver = try WebhookReceiver()
        let nodeA = try Self.node("A", on: redis)
        let nodeB = try Self.node("B", on: redis)
        let id = try Self.createWebhook(on: nodeA, url: receiver.url)
        let game = try nodeA.createGame()
        try Self.play(5, from: 0, on: nodeA, game: game)
        try #require(eventually(within: .seconds(15)) { receiver.deliveries.count >= 6 })
        let holder = try #require(
            try redisReply(redis, RESPCommand("GET", .string("courtside:webhook-lease:{\(id)}"))).string)
        let (stopping, surviving) = holder.hasPrefix("A:") ? (nodeA, nodeB) : (nodeB, nodeA)
        stopping.app.shutdown()
        try Self.play(5, from: 5, on: surviving, game: game)
        let expected = Self.expectedIDs(game.id, through: 10)
        try #require(eventually(within: .seconds(15)) { Set(receiver.deliveries.map(\.id)) == Set(expected) })
        // Nothing lost, in order; a repeat (an event in flight at the stop) carries the same id and body.
        var first: [String: String] = [:]
        for delivery in receiver.deliveries {
            if let body = first[delivery.id] {
                #expect(body == delivery.body)
            } else {
                first[delivery.id] = delivery.body
            }
        }
        var order: [String] = []
        for delivery in receiver.deliveries where !order.contains(delivery.id) { order.append(delivery.id) }
        #expect(order == expected)
        let now = try #require(
            try redisReply(redis, RESPCommand("GET", .string("courtside:webhook-lease:{\(id)}"))).string)
        #expect(!now.hasPrefix(String(holder.prefix(2))), "the stopped node still holds the lease")
    }

    @Test("a node died mid-delivery holding the lease: nothing is sent until it lapses, then from the stored cursor")
    func lapsedLeaseTakenOver() throws {
        let redis = try RedisServer()
        let receiver = try WebhookReceiver()
        // What the dead node left: the webhook, its cursor on game-1 at 3 (0 to 2 acknowledged, 3 in flight), and its
        // lease, which lapses in 2 s.
        let id = "wh_dead"
        do {
            let journal = try RedisJournal(url: RedisURL(parsing: redis.url()))
            defer { journal.close() }
            let record = JSONValue.object([
                "id": .string(id), "url": .string(receiver.url), "events": Self.allEvents, "createdAtMs": 0,
                "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "state": "active",
            ])
            try RedisWebhookStore(journal: journal).save(
                id: id, record: String(decoding: record.canonicalBytes, as: UTF8.self), creating: true,
                cursors: ["game-1": 3])
        }
        let taken = ContinuousClock.now
        _ = try redisReply(
            redis, RESPCommand("SET", .string("courtside:webhook-lease:{\(id)}"), "dead-node", "PX", 2_000))
        let nodeA = try Self.node("A", on: redis)
        let nodeB = try Self.node("B", on: redis)
        #expect(try nodeB.request("GET", "/api/webhooks/\(id)", headers: Self.admin).status == 200)
        let game = try nodeA.createGame()
        try #require(game.id == "game-1")
        try Self.play(5, from: 0, on: nodeB, game: game)
        let expected = (3...5).map { "\(game.id):\($0):play" }
        try #require(eventually(within: .seconds(15)) { receiver.deliveries.count >= expected.count })
        #expect(receiver.deliveries.map(\.id) == expected)
        let first = try #require(receiver.deliveries.first)
        #expect(first.at - taken >= .milliseconds(1_900), "delivered under another node's lease")
        // The cursor moves after the receiver's answer is read, so the last delivery can be seen before the cursor
        // has moved past it: wait for it, with a deadline.
        let cursorMoved = try eventually(within: .seconds(5)) {
            try redisReply(
                redis, RESPCommand("HGET", .string("courtside:webhook-cursors:{\(id)}"), .string(game.id))
            ).string == "6"
        }
        #expect(cursorMoved, "the cursor did not move past the last delivery")
    }

    @Test("the store: one token holds a lease; a loser cannot move the cursor; a lapsed lease is taken; a replay wins")
    func leaseAndCursorCompare() throws {
        let redis = try RedisServer()
        let journal = try RedisJournal(url: RedisURL(parsing: redis.url()))
        defer { journal.close() }
        let store = try RedisWebhookStore(journal: journal)
        try store.save(id: "wh_1", record: "{}", creating: true, cursors: ["g": 3])
        #expect(try store.lease(webhook: "wh_1", token: "a", durationMs: 300))
        #expect(try !store.lease(webhook: "wh_1", token: "b", durationMs: 300))
        #expect(try store.advanceCursor(webhook: "wh_1", game: "g", from: 3, to: 4, token: "b") == .leaseLost)
        #expect(try store.cursors(ofWebhook: "wh_1") == ["g": 3])
        #expect(try store.advanceCursor(webhook: "wh_1", game: "g", from: 3, to: 4, token: "a") == .advanced)
        // Not renewed, the lease lapses and another token takes it; the old holder can no longer move the cursor.
        try #require(
            try eventually(within: .seconds(5)) { try store.lease(webhook: "wh_1", token: "b", durationMs: 5_000) })
        #expect(try store.advanceCursor(webhook: "wh_1", game: "g", from: 4, to: 5, token: "a") == .leaseLost)
        #expect(try store.cursors(ofWebhook: "wh_1") == ["g": 4])
        // A replay moves the cursor back: the holder's advance from where it was is refused, not applied over it.
        try store.setCursor(webhook: "wh_1", game: "g", seq: 1)
        #expect(try store.advanceCursor(webhook: "wh_1", game: "g", from: 4, to: 5, token: "b") == .moved)
        #expect(try store.cursors(ofWebhook: "wh_1") == ["g": 1])
        // A game without a cursor yet starts from none.
        #expect(try store.advanceCursor(webhook: "wh_1", game: "h", from: nil, to: 1, token: "b") == .advanced)
        // Only the holder releases.
        try store.release(webhook: "wh_1", token: "a")
        #expect(try !store.lease(webhook: "wh_1", token: "c", durationMs: 5_000))
        try store.release(webhook: "wh_1", token: "b")
        #expect(try store.lease(webhook: "wh_1", token: "c", durationMs: 5_000))
        // Attempts are bounded; a deleted webhook takes everything with it and an update does not bring it back.
        for index in 0..<5 { try store.recordAttempt(webhook: "wh_1", json: "{\"n\":\(index)}", keep: 3) }
        #expect(try store.attempts(ofWebhook: "wh_1") == ["{\"n\":4}", "{\"n\":3}", "{\"n\":2}"])
        let before = try store.changeMarker()
        try store.delete(id: "wh_1")
        #expect(try store.changeMarker() != before)
        try store.save(id: "wh_1", record: "{}", creating: false, cursors: [:])
        #expect(try store.loadAll().isEmpty)
        #expect(try store.cursors(ofWebhook: "wh_1") == [:])
        #expect(try store.attempts(ofWebhook: "wh_1") == [])
        #expect(try store.lease(webhook: "wh_1", token: "d", durationMs: 5_000))
    }
}
