import Testing

@testable import CourtsideLoad

/// `courtside-load relay`'s command line, the backlog's spread and the live phase it hands to the tap-to-screen run.
@Suite("courtside-load relay: options")
struct RelayOptionsTests {
    static let required = [
        "--venue", "ws://127.0.0.1:9001", "--public", "ws://127.0.0.1:9002", "--link-port", "9003", "--admin-token",
        "admin-token-for-tests",
    ]

    @Test("every node, the link's port and the admin token are required; the defaults are the issue's backlog")
    func required() throws {
        let options = try RelayOptions.parse(Self.required).get()
        #expect(options.venue.port == 9001)
        #expect(options.publicNode.port == 9002)
        #expect(options.linkPort == 9003)
        #expect(options.games == 20)
        #expect(options.backlog == 3_600)
        for (index, name) in ["--venue", "--public", "--link-port", "--admin-token"].enumerated() {
            var arguments = Self.required
            arguments.removeSubrange(index * 2...index * 2 + 1)
            #expect(throws: LoadOptionsError.missingValue(name)) { try RelayOptions.parse(arguments).get() }
        }
    }

    @Test("a host that is not loopback, a backlog smaller than the games, an unknown option: refused")
    func refused() {
        var remote = Self.required
        remote[1] = "ws://192.0.2.1:9001"
        #expect(throws: (any Error).self) { try RelayOptions.parse(remote).get() }
        #expect(throws: (any Error).self) {
            try RelayOptions.parse(Self.required + ["--games", "20", "--backlog", "19"]).get()
        }
        #expect(throws: LoadOptionsError.unknownOption("--nodes")) {
            try RelayOptions.parse(Self.required + ["--nodes", "2"]).get()
        }
    }

    @Test("the backlog is spread evenly, the first games taking the remainder, and sums to the backlog")
    func backlogSpread() throws {
        let options = try RelayOptions.parse(Self.required + ["--games", "7", "--backlog", "100"]).get()
        let spread = (0..<7).map { options.backlogCommands(ofGame: $0) }
        #expect(spread == [15, 15, 14, 14, 14, 14, 14])
        #expect(spread.reduce(0, +) == 100)
    }

    @Test("the live phase: scorers at the venue, spectators on the public node only, plain, timed from the ack")
    func live() throws {
        let options = try RelayOptions.parse(Self.required + ["--spectators", "3", "--live-duration", "12"]).get()
        let live = options.live
        #expect(live.relayed)
        #expect(live.nodes.map(\.target.port) == [9001, 9002])
        #expect(live.spectators == 3)
        #expect(live.duration == 12)
        #expect(live.deflateShare == 0)
        #expect(live.storeDirectory == nil)
    }
}
