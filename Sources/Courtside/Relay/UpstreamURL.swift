/// Where a venue node's uplink connects (`--upstream`, docs/relay.md): `wss://host[:port][/path]` (TLS, port 443
/// unless given) or `ws://host[:port][/path]` (port 80), the path `/api/relay` unless given. An IPv6 address is
/// written in brackets (RFC 3986 §3.2.2): `wss://[2001:db8::1]:8443`.
///
/// The authority and path are read by `WebhookURL` (the same rules as a webhook receiver's `http[s]://` URL: no user
/// or password, no fragment, a port from 1 to 65535), with `wss`/`ws` for `https`/`http` (RFC 6455 §3).
struct UpstreamURL: Sendable, Equatable {
    /// `wss://`: the socket speaks TLS.
    let secure: Bool
    /// The name or address to resolve, send as SNI and check against the certificate (no brackets).
    let host: String
    let port: Int
    let path: String
    /// The `Host` header of the upgrade request (RFC 9110 §7.2).
    let authority: String

    init(parsing text: String) throws(UpstreamURLError) {
        secure = text.hasPrefix("wss://")
        guard secure || text.hasPrefix("ws://") else { throw .notWebSocket(text) }
        let parsed: WebhookURL
        do throws(WebhookRequestError) {
            parsed = try WebhookURL((secure ? "https://" : "http://") + text.dropFirst(secure ? 6 : 5))
        } catch {
            guard case .invalidField(_, let problem) = error else { throw .invalid(text, problem: "\(error)") }
            throw .invalid(text, problem: problem)
        }
        host = parsed.host
        port = Int(parsed.port)
        path = parsed.target == "/" ? "/api/relay" : parsed.target
        authority = parsed.hostHeader
    }
}
