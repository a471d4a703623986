import CourtsideHTTP
import CourtsideTLS
import CourtsideWebSocket
import CourtsideWebSocketDeflate

extension HTTPServer {
    /// Everything a server needs to start. Every limit has a default chosen for a public scoreboard server.
    public struct Configuration: Sendable {
        /// Address to listen on: a numeric IPv4/IPv6 address or a name (`localhost`). Default loopback only, so a
        /// server is never exposed by accident.
        public var host: String
        /// Port; 0 picks an ephemeral port (read it back from `HTTPServer.localAddress`).
        public var port: Int
        /// Event loops (threads), each with its own `SO_REUSEPORT` listener. Default: one per core.
        public var threadCount: Int
        /// Listen backlog per loop. 1024 absorbs a reconnect storm after a restart (every scoreboard viewer
        /// reconnecting at once) without the kernel dropping SYNs; the kernel caps it at `net.core.somaxconn`.
        public var backlog: Int32
        /// TLS for every connection when set (`wss://`, `https://`).
        public var tls: TLSContext?
        /// Request parser limits (answered with 414, 431, 413, 400).
        public var parserLimits: HTTPParserLimits
        /// Files served by `Route.staticFiles`; nil answers such routes with 404.
        public var staticFiles: StaticFileServer?
        /// Time a client has to send a complete request once it started one (or once it connected): the slowloris
        /// guard. 10 s is ample for any real client on a slow link; one that trickles headers is answered 408 and
        /// closed.
        public var requestTimeout: Duration
        /// How long a keep-alive connection may sit between requests. 30 s lets a browser reuse its connection for
        /// a page's assets and the next poll, while idle sockets do not pile up.
        public var keepAliveTimeout: Duration
        /// Time to complete the TLS handshake after connecting. 10 s: a handshake is two round trips.
        public var tlsHandshakeTimeout: Duration
        /// Interval of `: keep-alive` comments on server-sent event streams. 15 s keeps proxies with a 30–60 s idle
        /// timeout from cutting a quiet stream.
        public var eventStreamKeepAliveInterval: Duration
        /// Limits and timings of each WebSocket (message size, pings, close timeout).
        public var webSocket: WebSocketConnectionStateMachine.Configuration
        /// Response bytes queued on one connection beyond which the server stops reading further pipelined requests
        /// until the client has read what was sent. 1 MiB: a client may pipeline freely but cannot make the server
        /// buffer unbounded answers it never reads.
        public var maxQueuedResponseBytes: Int
        /// permessage-deflate (RFC 7692) for WebSockets: negotiated at every upgrade whose handler did not answer
        /// `Sec-WebSocket-Extensions` itself, with these preferences. Nil (the default) never compresses: a
        /// library default should not cost zlib memory unasked; `courtside-echo` and the scoreboard server turn
        /// it on.
        public var perMessageDeflate: PerMessageDeflateConfiguration?
        /// Outbound bytes one WebSocket may have queued (not yet taken by the kernel) before a send reports
        /// `.overBudget` and a `BroadcastChannel` applies its slow-consumer policy. Default 256 KiB: over a
        /// thousand scoreboard patches (~200 bytes each), or a full snapshot and the patches behind it, so a reader
        /// on a slow link rides out a burst; a reader further behind is better served by a fresh snapshot than by
        /// a stale backlog. Broadcast frames are shared arrays, so slow subscribers of one channel mostly hold the
        /// same buffers: the budget bounds what one connection pins, not a per-connection copy. A message larger
        /// than the budget still goes out when the queue is empty.
        public var webSocketSendBudgetBytes: Int
        /// How long bytes queued for a connection may wait for the peer to read any of them (open or closing)
        /// before the connection is reset; also the sockets' `TCP_USER_TIMEOUT`, the same deadline for bytes the
        /// kernel holds. Default 30 s: a phone on a bad link
        /// reads something well within it, while a client that never reads (to pin the server's memory, or
        /// simply gone) holds its queue and descriptor for at most that long.
        public var writeTimeout: Duration
        /// Connections held at once, in all and per peer address (every kind counts); over either, 503.
        public var connectionCaps: ConnectionCaps
        /// Headers added to every response the server writes (routed answers, static files, its own 400/408/503,
        /// upgrade refusals, the 101 and an event stream's head) unless the response has a field of that name. The
        /// application chooses them from the request's path, or nil when no request was parsed (a malformed one).
        /// For security headers (`X-Content-Type-Options`, `Content-Security-Policy`, ...), which must be on error
        /// answers too. Nil (the default) adds nothing.
        public var responseHeaders: (@Sendable (_ path: String?) -> HTTPHeaders)?

        public init(
            host: String = "127.0.0.1", port: Int = 0, threadCount: Int = EventLoopGroup.coreCount,
            backlog: Int32 = 1024, tls: TLSContext? = nil, parserLimits: HTTPParserLimits = .default,
            staticFiles: StaticFileServer? = nil, requestTimeout: Duration = .seconds(10),
            keepAliveTimeout: Duration = .seconds(30), tlsHandshakeTimeout: Duration = .seconds(10),
            eventStreamKeepAliveInterval: Duration = .seconds(15),
            webSocket: WebSocketConnectionStateMachine.Configuration = .server,
            maxQueuedResponseBytes: Int = 1024 * 1024,
            perMessageDeflate: PerMessageDeflateConfiguration? = nil, webSocketSendBudgetBytes: Int = 256 * 1024,
            writeTimeout: Duration = .seconds(30), connectionCaps: ConnectionCaps = ConnectionCaps(),
            responseHeaders: (@Sendable (_ path: String?) -> HTTPHeaders)? = nil
        ) {
            self.host = host
            self.port = port
            self.threadCount = threadCount
            self.backlog = backlog
            self.tls = tls
            self.parserLimits = parserLimits
            // Static answers carry these headers from the start, heads encoded once (docs/benchmarks.md).
            self.staticFiles = responseHeaders.map { headers in staticFiles?.preparing { headers($0) } } ?? staticFiles
            self.requestTimeout = requestTimeout
            self.keepAliveTimeout = keepAliveTimeout
            self.tlsHandshakeTimeout = tlsHandshakeTimeout
            self.eventStreamKeepAliveInterval = eventStreamKeepAliveInterval
            self.webSocket = webSocket
            self.maxQueuedResponseBytes = maxQueuedResponseBytes
            self.perMessageDeflate = perMessageDeflate
            self.webSocketSendBudgetBytes = webSocketSendBudgetBytes
            self.writeTimeout = writeTimeout
            self.connectionCaps = connectionCaps
            self.responseHeaders = responseHeaders
        }

        /// The part of this configuration each connection's `HTTPConnectionStateMachine` runs by.
        var httpConnection: HTTPConnectionStateMachine.Configuration {
            HTTPConnectionStateMachine.Configuration(
                parserLimits: parserLimits, requestTimeout: requestTimeout, keepAliveTimeout: keepAliveTimeout,
                tlsHandshakeTimeout: tlsHandshakeTimeout, maxQueuedResponseBytes: maxQueuedResponseBytes)
        }

        /// `response` with the `responseHeaders` for `path` added where it has none of its own. Left untouched when
        /// it has them all, or when its head was prepared with them (a static file, `StaticFileServer.preparing`:
        /// not checked per request), so a prepared head stays prepared.
        func decorate(_ response: HTTPResponse, path: String?) -> HTTPResponse {
            Self.decorate(response, path: path, with: responseHeaders)
        }

        /// `decorate(_:path:)` with the configuration's `responseHeaders`, for a caller that holds the configuration
        /// in place (a method call on it copied every field, per request: docs/benchmarks.md, "Static files").
        static func decorate(
            _ response: HTTPResponse, path: String?, with responseHeaders: (@Sendable (_ path: String?) -> HTTPHeaders)?
        ) -> HTTPResponse {
            guard let responseHeaders, response.prepared?.includesServerDefaults != true else { return response }
            let defaults = responseHeaders(path)
            if response.headers.containsEveryName(of: defaults) { return response }
            var decorated = response
            decorated.headers.addAbsent(defaults)
            return decorated
        }
    }
}
