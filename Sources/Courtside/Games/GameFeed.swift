import CourtsideBytes
import CourtsideHTTP
import CourtsideNet
import CourtsideViewModels
import Synchronization

/// The fan-out of one document (a game, or the lobby) to its subscribers on every loop.
///
/// WebSockets subscribe to the core's `BroadcastChannel` (`.resync` policy): each patch goes in as the presenter's
/// `EncodedMessage`, its text frame built once, is deflated once per agreed window, and the same immutable frames go
/// to every subscriber with no per-subscriber copy, lock or hop. Event streams (SSE) cannot take WebSocket frames, so
/// the feed fans out the message's event (made only when an event stream is joined) the same way: one `execute` per
/// loop carrying one shared array, walked by a loop-confined table.
///
/// **Ordering guarantee** (the channel's, and the same for the event streams): `publish` is called on the owner's
/// loop; it delivers synchronously to subscribers on that loop and through `execute` to the others. A loop runs
/// tasks from one thread in submission order, so when the owner joins a subscriber by sending it a snapshot and
/// subscribing it in one task submitted to the subscriber's loop (or synchronously on its own), every message
/// published before the join is absent and every later one is present: no gap, no duplicate.
final class GameFeed: Sendable {
    let channel: BroadcastChannel
    private let loops: [EventLoop]
    /// Event streams joined or joining: the owner counts one in before it submits the join, so a publish never
    /// skips the loops while a stream's join task is in flight.
    private let eventStreams = Atomic<Int>(0)

    init(group: EventLoopGroup, metrics: ServerMetrics) {
        channel = BroadcastChannel(group: group, policy: .resync)
        loops = group.loops
        metrics.register(channel)
    }

    private var key: ObjectIdentifier { ObjectIdentifier(self) }

    /// Sends `message` to every current subscriber. Call on the owner's loop, whose context is `context`.
    func publish(_ message: EncodedMessage, context: LoopContext) {
        channel.publish(message)
        guard eventStreams.load(ordering: .acquiring) > 0 else { return }
        deliverToEventStreams(message.serverSentEvent, context: context)
    }

    /// Sends a message outside the numbered document (a relayed game's link state) to every current subscriber:
    /// WebSockets get it as a text frame; event streams as a named event with no `id` (HTML Living Standard §9.2.6:
    /// an event without `id` leaves the stream's last event ID as it was, so a reconnect still resumes from the last
    /// `seq`, and `onmessage` listeners are not called, so a reader of the numbered messages sees nothing new).
    /// Call on the owner's loop, whose context is `context`.
    func publishUnnumbered(_ text: String, event: String, context: LoopContext) {
        channel.publish(text: text)
        guard eventStreams.load(ordering: .acquiring) > 0 else { return }
        deliverToEventStreams(ServerSentEvent(event: event, data: text).encoded, context: context)
    }

    /// Hands one encoded event to the event streams of every loop: this loop's at once, the others' by a task.
    private func deliverToEventStreams(_ event: [UInt8], context: LoopContext) {
        for loop in loops {
            if loop === context.loop {
                Self.deliver(event, key: key, context: context)
            } else {
                loop.execute { [key] context in Self.deliver(event, key: key, context: context) }
            }
        }
    }

    /// Counts an event stream in before its join task is submitted (see `eventStreams`).
    func reserveEventStream() {
        eventStreams.add(1, ordering: .acquiringAndReleasing)
    }

    /// Adds an event stream on its own loop (`context` is that loop's), after `reserveEventStream`.
    func subscribe(_ stream: EventStreamSubscriber, context: LoopContext) {
        context.attachment(for: key) { EventStreamTable() }.streams[ObjectIdentifier(stream)] = stream
    }

    /// Removes an event stream (on its loop) and counts it out; also for a reserved stream that never joined.
    func unsubscribe(_ stream: EventStreamSubscriber, context: LoopContext) {
        context.existingAttachment(for: key, as: EventStreamTable.self)?.streams[ObjectIdentifier(stream)] = nil
        eventStreams.subtract(1, ordering: .acquiringAndReleasing)
    }

    private static func deliver(_ event: [UInt8], key: ObjectIdentifier, context: LoopContext) {
        guard let table = context.existingAttachment(for: key, as: EventStreamTable.self) else { return }
        for stream in Array(table.streams.values) {
            stream.receive(event: event)
        }
    }
}

/// A server-sent event stream subscribed to a feed. Called on its loop.
protocol EventStreamSubscriber: AnyObject {
    /// Queues one encoded event (or, past its budget, closes itself and leaves the feed).
    func receive(event: [UInt8])
}

/// One loop's event streams of one feed. Loop-confined.
final class EventStreamTable {
    var streams: [ObjectIdentifier: EventStreamSubscriber] = [:]
}

@available(*, unavailable)
extension EventStreamTable: Sendable {}
