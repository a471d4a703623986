/// A receiver's URL, parsed once when the webhook is saved: `http[s]://host[:port][/path][?query]`.
///
/// Userinfo and fragments are refused (a password in a stored URL would be shown by `GET`; a fragment never reaches
/// the server).
struct WebhookURL: Sendable, Hashable {
    /// The longest URL accepted, in bytes.
    static let maxLength = 2_048

    let text: String
    let host: String
    let port: UInt16
    /// `https`: the request goes through TLS, the certificate verified for `host`.
    let isTLS: Bool
    /// The request target: the path and query, `/` when none.
    let target: String

    init(_ text: String) throws(WebhookRequestError) {
        guard text.utf8.count <= Self.maxLength else {
            throw .invalidField("url", "must be at most \(Self.maxLength) bytes")
        }
        guard !text.utf8.contains(where: { $0 <= 0x20 || $0 >= 0x7F }) else {
            throw .invalidField("url", "must be printable ASCII without spaces (percent-encode the rest)")
        }
        let lower = text.lowercased()
        isTLS = lower.hasPrefix("https://")
        guard isTLS || lower.hasPrefix("http://") else {
            throw .invalidField("url", "must start with http:// or https://")
        }
        let rest = text.dropFirst(isTLS ? "https://".count : "http://".count)
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        let tail = rest[authorityEnd...]
        guard !tail.contains("#") else { throw .invalidField("url", "must not have a fragment") }
        guard !authority.contains("@") else { throw .invalidField("url", "must not hold a user or password") }
        var host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw .invalidField("url", "has an unclosed [") }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .invalidField("url", "has text after ]") }
                portText = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        } else {
            host = authority
        }
        guard !host.isEmpty else { throw .invalidField("url", "has no host") }
        if let portText {
            guard let port = UInt16(portText), port > 0 else {
                throw .invalidField("url", "has a bad port \"\(portText)\" (1-65535)")
            }
            self.port = port
        } else {
            self.port = isTLS ? 443 : 80
        }
        self.text = text
        self.host = String(host)
        self.target = tail.isEmpty ? "/" : (tail.hasPrefix("?") ? "/" + tail : String(tail))
    }

    /// The `Host` header's value (RFC 9110 §7.2): brackets around an IPv6 literal, the port when not the scheme's.
    var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == (isTLS ? 443 : 80) ? name : "\(name):\(port)"
    }
}
