import CourtsideTestSupport
import Glibc
import Testing

@testable import CourtsideNet

/// Found before: "plain HTTP connections are not counted in any cap": every connection counts toward the per-address
/// and the global cap; over either, 503 before any request is read (an upgrade included), counted.
@Suite("Connection caps over loopback", .serialized)
struct ConnectionCapsTests {
    /// A kept-alive connection that got one answer (so the server has accepted and counted it).
    static func keptAlive(_ port: Int) throws -> TestClient {
        let client = try TestClient(port: port)
        try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        guard try client.readResponse().status == 200 else { throw TestClientError.malformed("answer") }
        return client
    }

    /// Waits (bounded) until the server counts `open` connections.
    static func waitForOpen(_ server: HTTPServer, _ open: Int) -> Bool {
        eventually(within: .seconds(2), every: .milliseconds(10)) { server.connectionStatistics.open == open }
    }

    @Test("plain connections count per address: past the cap a request and an upgrade get 503, until one closes")
    func perAddress() async throws {
        let outcome = try await offPool {
            let configure: (inout HTTPServer.Configuration) -> Void = {
                $0.connectionCaps = ConnectionCaps(maxConnections: 100, maxConnectionsPerAddress: 3)
            }
            return try withBlockingServer(configure: configure) { server in
                let port = server.localAddress.port
                var held = try (0..<3).map { _ in try Self.keptAlive(port) }
                let plain = try TestClient(port: port)
                let refusedPlain = try plain.readResponse()  // answered before any request is sent
                let upgrade = try TestClient(port: port)
                try? upgrade.send(TestClient.upgradeRequest(path: "/ws"))
                let refusedUpgrade = try upgrade.readResponse()
                let closedAfterRefusal = try plain.waitForClose()
                let statistics = server.connectionStatistics
                held.removeLast()
                let freed = Self.waitForOpen(server, 2)
                let again = try Self.keptAlive(port)
                _ = again
                return (
                    refusedPlain.status, refusedPlain.header("Connection"), refusedUpgrade.status, closedAfterRefusal,
                    statistics, freed
                )
            }
        }
        #expect(outcome.0 == 503)
        #expect(outcome.1 == "close")
        #expect(outcome.2 == 503, "the upgrade is refused")
        #expect(outcome.3)
        #expect(outcome.4 == ConnectionStatistics(open: 3, refusedOverMaxConnections: 0, refusedOverMaxPerAddress: 2))
        #expect(outcome.5, "a closed connection frees its slot")
    }

    @Test("the global cap refuses with 503 whatever the address; an exempt address is counted only globally")
    func global() async throws {
        let outcome = try await offPool {
            let configure: (inout HTTPServer.Configuration) -> Void = {
                $0.connectionCaps = ConnectionCaps(
                    maxConnections: 2, maxConnectionsPerAddress: 1,
                    isExemptFromPerAddressCap: { $0.host == "127.0.0.1" })
            }
            return try withBlockingServer(configure: configure) { server in
                let port = server.localAddress.port
                // Two from one exempt address: the per-address cap of 1 does not apply to it.
                let held = try (0..<2).map { _ in try Self.keptAlive(port) }
                let third = try TestClient(port: port)
                let refused = try third.readResponse()
                _ = held
                return (refused.status, refused.text, server.connectionStatistics)
            }
        }
        #expect(outcome.0 == 503)
        #expect(outcome.1.contains("maximum of connections"))
        #expect(outcome.2 == ConnectionStatistics(open: 2, refusedOverMaxConnections: 1, refusedOverMaxPerAddress: 0))
    }
}
