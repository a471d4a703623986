import CourtsideNet

/// The sockets that fell behind while being joined to a feed and wait for their queue to drain before asking again
/// for a snapshot (server.md), each with its drain poll: a state machine of sockets (by identity) that takes events
/// and returns actions, performed by `FeedJoins`. A socket is here only while it waits. Loop-confined.
struct DrainWaits {
    /// Where a socket's queue stands when it is checked.
    enum Queue {
        /// Closed: nothing more to do for it.
        case closed
        /// Still over half its budget.
        case behind
        /// Down to half its budget or less: it can take a snapshot again.
        case drained
    }

    enum Action: Equatable {
        /// Arm the socket's poll, then report it with `pollArmed`.
        case armPoll
        case cancelPoll(TimerID)
        /// Join the socket again (with a snapshot).
        case rejoin
    }

    /// The waiting sockets, with their armed poll (nil while none is armed).
    private var polls: [ObjectIdentifier: TimerID?] = [:]

    /// Sockets waiting now.
    var waiting: Int { polls.count }

    /// The socket fell behind during its join: it waits, polled.
    mutating func fellBehind(_ socket: ObjectIdentifier) -> [Action] {
        guard let poll = polls[socket] else {
            polls[socket] = .some(nil)
            return [.armPoll]
        }
        return poll == nil ? [.armPoll] : []
    }

    /// The poll was armed.
    mutating func pollArmed(_ socket: ObjectIdentifier, timer: TimerID) {
        guard polls[socket] != nil else { return }
        polls[socket] = timer
    }

    /// The socket's queue was checked (it drained, or its poll fired): a waiting socket drained enough re-joins
    /// and stops waiting; one still behind keeps being polled; a closed one is left to `closed`.
    mutating func checked(_ socket: ObjectIdentifier, queue: Queue) -> [Action] {
        guard let poll = polls[socket] else { return [] }
        switch queue {
        case .closed:
            return []
        case .behind:
            return poll == nil ? [.armPoll] : []
        case .drained:
            polls[socket] = nil
            return (poll.map { [.cancelPoll($0)] } ?? []) + [.rejoin]
        }
    }

    /// The socket's poll fired (it is no longer armed), and its queue is where `queue` says.
    mutating func pollFired(_ socket: ObjectIdentifier, queue: Queue) -> [Action] {
        guard polls[socket] != nil else { return [] }
        polls[socket] = .some(nil)
        return checked(socket, queue: queue)
    }

    /// The socket closed: its poll, if armed, is cancelled, and it no longer waits.
    mutating func closed(_ socket: ObjectIdentifier) -> [Action] {
        guard let poll = polls.removeValue(forKey: socket) else { return [] }
        return poll.map { [.cancelPoll($0)] } ?? []
    }
}
