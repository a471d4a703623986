import CourtsideJournal
import CourtsideModel
import CourtsideViewModels
import Foundation
import Testing

@testable import Courtside

/// `POST /api/venues` and `GET /api/venues` (docs/relay.md, "Ids").
@Suite("Venue routes", .ownThread)
struct VenueRouteTests {
    private let admin = ["Authorization": "Bearer \(TestApp.adminToken)"]

    @Test("the venue routes need the admin token")
    func needsAdmin() throws {
        let app = try TestApp()
        #expect(try app.request("GET", "/api/venues").status == 401)
        #expect(try app.request("POST", "/api/venues", json: ["name": "Hall 2"]).status == 401)
        #expect(
            try app.request("POST", "/api/venues", headers: ["Authorization": "Bearer wrong"], json: ["name": "x"])
                .status == 403)
        #expect(try app.request("DELETE", "/api/venues", headers: admin).status == 405)
        #expect(try app.request("GET", "/api/venues/x", headers: admin).status == 404)
    }

    @Test("create answers the id and the token once; the list never shows a token; both survive a restart")
    func createAndList() throws {
        let directory = TestApp.makeTemporaryDirectory()
        var id = ""
        var token = ""
        do {
            let app = try TestApp(dataDirectory: directory)
            let created = try app.request("POST", "/api/venues", headers: admin, json: ["name": "  Hall 2 "])
            #expect(created.status == 201)
            let json = try created.json
            id = try #require(json["id"]?.stringValue)
            token = try #require(json["token"]?.stringValue)
            #expect(RelayVenue.isValidID(id))
            #expect(json["name"] == "Hall 2")
            #expect(token.hasPrefix(id + ".") && token.count == id.count + 1 + 32)
            #expect(RelayVenue.id(fromToken: token) == id)
            let other = try app.request("POST", "/api/venues", headers: admin, json: ["name": "Hall 3"])
            #expect(try other.json["id"]?.stringValue != id)
        }
        let app = try TestApp(dataDirectory: directory)
        let list = try app.request("GET", "/api/venues", headers: admin)
        #expect(list.status == 200)
        let venues = try #require(try list.json["venues"]?.arrayValue)
        #expect(venues.map { $0["name"] } == ["Hall 2", "Hall 3"])
        #expect(venues.first?["id"]?.stringValue == id)
        #expect(venues.allSatisfy { $0["token"] == nil })
        #expect(!list.text.contains(token))
        // The store holds the token's hash, never the token.
        let stored = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + SQLiteVenueStore.fileName))
        #expect(stored.range(of: Data(token.utf8)) == nil)
        for suffix in ["", "-wal", "-shm"] {
            let path = directory + "/" + SQLiteVenueStore.fileName + suffix
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(path)")
        }
        let directoryOfVenues = try #require(app.app.core.venues)
        #expect(directoryOfVenues.authenticate(token: token)?.name == "Hall 2")
        #expect(directoryOfVenues.authenticate(token: token + "x") == nil)
        #expect(directoryOfVenues.authenticate(token: String(token.dropFirst(id.count + 1))) == nil)
        #expect(directoryOfVenues.relaying(GameID("\(id).game-1"))?.id == id)
        #expect(directoryOfVenues.relaying("game-1") == nil)
    }

    @Test("bad input is refused naming the problem")
    func badInput() throws {
        let app = try TestApp()
        func refusal(_ body: [UInt8]) throws -> (Int, String?) {
            let response = try app.request("POST", "/api/venues", headers: admin, body: body)
            return (response.status, try response.json["code"]?.stringValue)
        }
        #expect(try refusal(Array("{".utf8)) == (400, "bad_venue"))
        #expect(try refusal(Array(#"{"title":"x"}"#.utf8)) == (400, "bad_venue"))
        #expect(try refusal(Array(#"{"name":3}"#.utf8)) == (400, "bad_venue"))
        #expect(try refusal(Array(#"{"name":"  "}"#.utf8)) == (400, "bad_name"))
        #expect(try refusal(Array(repeating: UInt8(ascii: " "), count: 5_000)).0 == 413)
    }
}
