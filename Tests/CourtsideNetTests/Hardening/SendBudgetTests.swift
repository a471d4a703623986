import CourtsideTestSupport
import Glibc
import Testing

@testable import CourtsideNet

/// Answers every message with 200 bytes, as the scoreboard answers a spectator's every frame with a `read_only`
/// error: the cheapest way for a client to make the server queue more than it sends.
final class AmplifyingSocketHandler: WebSocketHandler {
    static let answer = String(repeating: "e", count: 200)

    func webSocket(_ socket: WebSocket, didReceive message: WebSocketMessage) {
        socket.send(text: Self.answer)
    }
}

struct AmplifyingRouter: HTTPRouter {
    func route(_ request: HTTPRequest, context: RouteContext) -> Route {
        request.head.path == "/amplify"
            ? .webSocket(AmplifyingSocketHandler()) : TestRouter().route(request, context: context)
    }
}

/// A "ping flood" attack: every byte the server queues for a connection counts against its send budget, and past
/// it the connection stops reading. Over loopback, with a client that sends as fast as it can and never reads.
@Suite("Send budget both ways over loopback", .serialized)
struct SendBudgetTests {
    static let budget = 64 * 1024

    /// What a flood achieved: bytes the client got into the server before its sends blocked, and the largest send
    /// queue the server held meanwhile.
    struct Flood: Sendable {
        var sent = 0
        var blocked = false
        var largestQueue = 0
    }

    /// Sends `chunk` repeatedly on a client with a 2 KiB receive buffer that never reads, until a send makes no
    /// progress for a second (the server stopped reading) or `maxBytes` went out; samples the server's queues.
    static func flood(path: String, chunk: [UInt8], maxBytes: Int) throws -> Flood {
        let configure: (inout HTTPServer.Configuration) -> Void = { $0.webSocketSendBudgetBytes = budget }
        return try withBlockingServer(router: AmplifyingRouter(), configure: configure) { server in
            let client = try TestClient(
                port: server.localAddress.port, timeout: .seconds(1), receiveBufferBytes: 2048)
            _ = try client.openWebSocket(path: path)
            var flood = Flood()
            var sinceSample = 0
            while flood.sent < maxBytes {
                let written = chunk.withUnsafeBytes {
                    Glibc.send(client.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                if written < 0 {
                    if errno == EINTR { continue }
                    #expect(errno == EAGAIN, "send failed with errno \(errno)")
                    flood.blocked = errno == EAGAIN
                    break
                }
                flood.sent += written
                sinceSample += written
                if sinceSample >= 1 << 20 {
                    sinceSample = 0
                    flood.largestQueue = max(flood.largestQueue, server.largestWebSocketQueue() ?? .max)
                }
                // A partial write means the kernel's buffers are full: keep the frames aligned by finishing it.
                if written < chunk.count {
                    var offset = written
                    while offset < chunk.count {
                        let more = chunk[offset...].withUnsafeBytes {
                            Glibc.send(client.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                        }
                        if more < 0 { break }
                        offset += more
                        flood.sent += more
                    }
                    if offset < chunk.count {
                        flood.blocked = true
                        break
                    }
                }
            }
            flood.largestQueue = max(flood.largestQueue, server.largestWebSocketQueue() ?? .max)
            return flood
        }
    }

    /// Two floods: 125-byte pings (each earns a 127-byte pong), and empty text frames on a socket that answers each
    /// with 202 bytes (6 bytes in, 202 out: the spectator's `read_only` answer).
    enum Attack: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case pingFlood
        case amplifiedAnswers

        var path: String { self == .pingFlood ? "/ws" : "/amplify" }

        var chunk: [UInt8] {
            switch self {
            case .pingFlood:
                let ping = TestClient.frame(opcode: 0x9, payload: [UInt8](repeating: 0x70, count: 125))
                return Array((0..<500).map { _ in ping }.joined())
            case .amplifiedAnswers:
                let frame = TestClient.frame(opcode: 0x1, payload: [])
                return Array((0..<10_000).map { _ in frame }.joined())
            }
        }

        var testDescription: String { rawValue }
    }

    @Test(
        "a client that sends without reading stops being read once what it earned fills the budget",
        arguments: Attack.allCases)
    func floodStopsAtBudget(attack: Attack) async throws {
        let chunk = attack.chunk
        let flood = try await offPool { try Self.flood(path: attack.path, chunk: chunk, maxBytes: 32 << 20) }
        #expect(flood.blocked, "the server kept reading: \(flood.sent) bytes taken")
        // One step of 64 answers (13 KB) past the budget at most.
        #expect(flood.largestQueue <= Self.budget + 16 * 1024, "queue reached \(flood.largestQueue) bytes")
    }

    @Test("a socket paused at its budget answers everything once the client reads")
    func pausedSocketResumes() async throws {
        let answered = try await offPool {
            let configure: (inout HTTPServer.Configuration) -> Void = { $0.webSocketSendBudgetBytes = 4096 }
            return try withBlockingServer(router: AmplifyingRouter(), configure: configure) { server in
                let client = try TestClient(port: server.localAddress.port, receiveBufferBytes: 2048)
                _ = try client.openWebSocket(path: "/amplify")
                let count = 2000
                // 2000 answers are 400 KB: far past the budget, so the server pauses and resumes many times.
                try client.send(Array((0..<count).map { _ in TestClient.frame(opcode: 0x1, payload: [0x61]) }.joined()))
                var answered = 0
                for _ in 0..<count {
                    let frame = try client.readFrame()
                    guard frame.opcode == 0x1, frame.text == AmplifyingSocketHandler.answer else { break }
                    answered += 1
                }
                return answered
            }
        }
        #expect(answered == 2000)
    }
}
