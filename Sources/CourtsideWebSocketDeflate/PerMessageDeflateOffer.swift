import CourtsideWebSocket

/// One `permessage-deflate` offer from a client, with its parameters checked (RFC 7692 §7.1).
public struct PerMessageDeflateOffer: Sendable, Hashable {
    /// What a `client_max_window_bits` parameter said (RFC 7692 §7.1.2.2).
    public enum ClientWindowBits: Sendable, Hashable {
        /// Absent: the client cannot limit its window, so the response must not mention it.
        case absent
        /// Present without a value: the client can limit its window to whatever the server answers.
        case supported
        /// Present with a value: the client will not use more than this, and accepts an answer up to it.
        case limit(Int)
    }

    /// `server_no_context_takeover` (RFC 7692 §7.1.1.1).
    public var serverNoContextTakeover = false
    /// `client_no_context_takeover` (RFC 7692 §7.1.1.2): a hint that the client will reset its context.
    public var clientNoContextTakeover = false
    /// `server_max_window_bits` (RFC 7692 §7.1.2.1), 8–15; nil when absent.
    public var serverMaxWindowBits: Int?
    /// `client_max_window_bits` (RFC 7692 §7.1.2.2).
    public var clientMaxWindowBits: ClientWindowBits = .absent

    public init(
        serverNoContextTakeover: Bool = false, clientNoContextTakeover: Bool = false,
        serverMaxWindowBits: Int? = nil, clientMaxWindowBits: ClientWindowBits = .absent
    ) {
        self.serverNoContextTakeover = serverNoContextTakeover
        self.clientNoContextTakeover = clientNoContextTakeover
        self.serverMaxWindowBits = serverMaxWindowBits
        self.clientMaxWindowBits = clientMaxWindowBits
    }

    /// The extension token (RFC 7692 §7).
    public static let extensionName = "permessage-deflate"

    /// Reads a parsed `Sec-WebSocket-Extensions` element; the server must decline it on any error
    /// (RFC 7692 §7.1: unknown parameter, invalid value, or the same parameter twice).
    public init(_ offer: WebSocketExtensionOffer) throws(PerMessageDeflateOfferError) {
        guard offer.name.lowercased() == Self.extensionName else { throw .notPerMessageDeflate(offer.name) }
        var seen: Set<String> = []
        for parameter in offer.parameters {
            let name = parameter.name.lowercased()
            switch name {
            case "server_no_context_takeover", "client_no_context_takeover", "server_max_window_bits",
                "client_max_window_bits":
                guard seen.insert(name).inserted else { throw .duplicateParameter(name) }
            default:
                throw .unknownParameter(parameter.name)
            }
            switch (name, parameter.value) {
            case ("server_no_context_takeover", nil):
                serverNoContextTakeover = true
            case ("client_no_context_takeover", nil):
                clientNoContextTakeover = true
            case ("server_max_window_bits", let value?):
                guard let bits = Self.windowBits(value) else { throw .invalidValue(name: name, value: value) }
                serverMaxWindowBits = bits
            case ("server_max_window_bits", nil):
                throw .missingValue(name)  // §7.1.2.1: the value is required in an offer
            case ("client_max_window_bits", nil):
                clientMaxWindowBits = .supported
            case ("client_max_window_bits", let value?):
                guard let bits = Self.windowBits(value) else { throw .invalidValue(name: name, value: value) }
                clientMaxWindowBits = .limit(bits)
            case (_, let value?):
                throw .invalidValue(name: name, value: value)  // the *_no_context_takeover flags take none
            default:
                preconditionFailure("Invalid state: \(name)")  // every known name is matched above
            }
        }
    }

    /// A window size as RFC 7692 §7.1.2 writes it: a decimal 8–15 without leading zeros.
    static func windowBits(_ text: String) -> Int? {
        guard let first = text.utf8.first, first != UInt8(ascii: "0"),
            text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            text.utf8.count <= 2, let bits = Int(text), (8...15).contains(bits)
        else { return nil }
        return bits
    }
}

/// Why an offer was declined (RFC 7692 §7.1); the connection goes on without compression when no offer is
/// acceptable.
public enum PerMessageDeflateOfferError: Error, Sendable, Hashable {
    /// Another extension: not ours to judge.
    case notPerMessageDeflate(String)
    /// A parameter RFC 7692 does not define for an offer.
    case unknownParameter(String)
    /// The same parameter twice in one offer.
    case duplicateParameter(String)
    /// A value out of range, with leading zeros, not a number, or given to a flag.
    case invalidValue(name: String, value: String)
    /// `server_max_window_bits` without its value.
    case missingValue(String)
}
