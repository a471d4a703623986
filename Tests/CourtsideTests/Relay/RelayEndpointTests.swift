import CourtsideJournal
import CourtsideModel
import CourtsideTestSupport
import CourtsideViewModels
import Foundation
import Testing

@testable import Courtside

/// `WS /api/relay` on the public node (docs/relay.md): a raw WebSocket client speaks the venue's side with the wire
/// codec and relays the stored events of a game played on this same server, so the relayed copy can be compared
/// with the game that made them.
@Suite("Relay endpoint: the public node stores a venue's games", .ownThread)
struct RelayEndpointTests {
    private let admin = ["Authorization": "Bearer \(TestApp.adminToken)"]

    /// A relay client: the venue's end, frame by frame.
    struct Venue {
        let client: WebSocketClient

        func send(_ message: RelayMessage) throws {
            switch RelayWire.encode(message) {
            case .text(let bytes): try client.socket.send(WebSocketClient.maskedFrame(opcode: 0x1, payload: bytes))
            case .binary(let bytes): try client.socket.send(WebSocketClient.maskedFrame(opcode: 0x2, payload: bytes))
            }
        }

        /// The next relay message; a close frame throws with its code and reason.
        func read() throws -> RelayMessage {
            while true {
                let frame = try client.readFrame()
                switch frame.opcode {
                case 0x1: return try RelayWire.decode(.text(frame.payload))
                case 0x2: return try RelayWire.decode(.binary(frame.payload))
                case 0x8:
                    throw ClientError("closed \(frame.closeCode.map(String.init) ?? "-"): \(frame.text.dropFirst(2))")
                default: continue
                }
            }
        }
    }

    /// A game played on `app` (`commands` moves, two points and rebounds in turn) and what venue `venueID` would
    /// relay of it under the id `<venueID>.<its id>`.
    static func playedGame(on app: TestApp, commands: Int, venueID: String) throws -> (
        journaled: JournaledGame, relayed: GameID, record: [UInt8], entries: [RelayEntry]
    ) {
        let local = try app.createGame()
        for index in 0..<commands {
            let answer = try app.request(
                "POST", "/api/games/\(local.id)/commands", headers: ["Authorization": "Bearer \(local.token)"],
                json: command("c\(index)", move: index % 2 == 0 ? "twoPoints" : "rebound"))
            guard answer.status == 200 else { throw ClientError("command \(index): \(answer.text)") }
        }
        guard let journaled = try app.app.core.services.journal.loadGames().first(where: { $0.id.rawValue == local.id })
        else { throw ClientError("game \(local.id) not stored") }
        let relayed = GameID("\(venueID).\(local.id)")
        let (record, entries) = try relayedCopy(of: journaled, as: relayed)
        return (journaled, relayed, record, entries)
    }

    /// What a venue would relay of `journaled` under the id `relayed`: its `open` record and its entries.
    static func relayedCopy(of journaled: JournaledGame, as relayed: GameID) throws -> (
        record: [UInt8], entries: [RelayEntry]
    ) {
        let record = Array(
            String(decoding: try RelayedGameRecord.encode(journaled.record), as: UTF8.self)
                .replacingOccurrences(of: "\"\(journaled.id.rawValue)\"", with: "\"\(relayed.rawValue)\"").utf8)
        let json = JournalJSON()
        let entries = try journaled.events.map { stored in
            RelayEntry(
                seq: stored.event.sequence, event: Array(try json.encode(stored.event, game: relayed).utf8),
                presentationSequence: stored.presentationSequence)
        }
        return (record, entries)
    }

    /// A snapshot answer without its `source` member (the venue's own copy has none).
    static func withoutSource(_ document: JSONValue) -> JSONValue {
        guard var members = document.objectValue else { return document }
        members["source"] = nil
        return .object(members)
    }

    private func createVenue(_ app: TestApp) throws -> (id: String, token: String) {
        let json = try app.request("POST", "/api/venues", headers: admin, json: ["name": "Hall 2"]).json
        return (try #require(json["id"]?.stringValue), try #require(json["token"]?.stringValue))
    }

    @Test(
        "stored with the venue's seqs, acked, duplicates ignored, a gap refused once, commands refused, and the document equals the local game's"
    )
    func relayedGameEqualsLocal() throws {
        let app = try TestApp()
        let venue = try createVenue(app)
        // A local game with a few commands: its stored events are what a venue node would relay.
        let local = try app.createGame()
        let moves = ["twoPoints", "rebound", "onePoint", "rebound", "twoPoints", "foul"]
        for (index, move) in moves.enumerated() {
            let answer = try app.request(
                "POST", "/api/games/\(local.id)/commands", headers: ["Authorization": "Bearer \(local.token)"],
                json: command("c\(index)", move: move, player: index % 2 == 0 ? "home-0" : "away-1"))
            #expect(answer.status == 200, "\(move): \(answer.text)")
        }
        let localDocument = try app.snapshot(local.id)
        let journaled = try #require(try app.app.core.services.journal.loadGames().first { $0.id.rawValue == local.id })
        let relayed = GameID("\(venue.id).\(local.id)")
        let (record, entries) = try Self.relayedCopy(of: journaled, as: relayed)
        let last = try #require(entries.last?.seq)
        #expect(last >= 4)

        // The token in `hello` (no header).
        let relay = Venue(client: try WebSocketClient(port: app.port, path: "/api/relay"))
        try relay.send(.hello(venue: venue.id, token: venue.token, boot: "b1", heads: [relayed: last]))
        #expect(try relay.read() == .welcome(stored: [:]))
        try relay.send(.open(relayed, record: record))
        #expect(try relay.read() == .ack(relayed, seq: 0))
        try relay.send(.entries(relayed, Array(entries[0..<2])))
        #expect(try relay.read() == .ack(relayed, seq: 2))
        // A duplicate: ignored, the ack repeated.
        try relay.send(.entries(relayed, Array(entries[0..<2])))
        #expect(try relay.read() == .ack(relayed, seq: 2))
        // A gap: refused once, asked again from 3.
        try relay.send(.entries(relayed, Array(entries[3...])))
        #expect(try relay.read() == .resend(relayed, from: 3))
        try relay.send(.entries(relayed, Array(entries[2...])))
        #expect(try relay.read() == .ack(relayed, seq: last))

        // The public journal holds the same events with the same seqs and presentation seqs.
        let copy = try #require(try app.app.core.services.journal.loadGames().first { $0.id == relayed })
        #expect(copy.events.map(\.event.sequence) == journaled.events.map(\.event.sequence))
        #expect(copy.events.map(\.presentationSequence) == journaled.events.map(\.presentationSequence))
        #expect(copy.record.metadata[GameRecord.relayedFromKey] == venue.id)

        // A spectator sees the local game's document (its own id aside), at the same seq.
        let expected = try JSONValue(
            parsing: Array(
                localDocument.description.replacingOccurrences(
                    of: "\"\(local.id)\"", with: "\"\(relayed.rawValue)\""
                ).utf8))
        var served: JSONValue?
        let equal = try eventually {
            served = try app.snapshot(relayed.rawValue)
            return served.map(Self.withoutSource) == expected
        }
        #expect(equal, "served \(served.map(\.description) ?? "nothing")\nexpected \(expected)")
        // `source` beside the document: the venue and its link, caught up.
        #expect(served?["source"] == ["venue": .string(venue.id), "link": "up"])

        // Scorer commands are refused, naming the venue.
        let refused = try app.request(
            "POST", "/api/games/\(relayed.rawValue)/commands", headers: ["Authorization": "Bearer \(local.token)"],
            json: command("x1"))
        #expect(refused.status == 409)
        #expect(try refused.json["code"] == "relayed_game")
        #expect(refused.text.contains(venue.id))
        let scorerSocket = try WebSocketClient.upgrade(
            try app.connect(), path: "/ws/games/\(relayed.rawValue)/scorer")
        #expect(scorerSocket.status == 409)
        #expect(try scorerSocket.json["code"] == "relayed_game")

        let spectator = try WebSocketClient(port: app.port, path: "/ws/games/\(relayed.rawValue)")
        #expect(try spectator.readJSON()["type"] == "snapshot")
        // A joiner learns the link state right after its snapshot.
        let joined = try spectator.readJSON()
        #expect(joined["type"] == "source")
        #expect(joined["source"]?["link"] == "up")
        // An event stream gets it too, as a named event without an id, so a reconnect still resumes by `seq`.
        let stream = try app.connect()
        #expect(try stream.request("GET", "/api/games/\(relayed.rawValue)/events", readBody: false).status == 200)
        let events = EventReader(stream)
        let streamSnapshot = try events.next()
        #expect(streamSnapshot.event == nil && streamSnapshot.id == expected["seq"]?.intValue.map(String.init))
        let streamJoined = try events.next()
        #expect(streamJoined.event == "source" && streamJoined.id == nil)
        #expect(try JSONValue(parsing: streamJoined.data)["source"]?["link"] == "up")
        // Another venue's game id: the connection is cut naming it.
        try relay.send(.open(GameID("vzzzzzzzz.game-1"), record: record))
        #expect(throws: ClientError.self) { _ = try relay.read() }
        // The spectator hears the change as a message outside the numbered patches.
        var heard: JSONValue?
        for _ in 0..<20 {
            let message = try spectator.readJSON()
            if message["type"] == "source" {
                heard = message
                break
            }
        }
        #expect(heard?["game"] == .string(relayed.rawValue))
        #expect(heard?["source"]?["link"] == "down")
        #expect(heard?["seq"] == nil)
        let streamHeard = try events.next()
        #expect(streamHeard.event == "source" && streamHeard.id == nil)
        #expect(try JSONValue(parsing: streamHeard.data)["source"]?["link"] == "down")
        // The link is shown down (with its instant), and the document's seq has not moved.
        var source: JSONValue?
        #expect(
            try eventually {
                source = try app.snapshot(relayed.rawValue)["source"]
                return source?["link"] == "down"
            }, "source \(source.map(\.description) ?? "none")")
        #expect((source?["since"]?.intValue ?? 0) > 0)
        #expect(try app.snapshot(relayed.rawValue)["seq"] == expected["seq"])
    }

    @Test("a spectator of a relayed game further behind than the resume window gets a snapshot, one within it patches")
    func behindTheWindow() throws {
        let app = try TestApp(configure: { $0.resumeWindow = 3 })
        let venue = try createVenue(app)
        let (journaled, relayed, record, entries) = try Self.playedGame(on: app, commands: 8, venueID: venue.id)
        let relay = Venue(client: try WebSocketClient(port: app.port, path: "/api/relay"))
        try relay.send(.hello(venue: venue.id, token: venue.token, boot: "b1", heads: [relayed: entries.count]))
        #expect(try relay.read() == .welcome(stored: [:]))
        try relay.send(.open(relayed, record: record))
        #expect(try relay.read() == .ack(relayed, seq: 0))
        // One entry per message, so each command's patch is published on its own and the window holds the last 3.
        for entry in entries {
            try relay.send(.entries(relayed, [entry]))
            #expect(try relay.read() == .ack(relayed, seq: entry.seq))
        }
        let last = journaled.lastPresentationSequence
        #expect(last >= 8)
        _ = try app.waitForGame(relayed.rawValue, seq: last)
        let document = Self.withoutSource(try app.snapshot(relayed.rawValue))

        let behind = try WebSocketClient(port: app.port, path: "/ws/games/\(relayed.rawValue)?since=1")
        let snapshot = try behind.readJSON()
        #expect(snapshot["type"] == "snapshot", "\(snapshot)")
        #expect(snapshot["seq"]?.intValue == last)
        #expect(snapshot["state"] == document["state"])

        let within = try WebSocketClient(port: app.port, path: "/ws/games/\(relayed.rawValue)?since=\(last - 2)")
        let patches = [try within.readJSON(), try within.readJSON()]
        #expect(patches.map { $0["type"] } == ["patch", "patch"], "\(patches)")
        #expect(patches.map { $0["seq"]?.intValue } == [last - 1, last])
    }

    @Test("after a restart of the public node a relayed game is still read-only, at its seq, and the relay resumes")
    func restart() throws {
        let directory = TestApp.makeTemporaryDirectory()
        var app: TestApp? = try TestApp(dataDirectory: directory)
        let venue = try createVenue(try #require(app))
        let first = try #require(app)
        let local = try first.createGame()
        for index in 0..<3 {
            let answer = try first.request(
                "POST", "/api/games/\(local.id)/commands", headers: ["Authorization": "Bearer \(local.token)"],
                json: command("c\(index)"))
            #expect(answer.status == 200)
        }
        let journaled = try #require(
            try first.app.core.services.journal.loadGames().first { $0.id.rawValue == local.id })
        let localDocument = try first.snapshot(local.id)
        let relayed = GameID("\(venue.id).\(local.id)")
        let (record, entries) = try Self.relayedCopy(of: journaled, as: relayed)
        let relay = Venue(client: try WebSocketClient(port: first.port, path: "/api/relay"))
        try relay.send(.hello(venue: venue.id, token: venue.token, boot: "b1", heads: [relayed: entries.count]))
        #expect(try relay.read() == .welcome(stored: [:]))
        try relay.send(.open(relayed, record: record))
        #expect(try relay.read() == .ack(relayed, seq: 0))
        try relay.send(.entries(relayed, Array(entries.dropLast())))
        #expect(try relay.read() == .ack(relayed, seq: entries.count - 1))
        relay.client.close()
        app = nil

        let second = try TestApp(dataDirectory: directory)
        let again = Venue(
            client: try WebSocketClient(
                port: second.port, path: "/api/relay", headers: ["Authorization": "Bearer \(venue.token)"]))
        try again.send(.hello(venue: venue.id, token: "", boot: "b2", heads: [relayed: entries.count]))
        #expect(try again.read() == .welcome(stored: [relayed: entries.count - 1]))
        try again.send(.entries(relayed, Array(entries.suffix(1))))
        #expect(try again.read() == .ack(relayed, seq: entries.count))
        let expected = try JSONValue(
            parsing: Array(
                localDocument.description.replacingOccurrences(
                    of: "\"\(local.id)\"", with: "\"\(relayed.rawValue)\""
                ).utf8))
        var served: JSONValue?
        #expect(
            try eventually {
                served = try second.snapshot(relayed.rawValue)
                return served.map(Self.withoutSource) == expected
            }, "served \(served.map(\.description) ?? "nothing")")
        let refused = try second.request(
            "POST", "/api/games/\(relayed.rawValue)/commands", headers: ["Authorization": "Bearer \(local.token)"],
            json: command("x1"))
        #expect(try refused.json["code"] == "relayed_game")
    }

    @Test("a wrong token is refused: as a bearer before the upgrade, in hello with a policy close")
    func wrongToken() throws {
        let app = try TestApp()
        let venue = try createVenue(app)
        let upgrade = try WebSocketClient.upgrade(
            try app.connect(), path: "/api/relay", headers: ["Authorization": "Bearer \(venue.id).wrong"])
        #expect(upgrade.status == 401)
        let relay = Venue(client: try WebSocketClient(port: app.port, path: "/api/relay"))
        try relay.send(.hello(venue: venue.id, token: venue.token + "0", boot: "b1", heads: [:]))
        #expect(try relay.client.readCloseCode() == 1008)
    }
}
