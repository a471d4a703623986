import CourtsideHTTP

/// The server side of the opening handshake (RFC 6455 §4.2): validates an upgrade request and builds the 101.
public enum WebSocketHandshake {
    /// The only protocol version spoken (RFC 6455 §4.1).
    public static let version = "13"

    /// The GUID appended to the key before hashing (RFC 6455 §1.3).
    public static let acceptGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// Whether the request asks for a WebSocket at all (`Upgrade: websocket`), so a router can send it here and
    /// answer everything else as plain HTTP.
    public static func isUpgradeRequest(_ head: HTTPRequestHead) -> Bool {
        head.headers.containsToken("websocket", for: "Upgrade")
    }

    /// Checks every rule of RFC 6455 §4.2.1, in the order listed there.
    public static func validate(_ head: HTTPRequestHead) -> Result<WebSocketUpgradeRequest, WebSocketHandshakeError> {
        let headers = head.headers
        guard head.method == .GET else { return .failure(.methodNotGET(head.method)) }
        guard head.version.major > 1 || (head.version.major == 1 && head.version.minor >= 1) else {
            return .failure(.httpVersionTooOld(head.version))
        }
        // The fields this checks, found in one pass over the request's fields (`UpgradeFields`): eight lookups of
        // their own were 16% of a spectator's handshake (docs/benchmarks.md, "Handshakes").
        let fields = UpgradeFields(headers)
        guard let host = fields.host, !host.isEmpty else { return .failure(.missingHost) }
        // Token lists compare case-insensitively (RFC 6455 §4.2.1 items 3–4). Looked up without building lists or
        // arrays: this runs for every spectator that connects (docs/benchmarks.md, "Handshakes").
        guard headers.containsToken("websocket", for: "Upgrade") else { return .failure(.missingUpgradeWebSocket) }
        guard headers.containsToken("upgrade", for: "Connection") else {
            return .failure(.missingConnectionUpgrade)
        }
        guard fields.versionCount == 1, fields.version == version else {
            let versions = headers.values(for: "Sec-WebSocket-Version")
            return .failure(.unsupportedVersion(versions.isEmpty ? nil : versions.joined(separator: ", ")))
        }
        guard let key = fields.key, fields.keyCount == 1 else { return .failure(.missingKey) }
        guard Base64.decodedLength(key) == 16 else { return .failure(.invalidKey(key)) }
        var subprotocols: [String] = []
        for value in fields.protocols {
            for element in value.split(separator: ",") {
                let name = element.trimmingCharacters(in: " \t")
                if name.isEmpty { continue }
                guard isToken(name) else { return .failure(.invalidSubprotocolList(value)) }
                subprotocols.append(name)
            }
        }
        let extensionValues = fields.extensions
        guard let offers = WebSocketExtensionOffer.parse(headerValues: extensionValues) else {
            return .failure(.invalidExtensionList(extensionValues.joined(separator: ", ")))
        }
        return .success(
            WebSocketUpgradeRequest(
                head: head, key: key, subprotocols: subprotocols, extensionOffers: offers, origin: fields.origin))
    }

    /// Validates the request, asks the application, and returns the response to send.
    ///
    /// - Parameter decide: sees only requests that passed validation; may refuse (403 with the reason) or
    ///   accept, choosing one of ``WebSocketUpgradeRequest/subprotocols`` and an extension response value.
    public static func negotiate(
        _ head: HTTPRequestHead, decide: (WebSocketUpgradeRequest) -> WebSocketUpgradeDecision
    ) -> WebSocketUpgradeOutcome {
        switch accept(head, decide: decide) {
        case .reject(let response, let error):
            return .reject(response, error)
        case .upgrade(let request, let subprotocol, let extensions):
            return .upgrade(
                request, response: request.response(subprotocol: subprotocol, extensions: extensions),
                subprotocol: subprotocol)
        }
    }

    /// `negotiate` without building the 101 as an `HTTPResponse`: what it would say, for a server that writes its
    /// 101 from a ``WebSocketUpgradeHead`` prepared once.
    public static func accept(
        _ head: HTTPRequestHead, decide: (WebSocketUpgradeRequest) -> WebSocketUpgradeDecision
    ) -> WebSocketAcceptance {
        let request: WebSocketUpgradeRequest
        switch validate(head) {
        case .failure(let error): return .reject(error.response, error)
        case .success(let valid): request = valid
        }
        switch decide(request) {
        case .refuse(let reason):
            let error = WebSocketHandshakeError.refused(reason: reason)
            return .reject(error.response, error)
        case .accept(let subprotocol, let extensionResponse, _):
            if let subprotocol, !request.subprotocols.contains(subprotocol) {
                let error = WebSocketHandshakeError.subprotocolNotOffered(subprotocol)
                return .reject(error.response, error)
            }
            return .upgrade(request, subprotocol: subprotocol, extensions: extensionResponse)
        }
    }

    /// `Sec-WebSocket-Accept` for a key (RFC 6455 §4.2.2 item 5.4): base64 of SHA-1 of the key and the GUID.
    public static func acceptValue(forKey key: String) -> String {
        Base64.encode(acceptDigest(forKey: key))
    }

    /// ``acceptValue(forKey:)`` appended to `bytes` (a prepared 101, `WebSocketUpgradeHead`).
    static func appendAcceptValue(forKey key: String, to bytes: inout [UInt8]) {
        Base64.append(acceptDigest(forKey: key), to: &bytes)
    }

    private static func acceptDigest(forKey key: String) -> [UInt8] {
        var sha = SHA1()
        sha.update(key.utf8)  // no concatenated copy: both views are contiguous
        sha.update(acceptGUID.utf8)
        return sha.finalize()
    }
}

/// The application's answer to a valid upgrade request.
public enum WebSocketUpgradeDecision: Sendable, Hashable {
    /// Upgrade, with one of the offered subprotocols (or none) and the `Sec-WebSocket-Extensions` response
    /// value of the extensions accepted (or none). `limits` are the route's limits on received messages (nil:
    /// the server's defaults): the route knows what its clients may send, the server does not.
    case accept(subprotocol: String? = nil, extensions: String? = nil, limits: WebSocketMessageLimits? = nil)
    /// Refuse with 403 and this reason as the body (RFC 6455 §4.2.2 item 4).
    case refuse(reason: String)
}

/// What ``WebSocketHandshake/accept(_:decide:)`` decided.
public enum WebSocketAcceptance: Sendable {
    /// Send a 101 with this `Sec-WebSocket-Protocol` and `Sec-WebSocket-Extensions` value (nil: none), then speak
    /// WebSocket.
    case upgrade(WebSocketUpgradeRequest, subprotocol: String?, extensions: String?)
    /// Send `response` with `keepAlive: false`.
    case reject(HTTPResponse, WebSocketHandshakeError)
}

/// What ``WebSocketHandshake/negotiate(_:decide:)`` decided.
public enum WebSocketUpgradeOutcome: Sendable {
    /// Send the 101 `response` (no body), then speak WebSocket: start a ``WebSocketConnectionStateMachine``
    /// and feed it any bytes read after the request head.
    case upgrade(WebSocketUpgradeRequest, response: HTTPResponse, subprotocol: String?)
    /// Send `response` with `keepAlive: false`.
    case reject(HTTPResponse, WebSocketHandshakeError)
}

extension StringProtocol {
    fileprivate func trimmingCharacters(in set: String) -> String {
        let characters = Set(set)
        guard let first = firstIndex(where: { !characters.contains($0) }),
            let last = lastIndex(where: { !characters.contains($0) })
        else { return "" }
        return String(self[first...last])
    }
}
