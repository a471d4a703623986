import CourtsideJournal
import CourtsideTestSupport
import CourtsideViewModels
import Foundation
import Synchronization
import Testing

@testable import Courtside

@Suite("Webhooks failing and resumed", .ownThread)
struct WebhookFailingTests {
    @Test("failures lasting 24 h (an injected clock) mark the webhook failing; PATCH active resumes it")
    func failingThenResumed() throws {
        let app = try TestApp(configure: { $0.webhookAllowPrivate = true })
        let game = try app.createGame()
        let now = Mutex<Int64>(1_000_000_000)
        let service = try WebhookService(
            directory: app.dataDirectory, journalPath: app.dataDirectory + "/courtside.sqlite3",
            allowsPrivateAddresses: true, tls: nil,
            logger: Logger(format: .text, level: .error, sink: Logger.Sink { _ in }),
            clock: { now.withLock { $0 } })
        defer { service.shutdown() }
        // Port 1 on loopback: nothing listens, every attempt is refused at once.
        let created = try service.create(
            Array(#"{"url":"http://127.0.0.1:1/","events":["game.created","play"],"games":"*"}"#.utf8))
        let id = try #require(created["id"]?.stringValue)
        _ = try service.replay(id, Array(#"{"game":"\#(game.id)","since":0}"#.utf8))
        func attempts() throws -> [JSONValue] { try service.deliveries(id)["deliveries"]?.arrayValue ?? [] }
        try #require(try eventually { try attempts().count == 1 }, "the first attempt")
        #expect(try service.get(id)["state"] == "active")

        // A day later by the clock, the next attempt fails too: the webhook gives up and says why.
        now.withLock { $0 += 24 * 60 * 60 * 1000 + 1 }
        try #require(try eventually { try service.get(id)["state"] == "failing" }, "the webhook to be marked failing")
        let failing = try service.get(id)
        #expect(failing["failure"]?.stringValue?.hasPrefix("\(game.id):0:game.created: connect") == true)
        let afterGivingUp = try attempts().count
        #expect(afterGivingUp == 2)
        // Stored: the state survives the service (a restart). The worker shows the state, then stores it.
        let stored = try eventually {
            let stored = try SQLiteWebhookStore(directory: app.dataDirectory).loadAll().first { $0.id == id }
            return stored?.record.contains(#""state":"failing""#) == true
        }
        try #require(stored, "the failing state stored")

        // Resumed by an administrator: it tries the same event again, from the first backoff step.
        let resumed = try service.patch(id, Array(#"{"state":"active"}"#.utf8))
        #expect(resumed["state"] == "active")
        #expect(resumed["failure"] == nil)
        try #require(try eventually { try attempts().count > afterGivingUp }, "an attempt after the resume")
        #expect(try attempts().first?["webhookId"] == .string("\(game.id):0:game.created"))
    }
}
