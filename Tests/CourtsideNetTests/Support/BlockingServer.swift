import Foundation

@testable import CourtsideNet

/// Starts a server on an ephemeral loopback port, runs the blocking `body`, and always shuts it down. For tests
/// whose whole body runs inside `offPool`.
func withBlockingServer<T>(
    threads: Int = 1, router: any HTTPRouter = TestRouter(),
    configure: (inout HTTPServer.Configuration) -> Void = { _ in }, _ body: (HTTPServer) throws -> T
) throws -> T {
    var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0, threadCount: threads)
    configure(&configuration)
    let server = try HTTPServer(configuration: configuration, router: router)
    defer { server.shutdown(gracePeriod: .milliseconds(200)) }
    return try body(server)
}

extension HTTPServer {
    /// The largest send queue of any open WebSocket, read on the loops (blocking; call off the pool).
    func largestWebSocketQueue(timeout: Duration = .seconds(5)) -> Int? {
        let largest = LockedValue(0)
        let done = DispatchSemaphore(value: 0)
        forEachLoop { _, sockets in
            let loopLargest = sockets.map(\.bufferedBytes).max() ?? 0
            largest.withLock { $0 = max($0, loopLargest) }
            done.signal()
        }
        for _ in group.loops {
            guard done.wait(timeout: .now() + .milliseconds(Int(timeout.components.seconds) * 1000)) == .success
            else { return nil }
        }
        return largest.withLock { $0 }
    }
}
