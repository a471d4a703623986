import CourtsideModel

/// A court's join code: six digits that the court's display shows and a team types to join the pickup queue, so
/// only people who can see the TV (in the hall) can join. Codes rotate every `period`; the code of the period
/// before is still accepted, so a team typing as the code turns over is not refused.
///
/// A code is derived, not stored: SHA-256 of the court's display-key digest and the period's number, taken modulo a
/// million. Nothing changes on disk when a code rotates, a restart shows the same code, and only a holder of the
/// display key (the display, which reads it from `GET /api/courts/{id}/code`) or the admin can learn it. Guessing is
/// bounded by the queue's rate limit (three tries, then one a minute per address or IPv6 /64): a million codes per
/// ten minutes leave a guesser about 1 chance in 100,000 per try.
enum JoinCode {
    /// How long a code is shown: long enough to walk from the TV to a phone and type it.
    static let period: Int64 = 10 * 60 * 1_000
    /// Digits in a code.
    static let digits = 6

    /// The code shown at `now` (Unix milliseconds) and when it stops being shown.
    static func current(displayKeySHA256: String, now: Timestamp) -> (code: String, expiresAt: Timestamp) {
        let window = now.milliseconds / period
        return (
            code(displayKeySHA256: displayKeySHA256, window: window), Timestamp(milliseconds: (window + 1) * period)
        )
    }

    /// Whether `code` is the code of the period of `now` or of the one before.
    static func accepts(_ code: String, displayKeySHA256: String, now: Timestamp) -> Bool {
        let window = now.milliseconds / period
        let typed = Array(code.utf8)
        // Both candidates are compared whole (no early exit on the first), so timing tells nothing about either.
        let matches = [window, window - 1].map { candidate in
            SecretToken.constantTimeEqual(
                typed, Array(self.code(displayKeySHA256: displayKeySHA256, window: candidate).utf8))
        }
        return matches.contains(true)
    }

    static func code(displayKeySHA256: String, window: Int64) -> String {
        let digest = SecretToken.sha256("courtside-join-code:\(displayKeySHA256):\(window)")
        let number = digest.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) } % 1_000_000
        let text = String(number)
        return String(repeating: "0", count: digits - text.count) + text
    }
}
