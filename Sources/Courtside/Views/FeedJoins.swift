import CourtsideNet

/// How subscribing WebSockets are joined to a feed (ISSUE5 §5), for one socket (`FeedSocket`) or many
/// (`GameSpectators`): the catch-up is queued, then the socket is subscribed; one that falls behind its budget while
/// catching up is not subscribed but waits for its queue to drain, then asks again for a snapshot.
///
/// A socket has an entry here only while it waits, so an idle socket costs nothing (one handler may hold the waits
/// of every spectator of a game on a loop). Each waiting socket is also polled every `pollInterval`: a queue that
/// passed the budget within one loop iteration may drain without the kernel ever pushing back, and then no
/// `webSocketDidDrain` comes. Loop-confined (the sockets' loop).
struct FeedJoins {
    /// How often a waiting socket checks its queue, besides `webSocketDidDrain`.
    static let pollInterval: Duration = .milliseconds(50)

    /// A waiting socket's poll timer (nil while none is armed).
    private var polls: [ObjectIdentifier: TimerID?] = [:]

    /// Sockets waiting for their queue to drain.
    var waiting: Int { polls.count }

    /// Queues `catchUp` on `socket` and subscribes it to `feed`: whether it did. Past the budget it is not
    /// subscribed (counted as resynced) and must wait for its queue to drain (`startWaiting`). Static, and called
    /// before any wait is recorded: a send may close the socket, and its close reaches the owner of the waits.
    static func subscribe(
        _ socket: WebSocket, after catchUp: [FeedMessage], to feed: GameFeed, metrics: ServerMetrics
    ) -> Bool {
        guard socket.isOpen else { return true }
        var overBudget = false
        for message in catchUp {
            overBudget = socket.send(preEncodedFrame: message.frame) == .overBudget || overBudget
            metrics.sent(messages: 1, bytes: message.frame.count)
        }
        guard overBudget, socket.isOpen else {
            if socket.isOpen { feed.channel.subscribe(socket) }
            return true
        }
        // Behind already: ask again for a snapshot once what was queued has gone out.
        metrics.slowConsumerResynced()
        return false
    }

    /// `socket` fell behind during its join: it waits for its queue to drain, checked on `webSocketDidDrain` and
    /// every `pollInterval` (`poll` is then called with it on its loop, and should call `pollFired`).
    mutating func startWaiting(_ socket: WebSocket, poll: @escaping (WebSocket) -> Void) {
        if polls[ObjectIdentifier(socket)] == nil { polls[ObjectIdentifier(socket)] = .some(nil) }
        armPoll(socket, poll: poll)
    }

    /// Whether `socket` should re-join now (on `webSocketDidDrain`): it was waiting and its queue is down to half
    /// its budget, and then it stops waiting. A waiting socket not drained yet keeps being polled.
    mutating func shouldRejoin(_ socket: WebSocket, poll: @escaping (WebSocket) -> Void) -> Bool {
        let key = ObjectIdentifier(socket)
        guard let timer = polls[key], socket.isOpen else { return false }
        guard socket.bufferedBytes <= socket.sendBudgetBytes / 2 else {
            armPoll(socket, poll: poll)
            return false
        }
        if let timer { socket.loopContext.cancelTimer(timer) }
        polls[key] = nil
        return true
    }

    /// The socket's poll fired: whether it should re-join now (as `shouldRejoin`).
    mutating func pollFired(_ socket: WebSocket, poll: @escaping (WebSocket) -> Void) -> Bool {
        let key = ObjectIdentifier(socket)
        guard polls[key] != nil else { return false }
        polls[key] = .some(nil)
        return shouldRejoin(socket, poll: poll)
    }

    /// The socket closed: its poll is cancelled and its entry dropped.
    mutating func closed(_ socket: WebSocket) {
        guard let timer = polls.removeValue(forKey: ObjectIdentifier(socket)) else { return }
        if let timer { socket.loopContext.cancelTimer(timer) }
    }

    /// Arms the socket's poll unless one is armed. The timer holds the socket until it fires or `closed` cancels
    /// it, so it never outlives the socket's close.
    private mutating func armPoll(_ socket: WebSocket, poll: @escaping (WebSocket) -> Void) {
        let key = ObjectIdentifier(socket)
        guard case .some(nil) = polls[key] else { return }
        polls[key] = socket.loopContext.scheduleTimer(after: Self.pollInterval) { _ in poll(socket) }
    }
}
