import CourtsideModel
import CourtsideTestSupport
import CourtsideViewModels
import Foundation
import Testing

@testable import Courtside

/// A venue node's courts on the public node (docs/relay.md, "Courts"): a court created at the venue, with a game on
/// it, appears read-only on the public node and follows the venue's changes, a cut of the link included.
@Suite("Venue relay: the venue's courts on the public node", .ownThread)
struct VenueCourtRelayTests {
    @Test("a venue court and its game appear on the public node, refuse changes there, and follow a change after a cut")
    func courtFollowsTheVenue() throws {
        let (publicNode, venue, venueID) = try TestApp.venueAndPublicNode()
        let admin = ["Authorization": "Bearer \(TestApp.adminToken)"]
        func uplink() throws -> String? { try venue.request("GET", "/healthz").json["uplink"]?.stringValue }
        #expect(try eventually { try uplink() == "up" })

        let first = try venue.createGame()
        let made = try venue.request("POST", "/api/courts", headers: admin, json: ["name": "Court 1"])
        #expect(made.status == 201, "\(made.text)")
        let court = try #require(try made.json["id"]?.stringValue)
        // Court ids carry the venue's id, as game ids do: no collision with the public node's or another venue's.
        #expect(court.hasPrefix(venueID + ".court-"), "\(court)")
        let put = try venue.request("PUT", "/api/courts/\(court)", headers: admin, json: ["game": .string(first.id)])
        #expect(put.status == 200, "\(put.text)")

        func publicCourt() -> JSONValue? {
            guard let answer = try? publicNode.request("GET", "/api/courts/\(court)"), answer.status == 200 else {
                return nil
            }
            return try? answer.json
        }
        func venueCourt() throws -> JSONValue { try venue.request("GET", "/api/courts/\(court)").json }
        #expect(eventually { publicCourt()?["game"]?.stringValue == first.id }, "\(String(describing: publicCourt()))")
        #expect(try publicCourt() == venueCourt())
        let listed = try publicNode.request("GET", "/api/courts").json["courts"]?.arrayValue ?? []
        #expect(listed.contains { $0["id"]?.stringValue == court }, "\(listed)")
        // The court's game is the relayed game: the public node serves it.
        let (served, _) = publicNode.waitUntilServes(first.id, as: try venue.snapshot(first.id), within: .seconds(30))
        #expect(served)

        // Read-only on the public node, naming the venue.
        let refused = try publicNode.request(
            "PUT", "/api/courts/\(court)", headers: admin, json: ["game": .null])
        #expect(refused.status == 409)
        #expect(try refused.json["code"] == "relayed_court", "\(refused.text)")
        #expect(refused.text.contains("Hall 2"), "\(refused.text)")
        #expect(publicCourt()?["game"]?.stringValue == first.id)

        // A cut, then a change at the venue: the public node follows once the link is back.
        let hub = try #require(publicNode.app.core.relayHub.withLock { $0 })
        hub.dropConnections()
        #expect(eventually { venue.logLines.all.contains { $0.contains("uplink lost") } })
        let second = try venue.createGame()
        let next = try venue.request("PUT", "/api/courts/\(court)", headers: admin, json: ["game": .string(second.id)])
        #expect(next.status == 200, "\(next.text)")
        #expect(try eventually { try uplink() == "up" })
        #expect(eventually { publicCourt()?["game"]?.stringValue == second.id }, "\(String(describing: publicCourt()))")
        #expect(try publicCourt() == venueCourt())
        let (caughtUp, _) = publicNode.waitUntilServes(
            second.id, as: try venue.snapshot(second.id), within: .seconds(30))
        #expect(caughtUp)
    }
}
