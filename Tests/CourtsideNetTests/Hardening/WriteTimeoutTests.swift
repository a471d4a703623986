import CourtsideTestSupport
import Glibc
import Testing

@testable import CourtsideNet

/// Answers `/big` with 5 KB, so a few hundred pipelined requests queue megabytes.
struct BigResponseRouter: HTTPRouter {
    static let body = [UInt8](repeating: 0x62, count: 5000)

    func route(_ request: HTTPRequest, context: RouteContext) -> Route {
        request.head.path == "/big"
            ? .respond(HTTPResponse(status: .ok, body: Self.body)) : TestRouter().route(request, context: context)
    }
}

/// A "never-reading HTTP client" (docs/http.md): a connection whose queued bytes make no progress for `writeTimeout` is
/// reset, whether it is still open (paused at its queue cap) or already closing (linger not yet started).
@Suite("Write-progress deadline over loopback", .serialized)
struct WriteTimeoutTests {
    static let requests = 400

    /// Pipelines 400 GETs of 5 KB on a client with a 2 KiB receive buffer and does not read for `idle`; then reads
    /// to the end. Returns the response bytes it got and whether the stream ended (EOF or reset).
    static func neverReadingClient(
        lastCloses: Bool, maxQueued: Int, writeTimeout: Duration, idle: Duration
    ) throws -> (received: Int, ended: Bool) {
        let configure: (inout HTTPServer.Configuration) -> Void = {
            $0.writeTimeout = writeTimeout
            $0.maxQueuedResponseBytes = maxQueued
        }
        return try withBlockingServer(router: BigResponseRouter(), configure: configure) { server in
            let client = try TestClient(port: server.localAddress.port, timeout: .seconds(2), receiveBufferBytes: 2048)
            var requests = (0..<(Self.requests - 1)).map { _ in "GET /big HTTP/1.1\r\nHost: x\r\n\r\n" }
            requests.append("GET /big HTTP/1.1\r\nHost: x\r\n\(lastCloses ? "Connection: close\r\n" : "")\r\n")
            try client.send(requests.joined())
            usleep(UInt32(idle.components.seconds * 1_000_000 + idle.components.attoseconds / 1_000_000_000_000))
            var received = 0
            var ended = false
            for _ in 0..<100_000 {
                let bytes: [UInt8]
                do {
                    bytes = try client.readRaw("responses")
                } catch {
                    break  // still open: nothing more within the receive timeout
                }
                if bytes.isEmpty {
                    ended = true
                    break
                }
                received += bytes.count
            }
            // The reset is counted (its close may trail the client's EOF by a loop iteration).
            _ = eventually(within: .seconds(1), every: .milliseconds(10)) {
                server.connectionStatistics.writeTimeouts != 0
            }
            return (received, ended && server.connectionStatistics.writeTimeouts == 1)
        }
    }

    @Test(
        "a client that pipelines and never reads is reset after the write timeout",
        arguments: [
            (lastCloses: false, maxQueued: 1 << 20),  // open, paused at its queue cap
            (lastCloses: true, maxQueued: 16 << 20),  // closing: everything parsed, the close waits for the queue
        ])
    func neverReadingIsReset(lastCloses: Bool, maxQueued: Int) async throws {
        let outcome = try await offPool {
            try Self.neverReadingClient(
                lastCloses: lastCloses, maxQueued: maxQueued, writeTimeout: .milliseconds(300), idle: .seconds(2))
        }
        let all = Self.requests * BigResponseRouter.body.count
        #expect(outcome.ended, "the connection was still open")
        #expect(outcome.received < all, "the server kept the connection until every answer was read")
    }

    @Test("a slow reader that keeps making progress is not reset")
    func slowReaderKeepsConnection() async throws {
        let answered = try await offPool {
            // Three seconds without progress, against a read every 100 ms: a client thread the scheduler holds back
            // on a loaded machine (past a second on two oversubscribed cores) is not taken for a stalled one, and
            // the whole transfer (40 reads, over 4 s) still outlasts the timeout, so a server that timed the whole
            // write instead of its progress would fail here.
            let configure: (inout HTTPServer.Configuration) -> Void = { $0.writeTimeout = .seconds(3) }
            return try withBlockingServer(router: BigResponseRouter(), configure: configure) { server in
                let client = try TestClient(port: server.localAddress.port, receiveBufferBytes: 2048)
                let count = 40
                try client.send((0..<count).map { _ in "GET /big HTTP/1.1\r\nHost: x\r\n\r\n" }.joined())
                var answered = 0
                for _ in 0..<count {
                    // 5 KB per 100 ms: slower than the server writes, but never long without progress.
                    usleep(100_000)
                    guard try client.readResponse().body == BigResponseRouter.body else { break }
                    answered += 1
                }
                return answered
            }
        }
        #expect(answered == 40)
    }
}
