import CourtsideHTTP

/// The fields of an upgrade request that `WebSocketHandshake.validate` reads (RFC 6455 §4.2.1), found in one pass
/// over the request's fields: each name is compared only with the one field of its length, where a lookup per
/// field compared every name eight times over. Names compare ASCII case-insensitively (RFC 9110 §5.1).
struct UpgradeFields {
    /// The first `Host`.
    private(set) var host: String?
    /// The first `Sec-WebSocket-Version`, and how many there were.
    private(set) var version: String?
    private(set) var versionCount = 0
    /// The first `Sec-WebSocket-Key`, and how many there were.
    private(set) var key: String?
    private(set) var keyCount = 0
    /// Every `Sec-WebSocket-Protocol` and `Sec-WebSocket-Extensions` value, in order.
    private(set) var protocols: [String] = []
    private(set) var extensions: [String] = []
    /// The first `Origin`.
    private(set) var origin: String?

    init(_ headers: HTTPHeaders) {
        for (name, value) in headers {
            switch name.utf8.count {
            case 4 where Self.named(name, "host"):
                if host == nil { host = value }
            case 6 where Self.named(name, "origin"):
                if origin == nil { origin = value }
            case 17 where Self.named(name, "sec-websocket-key"):
                if key == nil { key = value }
                keyCount += 1
            case 21 where Self.named(name, "sec-websocket-version"):
                if version == nil { version = value }
                versionCount += 1
            case 22 where Self.named(name, "sec-websocket-protocol"):
                protocols.append(value)
            case 24 where Self.named(name, "sec-websocket-extensions"):
                extensions.append(value)
            default:
                break
            }
        }
    }

    /// Whether `name` is `lowercased` (same length assumed), ignoring the case of ASCII letters.
    private static func named(_ name: String, _ lowercased: StaticString) -> Bool {
        lowercased.withUTF8Buffer { expected in
            var index = 0
            for byte in name.utf8 {
                let wanted = expected[index]
                index += 1
                if byte == wanted { continue }
                guard wanted >= UInt8(ascii: "a"), wanted <= UInt8(ascii: "z"), byte | 0x20 == wanted else {
                    return false
                }
            }
            return true
        }
    }
}
