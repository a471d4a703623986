/// One server-sent event (HTML Living Standard §9.2, "Server-sent events"), encoded as `text/event-stream`.
public struct ServerSentEvent: Sendable, Equatable {
    /// `id:`; the browser sends it back as `Last-Event-ID` when it reconnects.
    public var id: String?
    /// `event:`; the listener name on the client (`message` when absent).
    public var event: String?
    /// `retry:`; the client's reconnection delay in milliseconds.
    public var retry: Int?
    /// The payload; each line becomes its own `data:` line and the client joins them with LF.
    public var data: String

    public init(id: String? = nil, event: String? = nil, retry: Int? = nil, data: String) {
        self.id = id
        self.event = event
        self.retry = retry
        self.data = data
    }

    /// The event's bytes, ending with the blank line that dispatches it. CR, LF and NUL in `id` and `event` are
    /// dropped: a line break there would start a forged field, and a NUL makes the client ignore the id.
    public var encoded: [UInt8] {
        var text = ""
        if let id { text += "id: \(Self.singleLine(id))\n" }
        if let event { text += "event: \(Self.singleLine(event))\n" }
        if let retry, retry >= 0 { text += "retry: \(retry)\n" }
        // The stream format ends lines with CRLF, LF or CR, so split on all three (a CRLF counts once).
        var line = ""
        var afterCR = false
        for scalar in data.unicodeScalars {
            if scalar == "\n" && afterCR {
                afterCR = false
                continue
            }
            afterCR = scalar == "\r"
            if scalar == "\r" || scalar == "\n" {
                text += "data: \(line)\n"
                line = ""
            } else {
                line.unicodeScalars.append(scalar)
            }
        }
        text += "data: \(line)\n"
        text += "\n"
        return Array(text.utf8)
    }

    /// A comment line. Sent every ~15 s it keeps proxies from closing an idle stream; the client ignores it.
    public static func comment(_ text: String = "") -> [UInt8] {
        Array(":\(text.isEmpty ? "" : " " + singleLine(text))\n\n".utf8)
    }

    /// The keep-alive comment bytes, `: keep-alive` followed by a blank line.
    public static let keepAliveComment: [UInt8] = Array(": keep-alive\n\n".utf8)

    /// The response that opens a stream: send its head with `HTTPResponseEncoder.head(_:framing:…)` and
    /// `.chunked` (HTTP/1.1) or `.none` with `keepAlive: false` (HTTP/1.0), then events.
    public static var streamResponse: HTTPResponse {
        HTTPResponse(
            status: .ok,
            headers: [
                "Content-Type": "text/event-stream; charset=utf-8",
                "Cache-Control": "no-cache",
                "X-Accel-Buffering": "no",
            ])
    }

    private static func singleLine(_ text: String) -> String {
        String(text.unicodeScalars.filter { $0 != "\r" && $0 != "\n" && $0 != "\0" })
    }
}
