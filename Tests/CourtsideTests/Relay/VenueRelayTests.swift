import CourtsideJournal
import CourtsideModel
import CourtsideTestSupport
import CourtsideViewModels
import Foundation
import Testing

@testable import Courtside

/// A venue node (`--upstream`) and a public node on loopback (docs/relay.md): a game scored at the venue while the
/// public node cuts the relay connection again and again ends up on the public node with the same events, the same
/// seqs and the same document.
@Suite("Venue relay: two servers on loopback, the link cut", .ownThread)
struct VenueRelayTests {
    @Test("every command scored at the venue reaches the public node once, in order, through repeated cuts")
    func cutsLoseNothing() throws {
        let (publicNode, venue, venueID) = try TestApp.venueAndPublicNode()
        func uplink() throws -> String? { try venue.request("GET", "/healthz").json["uplink"]?.stringValue }
        #expect(try eventually { try uplink() == "up" })
        #expect(try venue.request("GET", "/healthz").status == 200)

        let game = try venue.createGame()
        #expect(game.id.hasPrefix(venueID + "."))
        let hub = try #require(publicNode.app.core.relayHub.withLock { $0 })
        func lost() -> Int { venue.logLines.all.filter { $0.contains("uplink lost") }.count }
        func score(_ index: Int) throws {
            let answer = try venue.scoreRelayTestCommand(index, in: game)
            #expect(answer.status == 200, "\(answer.text)")
        }
        var index = 0
        for cut in 1...5 {
            try score(index)
            index += 1
            // The public node closes the relay socket; the venue keeps scoring while it backs off and reconnects.
            hub.dropConnections()
            #expect(eventually { lost() == cut }, "cut \(cut) not seen by the venue")
            for _ in 0..<2 {
                try score(index)
                index += 1
            }
            #expect(try eventually { try uplink() == "up" }, "no reconnection after cut \(cut)")
        }
        let venueDocument = try venue.snapshot(game.id)
        let (caughtUp, served) = publicNode.waitUntilServes(game.id, as: venueDocument, within: .seconds(30))
        #expect(caughtUp, "public \(served.map(\.description) ?? "nothing")\nvenue \(venueDocument)")
        // The public lobby names the venue of a relayed game; the venue's own lobby has no venue member.
        let publicRows = try publicNode.request("GET", "/api/games").json["games"]?.arrayValue ?? []
        #expect(publicRows.first { $0["id"]?.stringValue == game.id }?["venue"] == "Hall 2", "\(publicRows)")
        let venueRows = try venue.request("GET", "/api/games").json["games"]?.arrayValue ?? []
        #expect(venueRows.count == 1 && venueRows.allSatisfy { $0["venue"] == nil }, "\(venueRows)")
        let atVenue = try #require(try venue.app.core.services.journal.loadGames().first { $0.id.rawValue == game.id })
        let upstream = try #require(
            try publicNode.app.core.services.journal.loadGames().first { $0.id.rawValue == game.id })
        #expect(upstream.events == atVenue.events)
        #expect(served?["seq"] != nil && served?["seq"] == venueDocument["seq"])
        #expect(lost() == 5)
        #expect(atVenue.events.count >= index)
        // Commands go to the venue: the public node refuses them.
        let refused = try publicNode.request(
            "POST", "/api/games/\(game.id)/commands", headers: ["Authorization": "Bearer \(game.token)"],
            json: command("x"))
        #expect(try refused.json["code"] == "relayed_game")
        // The public node gone: the venue says so and stays healthy, and keeps scoring.
        publicNode.app.shutdown()
        #expect(try eventually { try uplink() == "down" })
        #expect(try venue.request("GET", "/healthz").status == 200)
        try score(index)
    }
}

extension TestApp {
    /// A public node with a venue "Hall 2", and a venue node relaying to it over `ws://` on loopback: both nodes and
    /// the venue's id.
    static func venueAndPublicNode() throws -> (publicNode: TestApp, venue: TestApp, venueID: String) {
        let publicNode = try TestApp()
        let created = try publicNode.request(
            "POST", "/api/venues", headers: ["Authorization": "Bearer \(TestApp.adminToken)"], json: ["name": "Hall 2"])
        let venueID = try #require(try created.json["id"]?.stringValue)
        let token = try #require(try created.json["token"]?.stringValue)
        let venue = try TestApp(configure: { configuration in
            configuration.upstream = "ws://127.0.0.1:\(publicNode.port)"
            configuration.upstreamToken = token
        })
        return (publicNode, venue, venueID)
    }

    /// Command `index` of a relay test's game: two points or a rebound, home and away in turn.
    func scoreRelayTestCommand(_ index: Int, in game: (id: String, token: String)) throws -> ClientResponse {
        try request(
            "POST", "/api/games/\(game.id)/commands", headers: ["Authorization": "Bearer \(game.token)"],
            json: command(
                "c\(index)", move: index % 3 == 0 ? "twoPoints" : "rebound",
                player: index % 2 == 0 ? "home-0" : "away-1"))
    }

    /// Waits until this node serves `game` as `expected` (its `source` aside): whether it did, and the last served.
    func waitUntilServes(_ game: String, as expected: JSONValue, within limit: Duration) -> (Bool, JSONValue?) {
        var served: JSONValue?
        let equal = eventually(within: limit) {
            served = try? self.snapshot(game)
            return served.map(RelayEndpointTests.withoutSource) == expected
        }
        return (equal, served)
    }
}
