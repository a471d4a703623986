/// A response to encode: status, headers and the whole body. Framing headers (`Content-Length`,
/// `Transfer-Encoding`, `Connection`, `Date`) are added by `HTTPResponseEncoder`, not set here.
public struct HTTPResponse: Sendable, Equatable {
    public var status: HTTPStatus {
        didSet { prepared = nil }
    }
    public var headers: HTTPHeaders {
        didSet { prepared = nil }
    }
    public var body: [UInt8]
    /// The status line and fields already encoded (`HTTPPreparedHead`), for an answer sent many times alike (a
    /// static file): the encoder then copies them instead of writing each field. A cache of `status` and `headers`,
    /// so changing either drops it, and equality ignores it.
    public private(set) var prepared: HTTPPreparedHead?

    public init(status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// This response with its head encoded once, for `contentLength` (the body's length, or for HEAD the length
    /// the head states). Keep the result and send it many times. `includesServerDefaults`: its fields already hold
    /// the server's response headers for the path it answers (`StaticFileServer.preparing`), so the server adds
    /// nothing per request (`HTTPServer.Configuration.decorate`).
    public func preparingHead(contentLength: Int, includesServerDefaults: Bool = false) -> HTTPResponse {
        var copy = self
        copy.prepared = HTTPPreparedHead(
            self, contentLength: contentLength, includesServerDefaults: includesServerDefaults)
        return copy
    }

    public static func == (lhs: HTTPResponse, rhs: HTTPResponse) -> Bool {
        lhs.status == rhs.status && lhs.headers == rhs.headers && lhs.body == rhs.body
    }

    /// A `text/plain; charset=utf-8` response, for errors and simple answers.
    public static func text(_ status: HTTPStatus, _ text: String, headers: HTTPHeaders = HTTPHeaders()) -> Self {
        var headers = headers
        headers.replaceOrAdd(name: "Content-Type", value: "text/plain; charset=utf-8")
        return HTTPResponse(status: status, headers: headers, body: Array(text.utf8))
    }

    /// The answer to a refused request: its status and the reason as text. Send it with `keepAlive: false`.
    public static func error(_ error: HTTPParseError) -> Self {
        .text(error.status, "\(error.status.code) \(error.status.reasonPhrase): \(error.description)\n")
    }
}

/// A response's status line and header fields, `Content-Length` included, encoded once: what stays the same each
/// time a static file is sent. Only `Connection` (when the connection closes, or for an HTTP/1.0 client) and `Date`
/// (a per-loop string, once a second: `HTTPDateCache`) are written per response, after these bytes. Profile behind
/// it in docs/benchmarks.md ("Static files").
public final class HTTPPreparedHead: Sendable {
    /// From `HTTP/1.1` to the `Content-Length` line's CRLF.
    let fields: [UInt8]
    /// The length the bytes state: the encoder uses them only for a response framed with exactly this length.
    let contentLength: Int
    /// The fields hold the server's response headers for the path answered: checking them per request (a name
    /// comparison per field and default) was 2.7% of a static request (docs/benchmarks.md, "Static files").
    public let includesServerDefaults: Bool

    /// Nil when `response` sets `Connection` or `Date` itself (the encoder decides those per response then).
    init?(_ response: HTTPResponse, contentLength: Int, includesServerDefaults: Bool) {
        guard !response.status.forbidsBody, !response.headers.contains("Connection"), !response.headers.contains("Date")
        else { return nil }
        var bytes: [UInt8] = []
        _ = HTTPResponseEncoder.appendFields(response, framing: .contentLength(contentLength), to: &bytes)
        fields = bytes
        self.contentLength = contentLength
        self.includesServerDefaults = includesServerDefaults
    }
}
