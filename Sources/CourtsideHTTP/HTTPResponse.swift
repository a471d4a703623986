/// A response to encode: status, headers and the whole body. Framing headers (`Content-Length`,
/// `Transfer-Encoding`, `Connection`, `Date`) are added by `HTTPResponseEncoder`, not set here.
public struct HTTPResponse: Sendable, Equatable {
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
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
