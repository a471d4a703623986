/// Failed authentications: logged and slowed per client address (issue 11; `AuthenticationThrottle`). The routes
/// and the scorer socket call these around every token check.
extension ApplicationCore {
    /// How long `address` must still wait before its next attempt is checked; nil when it may try now.
    func authenticationWait(for address: String, now: ContinuousClock.Instant) -> Duration? {
        authenticationThrottle.wait(for: address, now: now)
    }

    /// Logs a refused token (the client's address, the route and which credential; never the token itself) and
    /// counts it against the address.
    func authenticationFailed(client: String, route: String, credential: String, now: ContinuousClock.Instant) {
        let wait = authenticationThrottle.recordFailure(of: client, now: now)
        metrics.authenticationFailed()
        var metadata = ["client": client, "route": route, "credential": credential]
        if let wait { metadata["wait_s"] = String(Self.retryAfterSeconds(wait)) }
        logger.warning("authentication failed", metadata)
    }

    func authenticationSucceeded(client: String) {
        authenticationThrottle.recordSuccess(of: client)
    }

    /// A wait as whole seconds for `Retry-After` (RFC 9110 §10.2.3), rounded up so a client that obeys it is not
    /// refused again.
    static func retryAfterSeconds(_ wait: Duration) -> Int {
        let (seconds, attoseconds) = wait.components
        return Int(seconds) + (attoseconds > 0 ? 1 : 0)
    }
}
