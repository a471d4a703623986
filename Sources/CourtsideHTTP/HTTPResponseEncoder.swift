/// How a response's body is delimited on the wire (RFC 9112 §6).
public enum HTTPResponseFraming: Sendable, Equatable {
    /// `Content-Length: n`.
    case contentLength(Int)
    /// `Transfer-Encoding: chunked`; send chunks with `HTTPResponseEncoder.chunk(_:)` and end with `lastChunk`.
    /// Only for HTTP/1.1 clients (RFC 9112 §7: an HTTP/1.0 client cannot read it).
    case chunked
    /// No length: for 1xx, 204 and 304, or a body that ends when the connection closes (HTTP/1.0 streams).
    case none
}

/// Produces response bytes. Pure: the date string comes from the caller (see `HTTPDate`).
public enum HTTPResponseEncoder {
    /// The whole response, head and body, framed with `Content-Length`.
    /// - Parameters:
    ///   - method: the request's method. For HEAD the body is left out, and the `Content-Length` is the
    ///     body's length, or a `Content-Length` the response already carries when its body is empty (so a HEAD
    ///     handler can state the length without reading the content, RFC 9110 §9.3.2).
    ///   - keepAlive: whether the server will read another request on this connection.
    ///   - requestVersion: an HTTP/1.0 client is told `Connection: keep-alive` when the connection stays open.
    ///   - date: the `Date` value, from `HTTPDate`.
    public static func encode(
        _ response: HTTPResponse, method: HTTPMethod = .GET, keepAlive: Bool,
        requestVersion: HTTPVersion = .http1_1, date: String
    ) -> [UInt8] {
        let sendsBody = method != .HEAD && !response.status.forbidsBody
        var bytes = head(
            response, framing: framing(of: response, method: method), keepAlive: keepAlive,
            requestVersion: requestVersion, date: date, extra: sendsBody ? response.body.count : 0)
        if sendsBody { bytes.append(contentsOf: response.body) }
        return bytes
    }

    /// Bodies at least this long are not copied behind the head by ``encodeParts(_:method:keepAlive:requestVersion:date:)``:
    /// below it one buffer is cheaper than a second `iovec`.
    public static let separateBodyBytes = 4096

    /// The same bytes as ``encode(_:method:keepAlive:requestVersion:date:)``, as the head and the body array
    /// itself (shared, not copied) when the body is at least ``separateBodyBytes``; otherwise everything in `head`
    /// and an empty `body`. For a writer that gathers buffers (`writev`): a static file's bytes then go from the
    /// file cache to the kernel without a copy in between.
    public static func encodeParts(
        _ response: HTTPResponse, method: HTTPMethod = .GET, keepAlive: Bool,
        requestVersion: HTTPVersion = .http1_1, date: String
    ) -> (head: [UInt8], body: [UInt8]) {
        let sendsBody = method != .HEAD && !response.status.forbidsBody
        guard sendsBody, response.body.count >= separateBodyBytes else {
            return (
                encode(response, method: method, keepAlive: keepAlive, requestVersion: requestVersion, date: date), []
            )
        }
        let head = head(
            response, framing: .contentLength(response.body.count), keepAlive: keepAlive,
            requestVersion: requestVersion, date: date, extra: 0)
        return (head, response.body)
    }

    /// How `response` is delimited for a request with `method` (RFC 9112 §6.3).
    private static func framing(of response: HTTPResponse, method: HTTPMethod) -> HTTPResponseFraming {
        if response.status.forbidsBody { return .none }
        if method == .HEAD, response.body.isEmpty, let declared = response.headers["Content-Length"],
            let length = Int(declared), length >= 0
        {
            return .contentLength(length)
        }
        return .contentLength(response.body.count)
    }

    /// The whole response to `request`: its method (HEAD), keep-alive decision and version. Pass
    /// `keepAlive: false` to close even though the client would keep the connection (shutdown, errors).
    public static func encode(
        _ response: HTTPResponse, for request: HTTPRequestHead, keepAlive: Bool? = nil, date: String
    ) -> [UInt8] {
        encode(
            response, method: request.method, keepAlive: (keepAlive ?? true) && request.keepAlive,
            requestVersion: request.version, date: date)
    }

    /// The status line and header section only (ending with the empty line); `response.body` is ignored.
    /// Any `Content-Length` or `Transfer-Encoding` in `response.headers` is replaced according to `framing`.
    /// A `Connection` header already present (such as `Upgrade` on a 101) is kept; otherwise `close` is
    /// added when `keepAlive` is false, and `keep-alive` for an HTTP/1.0 client when it is true.
    public static func head(
        _ response: HTTPResponse, framing: HTTPResponseFraming, keepAlive: Bool,
        requestVersion: HTTPVersion = .http1_1, date: String
    ) -> [UInt8] {
        head(response, framing: framing, keepAlive: keepAlive, requestVersion: requestVersion, date: date, extra: 0)
    }

    /// `head`, in an array with room for `extra` more bytes (the body that follows). The fields are written as
    /// they are, the framing, `Connection` and `Date` fields after them, without building a new header list: a
    /// static file's answer is mostly this function (docs/benchmarks.md, "Static files").
    static func head(
        _ response: HTTPResponse, framing: HTTPResponseFraming, keepAlive: Bool, requestVersion: HTTPVersion,
        date: String, extra: Int
    ) -> [UInt8] {
        var bytes: [UInt8] = []
        let fields: (hasConnection: Bool, hasDate: Bool)
        if let prepared = response.prepared, framing == .contentLength(prepared.contentLength) {
            // A static file: its fields were encoded when the server started (`HTTPPreparedHead`).
            bytes.reserveCapacity(prepared.fields.count + 64 + extra)
            bytes.append(contentsOf: prepared.fields)
            fields = (false, false)
        } else {
            // The status line, `Date`, `Connection` and the empty line: up to about 110 bytes beyond the fields
            // (a 101's head outgrew 64 and was copied once more).
            var size = 128 + extra
            for (name, value) in response.headers { size += name.utf8.count + value.utf8.count + 4 }
            bytes.reserveCapacity(size)
            fields = appendFields(response, framing: framing, to: &bytes)
        }
        if !fields.hasConnection {
            if !keepAlive {
                appendField("Connection", "close", to: &bytes)
            } else if requestVersion == .http1_0 {
                appendField("Connection", "keep-alive", to: &bytes)
            }
        }
        if !fields.hasDate { appendField("Date", date, to: &bytes) }
        appendCRLF(to: &bytes)
        return bytes
    }

    /// The status line, the response's fields but its framing ones, and the framing field for `framing`: what
    /// does not depend on the connection or the time.
    static func appendFields(_ response: HTTPResponse, framing: HTTPResponseFraming, to bytes: inout [UInt8]) -> (
        hasConnection: Bool, hasDate: Bool
    ) {
        bytes.append(contentsOf: "HTTP/1.1 \(response.status.code) ".utf8)
        appendSanitized(response.status.reasonPhrase, to: &bytes)
        appendCRLF(to: &bytes)
        var hasConnection = false
        var hasDate = false
        for (name, value) in response.headers {
            // Framing is decided here, never taken from the application (RFC 9112 §6.3).
            if HTTPHeaders.sameName(name, "Content-Length") || HTTPHeaders.sameName(name, "Transfer-Encoding") {
                continue
            }
            if HTTPHeaders.sameName(name, "Connection") { hasConnection = true }
            if HTTPHeaders.sameName(name, "Date") { hasDate = true }
            appendField(name, value, to: &bytes)
        }
        switch framing {
        case .contentLength(let length): appendField("Content-Length", String(length), to: &bytes)
        case .chunked: appendField("Transfer-Encoding", "chunked", to: &bytes)
        case .none: break
        }
        return (hasConnection, hasDate)
    }

    private static func appendField(_ name: String, _ value: String, to bytes: inout [UInt8]) {
        appendSanitized(name, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(UInt8(ascii: " "))
        appendSanitized(value, to: &bytes)
        appendCRLF(to: &bytes)
    }

    /// Two appends of one byte: an array literal appended goes through the generic path (about 100 instructions, three
    /// times in every response).
    private static func appendCRLF(to bytes: inout [UInt8]) {
        bytes.append(0x0D)
        bytes.append(0x0A)
    }

    /// One chunk: hex size, CRLF, data, CRLF (RFC 9112 §7.1). An empty input gives no bytes, since a
    /// zero-size chunk would end the body.
    public static func chunk(_ data: some Collection<UInt8>) -> [UInt8] {
        guard !data.isEmpty else { return [] }
        var bytes = Array(String(data.count, radix: 16).utf8)
        bytes.reserveCapacity(bytes.count + data.count + 4)
        bytes.append(contentsOf: [0x0D, 0x0A])
        bytes.append(contentsOf: data)
        bytes.append(contentsOf: [0x0D, 0x0A])
        return bytes
    }

    /// The last chunk with an empty trailer section: ends a chunked body.
    public static let lastChunk: [UInt8] = Array("0\r\n\r\n".utf8)

    /// Copies a header name or value, turning CR, LF and NUL into spaces so an application string can never
    /// end a header line early (response splitting).
    static func appendSanitized(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { utf8 in
            // Nearly every value is clean: one scan, then one copy, instead of a byte-by-byte append.
            guard utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) else {
                bytes.append(contentsOf: utf8)
                return
            }
            for byte in utf8 { bytes.append(byte == 0x0D || byte == 0x0A || byte == 0 ? 0x20 : byte) }
        }
    }
}
