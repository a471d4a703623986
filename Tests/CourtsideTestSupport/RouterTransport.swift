import CourtsideNet
import Synchronization

/// An in-process transport for an application's routes (in the spirit of SwiftNIO's `EmbeddedChannel` and
/// Hummingbird's router test client): a request's bytes are parsed by the server's own parser and handed to its
/// router on one of the router's loops, and the answer comes back as a value. No socket, no connection, no thread
/// of its own; what only a connection does (the per-address connection cap, `Date` and `Content-Length`, keep-alive,
/// static files, WebSocket and event-stream upgrades) is not exercised here, and such routes are refused.
public struct RouterTransport: Sendable {
    public enum Failure: Error, CustomStringConvertible {
        /// The bytes are not one whole request; the server would answer `status`.
        case unparsable(String)
        /// The route needs a connection (an upgrade, an event stream, a static file).
        case needsAConnection(path: String, route: String)
        /// The route did not answer within the deadline.
        case noAnswer(path: String, limit: Duration)

        public var description: String {
            switch self {
            case .unparsable(let reason): "not one whole request: \(reason)"
            case .needsAConnection(let path, let route): "\(path) answers with \(route), which needs a connection"
            case .noAnswer(let path, let limit): "\(path) did not answer within \(limit)"
            }
        }
    }

    public let router: any HTTPRouter
    public let loop: EventLoop
    /// The peer the requests seem to come from (the router reads it for per-address limits).
    public var remoteAddress: SocketAddress

    public init(
        router: any HTTPRouter, loop: EventLoop, remoteAddress: SocketAddress = .v4(host: "127.0.0.1", port: 40000)
    ) {
        self.router = router
        self.loop = loop
        self.remoteAddress = remoteAddress
    }

    /// Routes the request `bytes` (one whole HTTP/1.1 request) and returns the answer, waiting at most `limit` for
    /// an answer that waits on something else (a journal write). Blocks the calling thread: `.ownThread` suites.
    public func respond(to bytes: [UInt8], within limit: Duration = .seconds(10)) throws -> HTTPResponse {
        var parser = HTTPRequestParser()
        parser.feed(bytes)
        let request: HTTPRequest
        switch parser.next() {
        case .request(let parsed): request = parsed
        case .needMoreData: throw Failure.unparsable("incomplete")
        case .failed(let error): throw Failure.unparsable("\(error)")
        }
        return try respond(to: request, within: limit)
    }

    /// Routes `request` and returns the answer (see `respond(to:within:)`).
    public func respond(to request: HTTPRequest, within limit: Duration = .seconds(10)) throws -> HTTPResponse {
        let answer = Mutex<Result<HTTPResponse, Failure>?>(nil)
        let (router, remoteAddress, path) = (self.router, self.remoteAddress, request.head.path)
        loop.execute { context in
            let routeContext = RouteContext(loopContext: context, remoteAddress: remoteAddress, isSecure: false)
            let give = { (result: Result<HTTPResponse, Failure>) in
                answer.withLock { if case .none = $0 { $0 = result } }
            }
            switch router.route(request, context: routeContext) {
            case .respond(let response): give(.success(response))
            case .deferred(let start): start { give(.success($0)) }
            case .webSocket: give(.failure(.needsAConnection(path: path, route: "a WebSocket upgrade")))
            case .eventStream: give(.failure(.needsAConnection(path: path, route: "an event stream")))
            case .staticFiles: give(.failure(.needsAConnection(path: path, route: "a static file")))
            }
        }
        var result: Result<HTTPResponse, Failure>?
        _ = eventually(within: limit, every: .milliseconds(1)) {
            result = answer.withLock { $0 }
            return result != nil
        }
        guard let result else { throw Failure.noAnswer(path: path, limit: limit) }
        return try result.get()
    }
}
