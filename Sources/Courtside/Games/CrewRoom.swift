import CourtsideModel
import CourtsideNet
import CourtsideViewModels

/// The scorer sockets open on one game, with the crew member each authenticated as (nil: the game's scorer token),
/// and the throttle of the crew messages they are sent. Owned by the game's owner and confined to its loop; the
/// sockets live on their own loops and are reached through `LoopBound`.
final class CrewRoom {
    struct Seat {
        let member: CrewMemberID?
        let socket: LoopBound<ScorerSocket>
    }

    /// The most scorer sockets a game keeps a seat for: far above any table, and a bound on what a list costs.
    static let maxSeats = 256

    private(set) var seats: [ObjectIdentifier: Seat] = [:]
    var throttle = PresenceThrottle()
    var timer: TimerID?
    let bindings = DynamicBindingBag()

    /// Seats `socket`; false when the room is full (the socket is then served without presence).
    func seat(_ key: ObjectIdentifier, _ seat: Seat) -> Bool {
        guard seats.count < Self.maxSeats || seats[key] != nil else { return false }
        seats[key] = seat
        return true
    }

    /// Removes the socket's seat; returns whether it had one.
    func leave(_ key: ObjectIdentifier) -> Bool {
        seats.removeValue(forKey: key) != nil
    }

    /// Removes and returns the seats of `member` (revoked).
    func unseat(_ member: CrewMemberID) -> [Seat] {
        let revoked = seats.filter { $0.value.member == member }
        for key in revoked.keys { seats[key] = nil }
        return Array(revoked.values)
    }

    /// Whether a socket with `member`'s token is open.
    func isConnected(_ member: CrewMemberID) -> Bool {
        seats.values.contains { $0.member == member }
    }

    func stop(_ context: LoopContext) {
        if let timer { context.cancelTimer(timer) }
        timer = nil
        bindings.removeAll()
    }
}

@available(*, unavailable)
extension CrewRoom: Sendable {}
