/// Every token check: the admin routes, a game's commands and scorer socket, `/reopen`, `/next` (and any token
/// added later) call `authenticate`, which checks the token first and only then consults the throttle
/// (`AuthenticationThrottle`), logs a wrong token and counts it per client address and target.
extension ApplicationCore {
    /// Why a token was refused; nil from `authenticate` means it was accepted.
    enum AuthenticationRefusal: Equatable {
        /// No token was sent (401): not a guess, so not counted.
        case missing
        /// A wrong token (403), counted against the address and target and logged.
        case wrong
        /// A wrong token while the address must wait for this target (429 with `Retry-After`): refused without
        /// being counted or logged again (the failure that started the wait was logged, naming it).
        case throttled(wait: Duration)
    }

    /// Checks `token` for `target` from `client`: `accepts` says whether it is the right one (a constant-time
    /// digest comparison). A right token is always accepted, whatever the address's failures, and clears that
    /// target's failures only. `route` is what the log names (the path; never the token).
    func authenticate(
        _ token: String?, for target: AuthenticationTarget, client: String, route: String,
        now: ContinuousClock.Instant, accepts: (String) -> Bool
    ) -> AuthenticationRefusal? {
        guard let token else { return .missing }
        if accepts(token) {
            authenticationThrottle.recordSuccess(of: client, target: target)
            return nil
        }
        metrics.authenticationFailed()
        if let wait = authenticationThrottle.wait(for: client, target: target, now: now) {
            return .throttled(wait: wait)
        }
        let wait = authenticationThrottle.recordFailure(of: client, target: target, now: now)
        var metadata = [
            "client": client, "route": route, "credential": target.credential, "target": target.description,
        ]
        if let wait { metadata["wait_s"] = String(Self.retryAfterSeconds(wait)) }
        logger.warning("authentication failed", metadata)
        return .wrong
    }

    /// A wait as whole seconds for `Retry-After` (RFC 9110 §10.2.3), rounded up so a client that obeys it is not
    /// refused again.
    static func retryAfterSeconds(_ wait: Duration) -> Int {
        let (seconds, attoseconds) = wait.components
        return Int(seconds) + (attoseconds > 0 ? 1 : 0)
    }
}
