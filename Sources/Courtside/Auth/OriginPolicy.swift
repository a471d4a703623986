/// Which browser origins may open a scorer socket (RFC 6455 §10.2: the server checks `Origin` to refuse pages from
/// other sites). Empty allows any origin: scorers still need their token, so the list is defence in depth against
/// a stolen token used from a hostile page.
struct OriginPolicy: Sendable {
    let allowed: Set<String>

    init(allowedOrigins: [String]) {
        allowed = Set(allowedOrigins.map(Self.normalize))
    }

    /// Whether a request with this `Origin` (nil for non-browser clients, which send none) may proceed.
    func allows(_ origin: String?) -> Bool {
        guard !allowed.isEmpty, let origin else { return true }
        return allowed.contains(Self.normalize(origin))
    }

    /// Whether a state-changing request (POST, PUT, DELETE under `/api`) with this `Origin` may proceed. A browser
    /// sends `Origin` with every such request (Fetch standard, "append a request `Origin` header"), so a page of
    /// another site that makes its visitors' browsers post here is refused: the origin must be the server's own
    /// (its authority equals the request's `Host`, whatever the scheme, as a TLS-terminating proxy may stand in
    /// between) or one of the allowed origins. `null` (sandboxed frames, local files) is refused; a request without
    /// `Origin` is not a browser's and proceeds (it still needs whatever token the route asks for).
    func allowsStateChange(_ origin: String?, host: String?) -> Bool {
        guard let origin else { return true }
        let normalized = Self.normalize(origin)
        if allowed.contains(normalized) { return true }
        return Self.isOwn(normalized, host: host)
    }

    /// Whether a normalized origin is the server's own: its authority equals the request's `Host`, whatever the
    /// scheme (a TLS-terminating proxy may stand in between).
    static func isOwn(_ normalized: String, host: String?) -> Bool {
        guard let host, let separator = normalized.firstRange(of: "://") else { return false }
        return normalized[separator.upperBound...] == host.lowercased()
    }

    /// Origins compare case-insensitively in scheme and host (RFC 6454 §4), without a trailing slash.
    static func normalize(_ origin: String) -> String {
        var text = origin.lowercased()
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
