import CourtsideJournal
import CourtsideTestSupport
import CourtsideViewModels
import Foundation
import Testing

@testable import Courtside

@Suite("Webhook cursors", .ownThread)
struct WebhookCursorTests {
    @Test("cursors are stored per webhook and game, survive reopening the store, and go with their webhook")
    func storePersists() throws {
        let directory = TestApp.makeTemporaryDirectory()
        do {
            let store = try SQLiteWebhookStore(directory: directory)
            try store.save(id: "wh_a", record: "{}", cursors: ["g1": 4, "g2": 1])
            try store.save(id: "wh_b", record: "{}", cursors: ["g1": 9])
            try store.setCursor(webhook: "wh_a", game: "g1", seq: 5)
            try store.setCursor(webhook: "wh_a", game: "g3", seq: 0)
            store.close()
        }
        let reopened = try SQLiteWebhookStore(directory: directory)
        #expect(try reopened.cursors(ofWebhook: "wh_a") == ["g1": 5, "g2": 1, "g3": 0])
        #expect(try reopened.cursors(ofWebhook: "wh_b") == ["g1": 9])
        #expect(try reopened.loadAll().map(\.id) == ["wh_a", "wh_b"])
        // A replay moves a cursor back.
        try reopened.setCursor(webhook: "wh_b", game: "g1", seq: 2)
        #expect(try reopened.cursors(ofWebhook: "wh_b") == ["g1": 2])
        try reopened.delete(id: "wh_a")
        #expect(try reopened.cursors(ofWebhook: "wh_a") == [:])
        #expect(try reopened.loadAll().map(\.id) == ["wh_b"])
        let mode = try FileManager.default.attributesOfItem(atPath: directory + "/webhooks.sqlite3")[.posixPermissions]
        #expect(mode as? Int == 0o600)
    }

    @Test("a new webhook starts after the stored events; a replay moves its cursor back and it retries from there")
    func startsAtTheEndAndReplays() throws {
        let app = try TestApp(configure: { $0.webhookAllowPrivate = true })
        let game = try app.createGame()
        let scorer = ["Authorization": "Bearer \(game.token)"]
        for id in ["c1", "c2"] {
            let answer = try app.request("POST", "/api/games/\(game.id)/commands", headers: scorer, json: command(id))
            #expect(answer.status == 200)
        }
        let admin = ["Authorization": "Bearer \(TestApp.adminToken)"]
        // Port 1 on loopback: nothing listens, so every attempt fails at once (connection refused).
        let created = try app.request(
            "POST", "/api/webhooks", headers: admin,
            json: ["url": "http://127.0.0.1:1/hook", "events": ["play"], "games": "*"])
        #expect(created.status == 201)
        let id = try #require(created.json["id"]?.stringValue)
        let store = try SQLiteWebhookStore(directory: app.dataDirectory)
        #expect(try store.cursors(ofWebhook: id) == [game.id: 3])

        let replay = try app.request(
            "POST", "/api/webhooks/\(id)/replay", headers: admin,
            json: ["game": JSONValue.string(game.id), "since": JSONValue.int(1)])
        #expect(replay.status == 202)
        var attempts: [JSONValue] = []
        _ = try eventually {
            attempts =
                try app.request("GET", "/api/webhooks/\(id)/deliveries", headers: admin).json["deliveries"]?
                .arrayValue ?? []
            return !attempts.isEmpty
        }
        let first = try #require(attempts.last)
        #expect(first["webhookId"] == .string("\(game.id):2:play"))
        #expect(first["ok"] == false)
        #expect(first["error"]?.stringValue?.contains("connect") == true)
        // Not acknowledged, so the stored cursor stays at the event being retried.
        #expect(try store.cursors(ofWebhook: id) == [game.id: 2])
    }
}
