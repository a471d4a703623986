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

    /// Origins compare case-insensitively in scheme and host (RFC 6454 §4), without a trailing slash.
    private static func normalize(_ origin: String) -> String {
        var text = origin.lowercased()
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
