import CourtsideModel

/// When to send a game's crew list (docs/protocol.md, "Authentication and presence"): at once for the first change,
/// then at most once per ``interval``, the changes within an interval sent together at its end. A value type on
/// the caller's clock, so it is tested without a loop or a sleep.
struct PresenceThrottle: Sendable, Equatable {
    /// The shortest time between two crew messages of a game: a table of devices joining and leaving together (a
    /// venue's Wi-Fi dropping) makes one message a second, not one per socket.
    static let interval: Int64 = 1_000

    enum Action: Equatable {
        /// Send the list now.
        case send
        /// Arm a timer for this instant and send then (``timerFired(at:)``).
        case armTimer(at: Timestamp)
        /// A timer is armed already: the change goes out with it.
        case wait
    }

    private var lastSentAt: Timestamp?
    private var isTimerArmed = false

    /// Something the list shows changed at `now`.
    mutating func changed(at now: Timestamp) -> Action {
        if isTimerArmed { return .wait }
        if let lastSentAt, now.milliseconds(since: lastSentAt) < Self.interval {
            isTimerArmed = true
            return .armTimer(at: lastSentAt.advanced(byMilliseconds: Self.interval))
        }
        lastSentAt = now
        return .send
    }

    /// The armed timer fired at `now`: send the list.
    mutating func timerFired(at now: Timestamp) {
        isTimerArmed = false
        lastSentAt = now
    }
}
