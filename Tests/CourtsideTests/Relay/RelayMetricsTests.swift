import CourtsideJournal
import CourtsideModel
import CourtsideTestSupport
import CourtsideViewModels
import Foundation
import Synchronization
import Testing

@testable import Courtside

/// `/metrics` on the public node (docs/relay.md, "Metrics"): per relayed game the venue's and this node's last
/// `seq`, the backlog and the time since the last ack, gone once the game is archived.
@Suite("Relay metrics: per relayed game on the public node", .ownThread)
struct RelayMetricsTests {
    @Test("the venue's and the stored seq, the backlog after a cut, the seconds since the ack, gone when archived")
    func figuresPerGame() throws {
        let time = Mutex(Timestamp(milliseconds: 1_700_000_000_000))
        let directory = TestApp.makeTemporaryDirectory()
        let app = try TestApp(
            dataDirectory: directory, journal: try SQLiteJournal(directory: directory),
            clock: { time.withLock { $0 } })
        let admin = ["Authorization": "Bearer \(TestApp.adminToken)"]
        let made = try app.request("POST", "/api/venues", headers: admin, json: ["name": "Hall 2"]).json
        let venueID = try #require(made["id"]?.stringValue)
        let token = try #require(made["token"]?.stringValue)
        let (_, relayed, record, entries) = try RelayEndpointTests.playedGame(on: app, commands: 5, venueID: venueID)
        let last = entries.count
        let labels = "{game=\"\(relayed.rawValue)\",venue=\"\(venueID)\"}"
        func metrics() throws -> String { try app.request("GET", "/metrics").text }
        #expect(try !metrics().contains("courtside_relay_"), "no relayed game yet: no relay lines")

        let first = RelayEndpointTests.Venue(client: try WebSocketClient(port: app.port, path: "/api/relay"))
        try first.send(.hello(venue: venueID, token: token, boot: "b1", heads: [relayed: last]))
        #expect(try first.read() == .welcome(stored: [:]))
        try first.send(.open(relayed, record: record))
        #expect(try first.read() == .ack(relayed, seq: 0))
        try first.send(.entries(relayed, Array(entries[0..<2])))
        #expect(try first.read() == .ack(relayed, seq: 2))
        var text = try metrics()
        #expect(text.contains("courtside_relay_stored_seq\(labels) 2\n"), "\(text)")
        #expect(text.contains("courtside_relay_venue_seq\(labels) 2\n"))
        #expect(text.contains("courtside_relay_backlog\(labels) 0\n"))
        #expect(text.contains("courtside_relay_seconds_since_ack\(labels) 0.0\n"))

        // A cut; 5 s later the venue is back with more: the backlog is what it holds beyond the stored.
        first.client.close()
        time.withLock { $0 = $0.advanced(byMilliseconds: 5_000) }
        let second = RelayEndpointTests.Venue(client: try WebSocketClient(port: app.port, path: "/api/relay"))
        try second.send(.hello(venue: venueID, token: token, boot: "b1", heads: [relayed: last]))
        #expect(try second.read() == .welcome(stored: [relayed: 2]))
        #expect(
            try eventually {
                text = try metrics()
                return text.contains("courtside_relay_backlog\(labels) \(last - 2)\n")
            }, "\(text)")
        #expect(text.contains("courtside_relay_venue_seq\(labels) \(last)\n"))
        #expect(text.contains("courtside_relay_seconds_since_ack\(labels) 5.0\n"))
        try second.send(.entries(relayed, Array(entries[2...])))
        #expect(try second.read() == .ack(relayed, seq: last))
        text = try metrics()
        #expect(text.contains("courtside_relay_stored_seq\(labels) \(last)\n"))
        #expect(text.contains("courtside_relay_backlog\(labels) 0\n"))
        #expect(text.contains("courtside_relay_seconds_since_ack\(labels) 0.0\n"))

        // Archived: its lines go, and stay gone when the venue repeats an ack.
        let core = app.app.core
        let handle = try #require(core.registry.handle(relayed))
        handle.withOwner(from: nil) { owner in core.archive(owner, at: core.services.clock()) }
        #expect(try eventually { try !metrics().contains(relayed.rawValue) })
        try second.send(.entries(relayed, Array(entries[(last - 1)...])))
        #expect(try second.read() == .ack(relayed, seq: last))
        #expect(try !metrics().contains("courtside_relay_"))
    }
}
