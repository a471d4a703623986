import CourtsideHTTP

/// A valid upgrade request (RFC 6455 §4.2.1), with what the application needs to decide, and the 101 response.
public struct WebSocketUpgradeRequest: Sendable, Equatable {
    /// The request head, for the path, query and cookies.
    public var head: HTTPRequestHead
    /// `Sec-WebSocket-Key` as received: base64 of 16 bytes.
    public var key: String
    /// `Sec-WebSocket-Protocol` tokens in the client's order of preference (case-sensitive, RFC 6455 §4.1).
    public var subprotocols: [String]
    /// `Sec-WebSocket-Extensions` offers in the client's order (RFC 6455 §9.1); permessage-deflate negotiation
    /// reads them.
    public var extensionOffers: [WebSocketExtensionOffer]
    /// `Origin`, for the application to check against its allowed origins (RFC 6455 §10.2); nil for non-browser
    /// clients.
    public var origin: String?

    public init(
        head: HTTPRequestHead, key: String, subprotocols: [String] = [],
        extensionOffers: [WebSocketExtensionOffer] = [], origin: String? = nil
    ) {
        self.head = head
        self.key = key
        self.subprotocols = subprotocols
        self.extensionOffers = extensionOffers
        self.origin = origin
    }

    /// The 101 Switching Protocols response (RFC 6455 §4.2.2 item 5).
    ///
    /// - Parameters:
    ///   - subprotocol: one of ``subprotocols``, or nil to select none.
    ///   - extensions: the `Sec-WebSocket-Extensions` value of the accepted extensions, or nil.
    public func response(subprotocol: String? = nil, extensions: String? = nil) -> HTTPResponse {
        var headers = HTTPHeaders()
        // Room for these and the server's response headers added after (`HTTPServer.Configuration.decorate`): the
        // array grew three times per handshake (docs/benchmarks.md, "Handshakes").
        headers.reserveCapacity(12)
        headers.add(name: "Upgrade", value: "websocket")
        headers.add(name: "Connection", value: "Upgrade")
        headers.add(name: "Sec-WebSocket-Accept", value: WebSocketHandshake.acceptValue(forKey: key))
        if let subprotocol { headers.add(name: "Sec-WebSocket-Protocol", value: subprotocol) }
        if let extensions { headers.add(name: "Sec-WebSocket-Extensions", value: extensions) }
        return HTTPResponse(status: .switchingProtocols, headers: headers)
    }
}
