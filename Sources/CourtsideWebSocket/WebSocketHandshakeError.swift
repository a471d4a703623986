import CourtsideHTTP

/// Why an upgrade request was refused, with the field at fault; ``response`` is the answer to send.
public enum WebSocketHandshakeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// RFC 6455 §4.2.1 item 1: the method must be GET.
    case methodNotGET(HTTPMethod)
    /// RFC 6455 §4.2.1 item 1: HTTP/1.1 or later.
    case httpVersionTooOld(HTTPVersion)
    /// RFC 6455 §4.2.1 item 2: a Host header is required.
    case missingHost
    /// RFC 6455 §4.2.1 item 3: `Upgrade` must contain the token `websocket`.
    case missingUpgradeWebSocket
    /// RFC 6455 §4.2.1 item 4: `Connection` must contain the token `upgrade`.
    case missingConnectionUpgrade
    /// RFC 6455 §4.2.1 item 6 and §4.4: only version 13 is spoken; the value received, or nil if absent.
    case unsupportedVersion(String?)
    /// RFC 6455 §4.2.1 item 5: no `Sec-WebSocket-Key`, or more than one.
    case missingKey
    /// RFC 6455 §4.2.1 item 5: the key is not base64 of exactly 16 bytes.
    case invalidKey(String)
    /// `Sec-WebSocket-Protocol` is not a comma-separated list of tokens (RFC 6455 §4.3).
    case invalidSubprotocolList(String)
    /// `Sec-WebSocket-Extensions` breaks the RFC 6455 §9.1 grammar.
    case invalidExtensionList(String)
    /// The application refused the connection (RFC 6455 §4.2.2 item 4: 403).
    case refused(reason: String)
    /// The application chose a subprotocol the client did not offer: a bug in the application.
    case subprotocolNotOffered(String)

    /// The HTTP status: 426 for a version we do not speak (RFC 6455 §4.4), 403 for an application refusal,
    /// 500 for an application bug, 400 for every malformed handshake (RFC 6455 §4.2.1).
    public var status: HTTPStatus {
        switch self {
        case .unsupportedVersion: return .upgradeRequired
        case .refused: return .forbidden
        case .subprotocolNotOffered: return .internalServerError
        default: return .badRequest
        }
    }

    /// The answer to send, then close the connection (`keepAlive: false`). A 426 names the version we speak in
    /// `Sec-WebSocket-Version` (RFC 6455 §4.4) and the protocol in `Upgrade` (RFC 9110 §15.5.22), with the
    /// `upgrade` connection option that must accompany it (RFC 9110 §7.8) next to `close`.
    public var response: HTTPResponse {
        var headers = HTTPHeaders()
        if case .unsupportedVersion = self {
            headers.add(name: "Sec-WebSocket-Version", value: WebSocketHandshake.version)
            headers.add(name: "Upgrade", value: "websocket")
            headers.add(name: "Connection", value: "Upgrade, close")
        }
        let text: String
        switch self {
        case .refused(let reason): text = reason
        case .subprotocolNotOffered: text = "internal error"  // the application's bug is not the client's business
        default: text = description
        }
        return .text(status, "\(status.code) \(status.reasonPhrase): \(text)\n", headers: headers)
    }

    public var description: String {
        switch self {
        case .methodNotGET(let method): return "a WebSocket handshake must use GET, not \(method)"
        case .httpVersionTooOld(let version): return "a WebSocket handshake needs HTTP/1.1 or later, not \(version)"
        case .missingHost: return "missing Host header"
        case .missingUpgradeWebSocket: return "Upgrade header must contain websocket"
        case .missingConnectionUpgrade: return "Connection header must contain upgrade"
        case .unsupportedVersion(let value):
            return "unsupported Sec-WebSocket-Version \(value.map { "'\($0)'" } ?? "(missing)"); supported: 13"
        case .missingKey: return "exactly one Sec-WebSocket-Key header is required"
        case .invalidKey: return "Sec-WebSocket-Key must be base64 of 16 bytes"
        case .invalidSubprotocolList: return "malformed Sec-WebSocket-Protocol header"
        case .invalidExtensionList: return "malformed Sec-WebSocket-Extensions header"
        case .refused(let reason): return "refused: \(reason)"
        case .subprotocolNotOffered(let name): return "the application chose subprotocol '\(name)', not offered"
        }
    }
}
