import CourtsideNet
import CourtsideViewModels

/// The fan-out of one document (a game, or the lobby) to its subscribers on every loop.
///
/// Each message is encoded once (`FeedMessage`: JSON, WebSocket frame, SSE event) and the same immutable bytes are
/// queued on every subscriber: no per-subscriber encoding, copy or lock. Subscribers live in a per-loop table
/// (a `LoopContext` attachment), touched only on their loop.
///
/// **Ordering guarantee** (the same as the core's `BroadcastChannel`, which this stands in for until it lands):
/// `publish` is called on the owner's loop; it delivers synchronously to subscribers on that loop and through
/// `execute` to the others. A loop runs tasks from one thread in submission order, so when the owner joins a
/// subscriber by sending it a snapshot and subscribing it in one task submitted to the subscriber's loop (or
/// synchronously on its own), every message published before the join is absent and every later one is present:
/// no gap, no duplicate.
///
/// **Backpressure.** Each subscriber judges its own queue (`FeedSubscriber.receive` returns false past its budget)
/// and is then removed; it brings itself back with a fresh snapshot once drained. A slow subscriber never blocks
/// the owner or holds more than its budget plus one message.
final class GameFeed: Sendable {
    private let loops: [EventLoop]

    init(loops: [EventLoop]) {
        self.loops = loops
    }

    private var key: ObjectIdentifier { ObjectIdentifier(self) }

    /// Sends `message` to every current subscriber. Call on the owner's loop, whose context is `context`.
    func publish(_ message: PresentationMessage, context: LoopContext) {
        let encoded = FeedMessage(message)
        for loop in loops {
            if loop === context.loop {
                Self.deliver(encoded, key: key, context: context)
            } else {
                loop.execute { [key] context in Self.deliver(encoded, key: key, context: context) }
            }
        }
    }

    /// Adds a subscriber on its own loop (`context` is that loop's). Messages published after the task that calls
    /// this was submitted reach it.
    func subscribe(_ subscriber: FeedSubscriber, context: LoopContext) {
        guard subscriber.isOpen else { return }
        context.attachment(for: key) { FeedLoopTable() }.subscribers[ObjectIdentifier(subscriber)] = subscriber
    }

    /// Removes a subscriber; on its own loop. Removing one that is not subscribed does nothing.
    func unsubscribe(_ subscriber: FeedSubscriber, context: LoopContext) {
        context.existingAttachment(for: key, as: FeedLoopTable.self)?.subscribers[ObjectIdentifier(subscriber)] = nil
    }

    private static func deliver(_ message: FeedMessage, key: ObjectIdentifier, context: LoopContext) {
        guard let table = context.existingAttachment(for: key, as: FeedLoopTable.self) else { return }
        for (id, subscriber) in table.subscribers where !subscriber.isOpen || !subscriber.receive(message) {
            table.subscribers[id] = nil
        }
    }
}

/// One loop's subscribers of one feed. Loop-confined.
final class FeedLoopTable {
    var subscribers: [ObjectIdentifier: FeedSubscriber] = [:]
}

@available(*, unavailable)
extension FeedLoopTable: Sendable {}
