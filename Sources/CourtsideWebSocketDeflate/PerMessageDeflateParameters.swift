import CourtsideWebSocket

/// The agreed parameters of a permessage-deflate connection (RFC 7692 §7.1) and the response that states them.
public struct PerMessageDeflateParameters: Sendable, Hashable {
    /// We reset our compression context after every message.
    public var serverNoContextTakeover: Bool
    /// The client resets its context after every message, so our inflater may be emptied (or freed) between
    /// messages.
    public var clientNoContextTakeover: Bool
    /// The largest window our compressed output may reference (8–15). Our zlib deflater runs with
    /// `max(9, serverMaxWindowBits)`: see ``Deflater/init(windowBits:memLevel:level:)``.
    public var serverMaxWindowBits: Int
    /// The window the client compresses with, and our inflater's window (8–15).
    public var clientMaxWindowBits: Int
    /// Whether the response names `server_max_window_bits` (required when the offer had it, §7.1.2.1).
    var statesServerMaxWindowBits: Bool
    /// Whether the response names `client_max_window_bits` (allowed only when the offer had it, §7.1.2.2).
    var statesClientMaxWindowBits: Bool

    public init(
        serverNoContextTakeover: Bool = false, clientNoContextTakeover: Bool = false, serverMaxWindowBits: Int = 15,
        clientMaxWindowBits: Int = 15
    ) {
        self.serverNoContextTakeover = serverNoContextTakeover
        self.clientNoContextTakeover = clientNoContextTakeover
        self.serverMaxWindowBits = serverMaxWindowBits
        self.clientMaxWindowBits = clientMaxWindowBits
        self.statesServerMaxWindowBits = serverMaxWindowBits < 15
        self.statesClientMaxWindowBits = clientMaxWindowBits < 15
    }

    /// The `Sec-WebSocket-Extensions` value of the 101 response (RFC 7692 §7.1): pass it to
    /// `WebSocketUpgradeRequest.response(subprotocol:extensions:)`.
    public var responseHeaderValue: String {
        var value = PerMessageDeflateOffer.extensionName
        if serverNoContextTakeover { value += "; server_no_context_takeover" }
        if clientNoContextTakeover { value += "; client_no_context_takeover" }
        if statesServerMaxWindowBits { value += "; server_max_window_bits=\(serverMaxWindowBits)" }
        // §7.1.2.2: in a response the value is required.
        if statesClientMaxWindowBits { value += "; client_max_window_bits=\(clientMaxWindowBits)" }
        return value
    }
}

extension PerMessageDeflateConfiguration {
    /// Takes the first acceptable permessage-deflate offer, in the client's order (RFC 7692 §5, §7.1), or nil
    /// to go on without compression. Offers with an unknown or repeated parameter or an invalid value are
    /// declined, not fatal (RFC 7692 §7.1 asks the server to decline them); other extensions are skipped.
    ///
    /// Every well-formed offer is acceptable: `server_max_window_bits=8`, which zlib cannot deflate with, is
    /// answered with 8 and served by a 9-bit deflater whose matches never reach past 250 bytes (see
    /// ``Deflater/init(windowBits:memLevel:level:)`` and docs/deflate.md).
    public func negotiate(_ offers: [WebSocketExtensionOffer]) -> PerMessageDeflateParameters? {
        for offer in offers {
            guard let parsed = try? PerMessageDeflateOffer(offer) else { continue }
            return accept(parsed)
        }
        return nil
    }

    /// The parameters that answer one valid offer, under this configuration.
    public func accept(_ offer: PerMessageDeflateOffer) -> PerMessageDeflateParameters {
        var parameters = PerMessageDeflateParameters()
        // §7.1.1.1: accepting an offer with server_no_context_takeover means stating it; a server may also
        // choose it unasked.
        parameters.serverNoContextTakeover = offer.serverNoContextTakeover || serverNoContextTakeover
        // §7.1.1.2: a server may state client_no_context_takeover whether offered or not; when the client
        // offers it, stating it lets us empty the inflater between messages.
        parameters.clientNoContextTakeover = offer.clientNoContextTakeover || requestClientNoContextTakeover
        // §7.1.2.1: answer with the same or a smaller value; a server may limit itself unasked.
        parameters.serverMaxWindowBits = min(offer.serverMaxWindowBits ?? 15, serverMaxWindowBits)
        parameters.statesServerMaxWindowBits = offer.serverMaxWindowBits != nil || parameters.serverMaxWindowBits < 15
        // §7.1.2.2: only an offer that names client_max_window_bits may be answered with it, with a value no
        // larger than the offered one.
        switch offer.clientMaxWindowBits {
        case .absent:
            parameters.clientMaxWindowBits = 15
            parameters.statesClientMaxWindowBits = false
        case .supported:
            parameters.clientMaxWindowBits = clientMaxWindowBits
            parameters.statesClientMaxWindowBits = clientMaxWindowBits < 15
        case .limit(let bits):
            parameters.clientMaxWindowBits = min(bits, clientMaxWindowBits)
            parameters.statesClientMaxWindowBits = true
        }
        return parameters
    }
}
