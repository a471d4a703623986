import CourtsideTestSupport
import Foundation

@testable import CourtsideNet

/// Echoes every message.
final class EchoSocketHandler: WebSocketHandler {
    func webSocket(_ socket: WebSocket, didReceive message: WebSocketMessage) {
        socket.send(message)
    }
}

/// Refuses every upgrade, like an origin check would.
final class RefusingSocketHandler: WebSocketHandler {
    func shouldAccept(_ request: WebSocketUpgradeRequest) -> WebSocketUpgradeDecision {
        .refuse(reason: "origin not allowed")
    }

    func webSocket(_ socket: WebSocket, didReceive message: WebSocketMessage) {}
}

/// Chooses the "scores.v1" subprotocol when offered.
final class SubprotocolSocketHandler: WebSocketHandler {
    func shouldAccept(_ request: WebSocketUpgradeRequest) -> WebSocketUpgradeDecision {
        request.subprotocols.contains("scores.v1") ? .accept(subprotocol: "scores.v1") : .accept()
    }

    func webSocket(_ socket: WebSocket, didReceive message: WebSocketMessage) {}
}

/// Sends one event on open, then pushes an event for every `push` call made on its loop.
final class TickerStreamHandler: EventStreamHandler {
    func eventStreamDidOpen(_ stream: EventStream) {
        stream.send(ServerSentEvent(id: "1", event: "score", data: "home 1\naway 0"))
    }
}

/// The routes the integration tests use.
struct TestRouter: HTTPRouter {
    func route(_ request: HTTPRequest, context: RouteContext) -> Route {
        let path = request.head.path
        switch path {
        case "/ws": return .webSocket(EchoSocketHandler())
        case "/refuse": return .webSocket(RefusingSocketHandler())
        case "/subprotocol": return .webSocket(SubprotocolSocketHandler())
        case "/events": return .eventStream(TickerStreamHandler())
        case "/hello": return .respond(.text(.ok, "hello"))
        case "/loop": return .respond(.text(.ok, String(context.eventLoop.index)))
        case "/echo-body": return .respond(HTTPResponse(status: .ok, body: request.body))
        default:
            if path.hasPrefix("/n/") { return .respond(.text(.ok, String(path.dropFirst(3)))) }
            return .staticFiles
        }
    }
}

/// Starts a server on an ephemeral loopback port, runs `body`, and always shuts it down.
func withServer(
    threads: Int = 1, host: String = "127.0.0.1", router: any HTTPRouter = TestRouter(),
    configure: (inout HTTPServer.Configuration) -> Void = { _ in },
    _ body: (HTTPServer) async throws -> Void
) async throws {
    var configuration = HTTPServer.Configuration(host: host, port: 0, threadCount: threads)
    configure(&configuration)
    let server = try HTTPServer(configuration: configuration, router: router)
    do {
        try await body(server)
    } catch {
        server.shutdown(gracePeriod: .milliseconds(100))
        throw error
    }
    server.shutdown(gracePeriod: .milliseconds(500))
}

/// A scratch directory under /tmp, removed by `remove()`.
struct TemporaryDirectory {
    let path: String

    init() {
        var template = Array("/tmp/courtside-net-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        path = String(cString: made!)
    }

    func write(_ name: String, _ contents: String) {
        let url = URL(fileURLWithPath: path).appendingPathComponent(name)
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: url.path, contents: Data(contents.utf8))
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// Runs a command with a time limit; returns (status, stdout, stderr). A command that outlives it is killed and
/// the call throws `ChildProcessError.didNotExit`.
@discardableResult
func run(_ executable: String, _ arguments: [String], timeout: Duration = .seconds(20)) throws -> (
    status: Int32, stdout: String, stderr: String
) {
    let outcome = try ChildProcess.run(executable, arguments, timeout: timeout)
    return (outcome.termination.status, outcome.standardOutput, outcome.standardError)
}

/// The directory holding the built products (the test bundle sits next to `courtside-echo`).
var productsDirectory: String {
    let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
    var url = URL(fileURLWithPath: exe).deletingLastPathComponent()
    while url.path != "/" && !FileManager.default.fileExists(atPath: url.appendingPathComponent("courtside-echo").path)
    {
        url = url.deletingLastPathComponent()
    }
    return url.path
}

/// Runs `body` on a new thread (not the test's cooperative pool, which blocking test clients may occupy) and
/// returns a waiter that blocks until it finished, or gives up after `timeout`.
func onThread(_ body: @escaping @Sendable () -> Void) -> @Sendable (Duration) -> Bool {
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        body()
        done.signal()
    }
    return { timeout in
        done.wait(
            timeout: .now()
                + .nanoseconds(
                    Int(timeout.components.seconds) * 1_000_000_000
                        + Int(timeout.components.attoseconds / 1_000_000_000))) == .success
    }
}
