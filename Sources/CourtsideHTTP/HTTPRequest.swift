/// A parsed request line and header section.
public struct HTTPRequestHead: Sendable, Equatable {
    public var method: HTTPMethod
    /// The request-target exactly as received (RFC 9112 §3.2), for logs and redirects.
    public var target: String
    /// The percent-decoded path. Never contains NUL or a decoded `/` (both rejected by the parser);
    /// `"*"` for `OPTIONS *`. Dot segments are left in place: see `HTTPPath.hasDotSegment`.
    public var path: String
    /// The raw query after `?`, still percent-encoded; `nil` when the target had no `?`.
    public var query: String?
    public var version: HTTPVersion
    public var headers: HTTPHeaders
    /// Whether the connection may carry another request after this one (RFC 9112 §9.3).
    public var keepAlive: Bool

    public init(
        method: HTTPMethod, target: String, path: String, query: String?, version: HTTPVersion,
        headers: HTTPHeaders, keepAlive: Bool
    ) {
        self.method = method
        self.target = target
        self.path = path
        self.query = query
        self.version = version
        self.headers = headers
        self.keepAlive = keepAlive
    }

    /// The decoded query items (`a=1&b=x+y` → `[("a", "1"), ("b", "x y")]`).
    public var queryItems: [HTTPQueryItem] { query.map(HTTPQueryItem.parse) ?? [] }

    /// The value of the first query item named `name`, e.g. `queryValue(for: "since")`.
    public func queryValue(for name: String) -> String? { queryItems.first { $0.name == name }?.value }

    /// The lowercased tokens of the `Upgrade` header: non-empty means the client asked to switch protocols.
    public var upgradeTokens: [String] { headers.tokens(for: "Upgrade") }
}

/// A complete request: head and body (de-chunked if it was sent chunked).
public struct HTTPRequest: Sendable, Equatable {
    public var head: HTTPRequestHead
    public var body: [UInt8]

    public init(head: HTTPRequestHead, body: [UInt8] = []) {
        self.head = head
        self.body = body
    }
}
