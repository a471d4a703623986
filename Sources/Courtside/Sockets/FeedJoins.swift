import CourtsideBytes
import CourtsideNet

/// How subscribing WebSockets are joined to a feed (docs/server.md, "Limits"), for one socket (`FeedSocket`) or many
/// (`GameSpectators`): the catch-up is queued, then the socket is subscribed; one that falls behind its budget while
/// catching up is not subscribed but waits for its queue to drain (`DrainWaits`), then asks again for a snapshot.
///
/// This is the I/O shell: `DrainWaits` decides, this sends, arms and cancels the polls. A socket has an entry only
/// while it waits, so an idle socket costs nothing here (one handler may hold the waits of every spectator of a game
/// on a loop). Loop-confined (the sockets' loop).
struct FeedJoins {
    /// How often a waiting socket checks its queue, besides `webSocketDidDrain`: a queue that passed the budget
    /// within one loop iteration may drain without the kernel ever pushing back, and then no drain callback comes.
    static let pollInterval: Duration = .milliseconds(50)

    private var waits = DrainWaits()
    /// The sockets' loop, where the polls wait (a test drives it by hand).
    private let scheduler: any LoopScheduler

    init(scheduler: any LoopScheduler) {
        self.scheduler = scheduler
    }

    /// Queues `catchUp` on `socket` and subscribes it to `feed`: whether it did. Past the budget it is not
    /// subscribed (counted as resynced) and must wait for its queue to drain (`startWaiting`). Static, and called
    /// before any wait is recorded: a send may close the socket, and its close reaches the owner of the waits.
    static func subscribe(
        _ socket: WebSocket, after catchUp: [EncodedMessage], to feed: GameFeed, metrics: ServerMetrics
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

    /// `socket` fell behind during its join: it waits for its queue to drain, checked on `webSocketDidDrain`
    /// (`shouldRejoin`) and every `pollInterval` (`poll` is then called with it on its loop, and should call
    /// `pollFired`).
    mutating func startWaiting(_ socket: WebSocket, poll: @escaping (WebSocket) -> Void) {
        _ = perform(waits.fellBehind(ObjectIdentifier(socket)), socket, poll: poll)
    }

    /// On `webSocketDidDrain`: whether `socket` should re-join now (it was waiting and its queue is down to half
    /// its budget).
    mutating func shouldRejoin(_ socket: WebSocket, poll: @escaping (WebSocket) -> Void) -> Bool {
        perform(waits.checked(ObjectIdentifier(socket), queue: Self.queue(of: socket)), socket, poll: poll)
    }

    /// The socket's poll fired: whether it should re-join now.
    mutating func pollFired(_ socket: WebSocket, poll: @escaping (WebSocket) -> Void) -> Bool {
        perform(waits.pollFired(ObjectIdentifier(socket), queue: Self.queue(of: socket)), socket, poll: poll)
    }

    /// The socket closed: its poll is cancelled and its entry dropped.
    mutating func closed(_ socket: WebSocket) {
        _ = perform(waits.closed(ObjectIdentifier(socket)), socket, poll: { _ in })
    }

    private static func queue(of socket: WebSocket) -> DrainWaits.Queue {
        guard socket.isOpen else { return .closed }
        return socket.bufferedBytes <= socket.sendBudgetBytes / 2 ? .drained : .behind
    }

    /// Performs the machine's actions; whether one was to re-join (left to the caller, once this returns).
    private mutating func perform(
        _ actions: [DrainWaits.Action], _ socket: WebSocket, poll: @escaping (WebSocket) -> Void
    ) -> Bool {
        var rejoin = false
        for action in actions {
            switch action {
            case .armPoll:
                // The timer holds the socket until it fires or `closed` cancels it: never past the socket's close.
                let timer = scheduler.schedule(after: Self.pollInterval) { poll(socket) }
                waits.pollArmed(ObjectIdentifier(socket), timer: timer)
            case .cancelPoll(let timer):
                scheduler.cancel(timer)
            case .rejoin:
                rejoin = true
            }
        }
        return rejoin
    }
}
