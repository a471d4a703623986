import CourtsideBytes
import CourtsideHTTP
import CourtsideModel
import CourtsideNet

/// `GET /api/games/{id}/events`: the game's messages as server-sent events, `id: <seq>` and `data: <json>`.
/// A browser reconnecting sends `Last-Event-ID`, and the stream resumes like `since=N` (just the missed patches when
/// the game still holds them, else a snapshot).
///
/// An event stream cannot be resynced in place, so one that falls behind its budget is closed (counted as
/// dropped); the client reconnects with its `Last-Event-ID` and gets a snapshot or the patches it missed.
/// Loop-confined.
final class GameEventStream: EventStreamHandler, JoiningSubscriber, EventStreamSubscriber {
    private let game: GameHandle
    private let since: Int?
    private let environment: SocketEnvironment
    private var stream: EventStream?
    private var feed: GameFeed?

    init(game: GameHandle, since: Int?, environment: SocketEnvironment) {
        self.game = game
        self.since = since
        self.environment = environment
    }

    var isEventStream: Bool { true }

    func join(catchUp: [EncodedMessage], feed: GameFeed, context: LoopContext) {
        guard let stream, stream.isOpen else {
            // Counted in by the owner, but closed meanwhile: count it out again.
            feed.unsubscribe(self, context: context)
            return
        }
        for message in catchUp { queue(message.serverSentEvent) }
        // A relayed game's venue link, after the catch-up: a named event without `id`, like each later change.
        if let source = game.source {
            queue(
                ServerSentEvent(event: RelaySource.eventName, data: source.message(game: game.id).description).encoded)
        }
        feed.subscribe(self, context: context)
        self.feed = feed
    }

    func receive(event: [UInt8]) {
        queue(event)
    }

    private func queue(_ event: [UInt8]) {
        guard let stream, stream.isOpen else { return }
        if stream.bufferedBytes > environment.budget {
            environment.metrics.slowConsumerDropped()
            stream.close()
            return
        }
        stream.send(preEncoded: event)
        environment.metrics.sent(messages: 1, bytes: event.count)
    }

    func eventStreamDidOpen(_ stream: EventStream) {
        self.stream = stream
        environment.metrics.connectionOpened(.eventStream)
        environment.metrics.spectatorJoined(game.id)
        let bound: LoopBound<any JoiningSubscriber> = LoopBound(self, loop: stream.eventLoop)
        let since = self.since
        game.withOwner(from: stream.loopContext) { owner in owner.join(bound, since: since, isEventStream: true) }
    }

    /// Never opened: only the slot the router took is held.
    func eventStreamWasRefused() {
        environment.limiter.release(environment.address)
    }

    func eventStreamDidClose(_ stream: EventStream) {
        if let feed { feed.unsubscribe(self, context: stream.loopContext) }
        feed = nil
        if self.stream != nil {
            environment.metrics.connectionClosed(.eventStream)
            environment.metrics.spectatorLeft(game.id)
        }
        self.stream = nil
        environment.limiter.release(environment.address)
    }
}

@available(*, unavailable)
extension GameEventStream: Sendable {}
